import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { mayHaveSessionCookie } from '@dealscout/shared/client';
import { App } from './app/App';
import { createQueryClient } from './app/queryClient';
import { createAppRouter, preloadSignedInRoute } from './app/router';
import { installSessionController } from './modules/session/session-controller';
import { setupQuery, userQuery } from './modules/session/hooks/useSession';
import './styles.css';

const queryClient = createQueryClient();
// The first load's requests and chunks in parallel, before the first render: the setup check, the
// signed-in user, and (with a session cookie) the shell's and the page's chunks. Rendered, the
// gates find them on their way instead of asking one after the other.
void queryClient.prefetchQuery(setupQuery);
if (mayHaveSessionCookie()) {
  void queryClient.prefetchQuery(userQuery);
  preloadSignedInRoute(window.location.pathname, queryClient);
}
const router = createAppRouter();
installSessionController(queryClient, (to) => void router.navigate(to, { replace: true }));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={queryClient} router={router} />
  </StrictMode>,
);
