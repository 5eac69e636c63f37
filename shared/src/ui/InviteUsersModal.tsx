// The invite modal of spec 000 §2 'Other shared UI' and §5 'Invite': 'Add Users by Email', a tags
// input for emails capped at the free seats, a seat counter, a required role select, Send Invite.
import { useEffect, useMemo, useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  MessageBar,
  MessageBarBody,
  Select,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { INVITE_MESSAGES, checkInvite, isValidEmail, normalizeEmail, splitTags } from '../domain';
import { serverMessage } from './server-message';
import { TagsInput } from './TagsInput';
import { useModalSurfaceStyle } from './PluginMode';

export interface InviteRoleOption {
  id: string;
  name: string;
}

export interface InviteResult {
  message: string;
  invitedUsers: string[];
}

export interface InviteUsersModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Free seats: maxUser − non-deleted users − pending invitations. */
  seats: number;
  roles: readonly InviteRoleOption[];
  /** 'Could not get user roles' when the system roles failed to load. */
  rolesError?: string | null;
  rolesLoading?: boolean;
  /** Emails of the organization's non-deleted users and pending invitations. */
  existingEmails: readonly string[];
  /** Sends the invitation; a rejection's server message (or the spec's fallback) is shown. */
  onInvite: (emails: string[], role: string) => Promise<InviteResult>;
  onInvited?: (result: InviteResult) => void;
}

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  seats: { color: tokens.colorNeutralForeground2 },
  seatsNone: { color: tokens.colorPaletteRedForeground1 },
});

export function InviteUsersModal(props: InviteUsersModalProps) {
  const { open, onOpenChange, seats, roles, onInvite, onInvited } = props;
  const styles = useStyles();
  const surfaceStyle = useModalSurfaceStyle();
  const [emails, setEmails] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [role, setRole] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const setError = (message: string | null) => setErrors(message ? [message] : []);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) {
      setEmails([]);
      setText('');
      setRole('');
      setError(null);
      setNotice(null);
      setBusy(false);
    }
  }, [open]);

  const existing = useMemo(() => new Set(props.existingEmails.map(normalizeEmail)), [props.existingEmails]);
  // Only addresses that can be invited take a seat (an invalid one is marked, not counted).
  const left = Math.max(0, seats - emails.filter(isValidEmail).length);

  const send = async () => {
    const all = [...emails, ...splitTags(text)];
    const check = checkInvite({ emails: all, role, existing, seats });
    if (check.messages.length) {
      // Every problem at once (a wrong role and wrong addresses are both shown).
      setErrors(check.messages);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const result = await onInvite(check.emails, role);
      onInvited?.(result);
      onOpenChange(false);
    } catch (e) {
      setError(serverMessage(e) ?? INVITE_MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      modalType="modal"
      onOpenChange={(_, data) => {
        if (!busy) onOpenChange(data.open);
      }}
    >
      <DialogSurface style={surfaceStyle} data-testid="invite-modal" aria-label="Add Users by Email">
        <DialogBody>
          <DialogTitle>Add Users by Email</DialogTitle>
          <DialogContent className={styles.content}>
            <Field label="Emails" hint="Separate addresses with a comma, a space, Enter or Tab.">
              {(fieldProps) => (
                <TagsInput
                  id={fieldProps.id}
                  aria-label="Emails"
                  aria-describedby={fieldProps['aria-describedby']}
                  value={emails}
                  onChange={(next) => {
                    setEmails(next);
                    setNotice(null);
                    setError(null);
                  }}
                  inputValue={text}
                  onInputChange={(t) => {
                    setText(t);
                    setError(null);
                  }}
                  maxTags={seats}
                  isValid={isValidEmail}
                  placeholder={seats > 0 ? 'name@company.com' : undefined}
                  onRejected={() => setNotice(INVITE_MESSAGES.tooMany(seats))}
                  data-testid="invite-emails"
                />
              )}
            </Field>
            <Text className={seats > 0 ? styles.seats : styles.seatsNone} data-testid="invite-seat-counter" aria-live="polite">
              {seats > 0 ? `${left} of ${seats} ${seats === 1 ? 'seat' : 'seats'} available` : INVITE_MESSAGES.noSeats}
            </Text>
            {notice && (
              <MessageBar intent="warning" data-testid="invite-notice">
                <MessageBarBody>{notice}</MessageBarBody>
              </MessageBar>
            )}
            <Field label="Role" required validationMessage={props.rolesError ?? undefined}>
              <Select
                value={role}
                onChange={(_, data) => {
                  setRole(data.value);
                  setError(null);
                }}
                disabled={props.rolesLoading || !!props.rolesError}
                data-testid="invite-role"
              >
                <option value="" disabled>
                  {props.rolesLoading ? 'Loading roles...' : 'Select a role'}
                </option>
                {roles.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
              </Select>
            </Field>
            {errors.length > 0 && (
              <MessageBar intent="error" data-testid="invite-error">
                <MessageBarBody>
                  {errors.map((m) => (
                    <div key={m} data-testid="invite-error-message">
                      {m}
                    </div>
                  ))}
                </MessageBarBody>
              </MessageBar>
            )}
          </DialogContent>
          <DialogActions fluid style={{ justifyContent: 'flex-end', marginTop: 8 }}>
            <Button appearance="secondary" disabled={busy} onClick={() => onOpenChange(false)} data-testid="invite-cancel">
              Cancel
            </Button>
            <Button
              appearance="primary"
              disabled={busy}
              icon={busy ? <Spinner aria-hidden size="tiny" /> : undefined}
              onClick={() => void send()}
              data-testid="invite-send"
            >
              Send Invite
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
