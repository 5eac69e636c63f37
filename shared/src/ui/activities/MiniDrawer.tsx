// The mini drawer (spec 000 §2 'Mini drawer', §5 'Activity save', §9): fixed at the bottom right,
// about 399 px wide (the full width under a plugin), tabs 'Run Play' and 'Log Activity', a footer
// with Close and Save (Save only on Log Activity). Log Activity: the type dropdown, company and
// contact pickers with 'Create New Company' / 'Create New Contact', a date that cannot be in the
// past, the text (12 rows, 17 with the options hidden) and the options toggle. Server messages
// are shown as toasts. Run Play: the shared play list (search, pick, cost, run) on one record.
import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Select,
  Spinner,
  Tab,
  TabList,
  Text,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ChevronDownRegular, ChevronUpRegular } from '@fluentui/react-icons';
import { ACTIVITY_MESSAGES, LOG_ACTIVITY_OPTIONS, activitySaveProblem } from '../../domain';
import { useApi, queryKeys } from '../ApiContext';
import { usePluginMode } from '../PluginMode';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { CompanyDialog } from '../dialogs/CompanyDialog';
import { ContactDialog } from '../dialogs/ContactDialog';
import type { PickedRecord } from '../dialogs/RecordFormFields';
import { invalidateActivity } from '../realtime/cache';
import { ParticipantPicker } from './ParticipantPicker';
import { MINI_DRAWER_TABS, useMiniDrawer, type MiniDrawerTab, type RunPlayTarget } from './MiniDrawerContext';
import { RunPlayList } from '../plays/RunPlayPopover';
import { localDate, localTimeZone } from './activity-view';

export const MINI_DRAWER_WIDTH = 399;
export const PLAY_LIST_MAX_HEIGHT = 300;
export const LOG_TEXT_ROWS = 12;
export const LOG_TEXT_ROWS_WIDE = 17;
export const NO_PLAYS = 'No published plays yet. Create one to write emails for this record.';
export const RUN_PLAY_NO_TARGET = 'Open a company or a contact in the drawer to run a play on it.';
export const SELECT_ACTIVITY = 'Select activity';
export const LOG_PLACEHOLDER = 'What happened? Notes, outcomes, next steps...';

const useStyles = makeStyles({
  root: {
    position: 'fixed',
    bottom: 0,
    zIndex: 20,
    display: 'flex',
    flexDirection: 'column',
    maxHeight: 'calc(100vh - 64px)',
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderBottom: 'none',
    borderRadius: `${tokens.borderRadiusLarge} ${tokens.borderRadiusLarge} 0 0`,
    boxShadow: tokens.shadow28,
  },
  tabs: {
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  body: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    overflowY: 'auto',
    minHeight: 0,
  },
  footer: {
    display: 'flex',
    justifyContent: 'flex-end',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  toggle: { alignSelf: 'flex-start', paddingLeft: 0 },
  textarea: { width: '100%' },
  center: { display: 'flex', justifyContent: 'center', padding: '24px' },
});

export interface MiniDrawerProps {
  /** Opens the new-play screen (/playbooks/new in the web app). */
  onNewPlay?: () => void;
  /** Owner preselected in the create modals (the signed-in user). */
  defaultOwnerId?: string | null;
  /** Pixels kept free on the right (the detail drawer's width when it is open). */
  offsetRight?: number;
  /** The record Run Play runs on when the mini drawer was not opened for one (the detail drawer's). */
  runPlayTarget?: RunPlayTarget | null;
}

/** Renders nothing while closed. Needs a MiniDrawerProvider above it. */
export function MiniDrawer(props: MiniDrawerProps) {
  const styles = useStyles();
  const mini = useMiniDrawer();
  const plugin = usePluginMode();
  if (!mini?.isOpen) return null;
  const offset = props.offsetRight ?? 0;
  const position = plugin
    ? { left: 0, right: 0, width: '100%' }
    : // Keeps clear of the detail drawer, but never leaves the screen on a narrow window.
      {
        right: `max(8px, min(${offset + 16}px, calc(100vw - ${MINI_DRAWER_WIDTH + 8}px)))`,
        width: `${MINI_DRAWER_WIDTH}px`,
        maxWidth: 'calc(100vw - 16px)',
      };
  return (
    <section className={styles.root} style={position} aria-label="Mini drawer" data-testid="mini-drawer" data-tab={mini.tab}>
      <TabList className={styles.tabs} selectedValue={mini.tab} onTabSelect={(_, d) => mini.setTab(d.value as MiniDrawerTab)} size="small">
        {MINI_DRAWER_TABS.map((t) => (
          <Tab key={t} value={t} data-testid={`mini-drawer-tab-${t === 'Run Play' ? 'run-play' : 'log-activity'}`}>
            {t}
          </Tab>
        ))}
      </TabList>
      {mini.tab === 'Run Play' ? (
        <>
          <RunPlayTab onNewPlay={props.onNewPlay} target={mini.request.target ?? props.runPlayTarget ?? null} />
          <div className={styles.footer}>
            <Button onClick={mini.close} data-testid="mini-drawer-close">
              Close
            </Button>
          </div>
        </>
      ) : (
        <LogActivityForm key={mini.request.nonce} defaultOwnerId={props.defaultOwnerId} />
      )}
    </section>
  );
}

/** Run Play on one record: the one the mini drawer was opened for, else the detail drawer's. */
function RunPlayTab({ onNewPlay, target }: { onNewPlay?: () => void; target: RunPlayTarget | null }) {
  const styles = useStyles();
  const mini = useMiniDrawer();
  return (
    <div className={styles.body} data-testid="run-play-tab">
      <Text size={200} data-testid="run-play-target">
        {target ? `Runs on ${target.title ?? `the ${target.entityType} open in the drawer`}.` : RUN_PLAY_NO_TARGET}
      </Text>
      <RunPlayList
        entityType={target?.entityType ?? 'contact'}
        targetIds={target ? [target.id] : null}
        onNewPlay={onNewPlay}
        onStarted={() => mini?.close()}
        emptyText={NO_PLAYS}
      />
    </div>
  );
}

interface FormState {
  type: string;
  company: PickedRecord | null;
  contact: PickedRecord | null;
  date: string;
  content: string;
}

function LogActivityForm({ defaultOwnerId }: { defaultOwnerId?: string | null }) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const mini = useMiniDrawer()!;
  const { request } = mini;
  const editingId = request.activityId ?? null;
  const today = localDate();
  const [form, setForm] = useState<FormState>(() => ({
    type: '',
    company: request.company ?? null,
    contact: request.contact ?? null,
    date: today,
    content: '',
  }));
  const [storedDate, setStoredDate] = useState<string | null>(null);
  const [showOptions, setShowOptions] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [creating, setCreating] = useState<'company' | 'contact' | null>(null);

  const participant = useQuery({
    queryKey: queryKeys.activityParticipant(editingId ?? ''),
    queryFn: () => api.activities.participant(editingId!),
    enabled: !!editingId,
    staleTime: 0,
  });
  // Fill the form once the edited activity arrives.
  const loadedId = participant.data?.activity.id;
  useEffect(() => {
    const d = participant.data;
    if (!d) return;
    setForm({
      type: d.activity.type,
      company: d.company ? { id: d.company.id, title: d.company.name, subtitle: d.company.website } : null,
      contact: d.contact
        ? { id: d.contact.id, title: `${d.contact.firstName} ${d.contact.lastName}`.trim() || d.contact.email, subtitle: d.contact.email }
        : null,
      date: d.activity.date,
      content: d.activity.content,
    });
    setStoredDate(d.activity.date);
  }, [loadedId]);

  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => {
    setForm((f) => ({ ...f, [k]: v }));
    setProblem(null);
  };

  const draft = useMemo(
    () => ({
      type: form.type || null,
      companyId: form.company?.id ?? null,
      contactId: form.contact?.id ?? null,
      date: form.date || null,
      content: form.content,
    }),
    [form],
  );

  const save = async () => {
    if (busy) return;
    // An edit that keeps its stored date is not checked against today (the server does the same).
    const p = activitySaveProblem(draft, today, { checkDate: !(editingId && form.date === storedDate) });
    if (p) {
      setProblem(p);
      notify.error(p);
      return;
    }
    setBusy(true);
    const body = {
      type: form.type,
      companyId: form.company!.id,
      contactId: form.contact!.id,
      date: form.date,
      content: form.content,
      source: 'manual' as const,
      timezone: localTimeZone(),
    };
    try {
      const res = editingId ? await api.activities.update({ id: editingId, ...body }) : await api.activities.create(body);
      notify.success(res.message);
      // The realtime event refreshes every client; this one need not wait for it.
      void invalidateActivity(queryClient, res.activity);
      mini.close();
    } catch (e) {
      const message = serverMessage(e) ?? ACTIVITY_MESSAGES.saveFailed;
      setProblem(message);
      notify.error(message);
    } finally {
      setBusy(false);
    }
  };

  if (editingId && participant.isPending) {
    return (
      <>
        <div className={styles.center}>
          <Spinner size="small" label="Loading the activity..." />
        </div>
        <div className={styles.footer}>
          <Button onClick={mini.close} data-testid="mini-drawer-close">
            Close
          </Button>
        </div>
      </>
    );
  }

  return (
    <>
      <div className={styles.body} data-testid="log-activity" data-editing={editingId ? 'true' : 'false'}>
        {editingId && participant.isError && (
          <MessageBar intent="error">
            <MessageBarBody>{serverMessage(participant.error) ?? ACTIVITY_MESSAGES.noParticipant}</MessageBarBody>
          </MessageBar>
        )}
        {showOptions && (
          <>
            <Field label="Activity">
              <Select value={form.type} onChange={(_, d) => set('type', d.value)} data-testid="log-activity-type">
                <option value="" disabled>
                  {SELECT_ACTIVITY}
                </option>
                {LOG_ACTIVITY_OPTIONS.map((o) => (
                  <option key={o.type} value={o.type}>
                    {o.label}
                  </option>
                ))}
                {/* An edited activity of a type the dropdown does not offer keeps it. */}
                {form.type && !LOG_ACTIVITY_OPTIONS.some((o) => o.type === form.type) && (
                  <option value={form.type}>{form.type === 'other' ? 'Other' : form.type}</option>
                )}
              </Select>
            </Field>
            <ParticipantPicker
              entityType="company"
              label="Company"
              value={form.company}
              onChange={(v) => set('company', v)}
              onCreateNew={() => setCreating('company')}
              data-testid="log-activity-company"
            />
            <ParticipantPicker
              entityType="contact"
              label="Contact"
              value={form.contact}
              onChange={(v) => set('contact', v)}
              onCreateNew={() => setCreating('contact')}
              data-testid="log-activity-contact"
            />
            <Field label="Date">
              <Input
                type="date"
                value={form.date}
                // Past dates cannot be picked (an edit keeps its own date selectable).
                min={storedDate && storedDate < today ? storedDate : today}
                onChange={(_, d) => set('date', d.value)}
                data-testid="log-activity-date"
              />
            </Field>
          </>
        )}
        <Button
          appearance="transparent"
          size="small"
          className={styles.toggle}
          icon={showOptions ? <ChevronUpRegular /> : <ChevronDownRegular />}
          onClick={() => setShowOptions((s) => !s)}
          aria-expanded={showOptions}
          data-testid="log-activity-options-toggle"
        >
          {showOptions ? 'Hide options' : 'Show options'}
        </Button>
        <Textarea
          className={styles.textarea}
          rows={showOptions ? LOG_TEXT_ROWS : LOG_TEXT_ROWS_WIDE}
          resize="vertical"
          placeholder={LOG_PLACEHOLDER}
          aria-label="Activity notes"
          value={form.content}
          onChange={(_, d) => set('content', d.value)}
          data-testid="log-activity-content"
        />
        {problem && (
          <MessageBar intent="error" data-testid="log-activity-problem">
            <MessageBarBody>{problem}</MessageBarBody>
          </MessageBar>
        )}
      </div>
      <div className={styles.footer}>
        <Button onClick={mini.close} data-testid="mini-drawer-close">
          Close
        </Button>
        <Button
          appearance="primary"
          disabled={busy}
          icon={busy ? <Spinner aria-hidden size="tiny" /> : undefined}
          onClick={() => void save()}
          data-testid="mini-drawer-save"
        >
          Save
        </Button>
      </div>
      <CompanyDialog
        open={creating === 'company'}
        onOpenChange={(o) => {
          if (!o) setCreating(null);
        }}
        defaultOwnerId={defaultOwnerId}
        linkContact={form.contact}
        onSaved={(c) => set('company', { id: c.id, title: c.name, subtitle: c.website })}
      />
      <ContactDialog
        open={creating === 'contact'}
        onOpenChange={(o) => {
          if (!o) setCreating(null);
        }}
        defaultOwnerId={defaultOwnerId}
        linkCompany={form.company}
        onSaved={(c) => set('contact', { id: c.id, title: `${c.firstName} ${c.lastName}`.trim() || c.email, subtitle: c.email })}
      />
    </>
  );
}
