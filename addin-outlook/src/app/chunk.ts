// A lazily loaded chunk, and React.lazy() over the components it exports. A plain lazy() suspends
// on its first render even when its chunk has long loaded (the promise it is handed settles on a
// later microtask), which costs its boundary a fallback commit and a second render; lazyPart()
// renders a part of a chunk that has loaded at once.
import { lazy, type ComponentType } from 'react';

export interface Chunk<M> {
  /** Starts loading the chunk (once); settles with its module. */
  load(): Promise<M>;
  /** The module, once loaded; null before. */
  loaded(): M | null;
}

export function chunk<M>(importer: () => Promise<M>): Chunk<M> {
  let promise: Promise<M> | null = null;
  let module: M | null = null;
  return {
    load: () =>
      (promise ??= importer().then((m) => {
        module = m;
        return m;
      })),
    loaded: () => module,
  };
}

/** React.lazy() over one component of `c`: rendered without suspending when `c` has loaded. */
export function lazyPart<M, P extends object>(c: Chunk<M>, pick: (m: M) => ComponentType<P>) {
  return lazy(() => {
    const m = c.loaded();
    if (!m) return c.load().then((loaded) => ({ default: pick(loaded) }));
    // A thenable that calls back at once: lazy() then finds the component before it would suspend.
    const ready = { then: (ok: (part: { default: ComponentType<P> }) => void) => ok({ default: pick(m) }) };
    return ready as unknown as Promise<{ default: ComponentType<P> }>;
  });
}
