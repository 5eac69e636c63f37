// A sent-by-Dealscout email in the Activities tab (spec 000 §2 'Activities tab', §4 'Cancel Send &
// Edit', 'Try Again'): a scheduled one shows 'Sending {relative time}' and 'Cancel Send &
// Edit' (after confirmation the email is a draft again, its activity is removed, and it is back
// among the pending drafts, so its draft panel opens filled from it); an errored one shows 'Try
// Again' (after confirmation it is scheduled again and the local draft is removed).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import type { ActivityDto } from '../../contracts';
import { EMAIL_MESSAGES, timeAgo } from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { ConfirmDialog } from '../ConfirmDialog';
import { serverMessage } from '../server-message';
import { invalidateActivity } from '../realtime/cache';

/** Query keys of the drafts (GET /email/pending) that a status change refreshes. */
export const PENDING_EMAILS_QUERY_KEYS = [['emails'], ['email', 'pending'], ['drafts']] as const;

const useStyles = makeStyles({
  sending: { color: tokens.colorBrandForeground1, fontSize: tokens.fontSizeBase200 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS, marginTop: tokens.spacingVerticalXXS },
});

export interface ScheduledEmailActionsProps {
  activity: ActivityDto;
  /** Called with the email after Cancel Send & Edit (a host that keeps its own draft panels opens one). */
  onEditDraft?: (channelEmailId: string) => void;
  /** Called after Try Again (a host removes its local draft). */
  onRetried?: (channelEmailId: string) => void;
}

export function ScheduledEmailActions({ activity: a, onEditDraft, onRetried }: ScheduledEmailActionsProps) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<'cancel' | 'retry' | null>(null);
  const scheduled = a.type === 'email' && a.status === 'scheduled' && !!a.sourceId;
  const errored = a.type === 'email' && a.status === 'error' && !!a.sourceId && a.source === 'email';
  if (!scheduled && !errored) return null;

  const run = async (kind: 'cancel' | 'retry') => {
    try {
      await api.emails.updateStatus({ id: a.sourceId!, status: kind === 'cancel' ? 'draft' : 'scheduled' });
    } catch (e) {
      const message = serverMessage(e) ?? (kind === 'cancel' ? EMAIL_MESSAGES.cancelFailed : EMAIL_MESSAGES.updateStatusFailed);
      notify.error(message);
      throw new Error(message, { cause: e });
    }
    setConfirming(null);
    await Promise.all([
      invalidateActivity(queryClient, a),
      ...PENDING_EMAILS_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    ]);
    if (kind === 'cancel') onEditDraft?.(a.sourceId!);
    else onRetried?.(a.sourceId!);
  };

  return (
    <>
      {scheduled && a.dueDate && (
        <span className={styles.sending} data-testid="activity-sending">
          Sending {timeAgo(a.dueDate)}
        </span>
      )}
      <div className={styles.actions}>
        <Button
          size="small"
          onClick={() => setConfirming(scheduled ? 'cancel' : 'retry')}
          data-testid={scheduled ? 'activity-cancel-send' : 'activity-try-again'}
        >
          {scheduled ? 'Cancel Send & Edit' : 'Try Again'}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        type="warning"
        title={confirming === 'cancel' ? 'Cancel Send & Edit' : 'Try Again'}
        message={
          confirming === 'cancel'
            ? 'The email will not be sent. It goes back to your drafts so you can edit it.'
            : 'The email will be scheduled again and sent as soon as your mailbox allows.'
        }
        confirmLabel={confirming === 'cancel' ? 'Cancel Send & Edit' : 'Try Again'}
        onCancel={() => setConfirming(null)}
        onConfirm={() => run(confirming!)}
        data-testid="activity-email-confirm"
      />
    </>
  );
}
