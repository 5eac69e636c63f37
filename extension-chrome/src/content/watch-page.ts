// The body of every content script: read the record now, again whenever the single-page app
// changes the address or its content (debounced), tell the panel when it changed, and answer the
// panel when it asks. The extractor is pure; this is the only part that watches the live page.
import type { Extractor } from '../extract';
import { sameRecord, type PageRecord } from '../extract';
import { contentScriptHost } from '../host/extension-host';

export const REREAD_DELAY_MS = 400;

export function watchPage(extract: Extractor, opts: { onInvalidated(cb: () => void): void }): { reread(): void } {
  const host = contentScriptHost();
  let current: PageRecord | null = null;
  const read = (): PageRecord | null => {
    try {
      return extract(document, new URL(location.href));
    } catch {
      return null;
    }
  };
  const refresh = () => {
    const next = read();
    if (sameRecord(next, current)) return;
    current = next;
    host.sendRecord(current);
  };
  let timer: ReturnType<typeof setTimeout> | null = null;
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(refresh, REREAD_DELAY_MS);
  };
  const observer = new MutationObserver(schedule);
  observer.observe(document.documentElement, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['href', 'title', 'value'],
  });
  window.addEventListener('popstate', schedule);
  const stopAnswering = host.answerRecordRequests(() => {
    current = read();
    return current;
  });
  opts.onInvalidated(() => {
    observer.disconnect();
    stopAnswering();
    if (timer) clearTimeout(timer);
  });
  refresh();
  return { reread: schedule };
}
