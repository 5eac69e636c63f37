// The mini drawer's state (spec 000 §4 'Mini drawer: open or closed, current tab'). Opened from the
// shell's header button, from the drawer's Activities tab (prefilled with the record) and by the
// edit button of a manual activity (the same form, filled from GET /activity/participant/{id}).
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { PickedRecord } from '../dialogs/RecordFormFields';

export type MiniDrawerTab = 'Run Play' | 'Log Activity';
export const MINI_DRAWER_TABS: readonly MiniDrawerTab[] = ['Run Play', 'Log Activity'];

/** The record Run Play runs on (title: what the tab says). */
export interface RunPlayTarget {
  entityType: 'company' | 'contact';
  id: string;
  title?: string;
}

export interface MiniDrawerRequest {
  tab?: MiniDrawerTab;
  /** Run Play's record. */
  target?: RunPlayTarget | null;
  /** Prefills Log Activity's company picker. */
  company?: PickedRecord | null;
  /** Prefills Log Activity's contact picker. */
  contact?: PickedRecord | null;
  /** Edit this (manual) activity in Log Activity. */
  activityId?: string | null;
}

export interface MiniDrawerState {
  isOpen: boolean;
  tab: MiniDrawerTab;
  /** What the form starts from; `nonce` changes with every open() so the form resets. */
  request: MiniDrawerRequest & { nonce: number };
  open(request?: MiniDrawerRequest): void;
  setTab(tab: MiniDrawerTab): void;
  close(): void;
}

const Ctx = createContext<MiniDrawerState | null>(null);

export function MiniDrawerProvider({ children }: { children: ReactNode }) {
  const [isOpen, setOpen] = useState(false);
  const [tab, setTab] = useState<MiniDrawerTab>('Log Activity');
  const [request, setRequest] = useState<MiniDrawerRequest & { nonce: number }>({ nonce: 0 });
  const open = useCallback((r: MiniDrawerRequest = {}) => {
    setRequest((old) => ({ ...r, nonce: old.nonce + 1 }));
    // Log Activity by default (the header's note icon); Run Play when asked for.
    setTab(r.tab ?? 'Log Activity');
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  const value = useMemo<MiniDrawerState>(() => ({ isOpen, tab, request, open, setTab, close }), [isOpen, tab, request, open, close]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/** The mini drawer's state, or null when the client has none (then its openers are hidden). */
export function useMiniDrawer(): MiniDrawerState | null {
  return useContext(Ctx);
}
