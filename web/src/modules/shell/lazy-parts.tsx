// The shell's parts that its first view does not need (parts/): the detail drawer, the mini drawer,
// the floating draft panels and the New dialogs, each a chunk of its own, so a page's first load takes
// only the frame it paints. A part mounts once first needed (a dialog once first opened, a drawer once
// shown) and stays mounted afterwards, so closing keeps its transition. The shell imports nothing else
// from the parts' modules: a module a first view imports anything from is in its chunks, whole.
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import type * as DialogParts from './parts/dialogs';

export const RecordDrawer = lazy(() => import('./parts/drawer').then((m) => ({ default: m.RecordDrawer })));
export const MiniDrawer = lazy(() => import('./parts/mini-drawer').then((m) => ({ default: m.MiniDrawer })));
export const DraftPanels = lazy(() => import('./parts/draft-panels').then((m) => ({ default: m.DraftPanels })));

/** True from the first render where `on` is true, for good. */
export function useMountedOnce(on: boolean): boolean {
  const [mounted, setMounted] = useState(on);
  if (on && !mounted) setMounted(true);
  return mounted || on;
}

/** A lazy part under its own Suspense boundary (the page around it never falls back while it loads). */
export function Part({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return <Suspense fallback={fallback}>{children}</Suspense>;
}

type Dialogs = typeof DialogParts;

function dialogPart<K extends keyof Dialogs>(key: K) {
  type P = Parameters<Dialogs[K]>[0];
  const Dialog = lazy(() => import('./parts/dialogs').then((m) => ({ default: m[key] as ComponentType<P> })));
  return function LazyDialog(props: P) {
    const mounted = useMountedOnce(props.open);
    if (!mounted) return null;
    return (
      <Part>
        <Dialog {...props} />
      </Part>
    );
  };
}

export const CompanyDialog = dialogPart('CompanyDialog');
export const ContactDialog = dialogPart('ContactDialog');
export const NewFieldDialog = dialogPart('NewFieldDialog');
