import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { isAuthError } from '@dealscout/shared/domain';
import { UserContext, useUserQuery } from '../hooks/useSession';
import { signOut } from '../session-controller';
import { LoadingScreen } from './LoadingScreen';
import { AuthErrorScreen } from './AuthErrorScreen';

function SignOutNow() {
  useEffect(() => {
    void signOut();
  }, []);
  return <LoadingScreen />;
}

/**
 * The shell's gate: 'Loading...' while the user loads; signed out (401) → /login; an
 * authentication-type error signs out; any other failure shows the Authentication Error screen.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { data: user, error, isPending } = useUserQuery();
  const location = useLocation();
  const navigate = useNavigate();

  if (isPending) return <LoadingScreen />;
  if (error) {
    if (isAuthError(error)) return <SignOutNow />;
    return <AuthErrorScreen onGoToLogin={() => navigate('/login')} />;
  }
  if (!user) {
    // Unauthenticated: nothing of the shell renders.
    const from = location.pathname + location.search;
    return <Navigate to="/login" replace state={from !== '/' ? { from } : undefined} />;
  }
  return <UserContext.Provider value={user}>{children}</UserContext.Provider>;
}
