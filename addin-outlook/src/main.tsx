// The Outlook task pane. index.html loads office.js first (as Microsoft documents it); the pane
// renders once Office.onReady has run, so every host call below it finds Office initialized.
import { createRoot } from 'react-dom/client';
import { createOutlookHost } from './office/outlook';
import { SessionStore } from './session/session';
import { App, preloadRest, startPane } from './app/App';

const host = createOutlookHost();
const store = new SessionStore({ host, origin: globalThis.location?.origin });
// A re-opened, signed-in pane (its chunks cached): the rest of it loads first, as if it were part
// of the first chunk, and the pane waits for Office then.
const rest = preloadRest(store);

void Promise.resolve(rest)
  .then(() => host.ready())
  .then(() => {
    const boot = startPane(host, store);
    createRoot(document.getElementById('root')!).render(<App host={host} store={store} boot={boot} />);
  });
