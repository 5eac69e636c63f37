// The Account Owner selector (spec 000 §2 'Other shared UI', §6; spec 002 §6): the organization's
// members who are active, have accepted their invitation and are not deleted, plus 'No owner'
// (a null owner). The payload carries the choice as accountOwnerId.
import { useQuery } from '@tanstack/react-query';
import { Field, Select } from '@fluentui/react-components';
import type { OwnerRef } from '../../contracts';
import { useApi, queryKeys } from '../ApiContext';

export const NO_OWNER_LABEL = 'No owner';

export interface OwnerCandidate {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  active: boolean;
  invitationAccepted: boolean;
  deleted: boolean;
}

export interface OwnerChoice {
  /** null for 'No owner'. */
  id: string | null;
  label: string;
}

export function ownerName(o: { firstName: string; lastName: string; email: string }): string {
  return `${o.firstName} ${o.lastName}`.trim() || o.email;
}

/** 'No owner' first, then the eligible members sorted by name. */
export function ownerChoices(owners: readonly OwnerCandidate[]): OwnerChoice[] {
  const eligible = owners
    .filter((o) => o.active && o.invitationAccepted && !o.deleted)
    .map((o) => ({ id: o.id, label: ownerName(o), email: o.email }))
    .sort((a, b) => a.label.localeCompare(b.label, undefined, { sensitivity: 'base' }) || a.email.localeCompare(b.email));
  return [{ id: null, label: NO_OWNER_LABEL }, ...eligible.map(({ id, label }) => ({ id, label }))];
}

export interface AccountOwnerSelectProps {
  value: string | null;
  onChange: (ownerId: string | null) => void;
  /** The record's current owner, shown (not pickable) when no longer an eligible member. */
  currentOwner?: OwnerRef | null;
  label?: string;
  disabled?: boolean;
  'data-testid'?: string;
}

export function AccountOwnerSelect(props: AccountOwnerSelectProps) {
  const api = useApi();
  const owners = useQuery({ queryKey: queryKeys.owners, queryFn: () => api.companies.owners(), staleTime: 60_000 });
  const choices = ownerChoices(owners.data?.owners ?? []);
  const known = props.value === null || choices.some((c) => c.id === props.value);
  const stale = !known && props.value && props.currentOwner?.id === props.value ? props.currentOwner : null;
  return (
    <Field
      label={props.label ?? 'Account Owner'}
      validationMessage={owners.isError ? 'Could not load the account owners' : undefined}
      hint={stale ? 'The current owner is no longer an active member; pick another or No owner.' : undefined}
    >
      <Select
        value={props.value ?? ''}
        disabled={props.disabled}
        onChange={(_, d) => props.onChange(d.value === '' ? null : d.value)}
        data-testid={props['data-testid'] ?? 'account-owner-select'}
        data-loading={owners.isPending ? 'true' : undefined}
      >
        {choices.map((c) => (
          <option key={c.id ?? ''} value={c.id ?? ''}>
            {c.label}
          </option>
        ))}
        {stale && (
          <option value={stale.id} disabled>
            {ownerName(stale)} (inactive)
          </option>
        )}
        {!known && !stale && props.value && (
          <option value={props.value} disabled>
            {owners.isPending ? 'Loading...' : 'Unavailable member'}
          </option>
        )}
      </Select>
    </Field>
  );
}
