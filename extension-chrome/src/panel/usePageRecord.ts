// The record of the page in the active tab: asked of the tab's content script when the panel opens
// and when another tab becomes active or the tab loads a page; told by the content script when its
// single-page app moves to another record.
import { useEffect, useState } from 'react';
import type { PageRecord } from '../extract/types';
import type { TabWatch } from '../host/types';

/** Performance marks: the page's record reached the panel, and its company is on screen (docs/benchmarks.md). */
export const RECORD_KNOWN_MARK = 'dealscout:record-known';
export const RECORD_SHOWN_MARK = 'dealscout:record-shown';

export interface PageState {
  /** Still asking the tab. */
  loading: boolean;
  tabId: number | null;
  record: PageRecord | null;
}

export function usePageRecord(tabs: TabWatch): PageState {
  const [state, setState] = useState<PageState>({ loading: true, tabId: null, record: null });
  useEffect(() => {
    let alive = true;
    let current: number | null = null;
    let asked = 0;
    const follow = async (tabId: number | null) => {
      current = tabId;
      const n = ++asked;
      setState((s) => ({ loading: true, tabId, record: s.tabId === tabId ? s.record : null }));
      const record = tabId === null ? null : await tabs.requestRecord(tabId);
      // A later question (another tab) wins over a slower earlier answer.
      if (alive && n === asked) {
        if (record) performance.mark(RECORD_KNOWN_MARK, { detail: record.crmId });
        setState({ loading: false, tabId, record });
      }
    };
    void tabs.activeTabId().then(follow);
    const stopTabs = tabs.onActiveTabChange((tabId) => void follow(tabId));
    const stopRecords = tabs.onRecord((tabId, record) => {
      if (tabId === current) {
        asked++;
        if (record) performance.mark(RECORD_KNOWN_MARK, { detail: record.crmId });
        setState({ loading: false, tabId, record });
      }
    });
    return () => {
      alive = false;
      stopTabs();
      stopRecords();
    };
  }, [tabs]);
  return state;
}
