import { lazy, Suspense } from 'react';
import { Outlet, createBrowserRouter, useRouteError } from 'react-router';
import { SetupGate } from '../modules/session/components/SetupGate';
import { RequireAuth } from '../modules/session/components/RequireAuth';
import { LoadingScreen } from '../modules/session/components/LoadingScreen';
import { PublicLayout } from '../modules/public/components/PublicLayout';
import { areaPage } from '../modules/shell/areas';

// Split by route: each page (and the shell) is its own chunk.
const AppShell = lazy(() => import('../modules/shell/components/AppShell'));
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
const PlayEditorPage = lazy(() => import('../modules/plays/pages/PlayEditorPage'));
const ListPage = lazy(() => import('../modules/lists/pages/ListPage'));
const NotFoundPage = lazy(() => import('../modules/placeholders/pages/NotFoundPage'));
const ProfilePage = areaPage('profile');
const OrganizationSettingsPage = areaPage('organization');

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
