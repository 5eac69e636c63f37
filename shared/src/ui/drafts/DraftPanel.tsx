// One floating draft-email panel (spec 000 §2 'Floating draft-email panels', §4 'Generating an AI
// email', 'Discard', 'Auto-save', §5): from, to, cc (the Cc toggle is showToFromCC), subject, the
// rich body, a play selector with Generate / Regenerate, the send controls
// (DraftSendControls), Discard, the 'Error' / 'Send Error' / 'Warning' banners, a spinner over the
// panel while the status is ready, inqueue or processing, and 'Why this email' (what made an AI
// email: the play and its version, the model, the values that went in and the rendered prompt).
// Changes to to, subject or body are saved 500 ms after the last one.
import { Suspense, lazy, useCallback, useEffect, useRef, useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Select,
  Spinner,
  Text,
  Tooltip,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { ChevronUpRegular, DeleteRegular, DismissRegular, InfoRegular, SparkleRegular, SubtractRegular } from '@fluentui/react-icons';
import type { EmailDraftDto } from '../../contracts';
import {
  DRAFT_AUTOSAVE_MS,
  DRAFT_PANEL,
  EMAIL_MESSAGES,
  PLAY_MESSAGES,
  draftBanners,
  draftChanges,
  generateAction,
  invalidCc,
  isDraftBusy,
  isDraftReadOnly,
  isValidEmail,
  sameBody,
  type DraftEdit,
} from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { ConfirmDialog } from '../ConfirmDialog';
import { TagsInput } from '../TagsInput';
import { DraftSendControls } from '../email/DraftSendControls';
import { useDrafts } from './DraftsContext';

// The editor (Tiptap, ≈300 kB) loads with the first expanded panel, not with the page.
const DraftBodyEditor = lazy(() => import('./DraftBodyEditor').then((m) => ({ default: m.DraftBodyEditor })));

export const CC_INVALID = 'Cc accepts only valid email addresses.';
export const WHY_THIS_EMAIL = 'Why this email';
export const DISCARD_TITLE = 'Discard this draft?';
export const DISCARD_MESSAGE = 'The draft is removed and cannot be opened again.';
export const REGENERATE_TITLE = 'Regenerate this email?';
export const regenerateMessage = (play: string) => `The subject and body are replaced by a new email written by "${play}".`;

const useStyles = makeStyles({
  panel: {
    position: 'relative',
    display: 'flex',
    flexDirection: 'column',
    boxSizing: 'border-box',
    width: `${DRAFT_PANEL.width}px`,
    height: `${DRAFT_PANEL.height}px`,
    maxWidth: 'calc(100vw - 20px)',
    maxHeight: 'calc(100vh - 60px)',
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow28,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderBottom: 'none',
    borderRadius: `${tokens.borderRadiusLarge} ${tokens.borderRadiusLarge} 0 0`,
    pointerEvents: 'auto',
  },
  minimised: { width: `${DRAFT_PANEL.minimisedWidth}px`, height: 'auto' },
  plugin: { width: '100%', maxWidth: '100%' },
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    minHeight: `${DRAFT_PANEL.minimisedHeight}px`,
    padding: `0 ${tokens.spacingHorizontalS} 0 ${tokens.spacingHorizontalM}`,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: `${tokens.borderRadiusLarge} ${tokens.borderRadiusLarge} 0 0`,
    cursor: 'pointer',
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  headerText: {
    flexGrow: 1,
    minWidth: 0,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    fontWeight: tokens.fontWeightSemibold,
  },
  saveState: { fontSize: tokens.fontSizeBase100, color: tokens.colorNeutralForeground3, whiteSpace: 'nowrap' },
  body: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    flexGrow: 1,
    minHeight: 0,
    overflowY: 'auto',
  },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  label: { width: '56px', flexShrink: 0, color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  grow: { flexGrow: 1, minWidth: 0 },
  from: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', fontSize: tokens.fontSizeBase200 },
  editor: { minHeight: '160px' },
  why: {
    flexGrow: 1,
    minHeight: '160px',
    overflowY: 'auto',
    padding: tokens.spacingHorizontalM,
    fontSize: tokens.fontSizeBase200,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  prompt: { whiteSpace: 'pre-wrap', fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase100, margin: 0 },
  values: { margin: `${tokens.spacingVerticalXS} 0`, paddingLeft: '18px' },
  footer: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  wrapRow: { flexWrap: 'wrap', rowGap: tokens.spacingVerticalXS },
  playSelect: { flex: '1 1 140px', minWidth: 0 },
  sendControls: { flex: '1 1 auto', minWidth: 0 },
  embedded: { height: 'auto', maxHeight: 'none', boxShadow: 'none', border: 'none', borderRadius: 0 },
  embeddedHeader: { borderRadius: 0 },
  embeddedBody: { overflowY: 'visible' },
  actions: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  overlay: {
    position: 'absolute',
    inset: '36px 0 0 0',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    zIndex: 2,
    backgroundColor: 'rgba(255, 255, 255, 0.7)',
  },
});

const editOf = (d: EmailDraftDto): DraftEdit => ({
  to: d.to,
  cc: [...d.cc],
  subject: d.subject,
  body: d.emailBody,
  showToFromCC: d.showToFromCC,
});
const FIELDS = ['to', 'cc', 'subject', 'body', 'showToFromCC'] as const;
const same = (a: DraftEdit, b: DraftEdit, f: (typeof FIELDS)[number]) =>
  f === 'cc' ? a.cc.join('\n') === b.cc.join('\n') : f === 'body' ? sameBody(a.body, b.body) : a[f] === b[f];

export interface DraftPanelProps {
  draft: EmailDraftDto;
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
  /** Takes the panel out of the dock (the draft stays; its record's Activities tab opens it again). */
  onClose?: () => void;
  /** Under a plugin the panel takes the full width. */
  fullWidth?: boolean;
  /** Laid out in its host's flow (the Outlook compose pane) instead of floating: no fixed height or shadow. */
  embedded?: boolean;
  /** A host's own actions (the add-in's 'Insert into email'), in a row above the send controls; `flush` saves what is waiting first. */
  actions?: (ctx: { edit: DraftEdit; flush: () => Promise<void> }) => ReactNode;
  /** Every new state of the draft this panel learns (saved, generated, sent, scheduled). */
  onDraftChange?: (draft: EmailDraftDto) => void;
  /** Sending answers this received message, in its thread (the Outlook pane's reply; its Graph id). */
  replyToMessageId?: string | null;
}

type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'failed';

export const CLOSE_PANEL_HINT = 'Close (the draft is kept: open it again from its contact or company)';

/** Tells the dock (DraftsContext) and the host of every new state of the draft. */
function useReportDraft(onDraftChange: ((draft: EmailDraftDto) => void) | undefined) {
  const drafts = useDrafts();
  const onChangeRef = useRef(onDraftChange);
  onChangeRef.current = onDraftChange;
  return useCallback(
    (d: EmailDraftDto) => {
      drafts?.update(d);
      onChangeRef.current?.(d);
    },
    [drafts],
  );
}

/**
 * The fields being edited and their auto-save: a change is saved DRAFT_AUTOSAVE_MS after the last one, closing the page or the
 * panel saves what is waiting, and a new state of the draft from the server is adopted in every field not being edited.
 */
function useDraftAutosave(draft: EmailDraftDto, report: (d: EmailDraftDto) => void) {
  const api = useApi();
  const notify = useNotify();
  const id = draft.channelEmailId;
  const [edit, setEdit] = useState<DraftEdit>(() => editOf(draft));
  const editRef = useRef(edit);
  editRef.current = edit;
  /** What the server holds (as far as this panel knows). */
  const saved = useRef<DraftEdit>(editOf(draft));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [saveState, setSaveState] = useState<SaveState>('idle');

  // The server's draft changed (a save's answer, a generated email): adopt every field not being edited.
  useEffect(() => {
    const server = editOf(draft);
    // What was saved before this answer (the updater may run after saved.current moves on below).
    const before = saved.current;
    setEdit((cur) => adoptServer(cur, before, server));
    saved.current = server;
  }, [draft]);

  const flush = useCallback(async () => {
    if (timer.current) {
      clearTimeout(timer.current);
      timer.current = null;
    }
    const changes = draftChanges(saved.current, editRef.current);
    if (Object.keys(changes).length === 0) {
      setSaveState((s) => (s === 'pending' ? 'saved' : s));
      return;
    }
    const before = saved.current;
    saved.current = { ...saved.current, ...changes };
    setSaveState('saving');
    try {
      const res = await api.emails.save(id, changes);
      report(res.email);
      setSaveState('saved');
    } catch (e) {
      saved.current = before;
      setSaveState('failed');
      notify.error(serverMessage(e) ?? EMAIL_MESSAGES.invalidEmailInfo);
    }
  }, [api, id, report, notify]);
  const flushRef = useRef(flush);
  flushRef.current = flush;

  const change = (patch: Partial<DraftEdit>) => {
    setEdit((cur) => ({ ...cur, ...patch }));
    editRef.current = { ...editRef.current, ...patch };
    setSaveState('pending');
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flushRef.current(), DRAFT_AUTOSAVE_MS);
  };
  // Closing the page or the panel saves what is waiting.
  useEffect(() => {
    const onHide = () => {
      if (timer.current) void flushRef.current();
    };
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      onHide();
    };
  }, []);
  /** Drops the save that is waiting (the draft is being discarded). */
  const cancelPending = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  return { edit, change, flush, saveState, cancelPending };
}

/** The fields the server changed and this panel did not: `cur` with those taken from `server` (itself if none). */
function adoptServer(cur: DraftEdit, before: DraftEdit, server: DraftEdit): DraftEdit {
  const next = { ...cur } as DraftEdit;
  let changed = false;
  for (const f of FIELDS) {
    if (same(cur, before, f) && !same(cur, server, f)) {
      (next as unknown as Record<string, unknown>)[f] = f === 'cc' ? [...server.cc] : server[f];
      changed = true;
    }
  }
  return changed ? next : cur;
}

/** The play selector and Generate / Regenerate (spec 000 §4 'Generating an AI email'), and Discard. */
function useDraftActions(o: {
  draft: EmailDraftDto;
  expanded: boolean;
  edit: DraftEdit;
  flush: () => Promise<void>;
  cancelPending: () => void;
  report: (d: EmailDraftDto) => void;
}) {
  const { draft, flush, report } = o;
  const api = useApi();
  const notify = useNotify();
  const drafts = useDrafts();
  const id = draft.channelEmailId;
  const plays = useQuery({
    queryKey: ['plays', 'published'],
    queryFn: async () => (await api.plays.published()).plays,
    staleTime: 30_000,
    enabled: o.expanded,
  });
  const [playId, setPlayId] = useState<string>(draft.play?.id ?? '');
  useEffect(() => {
    if (draft.play?.id) setPlayId(draft.play.id);
  }, [draft.play?.id]);
  const action = generateAction({
    playId: playId || null,
    to: o.edit.to,
    status: draft.status,
    body: o.edit.body,
    isAiEmailGenerated: draft.isAiEmailGenerated,
    hasPlay: !!draft.play,
  });
  const generate = async () => {
    if (!playId) {
      notify.error(PLAY_MESSAGES.invalidSelection);
      return;
    }
    await flush();
    try {
      const res = await api.emails.generate({ channelEmailId: id, playId });
      report(res.email);
    } catch (e) {
      // Server messages are toasts and the draft's status message (spec 000 §7).
      const message = serverMessage(e) ?? PLAY_MESSAGES.failed;
      notify.error(message);
      report({ ...draft, status: 'error', statusMessage: message });
    }
  };
  const discard = async () => {
    o.cancelPending();
    try {
      await api.emails.updateStatus({ id, status: 'cancelled' });
      drafts?.remove(id);
    } catch (e) {
      const message = serverMessage(e) ?? EMAIL_MESSAGES.cancelFailed;
      notify.error(EMAIL_MESSAGES.cancelFailed);
      throw new Error(message, { cause: e });
    }
  };
  const playName = (plays.data ?? []).find((p) => p.id === playId)?.name ?? draft.play?.name ?? '';
  return { plays: plays.data ?? [], playId, setPlayId, action, generate, discard, playName };
}

function saveLabelOf(saveState: SaveState): string {
  return saveState === 'saving' || saveState === 'pending'
    ? 'Saving…'
    : saveState === 'saved'
      ? 'Saved'
      : saveState === 'failed'
        ? 'Not saved'
        : '';
}

export function DraftPanel({
  draft,
  expanded,
  onExpandedChange,
  onClose,
  fullWidth,
  embedded,
  actions,
  onDraftChange,
  replyToMessageId,
}: DraftPanelProps) {
  const styles = useStyles();
  const id = draft.channelEmailId;
  const report = useReportDraft(onDraftChange);
  const readOnly = isDraftReadOnly(draft.status);
  const busy = isDraftBusy(draft.status);
  const { edit, change, flush, saveState, cancelPending } = useDraftAutosave(draft, report);
  const draftActions = useDraftActions({ draft, expanded, edit, flush, cancelPending, report });
  const [confirm, setConfirm] = useState<'regenerate' | 'discard' | null>(null);
  const [why, setWhy] = useState(false);

  const badCc = invalidCc(edit.cc);
  const title = draft.title || edit.to || 'New email';
  const header = <DraftHeader {...{ title, busy, expanded, onExpandedChange, onClose, embedded }} saveLabel={saveLabelOf(saveState)} />;

  if (!expanded) {
    return (
      <section
        className={mergeClasses(styles.panel, styles.minimised, fullWidth && styles.plugin, embedded && styles.embedded)}
        aria-label={`Draft to ${title}`}
        data-testid="draft-panel"
        data-id={id}
        data-status={draft.status}
        data-expanded="false"
      >
        {header}
      </section>
    );
  }

  return (
    <section
      className={mergeClasses(styles.panel, fullWidth && styles.plugin, embedded && styles.embedded)}
      aria-label={`Draft to ${title}`}
      aria-busy={busy}
      data-testid="draft-panel"
      data-id={id}
      data-status={draft.status}
      data-expanded="true"
      data-error={badCc.length > 0 || draft.status === 'error' ? 'true' : 'false'}
    >
      {header}
      <DraftBody
        {...{ draft, edit, change, readOnly, badCc, embedded, why, setWhy }}
        actions={draftActions}
        onGenerate={() => (draftActions.action.label === 'Regenerate' ? setConfirm('regenerate') : void draftActions.generate())}
      />
      {actions && (
        <div className={styles.actions} data-testid="draft-actions">
          {actions({ edit, flush })}
        </div>
      )}
      <DraftFooter draft={draft} report={report} replyToMessageId={replyToMessageId} onDiscard={() => setConfirm('discard')} />
      {busy && (
        <div className={styles.overlay} data-testid="draft-busy">
          <Spinner label={draft.status === 'processing' ? 'Writing the email…' : 'Sending…'} />
        </div>
      )}
      <DraftConfirmDialogs confirm={confirm} setConfirm={setConfirm} actions={draftActions} />
    </section>
  );
}

/** The band: title, save state, Minimise / Expand and Close. */
function DraftHeader(props: {
  title: string;
  busy: boolean;
  expanded: boolean;
  saveLabel: string;
  embedded: boolean | undefined;
  onExpandedChange: (expanded: boolean) => void;
  onClose: (() => void) | undefined;
}) {
  const { title, expanded, saveLabel, onExpandedChange, onClose } = props;
  const styles = useStyles();
  return (
    <div
      className={mergeClasses(styles.header, props.embedded && styles.embeddedHeader)}
      // A click anywhere on the band toggles it (a pointer convenience); the keyboard and screen
      // readers use the Minimise / Expand button, so no control is nested in another.
      onClick={() => onExpandedChange(!expanded)}
      data-testid="draft-panel-header"
    >
      {props.busy && <Spinner size="extra-tiny" aria-label="Writing the email" />}
      <span className={styles.headerText} title={title} data-testid="draft-panel-title">
        {title}
      </span>
      {expanded && saveLabel && (
        <span className={styles.saveState} data-testid="draft-save-state">
          {saveLabel}
        </span>
      )}
      <Tooltip content={expanded ? 'Minimise' : 'Expand'} relationship="label">
        <Button
          appearance="subtle"
          size="small"
          icon={expanded ? <SubtractRegular /> : <ChevronUpRegular />}
          aria-expanded={expanded}
          onClick={(e) => {
            e.stopPropagation();
            onExpandedChange(!expanded);
          }}
          data-testid="draft-panel-toggle"
        />
      </Tooltip>
      {onClose && (
        <Tooltip content={CLOSE_PANEL_HINT} relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={<DismissRegular />}
            onClick={(e) => {
              e.stopPropagation();
              onClose();
            }}
            data-testid="draft-panel-close"
          />
        </Tooltip>
      )}
    </div>
  );
}

/** The banners, the fields, the play row, and the body's editor or 'Why this email'. */
function DraftBody(props: {
  draft: EmailDraftDto;
  edit: DraftEdit;
  change: (patch: Partial<DraftEdit>) => void;
  readOnly: boolean;
  badCc: readonly string[];
  embedded: boolean | undefined;
  why: boolean;
  setWhy: Dispatch<SetStateAction<boolean>>;
  actions: ReturnType<typeof useDraftActions>;
  onGenerate: () => void;
}) {
  const { draft, edit, change, readOnly, badCc, why } = props;
  const styles = useStyles();
  // The panel shows the draft's own 'Error'; the mailbox's banners are the send controls' (from
  // GET /email/service-status, pushed into every draft there).
  const banners = draftBanners(draft, null);
  return (
    <div className={mergeClasses(styles.body, props.embedded && styles.embeddedBody)}>
      <DraftBanners banners={banners} />
      <DraftAddressFields from={draft.from} edit={edit} change={change} readOnly={readOnly} badCc={badCc} />
      <DraftPlayRow {...{ draft, readOnly, why }} setWhy={props.setWhy} actions={props.actions} onGenerate={props.onGenerate} />
      {why && draft.provenance ? (
        <WhyThisEmail draft={draft} provenance={draft.provenance} />
      ) : (
        <Suspense fallback={<Spinner aria-label="Loading" size="small" className={styles.editor} />}>
          <DraftBodyEditor
            className={styles.editor}
            value={edit.body}
            readOnly={readOnly}
            onChange={(body) => change({ body })}
            placeholder="Write your email, or generate it with a play"
          />
        </Suspense>
      )}
    </div>
  );
}

function DraftBanners({ banners }: { banners: ReturnType<typeof draftBanners> }) {
  return (
    <>
      {banners.map((b) => (
        <MessageBar key={b.heading} intent={b.level} data-testid={`draft-banner-${b.level}`}>
          <MessageBarBody>
            <MessageBarTitle>{b.heading}</MessageBarTitle>
            {b.message}
          </MessageBarBody>
        </MessageBar>
      ))}
    </>
  );
}

/** From (with the Cc toggle), To, Cc and Subject. */
function DraftAddressFields(props: {
  from: string;
  edit: DraftEdit;
  change: (patch: Partial<DraftEdit>) => void;
  readOnly: boolean;
  badCc: readonly string[];
}) {
  const { edit, change, readOnly, badCc } = props;
  const styles = useStyles();
  return (
    <>
      <div className={styles.row}>
        <span className={styles.label}>From</span>
        <span className={styles.from} data-testid="draft-from">
          {props.from}
        </span>
        <Button
          appearance="transparent"
          size="small"
          disabled={readOnly}
          onClick={() => change({ showToFromCC: !edit.showToFromCC })}
          aria-pressed={edit.showToFromCC}
          data-testid="draft-cc-toggle"
        >
          Cc
        </Button>
      </div>
      <div className={styles.row}>
        <span className={styles.label}>To</span>
        <Input
          className={styles.grow}
          size="small"
          type="email"
          value={edit.to}
          disabled={readOnly}
          aria-label="To"
          aria-invalid={edit.to !== '' && !isValidEmail(edit.to)}
          onChange={(_, d) => change({ to: d.value.trim() === '' ? '' : d.value })}
          data-testid="draft-to"
        />
      </div>
      {edit.showToFromCC && (
        <Field validationState={badCc.length > 0 ? 'error' : 'none'} validationMessage={badCc.length > 0 ? CC_INVALID : undefined}>
          <div className={styles.row}>
            <span className={styles.label}>Cc</span>
            <div className={styles.grow}>
              <TagsInput
                value={edit.cc}
                onChange={(cc) => change({ cc })}
                isValid={isValidEmail}
                disabled={readOnly}
                aria-label="Cc"
                placeholder="Add addresses"
                data-testid="draft-cc"
              />
            </div>
          </div>
        </Field>
      )}
      <div className={styles.row}>
        <span className={styles.label}>Subject</span>
        <Input
          className={styles.grow}
          size="small"
          value={edit.subject}
          disabled={readOnly}
          aria-label="Subject"
          onChange={(_, d) => change({ subject: d.value })}
          data-testid="draft-subject"
        />
      </div>
    </>
  );
}

/** The play selector, Generate / Regenerate and the 'Why this email' toggle. */
function DraftPlayRow(props: {
  draft: EmailDraftDto;
  readOnly: boolean;
  actions: ReturnType<typeof useDraftActions>;
  onGenerate: () => void;
  why: boolean;
  setWhy: Dispatch<SetStateAction<boolean>>;
}) {
  const { draft, actions, why } = props;
  const { plays, action } = actions;
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.row, styles.wrapRow)}>
      <span className={styles.label}>Play</span>
      <Select
        className={styles.playSelect}
        size="small"
        value={actions.playId}
        disabled={props.readOnly}
        aria-label="Play"
        onChange={(_, d) => actions.setPlayId(d.value)}
        data-testid="draft-play"
      >
        <option value="">Select a play</option>
        {/* The draft's own play stays selectable even when it is no longer published. */}
        {draft.play && !plays.some((p) => p.id === draft.play!.id) && <option value={draft.play.id}>{draft.play.name}</option>}
        {plays.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </Select>
      <Button
        size="small"
        appearance={action.label === 'Generate' ? 'primary' : 'secondary'}
        icon={<SparkleRegular />}
        disabled={action.disabled}
        onClick={props.onGenerate}
        data-testid="draft-generate"
      >
        {action.label}
      </Button>
      {draft.provenance && (
        <Tooltip content={WHY_THIS_EMAIL} relationship="label">
          <Button
            size="small"
            appearance={why ? 'primary' : 'subtle'}
            icon={<InfoRegular />}
            aria-pressed={why}
            onClick={() => props.setWhy((w) => !w)}
            data-testid="draft-why-toggle"
          />
        </Tooltip>
      )}
    </div>
  );
}

/** What made an AI email: the play and its version, the model, the values that went in and the rendered prompt. */
function WhyThisEmail({ draft, provenance }: { draft: EmailDraftDto; provenance: NonNullable<EmailDraftDto['provenance']> }) {
  const styles = useStyles();
  const version = provenance.playVersion != null ? ` (version ${provenance.playVersion})` : '';
  return (
    <div className={styles.why} data-testid="draft-why">
      <Text weight="semibold" block>
        {WHY_THIS_EMAIL}
      </Text>
      <Text block size={200}>
        {`Play: ${draft.play?.name ?? 'removed play'}${version}`}
        {` · ${provenance.model ? `Model: ${provenance.model}` : 'Template (no model)'}`}
      </Text>
      {provenance.values.length > 0 && (
        <ul className={styles.values} data-testid="draft-why-values">
          {provenance.values.map((v) => (
            <li key={v.box}>
              <strong>{v.label}</strong>
              {`: ${v.value}`}
            </li>
          ))}
        </ul>
      )}
      <Text block size={200} weight="semibold">
        Prompt
      </Text>
      <pre className={styles.prompt} data-testid="draft-why-prompt">
        {provenance.renderedPrompt}
      </pre>
    </div>
  );
}

/** The send controls and Discard. */
function DraftFooter(props: {
  draft: EmailDraftDto;
  report: (d: EmailDraftDto) => void;
  replyToMessageId: string | null | undefined;
  onDiscard: () => void;
}) {
  const { draft } = props;
  const styles = useStyles();
  return (
    <div className={styles.footer}>
      <div className={styles.sendControls}>
        <DraftSendControls draft={draft} onChange={props.report} replyToMessageId={props.replyToMessageId} />
      </div>
      <Button
        size="small"
        appearance="subtle"
        icon={<DeleteRegular />}
        disabled={draft.status === 'sent' || draft.status === 'scheduled'}
        onClick={props.onDiscard}
        data-testid="draft-discard"
      >
        Discard
      </Button>
    </div>
  );
}

/** The confirmations of Regenerate and Discard. */
function DraftConfirmDialogs(props: {
  confirm: 'regenerate' | 'discard' | null;
  setConfirm: (confirm: 'regenerate' | 'discard' | null) => void;
  actions: ReturnType<typeof useDraftActions>;
}) {
  const { confirm, setConfirm, actions } = props;
  return (
    <>
      <ConfirmDialog
        open={confirm === 'regenerate'}
        type="regenerate"
        title={REGENERATE_TITLE}
        message={regenerateMessage(actions.playName)}
        onConfirm={async () => {
          setConfirm(null);
          await actions.generate();
        }}
        onCancel={() => setConfirm(null)}
        data-testid="draft-regenerate-dialog"
      />
      <ConfirmDialog
        open={confirm === 'discard'}
        type="warning"
        title={DISCARD_TITLE}
        message={DISCARD_MESSAGE}
        confirmLabel="Discard"
        onConfirm={async () => {
          await actions.discard();
          setConfirm(null);
        }}
        onCancel={() => setConfirm(null)}
        data-testid="draft-discard-dialog"
      />
    </>
  );
}
