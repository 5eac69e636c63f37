// What the side panel, the options page and the content scripts need from the browser. The real
// implementation (extension-host.ts) is the only code that touches the extension APIs; tests use
// an in-memory one (memory-host.ts).
import type { PageRecord } from '../extract/types';

/** The panel's saved state: the server it talks to and, once signed in, its bearer token. */
export interface StoredSettings {
  serverUrl: string;
}
export interface StoredSession {
  serverUrl: string;
  token: string;
  tokenId: string;
  expiresAt: string;
  user: { id: string; organizationId: string; email: string; firstName: string; lastName: string };
}

export interface Store {
  getSettings(): Promise<StoredSettings | null>;
  setSettings(s: StoredSettings): Promise<void>;
  getSession(): Promise<StoredSession | null>;
  setSession(s: StoredSession | null): Promise<void>;
  /** Called when another page of the extension (options, another panel) changes either. */
  onChange(listener: () => void): () => void;
}

export interface TabWatch {
  /** The tab the panel follows now (the active tab of its window), or null. */
  activeTabId(): Promise<number | null>;
  /** Called with the newly active tab's id, and with the same id when that tab navigates. */
  onActiveTabChange(listener: (tabId: number) => void): () => void;
  /** Asks the tab's content script for the record it shows (null: none, or no Dealscout script there). */
  requestRecord(tabId: number): Promise<PageRecord | null>;
  /** Records a content script reports on its own (the page changed). */
  onRecord(listener: (tabId: number, record: PageRecord | null) => void): () => void;
}

export interface PanelHost extends TabWatch {
  store: Store;
  openOptions(): void;
}
