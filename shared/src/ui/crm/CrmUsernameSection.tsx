// CRM settings of the profile page (spec 001 §2 'Profile page pieces', §5 'CRM username'): the
// 'Connect your CRM Username' modal checks the username after 250 ms of quiet (email pattern first,
// then the organization's CRM: USER_AVAILABLE / USER_UNAVAILABLE / USER_INVALID), Save is enabled
// only when it is available, and a confirm warns that linking is permanent.
import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { LinkRegular, LockClosedRegular } from '@fluentui/react-icons';
import { type CrmUsernameStatus } from '../../contracts';
import { CRM_MESSAGES, CRM_USERNAME_CHECK_DEBOUNCE_MS, CRM_USERNAME_MESSAGES, CRM_USERNAME_PATTERN } from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { ConfirmDialog } from '../ConfirmDialog';
import { serverMessage } from '../server-message';
import { useModalSurfaceStyle } from '../PluginMode';
import { formatAiDate } from '../llm/AiProviderCard';
import { CRM_USER_SETTINGS_KEY } from './state';

const useStyles = makeStyles({
  row: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground2 },
  form: { display: 'flex', flexDirection: 'column', gap: '10px' },
});

type CheckState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'done'; status: CrmUsernameStatus; message: string | null }
  | { kind: 'error'; message: string };

function UsernameModal({ open, crmName, onClose }: { open: boolean; crmName: string; onClose: () => void }) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const surface = useModalSurfaceStyle();
  const [username, setUsername] = useState('');
  const [check, setCheck] = useState<CheckState>({ kind: 'idle' });
  const [confirming, setConfirming] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    const value = username.trim();
    const mine = ++seq.current;
    if (!value) {
      setCheck({ kind: 'idle' });
      return;
    }
    setCheck({ kind: 'checking' });
    const timer = setTimeout(() => {
      if (!CRM_USERNAME_PATTERN.test(value)) {
        setCheck({ kind: 'done', status: 'USER_INVALID', message: CRM_USERNAME_MESSAGES.invalid });
        return;
      }
      api.crm.checkUsername(value).then(
        (res) => {
          if (seq.current === mine) setCheck({ kind: 'done', status: res.status, message: res.message });
        },
        (e: unknown) => {
          if (seq.current === mine)
            setCheck({ kind: 'error', message: serverMessage(e) ?? 'Could not check the username. Please try again.' });
        },
      );
    }, CRM_USERNAME_CHECK_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [username, api]);

  const link = useMutation({
    mutationFn: () => api.crm.linkUsername(username.trim()),
    onSuccess: async () => {
      notify.success(CRM_USERNAME_MESSAGES.linked);
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: CRM_USER_SETTINGS_KEY });
      onClose();
    },
  });
  const available = check.kind === 'done' && check.status === 'USER_AVAILABLE';
  const validation = check.kind === 'done' && check.message ? check.message : check.kind === 'error' ? check.message : undefined;

  return (
    <>
      <Dialog
        open={open && !confirming}
        onOpenChange={(_, d) => {
          if (!d.open) onClose();
        }}
      >
        <DialogSurface style={surface} data-testid="crm-username-modal">
          <DialogBody>
            <DialogTitle>{CRM_USERNAME_MESSAGES.title}</DialogTitle>
            <DialogContent className={styles.form}>
              <Text className={styles.muted}>
                Your {crmName} username links your Dealscout user to your {crmName} user, so sync brings in the records you own.
              </Text>
              <Field
                label={`${crmName} username`}
                validationState={validation ? 'error' : available ? 'success' : 'none'}
                validationMessage={validation ?? (available ? 'Username is available' : undefined)}
              >
                <Input
                  value={username}
                  onChange={(_, d) => setUsername(d.value)}
                  placeholder="name@company.com"
                  autoComplete="off"
                  contentAfter={check.kind === 'checking' ? <Spinner aria-hidden size="extra-tiny" /> : undefined}
                  data-testid="crm-username-input"
                />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button onClick={onClose}>Cancel</Button>
              <Button appearance="primary" disabled={!available} onClick={() => setConfirming(true)} data-testid="crm-username-save">
                Save
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
      <ConfirmDialog
        open={open && confirming}
        type="warning"
        title={CRM_USERNAME_MESSAGES.confirmTitle}
        message={CRM_USERNAME_MESSAGES.confirm(username.trim(), crmName)}
        confirmLabel="Link username"
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          try {
            await link.mutateAsync();
          } catch (e) {
            throw new Error(serverMessage(e) ?? 'Could not link the username. Please try again.', { cause: e });
          }
        }}
        data-testid="crm-username-confirm"
      />
    </>
  );
}

/** The CRM settings section's content: the linked username, or the button that opens the modal. */
export function CrmUsernameSettings({ isAdmin }: { isAdmin: boolean }) {
  const styles = useStyles();
  const api = useApi();
  const [open, setOpen] = useState(false);
  const settings = useQuery({ queryKey: CRM_USER_SETTINGS_KEY, queryFn: async () => (await api.crm.userSettings()).settings });
  if (settings.isPending) return <Spinner size="tiny" label="Loading…" />;
  if (settings.isError) return <Text role="alert">{'Integration data not found'}</Text>;
  const s = settings.data;
  if (!s.provider || !s.crmName) {
    return (
      <div data-testid="crm-username-disabled">
        <Text className={styles.muted} block>
          {CRM_USERNAME_MESSAGES.notEnabled}
        </Text>
        {!isAdmin && (
          <Text className={styles.muted} block>
            {CRM_MESSAGES.askAdmin}
          </Text>
        )}
      </div>
    );
  }
  if (s.crmUsername) {
    return (
      <div className={styles.row} data-testid="crm-username-linked">
        <LockClosedRegular />
        <Text>
          {s.crmName} username: <strong data-testid="crm-username-value">{s.crmUsername}</strong>
        </Text>
        <Text className={styles.muted}>Linked {formatAiDate(s.linkedAt)}. The link cannot be changed.</Text>
      </div>
    );
  }
  return (
    <div className={styles.row}>
      <Text className={styles.muted}>Link your {s.crmName} username for user-based sync. Once linked, it cannot be changed.</Text>
      <Button icon={<LinkRegular />} onClick={() => setOpen(true)} data-testid="crm-username-connect">
        {CRM_USERNAME_MESSAGES.title}
      </Button>
      {open && <UsernameModal open={open} crmName={s.crmName} onClose={() => setOpen(false)} />}
    </div>
  );
}
