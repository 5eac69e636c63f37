// Compose mode's drafting: pick a play, generate the email for the recipient (a matched
// contact), then either insert the subject and body into the message being written (through the
// office/ adapter) — or, in read mode (`reply`), open it as Outlook's reply to the email being read
// (the adapter's displayReplyForm) — or hand it to Dealscout's scheduled sending (the shared draft panel and its send
// controls: send windows and mailbox limits apply). The draft is the same one the web app's floating
// panels show (POST /email/draft, /email/generate; the shared DraftsProvider verifies the play's
// email as it arrives). An inserted draft is closed in Dealscout (so it cannot leave a second time
// through Send Now) and leaves an 'Other' activity on the contact; a sent or scheduled one is the
// email activity the send writes.
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Select,
  SplitButton,
  Spinner,
  Text,
  Tooltip,
  makeStyles,
  tokens,
  type MenuButtonProps,
} from '@fluentui/react-components';
import { ArrowReplyRegular, MailArrowUpRegular, PlugConnectedRegular, SparkleRegular } from '@fluentui/react-icons';
import type { EmailDraftDto, MatchedContact } from '@dealscout/shared/contracts';
import { EMAIL_MESSAGES, PLAY_MESSAGES, htmlText, isDraftShown, todayIn, type DraftEdit } from '@dealscout/shared/domain';
import {
  DraftPanel,
  DraftsProvider,
  EMAIL_SERVICE_QUERY_KEY,
  EMAIL_SERVICE_TEXT,
  localDate,
  localTimeZone,
  serverMessage,
  useApi,
  useDrafts,
  useNotify,
} from '@dealscout/shared/ui';
import type { OutlookHost } from '../office/outlook';
import { insertedDraftActivity, subjectForInsert } from './compose';

export const COMPOSE_TEXT = {
  title: 'Draft with a play',
  replyTitle: 'Reply with a play',
  reply: 'Reply in Outlook',
  replied: 'Opened as a reply in Outlook',
  replyFailed: 'Could not open the reply in Outlook.',
  pick: 'Pick a play to write this email for',
  noPlays: 'No published plays yet. Create one in Dealscout\u2019s Playbook.',
  noRecipient: 'Add a recipient to draft this email with a play.',
  unknownRecipient: (email: string) => `${email} is not in Dealscout yet: add them below to draft with a play.`,
  generate: 'Generate',
  insert: 'Insert into email',
  replace: 'Replace the whole body',
  inserted: 'Inserted into your email',
  insertedLogged: (name: string) => `Logged on ${name}\u2019s activities. Send it from Outlook as usual.`,
  insertedNotLogged: (name: string) => `Not logged: ${name} has no company in Dealscout.`,
  sent: 'Sent from your mailbox',
  scheduled: 'Handed to scheduled sending',
  scheduledText: 'Dealscout sends it from your mailbox inside your send window; it is on the contact\u2019s activities.',
  sentText: 'It is on the contact\u2019s activities.',
  another: 'Draft another',
  openDrafts: 'Open drafts',
  connect: 'Connect Office 365',
  connectHint: 'Connect your Office 365 mailbox to send and schedule this email from Dealscout.',
  connected: 'Office 365 connected.',
  insertFailed: 'Could not insert the draft into the email.',
} as const;

const useStyles = makeStyles({
  card: { margin: tokens.spacingHorizontalM, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  title: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, '& > select, & > span': { minWidth: 0 } },
  grow: { flexGrow: 1, minWidth: 0 },
  hint: { color: tokens.colorNeutralForeground3 },
  drafts: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start' },
  panel: {
    margin: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    flexShrink: 0,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    overflow: 'hidden',
  },
  done: { margin: tokens.spacingHorizontalM },
  connectHint: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

export interface ComposeDraftProps {
  host: OutlookHost;
  /** The chosen recipient; null without recipients. */
  recipient: { email: string } | null;
  /** Its contact, or null when the recipient is not in Dealscout. */
  contact: MatchedContact | null;
  /** The subject of the message being written, as last read. */
  currentSubject: string;
  userId: string;
  /** Read mode: the draft becomes Outlook's reply to the email being read instead of being inserted. */
  reply?: boolean;
  /** Read mode: the email being read (its Graph id), so Send Now and Schedule answer it in its thread. */
  replyToMessageId?: string | null;
}

/** The drafts' state for the compose pane (the pending list, verification of a play's email). */
export function ComposeDraft(props: ComposeDraftProps) {
  return (
    <DraftsProvider userId={props.userId}>
      <ComposeDraftInner {...props} />
    </DraftsProvider>
  );
}

type Done = { kind: 'inserted' | 'replied'; logged: boolean } | { kind: 'sent' | 'scheduled' };

/**
 * The draft being written for the contact (created with Generate, or an open one picked), what became of it (done), and the
 * panel's expanded state. Another recipient starts again; a draft discarded from its panel goes back to the picker.
 */
function useDraftSelection(contact: MatchedContact | null) {
  const drafts = useDrafts()!;
  const [draftId, setDraftId] = useState<string | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const [expanded, setExpanded] = useState(true);
  const last = useRef<EmailDraftDto | null>(null);

  // Another recipient: start again.
  useEffect(() => {
    setDraftId(null);
    setDone(null);
    last.current = null;
  }, [contact?.id]);

  const listed = draftId ? (drafts.drafts.find((d) => d.channelEmailId === draftId) ?? null) : null;
  if (listed) last.current = listed;
  const draft = listed ?? last.current;
  // Discarded from its panel (it left the list without being sent, scheduled or inserted): back to the picker.
  useEffect(() => {
    if (draftId && !listed && !done && last.current && isDraftShown(last.current.status)) {
      setDraftId(null);
      last.current = null;
    }
  }, [draftId, listed, done]);

  const openDrafts = contact ? drafts.drafts.filter((d) => d.contact?.id === contact.id && d.channelEmailId !== draftId) : [];
  const onDraftChange = (d: EmailDraftDto) => {
    last.current = d;
    if (d.status === 'sent' || d.status === 'scheduled') setDone({ kind: d.status });
  };
  /** Shows a draft: one just created, or one of the contact's open drafts. */
  const openDraft = (d: EmailDraftDto) => {
    last.current = d;
    setDraftId(d.channelEmailId);
    setExpanded(true);
  };
  /** 'Draft another'. */
  const again = () => {
    setDone(null);
    setDraftId(null);
    last.current = null;
  };
  return { done, setDone, expanded, setExpanded, draft, openDrafts, onDraftChange, openDraft, again };
}

/** The play picked and Generate: a new draft for the contact (a reply starts as one), then the play's email written into it. */
function useGenerateDraft(
  o: Pick<ComposeDraftProps, 'contact' | 'currentSubject' | 'reply' | 'replyToMessageId'> & {
    setDone: (done: Done | null) => void;
    openDraft: (d: EmailDraftDto) => void;
  },
) {
  const { contact, reply } = o;
  const api = useApi();
  const notify = useNotify();
  const drafts = useDrafts()!;
  const [playId, setPlayId] = useState('');
  const [starting, setStarting] = useState(false);
  const generate = async () => {
    if (!contact || !playId) {
      notify.error(PLAY_MESSAGES.invalidSelection);
      return;
    }
    setStarting(true);
    o.setDone(null);
    try {
      // A reply starts as one: 'Re: <subject>' (a play writes the body, not the subject) and the
      // message it answers, so it leaves in the thread from whichever client sends it.
      const created = await drafts.create(
        reply
          ? { contactId: contact.id, replyTo: { subject: o.currentSubject, messageId: o.replyToMessageId ?? null } }
          : { contactId: contact.id },
      );
      if (!created) return;
      o.openDraft(created);
      try {
        const res = await api.emails.generate({ channelEmailId: created.channelEmailId, playId });
        drafts.update(res.email);
      } catch (e) {
        const message = serverMessage(e) ?? PLAY_MESSAGES.failed;
        notify.error(message);
        drafts.update({ ...created, status: 'error', statusMessage: message });
      }
    } finally {
      setStarting(false);
    }
  };
  return { playId, setPlayId, starting, generate };
}

function useComposeDraftState(o: Pick<ComposeDraftProps, 'contact' | 'currentSubject' | 'reply' | 'replyToMessageId'>) {
  const selection = useDraftSelection(o.contact);
  const generation = useGenerateDraft({ ...o, setDone: selection.setDone, openDraft: selection.openDraft });
  return { ...selection, ...generation };
}

/**
 * Insert (or, in read mode, open as Outlook's reply): the email then lives in Outlook, so Dealscout's copy is closed (it cannot
 * leave a second time) and an 'Other' activity is logged on the contact when it has a company.
 */
function useInsertDraft(o: {
  host: OutlookHost;
  contact: MatchedContact | null;
  currentSubject: string;
  reply: boolean | undefined;
  draft: EmailDraftDto | null;
  setDone: (done: Done) => void;
}) {
  const { host, reply, draft } = o;
  const api = useApi();
  const notify = useNotify();
  const drafts = useDrafts()!;
  const queryClient = useQueryClient();
  return async (edit: DraftEdit, flush: () => Promise<void>, replace: boolean) => {
    if (!draft) return;
    await flush();
    try {
      // A reply form takes the body only: Outlook gives it the thread's subject and the sender.
      if (reply) host.displayReplyForm(edit.body);
      else {
        const subject = subjectForInsert(o.currentSubject, edit.subject);
        if (subject !== null) await host.setSubject(subject);
        await (replace ? host.setBody(edit.body) : host.insertBody(edit.body));
      }
    } catch (e) {
      const failed = reply ? COMPOSE_TEXT.replyFailed : COMPOSE_TEXT.insertFailed;
      notify.error(e instanceof Error && e.message ? `${failed} ${e.message}` : failed);
      return;
    }
    // The email now lives in Outlook: Dealscout's copy is closed so it cannot leave a second time.
    let logged = false;
    const zone = localTimeZone();
    const activity = insertedDraftActivity(draft, edit, {
      companyId: o.contact?.primaryCompany?.id ?? null,
      today: (zone && todayIn(zone)) || localDate(),
      timezone: zone,
      via: reply ? 'reply' : 'insert',
    });
    try {
      if (activity) {
        await api.activities.create(activity);
        logged = true;
        void queryClient.invalidateQueries({ queryKey: ['activities'] });
      }
    } catch (e) {
      notify.error(serverMessage(e) ?? 'Could not log the activity.');
    }
    try {
      await api.emails.updateStatus({ id: draft.channelEmailId, status: 'cancelled' });
      drafts.remove(draft.channelEmailId);
    } catch (e) {
      notify.error(serverMessage(e) ?? EMAIL_MESSAGES.updateStatusFailed);
    }
    notify.success(reply ? COMPOSE_TEXT.replied : COMPOSE_TEXT.inserted);
    o.setDone({ kind: reply ? 'replied' : 'inserted', logged });
  };
}

function ComposeDraftInner({ host, recipient, contact, currentSubject, reply, replyToMessageId }: ComposeDraftProps) {
  const styles = useStyles();
  const api = useApi();
  const name = contact ? `${contact.firstName} ${contact.lastName}`.trim() || contact.email : '';

  const plays = useQuery({ queryKey: ['plays', 'published'], queryFn: async () => (await api.plays.published()).plays, staleTime: 30_000 });
  const c = useComposeDraftState({ contact, currentSubject, reply, replyToMessageId });
  const { done, draft } = c;
  const insert = useInsertDraft({ host, contact, currentSubject, reply, draft, setDone: c.setDone });

  if (!recipient) return <ComposeHint state="no-recipient" text={COMPOSE_TEXT.noRecipient} />;
  if (!contact) return <ComposeHint state="unknown" text={COMPOSE_TEXT.unknownRecipient(recipient.email)} />;
  if (done) return <ComposeDone done={done} name={name} onAnother={c.again} />;

  if (draft) {
    return (
      <div className={styles.panel} data-testid="compose-draft" data-state="draft">
        <DraftPanel
          draft={draft}
          expanded={c.expanded}
          onExpandedChange={c.setExpanded}
          fullWidth
          embedded
          onDraftChange={c.onDraftChange}
          replyToMessageId={reply ? (replyToMessageId ?? null) : null}
          actions={({ edit, flush }) => (
            <>
              {reply ? (
                <Button
                  size="small"
                  appearance="primary"
                  icon={<ArrowReplyRegular />}
                  disabled={draft.status === 'processing' || !htmlText(edit.body)}
                  onClick={() => void insert(edit, flush, false)}
                  data-testid="compose-reply"
                >
                  {COMPOSE_TEXT.reply}
                </Button>
              ) : (
                <InsertButton
                  disabled={draft.status === 'processing' || !htmlText(edit.body)}
                  onInsert={(replace) => insert(edit, flush, replace)}
                />
              )}
              <ConnectMailbox host={host} />
            </>
          )}
        />
      </div>
    );
  }

  return <PlayPicker {...{ reply, name, plays, c }} />;
}

/** Nothing to draft yet: no recipient, or one not in Dealscout. */
function ComposeHint({ state, text }: { state: 'no-recipient' | 'unknown'; text: string }) {
  const styles = useStyles();
  return (
    <Card className={styles.card} data-testid="compose-draft" data-state={state}>
      <div className={styles.title}>
        <SparkleRegular />
        <Text weight="semibold">{COMPOSE_TEXT.title}</Text>
      </div>
      <Text size={200} className={styles.hint}>
        {text}
      </Text>
    </Card>
  );
}

/** What became of the draft (inserted, opened as a reply, sent or scheduled), and 'Draft another'. */
function ComposeDone({ done, name, onAnother }: { done: Done; name: string; onAnother: () => void }) {
  const styles = useStyles();
  const title =
    done.kind === 'inserted'
      ? COMPOSE_TEXT.inserted
      : done.kind === 'replied'
        ? COMPOSE_TEXT.replied
        : done.kind === 'sent'
          ? COMPOSE_TEXT.sent
          : COMPOSE_TEXT.scheduled;
  const text =
    done.kind === 'inserted' || done.kind === 'replied'
      ? done.logged
        ? COMPOSE_TEXT.insertedLogged(name)
        : COMPOSE_TEXT.insertedNotLogged(name)
      : done.kind === 'sent'
        ? COMPOSE_TEXT.sentText
        : COMPOSE_TEXT.scheduledText;
  return (
    <MessageBar intent="success" layout="multiline" className={styles.done} data-testid="compose-done" data-kind={done.kind}>
      <MessageBarBody>
        <MessageBarTitle>{title}</MessageBarTitle>
        {text}
      </MessageBarBody>
      <MessageBarActions>
        <Button size="small" onClick={onAnother} data-testid="compose-another">
          {COMPOSE_TEXT.another}
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}

/** The play picker with Generate, and the contact's open drafts. */
function PlayPicker(props: {
  reply: boolean | undefined;
  name: string;
  plays: { isPending: boolean; data?: readonly { id: string; name: string }[] };
  c: ReturnType<typeof useComposeDraftState>;
}) {
  const { plays, c } = props;
  const styles = useStyles();
  const list = plays.data ?? [];
  return (
    <Card className={styles.card} data-testid="compose-draft" data-state="pick">
      <div className={styles.title}>
        <SparkleRegular />
        <Text weight="semibold">{props.reply ? COMPOSE_TEXT.replyTitle : COMPOSE_TEXT.title}</Text>
      </div>
      <Text size={200} className={styles.hint}>{`${COMPOSE_TEXT.pick}: ${props.name}`}</Text>
      {plays.isPending ? (
        <Spinner aria-label="Loading" size="tiny" />
      ) : list.length === 0 ? (
        <Text size={200} data-testid="compose-no-plays">
          {COMPOSE_TEXT.noPlays}
        </Text>
      ) : (
        <div className={styles.row}>
          <Select
            className={styles.grow}
            size="small"
            value={c.playId}
            aria-label="Play"
            onChange={(_, d) => c.setPlayId(d.value)}
            data-testid="compose-play"
          >
            <option value="">Select a play</option>
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </Select>
          <Button
            size="small"
            appearance="primary"
            icon={c.starting ? <Spinner aria-label="Loading" size="tiny" /> : <SparkleRegular />}
            disabled={!c.playId || c.starting}
            onClick={() => void c.generate()}
            data-testid="compose-generate"
          >
            {COMPOSE_TEXT.generate}
          </Button>
        </div>
      )}
      {c.openDrafts.length > 0 && (
        <div className={styles.drafts} data-testid="compose-open-drafts">
          <Text size={200} className={styles.hint}>
            {COMPOSE_TEXT.openDrafts}
          </Text>
          {c.openDrafts.slice(0, 5).map((d) => (
            <Button
              key={d.channelEmailId}
              size="small"
              appearance="transparent"
              onClick={() => c.openDraft(d)}
              data-testid="compose-open-draft"
            >
              {d.subject || '(no subject)'}
            </Button>
          ))}
        </div>
      )}
    </Card>
  );
}

function InsertButton({ disabled, onInsert }: { disabled: boolean; onInsert: (replace: boolean) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const run = async (replace: boolean) => {
    setBusy(true);
    try {
      await onInsert(replace);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Menu positioning="below-start">
      <MenuTrigger disableButtonEnhancement>
        {(triggerProps: MenuButtonProps) => (
          <SplitButton
            size="small"
            appearance="primary"
            disabled={disabled || busy}
            menuButton={{ ...triggerProps, 'aria-label': 'More ways to insert' } as MenuButtonProps}
            primaryActionButton={{ onClick: () => void run(false), 'data-testid': 'compose-insert' } as never}
            icon={busy ? <Spinner aria-label="Loading" size="tiny" /> : <MailArrowUpRegular />}
          >
            {COMPOSE_TEXT.insert}
          </SplitButton>
        )}
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem onClick={() => void run(true)} data-testid="compose-replace">
            {COMPOSE_TEXT.replace}
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/**
 * Without a connected Office 365 mailbox the send controls show 'Office 365 integration not
 * found.' (or the expired notice) and stay disabled; this is the way to connect it from Outlook:
 * Microsoft's consent page in an Office dialog, which reports back when the server is done.
 */
function ConnectMailbox({ host }: { host: OutlookHost }) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: EMAIL_SERVICE_QUERY_KEY, queryFn: () => api.emailService.status(), staleTime: 60_000 });
  const [busy, setBusy] = useState(false);
  const s = status.data;
  if (!s || s.banner?.level !== 'error') return null;
  if (!s.configured)
    return (
      <Text className={styles.connectHint} data-testid="compose-connect-unavailable">
        {EMAIL_SERVICE_TEXT.notConfigured}
      </Text>
    );
  const connect = async () => {
    setBusy(true);
    try {
      const { authorizeUrl } = await api.emailService.connect({ returnTo: '/addin/connected.html' });
      const outcome = await host.openDialog(authorizeUrl, { width: 40, height: 70 });
      if (outcome === 'connected') notify.success(COMPOSE_TEXT.connected);
      else if (outcome === 'error') notify.error(EMAIL_SERVICE_TEXT.connectFailed);
    } catch (e) {
      notify.error(serverMessage(e) ?? (e instanceof Error && e.message ? e.message : EMAIL_SERVICE_TEXT.connectFailed));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: EMAIL_SERVICE_QUERY_KEY });
    }
  };
  return (
    <Tooltip content={COMPOSE_TEXT.connectHint} relationship="description">
      <Button
        size="small"
        icon={busy ? <Spinner aria-label="Loading" size="tiny" /> : <PlugConnectedRegular />}
        disabled={busy}
        onClick={() => void connect()}
        data-testid="compose-connect"
      >
        {s.integration ? 'Re Authenticate' : COMPOSE_TEXT.connect}
      </Button>
    </Tooltip>
  );
}
