// The detail drawer of a company or a contact (spec 000 §2 'Detail drawer', 'Details tab'; §4
// 'Drawer visibility'). It renders from useDrawer(): NoDrawer shows nothing, Collapsed a thin
// toolbar, Visible the panel with its header, the Activities and Details tabs. Section collapse
// states are saved per entity type in the user's config (drawer.<type>.details.showGroups).
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Avatar, Button, Link, Spinner, Tab, TabList, Text, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import {
  ArrowLeftRegular,
  BuildingRegular,
  ComposeRegular,
  DismissRegular,
  EditRegular,
  PanelRightContractRegular,
  PanelRightExpandRegular,
} from '@fluentui/react-icons';
import type { CompanyDetails, ContactDetails, UserSettingsBody } from '../../contracts';
import { realtimePaths, type DetailsGroups, type RecordEntityType, type UserConfig } from '../../domain';
import { REALTIME_EVENT_KINDS } from '../../domain';
import { useDrafts } from '../drafts/DraftsContext';
import { useRealtimeEvents } from '../realtime/RealtimeProvider';
import { useApi, queryKeys } from '../ApiContext';
import { useDrawer, type DrawerTarget } from '../DrawerContext';
import { usePluginMode } from '../PluginMode';
import { CompanyDialog } from '../dialogs/CompanyDialog';
import { ContactDialog } from '../dialogs/ContactDialog';
import { errorStatus } from '../dialogs/save-errors';
import { CompaniesSection, ContactsSection } from './LinkSections';
import { FieldsSection } from './FieldsSection';
import { SyncHistorySection } from '../crm/SyncHistorySection';
import { UnassignedEnrichmentsSection } from '../enrichments/DrawerEnrichments';
import { ActivitiesTab } from '../activities/ActivitiesTab';
import {
  COLLAPSED_WIDTH,
  DRAWER_WIDTH,
  SELECT_ENTITY_HINT,
  initialShowGroups,
  isSectionOpen,
  contactDisplayName,
  type SectionKey,
  type ShowGroups,
} from './drawer-rules';

/** Why the drawer's draft button is off in a client without draft panels (the Chrome side panel, Outlook's read pane). */
export const DRAFT_EMAIL_ELSEWHERE =
  "Create email with defaults: drafts are written in the Dealscout web app, or in Outlook's compose pane.";

export type DrawerTab = 'Activities' | 'Details';

export interface RecordDrawerProps {
  /** The user's config as loaded (section states and tab are restored from it; read once). */
  initialConfig?: UserConfig;
  /** Saves part of the user's config; defaults to api.user.saveSettings (a failure is only logged). */
  saveSettings?: (patch: UserSettingsBody) => void;
  /** Owner preselected in the drawer's Add dialogs (the signed-in user). */
  defaultOwnerId?: string | null;
  className?: string;
}

const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    height: '100%',
    flexShrink: 0,
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground1,
    borderLeft: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    overflow: 'hidden',
  },
  pluginPanel: { borderLeft: 'none' },
  collapsed: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    width: `${COLLAPSED_WIDTH}px`,
    height: '100%',
    flexShrink: 0,
    boxSizing: 'border-box',
    paddingTop: tokens.spacingVerticalS,
    backgroundColor: tokens.colorNeutralBackground1,
    borderLeft: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  verticalHint: {
    writingMode: 'vertical-rl',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    marginTop: tokens.spacingVerticalS,
    whiteSpace: 'nowrap',
  },
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    minHeight: '60px',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS} ${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    boxSizing: 'border-box',
  },
  headerTexts: { display: 'flex', flexDirection: 'column', minWidth: 0, flexGrow: 1 },
  title: {
    fontSize: tokens.fontSizeBase400,
    fontWeight: tokens.fontWeightSemibold,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  subtitle: { fontSize: tokens.fontSizeBase200, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '100%' },
  headerActions: { display: 'flex', alignItems: 'center', gap: '2px', flexShrink: 0 },
  companyIcon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '36px',
    height: '36px',
    flexShrink: 0,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    fontSize: '20px',
  },
  tabs: { padding: `0 ${tokens.spacingHorizontalS}`, borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  body: { flexGrow: 1, overflowY: 'auto', minHeight: 0 },
  center: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalS,
    padding: '32px 24px',
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
  },
  centerIcon: { fontSize: '32px', color: tokens.colorNeutralForeground4 },
});

/** Right-docked detail drawer. Place it next to the page content in a flex row. */
export function RecordDrawer(props: RecordDrawerProps) {
  const styles = useStyles();
  const drawer = useDrawer();
  const drafts = useDrafts();
  const plugin = usePluginMode();
  const api = useApi();
  const { saveSettings } = props;
  const [groups, setGroups] = useState<ShowGroups>(() => initialShowGroups(props.initialConfig));
  const [tab, setTab] = useState<DrawerTab>(props.initialConfig?.drawer.tab ?? 'Details');

  const save = useCallback(
    (patch: UserSettingsBody) => {
      if (saveSettings) saveSettings(patch);
      else api.user.saveSettings(patch).catch((e: unknown) => console.error('Could not save the drawer settings', e));
    },
    [saveSettings, api],
  );

  const toggleSection = (entityType: RecordEntityType, key: SectionKey) => {
    const next: DetailsGroups = { ...groups[entityType], [key]: !isSectionOpen(groups[entityType], key) };
    setGroups((g) => ({ ...g, [entityType]: next }));
    const details = { details: { showGroups: next } };
    save({ drawer: entityType === 'company' ? { company: details } : { contact: details } });
  };

  const changeTab = (t: DrawerTab) => {
    setTab(t);
    save({ drawer: { tab: t } });
  };

  // Another user deleted the record shown: the drawer goes back (nested) or closes.
  useRealtimeEvents(
    ({ oid }) => realtimePaths.entities(oid),
    (e) => {
      const t = drawer.target;
      const ids = (e.data as { ids?: unknown } | null)?.ids;
      if (!t || !Array.isArray(ids) || !ids.includes(t.id) || !e.path.endsWith(`/${t.entityType}`)) return;
      if (drawer.stack.length > 1) drawer.back();
      else drawer.close();
    },
    { kinds: [REALTIME_EVENT_KINDS.entityDeleted] },
  );

  if (drawer.visibility === 'NoDrawer') return null;

  if (drawer.visibility === 'Collapsed') {
    return (
      <aside
        className={mergeClasses(styles.collapsed, props.className)}
        aria-label="Detail drawer (collapsed)"
        data-testid="record-drawer"
        data-visibility="Collapsed"
      >
        <div data-testid="drawer-collapsed" style={{ display: 'contents' }}>
          <Tooltip content="Open drawer" relationship="label" positioning="before">
            <Button
              appearance="subtle"
              icon={<PanelRightExpandRegular />}
              onClick={() => drawer.setVisibility('Visible')}
              data-testid="drawer-open"
            />
          </Tooltip>
          {drafts && drawer.target ? (
            <Tooltip content="Create email with defaults" relationship="label" positioning="before">
              <Button
                appearance="subtle"
                icon={<ComposeRegular />}
                data-testid="drawer-draft-email"
                onClick={() =>
                  void drafts.create(
                    drawer.target!.entityType === 'contact' ? { contactId: drawer.target!.id } : { companyId: drawer.target!.id },
                  )
                }
              />
            </Tooltip>
          ) : (
            <Tooltip content={drafts ? SELECT_ENTITY_HINT : DRAFT_EMAIL_ELSEWHERE} relationship="description" positioning="before">
              <Button
                appearance="subtle"
                icon={<ComposeRegular />}
                disabledFocusable
                aria-label="Create email with defaults"
                data-testid="drawer-draft-email"
              />
            </Tooltip>
          )}
          {!drawer.target && (
            <span className={styles.verticalHint} data-testid="drawer-hint">
              {SELECT_ENTITY_HINT}
            </span>
          )}
        </div>
      </aside>
    );
  }

  const target = drawer.target;
  const nested = drawer.stack.length > 1;
  const panelStyle = { width: plugin ? '100%' : `${DRAWER_WIDTH}px` };
  const controls =
    !plugin && !nested ? (
      <>
        <Tooltip content="Collapse drawer" relationship="label">
          <Button
            appearance="subtle"
            icon={<PanelRightContractRegular />}
            onClick={() => drawer.setVisibility('Collapsed')}
            data-testid="drawer-collapse"
          />
        </Tooltip>
        <Tooltip content="Close drawer" relationship="label">
          <Button appearance="subtle" icon={<DismissRegular />} onClick={() => drawer.close()} data-testid="drawer-close" />
        </Tooltip>
      </>
    ) : null;

  return (
    <aside
      className={mergeClasses(styles.panel, plugin && styles.pluginPanel, props.className)}
      style={panelStyle}
      aria-label="Detail drawer"
      data-testid="record-drawer"
      data-visibility="Visible"
      data-entity-type={target?.entityType}
      data-entity-id={target?.id}
      data-nested={nested ? 'true' : 'false'}
    >
      {target ? (
        <RecordView
          key={`${target.entityType}:${target.id}:${drawer.stack.length}`}
          target={target}
          nested={nested}
          controls={controls}
          tab={tab}
          onTab={changeTab}
          groups={groups[target.entityType]}
          onToggleSection={(key) => toggleSection(target.entityType, key)}
          defaultOwnerId={props.defaultOwnerId}
        />
      ) : (
        <>
          <div className={styles.header} data-testid="drawer-header">
            <div className={styles.headerTexts}>
              <Text className={styles.title}>Details</Text>
            </div>
            <div className={styles.headerActions}>{controls}</div>
          </div>
          <div className={styles.center} data-testid="drawer-hint">
            <Text>{SELECT_ENTITY_HINT}</Text>
          </div>
        </>
      )}
    </aside>
  );
}

type Loaded = { entityType: 'company'; record: CompanyDetails } | { entityType: 'contact'; record: ContactDetails };

function useRecord(target: DrawerTarget) {
  const api = useApi();
  const company = useQuery({
    queryKey: queryKeys.company(target.id),
    queryFn: () => api.companies.details(target.id),
    enabled: target.entityType === 'company',
  });
  const contact = useQuery({
    queryKey: queryKeys.contact(target.id),
    queryFn: () => api.contacts.details(target.id),
    enabled: target.entityType === 'contact',
  });
  const q = target.entityType === 'company' ? company : contact;
  const loaded: Loaded | null =
    target.entityType === 'company'
      ? company.data
        ? { entityType: 'company', record: company.data.company }
        : null
      : contact.data
        ? { entityType: 'contact', record: contact.data.contact }
        : null;
  return { loaded, isPending: q.isPending, error: q.error, refetch: q.refetch };
}

function RecordView(props: {
  target: DrawerTarget;
  nested: boolean;
  controls: ReactNode;
  tab: DrawerTab;
  onTab: (t: DrawerTab) => void;
  groups: DetailsGroups;
  onToggleSection: (key: SectionKey) => void;
  defaultOwnerId?: string | null;
}) {
  const { target } = props;
  const styles = useStyles();
  const drawer = useDrawer();
  const { loaded, isPending, error, refetch } = useRecord(target);
  const [editing, setEditing] = useState(!!target.edit);
  // Opened to fix its details (a play's skipped target): the edit dialog comes up, each time it is asked.
  useEffect(() => {
    if (target.edit) setEditing(true);
  }, [target]);
  const noun = target.entityType === 'company' ? 'company' : 'contact';

  const back = props.nested ? (
    <Tooltip content="Back" relationship="label">
      <Button appearance="subtle" icon={<ArrowLeftRegular />} onClick={() => drawer.back()} data-testid="drawer-back" />
    </Tooltip>
  ) : null;

  let title: ReactNode = null;
  let subtitle: ReactNode = null;
  let icon: ReactNode = null;
  if (loaded?.entityType === 'company') {
    const c = loaded.record;
    title = c.name;
    const href = /^https?:\/\//i.test(c.website) ? c.website : `https://${c.website}`;
    subtitle = c.website ? (
      <Link className={styles.subtitle} href={href} target="_blank" rel="noopener noreferrer" data-testid="drawer-subtitle">
        {c.website}
      </Link>
    ) : null;
    icon = (
      <span className={styles.companyIcon} aria-hidden>
        <BuildingRegular />
      </span>
    );
  } else if (loaded?.entityType === 'contact') {
    const c = loaded.record;
    title = contactDisplayName(c);
    subtitle = c.email ? (
      <Link className={styles.subtitle} href={`mailto:${c.email}`} data-testid="drawer-subtitle">
        {c.email}
      </Link>
    ) : null;
    icon = <Avatar name={contactDisplayName(c)} color="colorful" size={36} aria-hidden />;
  }

  const status = error ? errorStatus(error) : null;

  return (
    <>
      <div className={styles.header} data-testid="drawer-header">
        {back}
        {icon}
        <div className={styles.headerTexts}>
          {loaded ? (
            <>
              <Text className={styles.title} title={typeof title === 'string' ? title : undefined} data-testid="drawer-title">
                {title}
              </Text>
              {subtitle}
            </>
          ) : (
            <Text className={styles.title}>{target.entityType === 'company' ? 'Company' : 'Contact'}</Text>
          )}
        </div>
        <div className={styles.headerActions}>
          {loaded && (
            <Tooltip content={`Edit ${noun}`} relationship="label">
              <Button appearance="subtle" icon={<EditRegular />} onClick={() => setEditing(true)} data-testid="drawer-edit" />
            </Tooltip>
          )}
          {props.controls}
        </div>
      </div>
      {isPending ? (
        <div className={styles.center}>
          <Spinner size="small" label={`Loading the ${noun}...`} />
        </div>
      ) : error || !loaded ? (
        <div className={styles.center} role="alert" data-testid="drawer-error">
          <Text>{status === 404 ? `This ${noun} no longer exists.` : `Could not load the ${noun}.`}</Text>
          {status !== 404 && <Button onClick={() => void refetch()}>Try again</Button>}
        </div>
      ) : (
        <>
          <TabList className={styles.tabs} selectedValue={props.tab} onTabSelect={(_, d) => props.onTab(d.value as DrawerTab)} size="small">
            <Tab value="Activities" data-testid="drawer-tab-activities">
              Activities
            </Tab>
            <Tab value="Details" data-testid="drawer-tab-details">
              Details
            </Tab>
          </TabList>
          <div className={styles.body} data-testid={`drawer-panel-${props.tab.toLowerCase()}`}>
            {props.tab === 'Activities' ? (
              <ActivitiesTab loaded={loaded} />
            ) : (
              <DetailsTab loaded={loaded} groups={props.groups} onToggle={props.onToggleSection} defaultOwnerId={props.defaultOwnerId} />
            )}
          </div>
          {loaded.entityType === 'company' ? (
            <CompanyDialog open={editing} onOpenChange={setEditing} company={loaded.record} />
          ) : (
            <ContactDialog open={editing} onOpenChange={setEditing} contact={loaded.record} />
          )}
        </>
      )}
    </>
  );
}

function DetailsTab({
  loaded,
  groups,
  onToggle,
  defaultOwnerId,
}: {
  loaded: Loaded;
  groups: DetailsGroups;
  onToggle: (key: SectionKey) => void;
  defaultOwnerId?: string | null;
}) {
  const open = (k: SectionKey) => isSectionOpen(groups, k);
  return (
    <div data-testid="drawer-details">
      {loaded.entityType === 'company' ? (
        <ContactsSection
          company={loaded.record}
          open={open('contacts')}
          onToggle={() => onToggle('contacts')}
          defaultOwnerId={defaultOwnerId}
        />
      ) : (
        <CompaniesSection
          contact={loaded.record}
          open={open('companies')}
          onToggle={() => onToggle('companies')}
          defaultOwnerId={defaultOwnerId}
        />
      )}
      <UnassignedEnrichmentsSection
        entityType={loaded.entityType}
        entityId={loaded.record.id}
        open={open('unassignedEnrichments')}
        onToggle={() => onToggle('unassignedEnrichments')}
      />
      <FieldsSection
        entityType={loaded.entityType}
        entityId={loaded.record.id}
        values={loaded.record.fields}
        open={open(loaded.entityType === 'company' ? 'companyFields' : 'contactFields')}
        onToggle={() => onToggle(loaded.entityType === 'company' ? 'companyFields' : 'contactFields')}
      />
      <SyncHistorySection entityType={loaded.entityType} entityId={loaded.record.id} />
    </div>
  );
}
