// The item the pane is about: read when the pane opens, read again when a pinned pane's selection
// changes (ItemChanged) and when the rep asks (compose recipients change as they type).
import { useCallback, useEffect, useState } from 'react';
import type { MailItem, OutlookHost } from '../office/outlook';

export interface MailItemState {
  item: MailItem | null;
  loading: boolean;
  error: string | null;
  /** Bumps on every new selection, so what the pane chose for the last one is reset. */
  selection: number;
  refresh(): void;
}

/** `first`: the item as read before the pane rendered (startPane), so the pane renders with it at once; undefined: read here. */
export function useMailItem(host: OutlookHost, first?: MailItem | null): MailItemState {
  const [state, setState] = useState<Omit<MailItemState, 'refresh'>>(() =>
    first === undefined
      ? { item: null, loading: true, error: null, selection: 0 }
      : { item: first, loading: false, error: null, selection: 1 },
  );
  const [readFirst] = useState(first === undefined);

  const read = useCallback(
    (newSelection: boolean) => {
      host.currentItem().then(
        (item) => setState((s) => ({ item, loading: false, error: null, selection: newSelection ? s.selection + 1 : s.selection })),
        (e: unknown) => setState((s) => ({ ...s, loading: false, error: e instanceof Error ? e.message : 'Could not read the email' })),
      );
    },
    [host],
  );

  useEffect(() => {
    let off: (() => void) | null = null;
    let alive = true;
    if (readFirst) read(true);
    host
      .onItemChanged(() => read(true))
      .then(
        (unsubscribe) => {
          if (alive) off = unsubscribe;
          else unsubscribe();
        },
        (e: unknown) => console.warn('ItemChanged is not available', e),
      );
    return () => {
      alive = false;
      off?.();
    };
  }, [host, read, readFirst]);

  const refresh = useCallback(() => read(false), [read]);
  return { ...state, refresh };
}
