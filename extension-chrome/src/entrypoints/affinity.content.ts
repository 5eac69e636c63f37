// Reads the Affinity record on the page for the side panel (src/extract/affinity.ts).
import { defineContentScript } from 'wxt/utils/define-content-script';
import { CRM_MATCHES, extractAffinity } from '../extract';
import { watchPage } from '../content/watch-page';

export default defineContentScript({
  matches: CRM_MATCHES.affinity,
  runAt: 'document_idle',
  main(ctx) {
    const page = watchPage(extractAffinity, { onInvalidated: (cb) => ctx.onInvalidated(cb) });
    // Single-page navigation (WXT dispatches it when the address changes without a load).
    ctx.addEventListener(window, 'wxt:locationchange', () => page.reread());
  },
});
