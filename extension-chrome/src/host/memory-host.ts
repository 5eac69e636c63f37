// Test-only: an in-memory PanelHost (storage, tabs, content scripts) with the same behaviour as the
// extension adapter, driven by the test: activate(tabId), navigate(tabId, record), and tabs whose
// content script answers late.
import type { PageRecord } from '../extract/types';
import type { PanelHost, StoredSession, StoredSettings } from './types';

export class MemoryHost implements PanelHost {
  settings: StoredSettings | null = null;
  session: StoredSession | null = null;
  active: number | null = null;
  /** The record each tab's content script reports; a tab missing here has no content script. */
  pages = new Map<number, PageRecord | null>();
  /** Milliseconds a tab's content script takes to answer. */
  delays = new Map<number, number>();
  optionsOpened = 0;
  private storeListeners = new Set<() => void>();
  private tabListeners = new Set<(tabId: number) => void>();
  private recordListeners = new Set<(tabId: number, record: PageRecord | null) => void>();

  store = {
    getSettings: async () => this.settings,
    setSettings: async (s: StoredSettings) => {
      this.settings = s;
      this.changed();
    },
    getSession: async () => this.session,
    setSession: async (s: StoredSession | null) => {
      this.session = s;
      this.changed();
    },
    onChange: (l: () => void) => {
      this.storeListeners.add(l);
      return () => {
        this.storeListeners.delete(l);
      };
    },
  };

  openOptions = () => {
    this.optionsOpened++;
  };
  activeTabId = async () => this.active;
  onActiveTabChange = (l: (tabId: number) => void) => {
    this.tabListeners.add(l);
    return () => {
      this.tabListeners.delete(l);
    };
  };
  onRecord = (l: (tabId: number, record: PageRecord | null) => void) => {
    this.recordListeners.add(l);
    return () => {
      this.recordListeners.delete(l);
    };
  };
  requestRecord = async (tabId: number) => {
    const delay = this.delays.get(tabId) ?? 0;
    if (delay) await new Promise((r) => setTimeout(r, delay));
    return this.pages.get(tabId) ?? null;
  };

  activate(tabId: number) {
    this.active = tabId;
    for (const l of this.tabListeners) l(tabId);
  }
  /** The tab's single-page app shows another record: its content script tells the panel. */
  navigate(tabId: number, record: PageRecord | null) {
    this.pages.set(tabId, record);
    for (const l of this.recordListeners) l(tabId, record);
  }
  private changed() {
    for (const l of this.storeListeners) l();
  }
}
