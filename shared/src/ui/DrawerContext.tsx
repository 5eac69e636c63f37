// Which record the detail drawer shows, and how it is shown (spec 000 §2 'Detail drawer', §4
// 'Drawer visibility'). Tables open a record with `useDrawer().open(...)`; the drawer component
// (shared/src/ui/drawer) renders from this state. Visibility is persisted by the client through
// the user's config (drawer.visibility), passed in as `initialVisibility` / `onVisibilityChange`.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { DrawerVisibility } from '../domain';

export interface DrawerTarget {
  entityType: 'company' | 'contact';
  id: string;
  /** Opens with the record's edit dialog (a fix for details it lacks). */
  edit?: boolean;
}

export interface DrawerState {
  /** The record shown, or null ('Select an entity to open drawer' when collapsed). */
  target: DrawerTarget | null;
  /** Records opened from inside the drawer (nested: a back arrow returns to the previous one). */
  stack: DrawerTarget[];
  visibility: DrawerVisibility;
  open(target: DrawerTarget): void;
  /** Opens a record on top of the current one (from a contact row inside a company drawer…). */
  push(target: DrawerTarget): void;
  back(): void;
  setVisibility(v: DrawerVisibility): void;
  close(): void;
}

const Ctx = createContext<DrawerState | null>(null);

export function DrawerProvider({
  children,
  initialVisibility = 'NoDrawer',
  onVisibilityChange,
}: {
  children: ReactNode;
  initialVisibility?: DrawerVisibility;
  onVisibilityChange?: (v: DrawerVisibility) => void;
}) {
  const [stack, setStack] = useState<DrawerTarget[]>([]);
  const [visibility, setVis] = useState<DrawerVisibility>(initialVisibility);
  const setVisibility = useCallback(
    (v: DrawerVisibility) => {
      setVis(v);
      onVisibilityChange?.(v);
    },
    [onVisibilityChange],
  );
  const open = useCallback(
    (t: DrawerTarget) => {
      setStack([t]);
      setVisibility('Visible');
    },
    [setVisibility],
  );
  const push = useCallback(
    (t: DrawerTarget) => {
      setStack((s) => [...s, t]);
      setVisibility('Visible');
    },
    [setVisibility],
  );
  const back = useCallback(() => setStack((s) => s.slice(0, -1)), []);
  const close = useCallback(() => {
    setStack([]);
    setVisibility('NoDrawer');
  }, [setVisibility]);
  const value = useMemo<DrawerState>(
    () => ({
      target: stack.length ? stack[stack.length - 1] : null,
      stack,
      visibility,
      open,
      push,
      back,
      setVisibility,
      close,
    }),
    [stack, visibility, open, push, back, setVisibility, close],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

/** The drawer, or null where there is none (a component that also renders outside the drawer's clients). */
export function useOptionalDrawer(): DrawerState | null {
  return useContext(Ctx);
}

export function useDrawer(): DrawerState {
  const v = useContext(Ctx);
  if (!v) throw new Error('useDrawer() outside <DrawerProvider>');
  return v;
}
