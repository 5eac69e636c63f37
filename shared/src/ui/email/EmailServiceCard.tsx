// The email-service card of the integrations page (spec 001 §2 'Integrations settings page', §4
// 'Email service'): the caller's own Office 365 mailbox. Connect / Re Authenticate send
// the browser to Microsoft's consent page (the server answers its address); Disconnect asks
// 'Disconnect Office365 Email Service ?' first. States: 'Expires at' a date; 'Expires soon' at 5
// days or fewer (with Re Authenticate); 'Expired' at zero or less, or when Microsoft refused the
// grant (Re Authenticate). Back from the consent page (`returnedWith`), the card scrolls into view,
// takes the focus and says how it went.
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Checkbox, Field, Input, Spinner, Subtitle2, Text, makeStyles, tokens } from '@fluentui/react-components';
import { MailRegular, PlugConnectedRegular, PlugDisconnectedRegular, ArrowSyncRegular } from '@fluentui/react-icons';
import { daysLeft, WEEK_DAYS } from '../../domain';
import type { SendWindowBody, WorkingHoursDto } from '../../contracts';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { ConfirmDialog } from '../ConfirmDialog';
import { FailureNotice, connectNextStep, keepFailure, useKeptFailure } from '../FailureNotice';
import { serverMessage } from '../server-message';

export const EMAIL_SERVICE_QUERY_KEY = ['email-service'] as const;

export const EMAIL_SERVICE_TEXT = {
  title: 'Email service (Office 365)',
  connected: 'Connected',
  expiresSoon: 'Expires soon',
  expired: 'Expired',
  expiresAt: 'Expires at',
  notConnected: 'Not connected. Connect your Office 365 mailbox to send and schedule emails from Dealscout.',
  notConfigured: 'Office 365 is not set up on this server yet. Ask your Dealscout operator to register the app (README, "Office 365").',
  refused: 'Microsoft no longer accepts this connection. Re Authenticate to keep sending.',
  disconnectTitle: 'Disconnect Office365 Email Service ?',
  disconnectMessage: 'Scheduled emails will not leave until you connect again.',
  disconnectConfirm: 'Yes, Disconnect',
  disconnected: 'Office 365 disconnected.',
  connectFailed: 'Could not start connecting Office 365. Please try again.',
  connectedNow: 'Office 365 connected.',
  notConnectedBack: 'Office 365 was not connected. Please try again.',
  failedTitle: 'Office 365 was not connected',
  /** Why, from the callback's o365Reason. */
  reasons: {
    denied: "The Office 365 connection was cancelled on Microsoft's page.",
    expired: 'This Office 365 connection link has expired or was started in another browser.',
    failed: 'Microsoft did not authorize the connection.',
  },
} as const;

/** Where the last failed Office 365 connect is kept until the user acts (see FailureNotice). */
export const O365_CONNECT_FAILURE_KEY = 'office365-connect';

/** The sentence for a callback's o365Reason (an unknown one reads as the general failure). */
export function o365FailureText(reason: string | null | undefined): string {
  return reason && reason in EMAIL_SERVICE_TEXT.reasons
    ? EMAIL_SERVICE_TEXT.reasons[reason as keyof typeof EMAIL_SERVICE_TEXT.reasons]
    : EMAIL_SERVICE_TEXT.notConnectedBack;
}

/** The card's state from the days left (spec 001 §4): 'Expires soon' at 5 or fewer, 'Expired' at zero or less. */
export function emailServiceState(
  expiresAt: string | null,
  active: boolean,
  now: number = Date.now(),
): 'active' | 'expiresSoon' | 'expired' {
  if (!active) return 'expired';
  if (!expiresAt) return 'active';
  const days = daysLeft(expiresAt, now);
  if (days <= 0) return 'expired';
  if (days <= 5) return 'expiresSoon';
  return 'active';
}

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    padding: '16px 20px',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    scrollMarginTop: '24px',
    scrollMarginBottom: '24px',
    ':focus-visible': { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  head: { display: 'flex', alignItems: 'center', gap: '10px', flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  facts: { display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: '16px', rowGap: '4px', margin: 0 },
  term: { color: tokens.colorNeutralForeground2 },
  dd: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground2 },
  warn: { color: tokens.colorPaletteDarkOrangeForeground1 },
  error: { color: tokens.colorPaletteRedForeground1 },
});

function SendWindowForm({ initial, onDone, onCancel }: { initial: WorkingHoursDto; onDone: () => void; onCancel: () => void }) {
  const api = useApi();
  const notify = useNotify();
  const [days, setDays] = useState<string[]>(initial.daysOfWeek);
  const [start, setStart] = useState(initial.startTime.slice(0, 5));
  const [end, setEnd] = useState(initial.endTime.slice(0, 5));
  const [zone, setZone] = useState(initial.timeZone);
  const [busy, setBusy] = useState(false);
  const save = async (window: SendWindowBody['window']) => {
    setBusy(true);
    try {
      const res = await api.emailService.setSendWindow({ window });
      notify.success(res.message ?? 'Send window saved.');
      onDone();
    } catch (e) {
      notify.error(serverMessage(e) ?? 'Please enter a valid send window: days, a start before the end, and a time zone.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: '8px' }} data-testid="email-service-window-form">
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px' }}>
        {WEEK_DAYS.map((d) => (
          <Checkbox
            key={d}
            label={d.slice(0, 3)}
            checked={days.includes(d)}
            onChange={(_, v) => setDays((cur) => (v.checked ? [...cur, d] : cur.filter((x) => x !== d)))}
          />
        ))}
      </div>
      <div style={{ display: 'flex', gap: '8px', flexWrap: 'wrap' }}>
        <Field label="From">
          <Input type="time" value={start} onChange={(_, v) => setStart(v.value)} data-testid="email-service-window-start" />
        </Field>
        <Field label="To">
          <Input type="time" value={end} onChange={(_, v) => setEnd(v.value)} data-testid="email-service-window-end" />
        </Field>
        <Field label="Time zone">
          <Input value={zone} onChange={(_, v) => setZone(v.value)} placeholder="Europe/Berlin" data-testid="email-service-window-zone" />
        </Field>
      </div>
      <div style={{ display: 'flex', gap: '8px', justifyContent: 'flex-end' }}>
        <Button appearance="subtle" disabled={busy} onClick={() => void save(null)} data-testid="email-service-window-reset">
          Use mailbox hours
        </Button>
        <Button disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
        <Button
          appearance="primary"
          disabled={busy}
          onClick={() =>
            void save({
              daysOfWeek: days as NonNullable<SendWindowBody['window']>['daysOfWeek'],
              startTime: start,
              endTime: end,
              timeZone: zone.trim(),
            })
          }
          data-testid="email-service-window-save"
        >
          Save
        </Button>
      </div>
    </div>
  );
}

const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

export interface EmailServiceCardProps {
  /** Where Microsoft sends the user back (a path of this app). */
  returnTo?: string;
  /** Opens Microsoft's consent page; default: this window goes there. The add-in passes its dialog. */
  openConsent?: (url: string) => void;
  /**
   * The user just came back from the consent page ('connected' or 'error'): once the card has its
   * status, it scrolls into view, takes the focus and says so; then `onReturnHandled` (the host
   * forgets the outcome, e.g. drops it from the address).
   */
  returnedWith?: 'connected' | 'error' | null;
  /** With 'error': the callback's o365Reason. */
  returnedReason?: string | null;
  onReturnHandled?: () => void;
}

export function EmailServiceCard({
  returnTo = '/account/profile',
  openConsent,
  returnedWith,
  returnedReason,
  onReturnHandled,
}: EmailServiceCardProps) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  const [editingWindow, setEditingWindow] = useState(false);
  const status = useQuery({ queryKey: EMAIL_SERVICE_QUERY_KEY, queryFn: () => api.emailService.status() });
  const i = status.data?.integration ?? null;
  const state = i ? emailServiceState(i.expiresAt, i.active) : null;

  const cardRef = useRef<HTMLElement>(null);
  const handled = useRef(onReturnHandled);
  handled.current = onReturnHandled;
  const loaded = !status.isPending;
  useEffect(() => {
    const el = cardRef.current;
    if (!returnedWith || !loaded || !el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: 'start' });
    // Success is said once; a failure stays on the card with what to do next until the user acts.
    if (returnedWith === 'connected') {
      keepFailure(O365_CONNECT_FAILURE_KEY, null);
      notify.success(EMAIL_SERVICE_TEXT.connectedNow);
    } else keepFailure(O365_CONNECT_FAILURE_KEY, o365FailureText(returnedReason));
    handled.current?.();
  }, [returnedWith, returnedReason, loaded, notify]);
  const [failure, forgetFailure] = useKeptFailure(O365_CONNECT_FAILURE_KEY);
  useEffect(() => {
    if (i?.active && failure) forgetFailure();
  }, [i, failure, forgetFailure]);

  const connect = async () => {
    setStarting(true);
    try {
      const { authorizeUrl } = await api.emailService.connect({ returnTo });
      (openConsent ?? ((u: string) => window.location.assign(u)))(authorizeUrl);
    } catch (e) {
      notify.error(serverMessage(e) ?? EMAIL_SERVICE_TEXT.connectFailed);
    } finally {
      setStarting(false);
    }
  };

  return (
    <section
      ref={cardRef}
      tabIndex={-1}
      id="email-service"
      className={styles.card}
      aria-label={EMAIL_SERVICE_TEXT.title}
      data-testid="email-service-card"
      data-state={state ?? 'none'}
    >
      <div className={styles.head}>
        <MailRegular fontSize={24} />
        <Subtitle2 as="h3" className={styles.grow}>
          {EMAIL_SERVICE_TEXT.title}
        </Subtitle2>
        {state === 'active' && (
          <Badge appearance="tint" color="success" icon={<PlugConnectedRegular />} data-testid="email-service-connected">
            {EMAIL_SERVICE_TEXT.connected}
          </Badge>
        )}
        {state === 'expiresSoon' && (
          <Badge appearance="tint" color="warning" data-testid="email-service-expires-soon">
            {EMAIL_SERVICE_TEXT.expiresSoon}
          </Badge>
        )}
        {state === 'expired' && (
          <Badge appearance="tint" color="danger" data-testid="email-service-expired">
            {EMAIL_SERVICE_TEXT.expired}
          </Badge>
        )}
        {i && (state === 'expiresSoon' || state === 'expired') && (
          <Button
            appearance="primary"
            icon={starting ? <Spinner aria-hidden size="tiny" /> : <ArrowSyncRegular />}
            disabled={starting}
            onClick={() => void connect()}
            data-testid="email-service-reauth"
          >
            Re Authenticate
          </Button>
        )}
        {i && (
          <Button icon={<PlugDisconnectedRegular />} onClick={() => setConfirming(true)} data-testid="email-service-disconnect">
            Disconnect
          </Button>
        )}
        {status.isSuccess && !i && (
          <Button
            appearance="primary"
            disabled={starting || !status.data.configured}
            icon={starting ? <Spinner aria-hidden size="tiny" /> : undefined}
            onClick={() => void connect()}
            data-testid="email-service-connect"
          >
            Connect
          </Button>
        )}
      </div>
      {failure && !i?.active && (
        <FailureNotice
          title={EMAIL_SERVICE_TEXT.failedTitle}
          failure={failure}
          nextStep={connectNextStep('Office 365', failure.message)}
          onDismiss={forgetFailure}
          onRetry={
            status.data?.configured
              ? () => {
                  forgetFailure();
                  void connect();
                }
              : undefined
          }
          data-testid="email-service-connect-failure"
        />
      )}
      {status.isPending && <Spinner size="tiny" label="Loading…" />}
      {status.isError && <Text role="alert">{serverMessage(status.error) ?? 'Integration data not found'}</Text>}
      {i && (
        <dl className={styles.facts} data-testid="email-service-details">
          <dt className={styles.term}>Account</dt>
          <dd className={styles.dd} data-testid="email-service-account">
            {i.account}
          </dd>
          {i.expiresAt && state !== 'expired' && (
            <>
              <dt className={styles.term}>{EMAIL_SERVICE_TEXT.expiresAt}</dt>
              <dd className={styles.dd} data-testid="email-service-expires-at">
                {formatDate(i.expiresAt)}
              </dd>
            </>
          )}
          <dt className={styles.term}>Send window</dt>
          <dd className={styles.dd} data-testid="email-service-window">
            {status.data!.workingHours.startTime.slice(0, 5)}–{status.data!.workingHours.endTime.slice(0, 5)} (
            {status.data!.workingHours.timeZone}), {status.data!.workingHours.daysOfWeek.map((d) => d.slice(0, 3)).join(', ')}
            {status.data!.workingHoursSource === 'mailbox'
              ? ' — from your mailbox'
              : status.data!.workingHoursSource === 'profile'
                ? ' — your own'
                : ''}
            {!editingWindow && (
              <Button size="small" appearance="transparent" onClick={() => setEditingWindow(true)} data-testid="email-service-window-edit">
                Change
              </Button>
            )}
            {status.data!.zoneNotice && (
              <Text block className={styles.warn} role="status" data-testid="email-service-zone-notice">
                {status.data!.zoneNotice}
              </Text>
            )}
          </dd>
        </dl>
      )}
      {i && editingWindow && status.data && (
        <SendWindowForm
          initial={status.data.workingHours}
          onCancel={() => setEditingWindow(false)}
          onDone={() => {
            setEditingWindow(false);
            void queryClient.invalidateQueries({ queryKey: EMAIL_SERVICE_QUERY_KEY });
          }}
        />
      )}
      {i && !i.active && (
        <Text className={styles.error} data-testid="email-service-refused">
          {EMAIL_SERVICE_TEXT.refused}
        </Text>
      )}
      {status.isSuccess && !i && (
        <Text className={styles.muted} data-testid="email-service-status">
          {status.data.configured ? EMAIL_SERVICE_TEXT.notConnected : EMAIL_SERVICE_TEXT.notConfigured}
        </Text>
      )}
      <ConfirmDialog
        open={confirming}
        type="delete"
        title={EMAIL_SERVICE_TEXT.disconnectTitle}
        message={EMAIL_SERVICE_TEXT.disconnectMessage}
        confirmLabel={EMAIL_SERVICE_TEXT.disconnectConfirm}
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          if (!i) return;
          try {
            await api.emailService.disconnect(i.id);
          } catch (e) {
            throw new Error(serverMessage(e) ?? 'Could not disconnect Office 365. Please try again.', { cause: e });
          }
          setConfirming(false);
          notify.success(EMAIL_SERVICE_TEXT.disconnected);
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: EMAIL_SERVICE_QUERY_KEY }),
            queryClient.invalidateQueries({ queryKey: ['integrations'] }),
          ]);
        }}
        data-testid="email-service-disconnect-dialog"
      />
    </section>
  );
}
