import { Fragment, Suspense, useCallback, useEffect, useState, useSyncExternalStore, type ComponentProps } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import {
  Breadcrumb,
  BreadcrumbButton,
  BreadcrumbDivider,
  BreadcrumbItem,
  Button,
  Tooltip,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { ArrowLeftRegular } from '@fluentui/react-icons';
import { PRODUCT_NAME, type DrawerVisibility } from '@dealscout/shared/domain';
import type { UserSettingsBody } from '@dealscout/shared/contracts';
import {
  COLLAPSED_WIDTH,
  DRAWER_WIDTH,
  DraftsProvider,
  DrawerProvider,
  MiniDrawerProvider,
  RealtimeProvider,
  useDraftDockReserve,
  useDrafts,
  useDrawer,
  useMiniDrawer,
} from '@dealscout/shared/ui';
import { useSaveSettings, useUser, useUserConfig } from '../../session/hooks/useSession';
import { LoadingScreen } from '../../session/components/LoadingScreen';
import { firstViewShown } from '../../../app/api';
import { pageMeta, showsRecordDrawer } from '../navigation';
import { NavMenu } from './NavMenu';
import { HeaderActions } from './HeaderActions';
import { DraftPanels, MiniDrawer, Part, RecordDrawer } from '../lazy-parts';

const useStyles = makeStyles({
  root: { display: 'flex', height: '100vh', width: '100%', overflow: 'hidden', backgroundColor: tokens.colorNeutralBackground2 },
  column: { display: 'flex', flexDirection: 'column', flexGrow: 1, minWidth: 0 },
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    height: '52px',
    flexShrink: 0,
    padding: '0 16px 0 12px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  crumbs: { flexGrow: 1, minWidth: 0, overflow: 'hidden' },
  body: { display: 'flex', flexGrow: 1, minHeight: 0, position: 'relative' },
  content: {
    flexGrow: 1,
    minWidth: 0,
    overflow: 'auto',
    padding: '24px',
    boxSizing: 'border-box',
    '@media (max-width: 720px)': { padding: '16px' },
  },
  // Where the drawer goes while its chunk loads: its width and frame, so the page does not move.
  drawerFrame: {
    height: '100%',
    flexShrink: 0,
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground1,
    borderLeft: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  // On narrow screens the drawer lies over the page instead of squeezing it.
  drawer: {
    '@media (max-width: 900px)': {
      position: 'absolute',
      top: 0,
      right: 0,
      bottom: 0,
      zIndex: 10,
      maxWidth: '100%',
      boxShadow: tokens.shadow16,
    },
  },
});

const NARROW = '(max-width: 720px)';

/** The width the detail drawer takes on the right (open or collapsed). */
function useDrawerOffset(withDrawer: boolean): number {
  const drawer = useDrawer();
  return !withDrawer ? 0 : drawer.visibility === 'Visible' ? DRAWER_WIDTH : drawer.visibility === 'Collapsed' ? COLLAPSED_WIDTH : 0;
}

/** The mini drawer keeps clear of the detail drawer on the right; Run Play runs on the drawer's record. */
function ShellMiniDrawer({ userId, withDrawer }: { userId: string; withDrawer: boolean }) {
  const drawer = useDrawer();
  const navigate = useNavigate();
  const offset = useDrawerOffset(withDrawer);
  if (!useMiniDrawer()?.isOpen) return null;
  return (
    <Part>
      <MiniDrawer
        offsetRight={offset}
        defaultOwnerId={userId}
        runPlayTarget={withDrawer ? drawer.target : null}
        onNewPlay={() => navigate('/playbooks/new')}
      />
    </Part>
  );
}

/** The floating draft panels shift left while the drawer is open or collapsed (spec 000 §2). */
function ShellDraftPanels({ withDrawer }: { withDrawer: boolean }) {
  const offset = useDrawerOffset(withDrawer);
  if (!useDrafts()?.docked.length) return null;
  return (
    <Part>
      <DraftPanels offsetRight={offset} />
    </Part>
  );
}

/** The detail drawer (nothing while it is off); while its chunk loads, an empty frame of its width. */
function ShellRecordDrawer(props: { className: string; frameClassName: string } & Omit<ComponentProps<typeof RecordDrawer>, 'className'>) {
  const { className, frameClassName, ...rest } = props;
  const width = useDrawerOffset(true);
  if (width === 0) return null;
  return (
    <Part fallback={<div className={mergeClasses(frameClassName, className)} style={{ width: `${width}px` }} aria-hidden />}>
      <RecordDrawer className={className} {...rest} />
    </Part>
  );
}

/** Committed with the page it follows (not while the page suspends): its first view is on screen (app/api.ts). */
function PageShown() {
  useEffect(() => firstViewShown(), []);
  return null;
}

/** The page: its bottom keeps the minimised draft panels' band free, so they never cover its controls. */
function PageContent({ className }: { className: string }) {
  const reserve = useDraftDockReserve();
  return (
    <main
      className={className}
      id="main-content"
      data-testid="page-content"
      style={reserve ? { paddingBottom: `${reserve}px` } : undefined}
    >
      <Suspense fallback={<LoadingScreen inline />}>
        <Outlet />
        <PageShown />
      </Suspense>
    </main>
  );
}

/** True on narrow screens, where the navigation starts with icons only. */
function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const mq = window.matchMedia(NARROW);
      mq.addEventListener('change', notify);
      return () => mq.removeEventListener('change', notify);
    },
    () => window.matchMedia(NARROW).matches,
  );
}

/** Spec 000 §2 'Shell': left navigation, header (breadcrumb, back arrow, actions), the page. */
export default function AppShell() {
  const styles = useStyles();
  const user = useUser();
  const config = useUserConfig();
  const saveSettings = useSaveSettings();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const meta = pageMeta(pathname);
  const title = meta.crumbs[meta.crumbs.length - 1].label;
  const withDrawer = showsRecordDrawer(pathname);
  const expanded = config.navigationExpanded;
  const narrow = useNarrowScreen();
  // On a narrow screen the navigation opens for the moment only; the saved choice stays as it is.
  const [narrowOpen, setNarrowOpen] = useState(false);
  useEffect(() => setNarrowOpen(false), [pathname, narrow]);

  useEffect(() => {
    document.title = `${title} · ${PRODUCT_NAME}`;
  }, [title]);

  // The drawer's visibility and section states live in the user's config (spec 000 §3, §4).
  const { mutate: saveMutate } = saveSettings;
  const saveDrawerSettings = useCallback((patch: UserSettingsBody) => saveMutate(patch), [saveMutate]);
  const onVisibilityChange = useCallback((visibility: DrawerVisibility) => saveMutate({ drawer: { visibility } }), [saveMutate]);
  // Read once: later saves update the cached user but must not reset what is on screen.
  const [initialConfig] = useState(config);

  return (
    // One realtime socket per signed-in session: it keeps every cache below live.
    <RealtimeProvider identity={{ uid: user.id, oid: user.organizationId }}>
      <DrawerProvider initialVisibility={initialConfig.drawer.visibility} onVisibilityChange={onVisibilityChange}>
        <MiniDrawerProvider>
          <DraftsProvider userId={user.id}>
            <div className={styles.root} data-testid="app-shell">
              <NavMenu
                expanded={narrow ? narrowOpen : expanded}
                isAdmin={user.isAdmin}
                onToggle={() => (narrow ? setNarrowOpen((o) => !o) : saveSettings.mutate({ navigationExpanded: !expanded }))}
              />
              <div className={styles.column}>
                <header className={styles.header} data-testid="app-header">
                  {meta.back && (
                    <Tooltip content="Back" relationship="label">
                      <Button
                        appearance="subtle"
                        icon={<ArrowLeftRegular />}
                        onClick={() => navigate(meta.back!)}
                        data-testid="header-back"
                      />
                    </Tooltip>
                  )}
                  <Breadcrumb aria-label="Breadcrumb" className={styles.crumbs} data-testid="page-breadcrumb">
                    {meta.crumbs.map((c, i) => {
                      const last = i === meta.crumbs.length - 1;
                      return (
                        <Fragment key={`${i}-${c.label}`}>
                          <BreadcrumbItem>
                            <BreadcrumbButton
                              current={last}
                              size="large"
                              onClick={c.to && !last ? () => navigate(c.to!) : undefined}
                              data-testid={last ? 'page-title' : undefined}
                            >
                              {c.label}
                            </BreadcrumbButton>
                          </BreadcrumbItem>
                          {!last && <BreadcrumbDivider />}
                        </Fragment>
                      );
                    })}
                  </Breadcrumb>
                  <HeaderActions user={user} />
                </header>
                <div className={styles.body}>
                  <PageContent className={styles.content} />
                  {/* Only pages that show records have the drawer; its state waits in the provider. */}
                  {withDrawer && (
                    <ShellRecordDrawer
                      className={styles.drawer}
                      frameClassName={styles.drawerFrame}
                      initialConfig={initialConfig}
                      saveSettings={saveDrawerSettings}
                      defaultOwnerId={user.id}
                    />
                  )}
                </div>
              </div>
            </div>
            <ShellDraftPanels withDrawer={withDrawer} />
            <ShellMiniDrawer userId={user.id} withDrawer={withDrawer} />
          </DraftsProvider>
        </MiniDrawerProvider>
      </DrawerProvider>
    </RealtimeProvider>
  );
}
