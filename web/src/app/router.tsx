import { lazy, Suspense } from 'react';
import { Outlet, createBrowserRouter, matchPath, useRouteError } from 'react-router';
import { SetupGate } from '../modules/session/components/SetupGate';
import { RequireAuth } from '../modules/session/components/RequireAuth';
import { LoadingScreen } from '../modules/session/components/LoadingScreen';
import { PublicLayout } from '../modules/public/components/PublicLayout';
import type { QueryClient } from '@tanstack/react-query';
import { prefetchFirstTablePage, prefetchListIdeas } from '@dealscout/shared/ui';
import { areaLoader, areaPage } from '../modules/shell/areas';
import { COMPANY_DEFAULT_SORT, CONTACT_DEFAULT_SORT } from '../modules/records/sorts';
import { prefetchPlaybook } from '../modules/plays/firstView';
import type { FirstViewClient } from '@dealscout/shared/client';

// Split by route: each page (and the shell) is its own chunk.
const loadShell = () => import('../modules/shell/components/AppShell');
const loadListPage = () => import('../modules/lists/pages/ListPage');
const loadPlayEditor = () => import('../modules/plays/pages/PlayEditorPage');
const AppShell = lazy(loadShell);
const LoginPage = lazy(() => import('../modules/public/pages/LoginPage'));
const ResetPasswordPage = lazy(() => import('../modules/public/pages/ResetPasswordPage'));
const InvitePage = lazy(() => import('../modules/public/pages/InvitePage'));
const HomePage = lazy(() => import('../modules/home/pages/HomePage'));
// The navigation's areas come from one list (modules/shell/areas.ts), which the home page's marks follow.
const ListsPage = areaPage('lists');
const CompaniesPage = areaPage('companies');
const ContactsPage = areaPage('contacts');
const EnrichmentsPage = areaPage('enrichments');
const PlaybooksPage = areaPage('playbook');
const PlayEditorPage = lazy(loadPlayEditor);
const ListPage = lazy(loadListPage);
const NotFoundPage = lazy(() => import('../modules/placeholders/pages/NotFoundPage'));
const ProfilePage = areaPage('profile');
const OrganizationSettingsPage = areaPage('organization');

// The signed-in pages' chunks by path and, for a page whose first view needs no request of its own through the API client, the
// first requests it opens with (the record, ideas and playbook tables; the profile's is the user's), for preloadSignedInRoute.
type Prefetch = (qc: QueryClient, firstView: FirstViewClient, params: Record<string, string>) => Promise<unknown>;
const SIGNED_IN_PAGES: [string, (() => Promise<unknown>) | undefined, Prefetch?][] = [
  ['/list-company', areaLoader('lists')],
  ['/list-company/:id', loadListPage, (qc, fv, { id }) => prefetchListIdeas(qc, fv, id)],
  ['/companies', areaLoader('companies'), (qc, fv) => prefetchFirstTablePage(qc, fv, 'company', COMPANY_DEFAULT_SORT)],
  ['/contacts', areaLoader('contacts'), (qc, fv) => prefetchFirstTablePage(qc, fv, 'contact', CONTACT_DEFAULT_SORT)],
  ['/enrichments', areaLoader('enrichments')],
  ['/playbooks', areaLoader('playbook'), (qc, fv) => prefetchPlaybook(qc, fv)],
  ['/playbooks/new', loadPlayEditor],
  ['/playbooks/:id', loadPlayEditor],
  ['/account/profile', areaLoader('profile'), async () => {}],
  ['/organization/settings', areaLoader('organization')],
];

/**
 * A signed-in first load: the shell's and the page's chunks (and the data a table opens with,
 * through the first view's client) start downloading beside the setup and user requests, instead
 * of after them (the router would ask for them only once RequireAuth has the user). For a page
 * whose first view they serve, settles once they all have; else null (the page asks for its data
 * through the API client once it has rendered).
 */
export function preloadSignedInRoute(pathname: string, queryClient: QueryClient, firstView: FirstViewClient): Promise<unknown> | null {
  const shell = loadShell();
  for (const [path, load, prefetch] of SIGNED_IN_PAGES) {
    const match = matchPath(path, pathname);
    if (!match) continue;
    const page = load?.();
    if (!prefetch) return null;
    return Promise.allSettled([shell, page, prefetch(queryClient, firstView, match.params as Record<string, string>)]);
  }
  return null;
}

function Root() {
  return (
    <SetupGate>
      <Suspense fallback={<LoadingScreen />}>
        <Outlet />
      </Suspense>
    </SetupGate>
  );
}

function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div role="alert" style={{ padding: 32, fontFamily: 'system-ui, sans-serif' }}>
      <h1>Something went wrong</h1>
      <p>Please refresh the page.</p>
      <button type="button" onClick={() => window.location.reload()}>
        Refresh Page
      </button>
    </div>
  );
}

export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <Root />,
      errorElement: <RouteError />,
      children: [
        {
          element: <PublicLayout />,
          children: [
            { path: 'login', element: <LoginPage /> },
            { path: 'reset-password', element: <ResetPasswordPage /> },
            { path: 'invite/:token', element: <InvitePage /> },
          ],
        },
        {
          element: (
            <RequireAuth>
              <AppShell />
            </RequireAuth>
          ),
          children: [
            { index: true, element: <HomePage /> },
            { path: 'list-company', element: <ListsPage /> },
            { path: 'list-company/:id', element: <ListPage /> },
            { path: 'companies', element: <CompaniesPage /> },
            { path: 'contacts', element: <ContactsPage /> },
            { path: 'enrichments', element: <EnrichmentsPage /> },
            { path: 'playbooks', element: <PlaybooksPage /> },
            { path: 'playbooks/new', element: <PlayEditorPage /> },
            { path: 'playbooks/:id', element: <PlayEditorPage /> },
            { path: 'account/profile', element: <ProfilePage /> },
            { path: 'organization/settings', element: <OrganizationSettingsPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);
}
