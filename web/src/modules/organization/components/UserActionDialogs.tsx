import { useState } from 'react';
import { Field, Select } from '@fluentui/react-components';
import type { MemberDto, PendingInviteDto } from '@dealscout/shared/contracts';
import type { Role } from '@dealscout/shared/domain';
import { ConfirmDialog, useNotify } from '@dealscout/shared/ui';
import { api, errorMessage } from '../../../app/api';
import { useInvalidateOrganization } from '../hooks/useOrganization';

export type UserAction =
  | { kind: 'role'; user: MemberDto }
  | { kind: 'status'; user: MemberDto }
  | { kind: 'delete'; user: MemberDto }
  | { kind: 'revoke'; invitation: PendingInviteDto };

export function fullName(u: Pick<MemberDto, 'firstName' | 'lastName' | 'email'>): string {
  return `${u.firstName} ${u.lastName}`.trim() || u.email;
}

/** Every user action asks first (Fluent Dialog; Esc closes); failures show inside the dialog. */
export function UserActionDialogs({
  action,
  onClose,
  roles,
  rolesError,
}: {
  action: UserAction | null;
  onClose: () => void;
  roles: readonly { id: Role; name: string }[];
  rolesError: string | null;
}) {
  const notify = useNotify();
  const invalidate = useInvalidateOrganization();
  // The user's current role is selected from the first render (an effect set it one render late,
  // and a Select filled before its options arrived showed 'Select a role').
  const [role, setRole] = useState<Role | ''>(action?.kind === 'role' ? action.user.role : '');
  const [roleOf, setRoleOf] = useState<UserAction | null>(action);
  if (roleOf !== action) {
    setRoleOf(action);
    setRole(action?.kind === 'role' ? action.user.role : '');
  }

  const run = async (call: () => Promise<{ message: string }>, fallback: string) => {
    try {
      const res = await call();
      notify.success(res.message);
      onClose();
    } catch (e) {
      throw new Error(errorMessage(e, fallback), { cause: e });
    } finally {
      void invalidate();
    }
  };

  if (!action) return null;

  if (action.kind === 'role') {
    const u = action.user;
    return (
      <ConfirmDialog
        open
        type="warning"
        title="Change role"
        message={`Choose the role of ${fullName(u)} (${u.email}).`}
        confirmLabel="Save role"
        confirmDisabled={!role || role === u.role || !!rolesError}
        onCancel={onClose}
        onConfirm={() => run(() => api.organization.setRole(u.id, role as Role), 'Could not change the role. Please try again.')}
        data-testid="change-role-dialog"
      >
        <Field label="Role" required validationMessage={rolesError ?? undefined}>
          <Select value={role} onChange={(_, d) => setRole(d.value as Role)} disabled={!!rolesError} data-testid="change-role-select">
            <option value="" disabled>
              Select a role
            </option>
            {/* The current role is shown even before the role list has loaded. */}
            {(roles.some((r) => r.id === u.role) ? roles : [{ id: u.role, name: u.role }, ...roles]).map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </Select>
        </Field>
      </ConfirmDialog>
    );
  }

  if (action.kind === 'status') {
    const u = action.user;
    const disabling = u.status === 'active';
    return (
      <ConfirmDialog
        open
        type="warning"
        title={disabling ? 'Disable user' : 'Enable user'}
        message={
          disabling
            ? `${fullName(u)} will be signed out and can no longer sign in. You can enable the account again later.`
            : `${fullName(u)} will be able to sign in again.`
        }
        confirmLabel={disabling ? 'Disable' : 'Enable'}
        onCancel={onClose}
        onConfirm={() =>
          run(() => api.organization.setStatus(u.id, disabling ? 'disabled' : 'active'), 'Could not change the status. Please try again.')
        }
        data-testid="change-status-dialog"
      />
    );
  }

  if (action.kind === 'delete') {
    const u = action.user;
    return (
      <ConfirmDialog
        open
        type="delete"
        title="Delete user"
        message={`Delete ${fullName(u)} (${u.email})? The user loses access to the organization and the seat becomes free.`}
        onCancel={onClose}
        onConfirm={() => run(() => api.organization.deleteUser(u.id), 'Could not delete the user. Please try again.')}
        data-testid="delete-user-dialog"
      />
    );
  }

  const inv = action.invitation;
  return (
    <ConfirmDialog
      open
      type="warning"
      title="Revoke invitation"
      message={`The invitation sent to ${inv.email} will stop working and its seat becomes free.`}
      confirmLabel="Revoke"
      onCancel={onClose}
      onConfirm={() => run(() => api.organization.revokeInvite(inv.id), 'Could not revoke the invitation. Please try again.')}
      data-testid="revoke-invite-dialog"
    />
  );
}
