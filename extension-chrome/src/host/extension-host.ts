// The one adapter over the extension APIs (webextension-polyfill's promise-based `browser`, and
// chrome.sidePanel, which the polyfill does not cover). Nothing else in the extension touches them.
import browser from 'webextension-polyfill';
import type { PageRecord } from '../extract/types';
import { isGetRecordMessage, isRecordMessage, type RecordMessage } from './messages';
import type { PanelHost, StoredSession, StoredSettings, Store } from './types';

const SETTINGS = 'settings';
const SESSION = 'session';

export const extensionStore: Store = {
  async getSettings() {
    const v = await browser.storage.local.get(SETTINGS);
    return (v[SETTINGS] as StoredSettings | undefined) ?? null;
  },
  async setSettings(s) {
    await browser.storage.local.set({ [SETTINGS]: s });
  },
  async getSession() {
    const v = await browser.storage.local.get(SESSION);
    return (v[SESSION] as StoredSession | undefined) ?? null;
  },
  async setSession(s) {
    if (s) await browser.storage.local.set({ [SESSION]: s });
    else await browser.storage.local.remove(SESSION);
  },
  onChange(listener) {
    const l = (changes: Record<string, unknown>, area: string) => {
      if (area === 'local' && (SETTINGS in changes || SESSION in changes)) listener();
    };
    browser.storage.onChanged.addListener(l);
    return () => browser.storage.onChanged.removeListener(l);
  },
};

/** The side panel's host. When the panel page runs in a tab of its own (opened directly), that tab is never the one followed. */
export function extensionPanelHost(): PanelHost {
  const ownTab = browser.tabs
    .getCurrent()
    .then((t) => t?.id ?? null)
    .catch(() => null);
  return {
    store: extensionStore,
    openOptions: () => void browser.runtime.openOptionsPage(),
    async activeTabId() {
      const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
      const own = await ownTab;
      return tab?.id !== undefined && tab.id !== own ? tab.id : null;
    },
    onActiveTabChange(listener) {
      const activated = (info: { tabId: number }) => {
        void ownTab.then((own) => {
          if (info.tabId !== own) listener(info.tabId);
        });
      };
      const updated = (tabId: number, change: { status?: string }, tab: { active?: boolean }) => {
        if (tab.active && change.status === 'complete')
          void ownTab.then((own) => {
            if (tabId !== own) listener(tabId);
          });
      };
      browser.tabs.onActivated.addListener(activated);
      browser.tabs.onUpdated.addListener(updated);
      return () => {
        browser.tabs.onActivated.removeListener(activated);
        browser.tabs.onUpdated.removeListener(updated);
      };
    },
    async requestRecord(tabId) {
      try {
        const answer = (await browser.tabs.sendMessage(tabId, { type: 'dealscout/get-record' })) as RecordMessage | undefined;
        return answer && isRecordMessage(answer) ? answer.record : null;
      } catch {
        return null; // no content script of ours in that tab
      }
    },
    onRecord(listener) {
      const l = (message: unknown, sender: browser.Runtime.MessageSender) => {
        if (isRecordMessage(message) && sender.tab?.id !== undefined) listener(sender.tab.id, message.record);
      };
      browser.runtime.onMessage.addListener(l);
      return () => browser.runtime.onMessage.removeListener(l);
    },
  };
}

/** Content script side: report a record change, and answer the panel's question. */
export function contentScriptHost() {
  return {
    sendRecord(record: PageRecord | null) {
      const message: RecordMessage = { type: 'dealscout/record', record };
      // No panel open: nobody listens, which is fine.
      browser.runtime.sendMessage(message).catch(() => undefined);
    },
    answerRecordRequests(current: () => PageRecord | null) {
      const l = (message: unknown) => {
        if (isGetRecordMessage(message)) return Promise.resolve({ type: 'dealscout/record', record: current() } satisfies RecordMessage);
        return undefined;
      };
      browser.runtime.onMessage.addListener(l);
      return () => browser.runtime.onMessage.removeListener(l);
    },
  };
}

/** Background: the toolbar button opens the side panel. */
export async function openPanelFromToolbar(): Promise<void> {
  const chromeApi = (
    globalThis as unknown as { chrome?: { sidePanel?: { setPanelBehavior(o: { openPanelOnActionClick: boolean }): Promise<void> } } }
  ).chrome;
  await chromeApi?.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true });
}
