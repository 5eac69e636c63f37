import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { mayHaveSessionCookie } from '@dealscout/shared/client';
import { App } from './app/App';
import { createFirstView, holdApiUntil } from './app/api';
import { createQueryClient } from './app/queryClient';
import { createAppRouter, preloadSignedInRoute } from './app/router';
import { installSessionController } from './modules/session/session-controller';
import { prefetchSession } from './modules/session/hooks/useSession';
import './styles.css';

const queryClient = createQueryClient();
// The first load's requests and chunks in parallel, before the first render: the setup check, the
// signed-in user, and (with a session cookie) the shell's and the page's chunks and the data its
// table opens with. Rendered, the gates find them on their way instead of asking one after the
// other. These answers are taken without their zod contracts, which load with the API client and
// then check them.
const firstView = createFirstView(queryClient);
const session = prefetchSession(queryClient, firstView);
const page = mayHaveSessionCookie() ? preloadSignedInRoute(window.location.pathname, queryClient, firstView) : null;
// A page whose first view these requests serve loads the API client after it; another at once.
holdApiUntil(page && Promise.allSettled([...session, page]));
const router = createAppRouter();
installSessionController(queryClient, (to) => void router.navigate(to, { replace: true }));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={queryClient} router={router} />
  </StrictMode>,
);
