// The Outlook task pane. index.html loads office.js first (as Microsoft documents it); the pane
// renders once Office.onReady has run, so every host call below it finds Office initialized.
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createOutlookHost } from './office/outlook';
import { SessionStore } from './session/session';
import { App, preloadRest, startPane } from './app/App';

/** The first render waits this long at most for the email to be read. */
const FIRST_ITEM_WAIT_MAX_MS = 150;

const host = createOutlookHost();
const store = new SessionStore({ host, origin: globalThis.location?.origin });
// A re-opened, signed-in pane (its chunks cached): the rest of it loads first, as if it were part
// of the first chunk, and the pane waits for Office then.
const rest = preloadRest(store);

void Promise.resolve(rest)
  .then(() => host.ready())
  .then(async () => {
    const boot = startPane(host, store);
    // Signed in, the pane renders with the email already read (no 'Reading the email...' first);
    // a failed or slow read (compose mode asks the host field by field) is read again, and shown,
    // the usual way.
    if (boot?.item) {
      const slow = new Promise<undefined>((done) => setTimeout(done, FIRST_ITEM_WAIT_MAX_MS));
      boot.firstItem = await Promise.race([boot.item.catch(() => undefined), slow]);
    }
    // A transition: the first render yields to the browser every few milliseconds, so the answer
    // of the email's people is taken, and the first contact asked for, while it renders.
    const root = createRoot(document.getElementById('root')!);
    startTransition(() => root.render(<App host={host} store={store} boot={boot} />));
  });
