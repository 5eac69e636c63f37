// Reads the Salesforce record on the page for the side panel (src/extract/salesforce.ts).
import { defineContentScript } from 'wxt/utils/define-content-script';
import { CRM_MATCHES, extractSalesforce } from '../extract';
import { watchPage } from '../content/watch-page';

export default defineContentScript({
  matches: CRM_MATCHES.salesforce,
  runAt: 'document_idle',
  main(ctx) {
    const page = watchPage(extractSalesforce, { onInvalidated: (cb) => ctx.onInvalidated(cb) });
    // Single-page navigation (WXT dispatches it when the address changes without a load).
    ctx.addEventListener(window, 'wxt:locationchange', () => page.reread());
  },
});
