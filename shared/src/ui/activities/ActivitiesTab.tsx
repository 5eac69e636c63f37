// The drawer's Activities tab (spec 000 §2 'Activities tab'): a filters popover with the seven types
// and the 'two names +N more' label with a clear button; groups 'Upcoming', 'Recent', then months,
// each collapsible with '{n} Activity'; rows with 'Tue, Jan 5 03:00 pm' dates and a 70-character
// preview; edit and delete only for manual activities; errors under an 'Error' heading on red.
// New activities arrive live: the realtime provider invalidates this list on every activity event.
import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Checkbox,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Spinner,
  Text,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  AddRegular,
  CalendarLtrRegular,
  ChatRegular,
  ChevronDownRegular,
  ChevronRightRegular,
  DeleteRegular,
  DismissRegular,
  EditRegular,
  FilterRegular,
  HistoryRegular,
  MailRegular,
  MoreHorizontalRegular,
  NoteRegular,
  PeopleRegular,
  PhoneRegular,
  SendRegular,
  VideoRegular,
  CloudSyncRegular,
} from '@fluentui/react-icons';
import type { ActivityDto, CompanyDetails, ContactDetails } from '../../contracts';
import { DraftItems } from '../drafts/DraftItems';
import { useDrafts } from '../drafts/DraftsContext';
import {
  ACTIVITY_FILTER_TYPES,
  ACTIVITY_MESSAGES,
  ACTIVITY_TYPE_LABELS,
  LOG_ACTIVITY_OPTIONS,
  activityCountLabel,
  activityFilterLabel,
  activityPreview,
  formatActivityDate,
  groupActivities,
  type ActivityType,
} from '../../domain';
import { useApi, queryKeys } from '../ApiContext';
import { useNotify } from '../toast';
import { ConfirmDialog } from '../ConfirmDialog';
import { serverMessage } from '../server-message';
import { useMiniDrawer } from './MiniDrawerContext';
import { invalidateActivity } from '../realtime/cache';
import { ScheduledEmailActions } from '../email/ScheduledEmailActions';
import {
  ACTIVITIES_EMPTY,
  ACTIVITIES_LOAD_FAILED,
  DELETE_ACTIVITY_MESSAGE,
  DELETE_ACTIVITY_TITLE,
  DRAFT_EMAIL_TO,
  EMAIL_DRAFTING_ELSEWHERE,
  ACTIVITY_REPLIED,
  NOT_MANUAL_HINT,
  activityMoment,
  draftEmailName,
  localDate,
  logActivityDefaults,
} from './activity-view';

export type LoadedRecord = { entityType: 'company'; record: CompanyDetails } | { entityType: 'contact'; record: ContactDetails };

const TYPE_ICONS: Record<ActivityType, typeof MailRegular> = {
  email: MailRegular,
  f2f: PeopleRegular,
  text: NoteRegular,
  call: PhoneRegular,
  chat: ChatRegular,
  video: VideoRegular,
  other: MoreHorizontalRegular,
  crm: CloudSyncRegular,
};

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', minHeight: '100%' },
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  filterLabel: {
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground2,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    minWidth: 0,
  },
  spacer: { flexGrow: 1 },
  checks: { display: 'flex', flexDirection: 'column', padding: tokens.spacingVerticalXS },
  group: { borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  groupHeader: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, padding: `0 ${tokens.spacingHorizontalS}` },
  groupToggle: {
    flexGrow: 1,
    justifyContent: 'flex-start',
    fontWeight: tokens.fontWeightSemibold,
    paddingLeft: tokens.spacingHorizontalXS,
  },
  groupCount: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground3, whiteSpace: 'nowrap' },
  list: { listStyleType: 'none', margin: 0, padding: `0 ${tokens.spacingHorizontalM} ${tokens.spacingVerticalS}` },
  row: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalXS}`,
    borderRadius: tokens.borderRadiusMedium,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  icon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '28px',
    height: '28px',
    flexShrink: 0,
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    fontSize: '16px',
  },
  main: { display: 'flex', flexDirection: 'column', gap: '2px', flexGrow: 1, minWidth: 0 },
  line: { display: 'flex', alignItems: 'baseline', gap: tokens.spacingHorizontalS, minWidth: 0 },
  type: { fontWeight: tokens.fontWeightSemibold, fontSize: tokens.fontSizeBase300, whiteSpace: 'nowrap' },
  title: { fontSize: tokens.fontSizeBase300, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 },
  date: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground3, whiteSpace: 'nowrap' },
  preview: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  sending: { fontSize: tokens.fontSizeBase200, color: tokens.colorPaletteDarkOrangeForeground1 },
  actions: { display: 'flex', alignItems: 'flex-start', gap: '2px', flexShrink: 0 },
  center: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalM,
    padding: '32px 24px',
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
  },
  centerIcon: { fontSize: '32px', color: tokens.colorNeutralForeground4 },
  error: {
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorPaletteRedBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorPaletteRedBorder1}`,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    color: tokens.colorPaletteRedForeground1,
    marginTop: tokens.spacingVerticalXS,
  },
  errorHeading: { fontWeight: tokens.fontWeightSemibold, fontSize: tokens.fontSizeBase200, display: 'block' },
  errorText: { fontSize: tokens.fontSizeBase200, overflowWrap: 'anywhere' },
  emailActions: { display: 'flex', gap: tokens.spacingHorizontalXS, marginTop: tokens.spacingVerticalXXS },
  padded: { padding: tokens.spacingHorizontalM },
});

/** Spec: errors are shown under an 'Error' heading with the message on a red background. */
export function ActivityError({ message, testId = 'activity-error' }: { message: string; testId?: string }) {
  const styles = useStyles();
  return (
    <div className={styles.error} role="alert" data-testid={testId}>
      <span className={styles.errorHeading}>Error</span>
      <span className={styles.errorText}>{message}</span>
    </div>
  );
}

export function ActivitiesTab({ loaded }: { loaded: LoadedRecord }) {
  const styles = useStyles();
  const api = useApi();
  const mini = useMiniDrawer();
  const { entityType } = loaded;
  const id = loaded.record.id;
  const [types, setTypes] = useState<ActivityType[]>([]);
  const [closedGroups, setClosedGroups] = useState<ReadonlySet<string>>(new Set());
  // Filters are applied by the server (`?types=`), so a filter reaches past the newest 200 too.
  const q = useQuery({
    queryKey: queryKeys.activitiesFiltered(entityType, id, types),
    queryFn: () => (entityType === 'company' ? api.activities.forCompany(id, types) : api.activities.forContact(id, types)),
    placeholderData: keepPreviousData,
  });
  const today = localDate();
  const groups = useMemo(() => groupActivities(q.data?.activities ?? [], today), [q.data, today]);
  const name = draftEmailName(loaded);
  // 'Draft Email to {name}': a new draft to the contact, or to the company's key contact.
  const drafts = useDrafts();
  const [creating, setCreating] = useState(false);
  const draftEmail = async () => {
    setCreating(true);
    try {
      await drafts?.create(entityType === 'contact' ? { contactId: id } : { companyId: id });
    } finally {
      setCreating(false);
    }
  };

  const toggleType = (t: ActivityType, on: boolean) =>
    setTypes((old) => ACTIVITY_FILTER_TYPES.filter((x) => (x === t ? on : old.includes(x))));
  const toggleGroup = (label: string) =>
    setClosedGroups((old) => {
      const next = new Set(old);
      if (next.has(label)) next.delete(label);
      else next.add(label);
      return next;
    });

  return (
    <div className={styles.root} data-testid="activities-tab">
      <div className={styles.toolbar}>
        <Popover positioning="below-start" trapFocus>
          <PopoverTrigger disableButtonEnhancement>
            <Button
              appearance="subtle"
              size="small"
              icon={<FilterRegular />}
              data-testid="activity-filters-button"
              aria-label="Filters (activity types)"
            >
              Filters
            </Button>
          </PopoverTrigger>
          <PopoverSurface aria-label="Activity types" data-testid="activity-filters">
            <div className={styles.checks}>
              {ACTIVITY_FILTER_TYPES.map((t) => (
                <Checkbox
                  key={t}
                  label={ACTIVITY_TYPE_LABELS[t]}
                  checked={types.includes(t)}
                  onChange={(_, d) => toggleType(t, d.checked === true)}
                  data-testid={`activity-filter-${t}`}
                />
              ))}
            </div>
          </PopoverSurface>
        </Popover>
        {types.length > 0 && (
          <>
            <Text
              className={styles.filterLabel}
              title={types.map((t) => ACTIVITY_TYPE_LABELS[t]).join(', ')}
              data-testid="activity-filter-label"
            >
              {activityFilterLabel(types)}
            </Text>
            <Tooltip content="Clear filters" relationship="label">
              <Button
                appearance="subtle"
                size="small"
                icon={<DismissRegular />}
                onClick={() => setTypes([])}
                data-testid="activity-filter-clear"
              />
            </Tooltip>
          </>
        )}
        <span className={styles.spacer} />
        {q.isFetching && !q.isPending && <Spinner size="extra-tiny" aria-label="Refreshing" />}
        {mini && (
          <Button
            appearance="subtle"
            size="small"
            icon={<AddRegular />}
            onClick={() => mini.open({ tab: 'Log Activity', ...logActivityDefaults(loaded) })}
            data-testid="activities-log"
          >
            Log Activity
          </Button>
        )}
      </div>
      <DraftItems entityType={entityType} id={id} />
      {q.isPending ? (
        <div className={styles.center}>
          <Spinner size="small" label="Loading activities..." />
        </div>
      ) : q.isError ? (
        <div className={styles.padded}>
          <ActivityError message={serverMessage(q.error) ?? ACTIVITIES_LOAD_FAILED} testId="activities-load-error" />
          <Button size="small" style={{ marginTop: 8 }} onClick={() => void q.refetch()}>
            Try again
          </Button>
        </div>
      ) : groups.length === 0 ? (
        types.length > 0 ? (
          <div className={styles.center} data-testid="activities-none-matching">
            <Text>{ACTIVITY_MESSAGES.noneMatching}</Text>
          </div>
        ) : (
          <div className={styles.center} data-testid="activities-empty">
            <HistoryRegular className={styles.centerIcon} aria-hidden />
            <Text>{ACTIVITIES_EMPTY(name)}</Text>
            {drafts ? (
              <Button
                appearance="primary"
                icon={<SendRegular />}
                disabled={creating}
                onClick={() => void draftEmail()}
                data-testid="activities-draft-email"
              >
                {DRAFT_EMAIL_TO(name)}
              </Button>
            ) : (
              <Tooltip content={EMAIL_DRAFTING_ELSEWHERE} relationship="description">
                <Button appearance="primary" icon={<SendRegular />} disabledFocusable data-testid="activities-draft-email">
                  {DRAFT_EMAIL_TO(name)}
                </Button>
              </Tooltip>
            )}
          </div>
        )
      ) : (
        groups.map((g) => {
          const open = !closedGroups.has(g.label);
          return (
            <section
              key={g.label}
              className={styles.group}
              aria-label={g.label}
              data-testid="activity-group"
              data-label={g.label}
              data-open={open ? 'true' : 'false'}
            >
              <div className={styles.groupHeader}>
                <Button
                  appearance="transparent"
                  className={styles.groupToggle}
                  icon={open ? <ChevronDownRegular /> : <ChevronRightRegular />}
                  aria-expanded={open}
                  onClick={() => toggleGroup(g.label)}
                  data-testid="activity-group-toggle"
                >
                  {g.label}
                </Button>
                <span className={styles.groupCount} data-testid="activity-group-count">
                  {activityCountLabel(g.activities.length)}
                </span>
              </div>
              {open && (
                <ul className={styles.list}>
                  {g.activities.map((a) => (
                    <ActivityRow key={a.id} activity={a} />
                  ))}
                </ul>
              )}
            </section>
          );
        })
      )}
    </div>
  );
}

function ActivityRow({ activity: a }: { activity: ActivityDto }) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const mini = useMiniDrawer();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const Icon = TYPE_ICONS[a.type] ?? CalendarLtrRegular;
  // The server's default title is the Log Activity label ('Phone Call'): next to 'Phone' it says nothing.
  const defaultTitle = LOG_ACTIVITY_OPTIONS.find((o) => o.type === a.type)?.label;
  const title = a.subject || (a.title && a.title !== defaultTitle ? a.title : null);
  const preview = activityPreview(a.content);
  const scheduledEmail = a.type === 'email' && a.status === 'scheduled' && !!a.sourceId;
  const erroredEmail = a.type === 'email' && a.status === 'error';

  const remove = async () => {
    try {
      const res = await api.activities.remove(a.id);
      notify.success(res.message || ACTIVITY_MESSAGES.deleted);
      setConfirming(false);
      await invalidateActivity(queryClient, a);
    } catch (e) {
      const message = serverMessage(e) ?? ACTIVITY_MESSAGES.unknownError;
      notify.error(message);
      throw new Error(message, { cause: e });
    }
  };

  return (
    <li className={styles.row} data-testid="activity-row" data-id={a.id} data-type={a.type} data-source={a.source}>
      <span className={styles.icon} aria-hidden>
        <Icon />
      </span>
      <div className={styles.main}>
        <div className={styles.line}>
          <span className={styles.type} data-testid="activity-type">
            {ACTIVITY_TYPE_LABELS[a.type]}
          </span>
          {title && (
            <span className={styles.title} title={title}>
              {title}
            </span>
          )}
          {a.type === 'email' && a.repliedAt && (
            // The reply follower (Inbox delta query) found the contact's answer in this email's conversation.
            <Badge
              appearance="tint"
              color="success"
              size="small"
              data-testid="activity-replied"
              title={`${ACTIVITY_REPLIED} ${formatActivityDate(new Date(a.repliedAt))}`}
            >
              {ACTIVITY_REPLIED}
            </Badge>
          )}
        </div>
        <span className={styles.date} data-testid="activity-date">
          {formatActivityDate(activityMoment(a))}
        </span>
        {preview && (
          <span className={styles.preview} title={a.content.length > preview.length ? a.content : undefined} data-testid="activity-preview">
            {preview}
          </span>
        )}
        {(scheduledEmail || erroredEmail) && <ScheduledEmailActions activity={a} />}
        {a.status === 'error' && <ActivityError message={a.errorMessage || ACTIVITY_MESSAGES.unknownError} />}
      </div>
      <div className={styles.actions}>
        <Tooltip content={a.editable ? 'Edit activity' : NOT_MANUAL_HINT} relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={<EditRegular />}
            disabledFocusable={!a.editable || !mini}
            onClick={() => mini?.open({ tab: 'Log Activity', activityId: a.id })}
            data-testid="activity-edit"
          />
        </Tooltip>
        <Tooltip content={a.editable ? 'Delete activity' : NOT_MANUAL_HINT} relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={<DeleteRegular />}
            disabledFocusable={!a.editable}
            onClick={() => setConfirming(true)}
            data-testid="activity-delete"
          />
        </Tooltip>
      </div>
      <ConfirmDialog
        open={confirming}
        type="delete"
        title={DELETE_ACTIVITY_TITLE}
        message={DELETE_ACTIVITY_MESSAGE}
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
        data-testid="activity-delete-dialog"
      />
    </li>
  );
}
