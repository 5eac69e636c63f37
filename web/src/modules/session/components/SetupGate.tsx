import { lazy, Suspense, type ReactNode } from 'react';
import { useSetupStatus } from '../hooks/useSession';
import { LoadingScreen } from './LoadingScreen';

const SetupPage = lazy(() => import('../../public/pages/SetupPage'));

/** First run (no user in the database yet): every route shows the Setup screen. */
export function SetupGate({ children }: { children: ReactNode }) {
  const setup = useSetupStatus();
  if (setup.isPending) return <LoadingScreen />;
  if (setup.data?.needsSetup) {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <SetupPage />
      </Suspense>
    );
  }
  // A failed setup check is not fatal: the user fetch decides what to show next.
  return <>{children}</>;
}
