// The send controls of a floating draft-email panel (spec 000 §2 'Floating draft-email panels', §4
// 'Sending'): Send Now, schedule (date and time; the panel says when the email will
// actually leave, inside the sender's working hours), send test to self, and the mailbox-status
// banner ('Error' / 'Send Error' with the message, default 'Please check Office365 settings and try
// again'; amber 'Warning' under 7 days). The panel owns the fields; it passes the current draft.
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { SendRegular, CalendarClockRegular, PersonMailRegular } from '@fluentui/react-icons';
import type { EmailDraftDto } from '../../contracts';
import { EMAIL_MESSAGES, fieldRequiredMessage, htmlText, isEmailReadOnly } from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { EMAIL_SERVICE_QUERY_KEY } from './EmailServiceCard';
import { PENDING_EMAILS_QUERY_KEYS } from './ScheduledEmailActions';

export const SCHEDULE_PAST_MESSAGE = 'Please select today or a future date for scheduling.';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  when: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  warning: { backgroundColor: tokens.colorPaletteYellowBackground2 },
});

/** The first missing field, as '{label} is required.' (spec 000 §8), or null. */
export function draftSendProblem(d: Pick<EmailDraftDto, 'to' | 'subject' | 'emailBody'>): string | null {
  if (!d.to.trim()) return fieldRequiredMessage('To');
  if (!d.subject.trim()) return fieldRequiredMessage('Subject');
  if (!htmlText(d.emailBody)) return fieldRequiredMessage('Body');
  return null;
}

/** 'YYYY-MM-DDTHH:mm' in local time for a datetime-local input. */
function localInputValue(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}
const formatWhen = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

export interface DraftSendControlsProps {
  draft: EmailDraftDto;
  onChange?: (draft: EmailDraftDto) => void;
  /** A reply to a received message (its Graph id): the send goes out in that thread (createReply). */
  replyToMessageId?: string | null;
}

export function DraftSendControls({ draft, onChange, replyToMessageId }: DraftSendControlsProps) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: EMAIL_SERVICE_QUERY_KEY, queryFn: () => api.emailService.status(), staleTime: 60_000 });
  const [busy, setBusy] = useState<'now' | 'schedule' | 'self' | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const [when, setWhen] = useState(() => localInputValue(new Date(Date.now() + 3_600_000)));
  const [leaves, setLeaves] = useState<{ sendAt: string; moved: boolean; queued?: boolean } | null>(null);
  const readOnly = isEmailReadOnly(draft.status) || draft.status === 'cancelled';
  const banner = status.data?.banner ?? null;
  const blocked = banner?.level === 'error';

  useEffect(() => {
    if (!scheduling || !when) return;
    const at = new Date(when);
    if (Number.isNaN(at.getTime())) return;
    let gone = false;
    api.emailService.sendTime({ scheduledAt: at.toISOString() }).then(
      (r) => {
        if (!gone) setLeaves({ sendAt: r.sendAt, moved: r.moved, queued: r.queued });
      },
      () => {
        if (!gone) setLeaves(null);
      },
    );
    return () => {
      gone = true;
    };
  }, [api, scheduling, when]);

  const send = async (kind: 'now' | 'schedule') => {
    const problem = draftSendProblem(draft);
    if (problem) {
      setSendError(problem);
      notify.error(problem);
      return;
    }
    let scheduledAt: string | undefined;
    if (kind === 'schedule') {
      const at = new Date(when);
      if (Number.isNaN(at.getTime()) || at.getTime() < Date.now() - 60_000) {
        setSendError(SCHEDULE_PAST_MESSAGE);
        notify.error(SCHEDULE_PAST_MESSAGE);
        return;
      }
      scheduledAt = at.toISOString();
    }
    setBusy(kind);
    setSendError(null);
    try {
      const res = await api.emailService.send({
        id: draft.channelEmailId,
        contactId: draft.contact?.id ?? null,
        companyId: draft.companyId,
        type: 'email',
        status: kind === 'now' ? 'sent' : 'scheduled',
        to: draft.to,
        cc: draft.cc,
        subject: draft.subject,
        body: draft.emailBody,
        scheduledAt,
        ...(replyToMessageId ? { replyToMessageId } : {}),
      });
      notify.success(res.message);
      setScheduling(false);
      onChange?.(res.email);
      await Promise.all([
        ...PENDING_EMAILS_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
        queryClient.invalidateQueries({ queryKey: ['activities'] }),
        queryClient.invalidateQueries({ queryKey: ['companies'] }),
        queryClient.invalidateQueries({ queryKey: ['contacts'] }),
      ]);
    } catch (e) {
      const message = serverMessage(e) ?? EMAIL_MESSAGES.sendFailed;
      setSendError(message);
      notify.error(message);
      onChange?.({ ...draft, statusMessage: message });
      void queryClient.invalidateQueries({ queryKey: EMAIL_SERVICE_QUERY_KEY });
    } finally {
      setBusy(null);
    }
  };

  const sendToSelf = async () => {
    if (!draft.subject.trim()) {
      notify.error(fieldRequiredMessage('Subject'));
      return;
    }
    setBusy('self');
    try {
      const res = await api.emailService.sendToMyself({ id: draft.channelEmailId, subject: draft.subject, body: draft.emailBody });
      notify.success(res.message ?? EMAIL_MESSAGES.sent);
    } catch (e) {
      notify.error(serverMessage(e) ?? EMAIL_MESSAGES.sendFailed);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className={styles.root} data-testid="draft-send-controls">
      {banner && banner.level === 'error' && (
        <MessageBar intent="error" data-testid="draft-banner-error">
          <MessageBarBody>
            <MessageBarTitle>Error</MessageBarTitle>
            {banner.message || EMAIL_MESSAGES.defaultSendError}
          </MessageBarBody>
        </MessageBar>
      )}
      {banner && banner.level === 'warning' && (
        <MessageBar intent="warning" className={styles.warning} data-testid="draft-banner-warning">
          <MessageBarBody>
            <MessageBarTitle>Warning</MessageBarTitle>
            {banner.message}
          </MessageBarBody>
        </MessageBar>
      )}
      {sendError && (
        <MessageBar intent="error" data-testid="draft-banner-send-error">
          <MessageBarBody>
            <MessageBarTitle>Send Error</MessageBarTitle>
            {sendError || EMAIL_MESSAGES.defaultSendError}
          </MessageBarBody>
        </MessageBar>
      )}
      {scheduling && (
        <div className={styles.row}>
          <Input
            type="datetime-local"
            value={when}
            min={localInputValue(new Date())}
            onChange={(_, d) => setWhen(d.value)}
            aria-label="Send at"
            data-testid="draft-schedule-at"
          />
          <Button
            appearance="primary"
            disabled={busy !== null || readOnly || blocked}
            onClick={() => void send('schedule')}
            data-testid="draft-schedule-confirm"
            icon={busy === 'schedule' ? <Spinner aria-hidden size="tiny" /> : undefined}
          >
            Schedule
          </Button>
          <Button appearance="subtle" onClick={() => setScheduling(false)}>
            Cancel
          </Button>
          {leaves && (
            <Text className={styles.when} data-testid="draft-leaves-at">
              Leaves {formatWhen(leaves.sendAt)}
              {leaves.moved ? ' (the first time inside your working hours)' : ''}
              {leaves.queued ? ' (after the emails already waiting in your mailbox: 30 a minute)' : ''}
            </Text>
          )}
        </div>
      )}
      <div className={styles.row}>
        <Button
          appearance="primary"
          icon={busy === 'now' ? <Spinner aria-hidden size="tiny" /> : <SendRegular />}
          disabled={busy !== null || readOnly || blocked}
          onClick={() => void send('now')}
          data-testid="draft-send-now"
        >
          Send Now
        </Button>
        <Tooltip content="Schedule" relationship="label">
          <Button
            icon={<CalendarClockRegular />}
            disabled={busy !== null || readOnly || blocked}
            onClick={() => setScheduling((v) => !v)}
            data-testid="draft-schedule"
          />
        </Tooltip>
        <Tooltip content="Send test to self" relationship="label">
          <Button
            icon={busy === 'self' ? <Spinner aria-hidden size="tiny" /> : <PersonMailRegular />}
            disabled={busy !== null || blocked}
            onClick={() => void sendToSelf()}
            data-testid="draft-send-self"
          />
        </Tooltip>
      </div>
    </div>
  );
}
