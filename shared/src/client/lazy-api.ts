// The API client as a stand-in that loads it on first use: a client whose first view answers
// through first-view.ts keeps api.ts and its zod contracts out of the modules it loads up front,
// and hands this to the rest of its code. Every method of the API returns a promise, so a call
// waits for the client to load and then makes the call.
import type { Api } from './api';

export function lazyApi(load: () => Promise<Api>): Api {
  let loaded: Promise<Api> | null = null;
  const client = () => (loaded ??= load());
  const groups = new Map<PropertyKey, unknown>();
  const group = (name: PropertyKey) =>
    new Proxy(
      {},
      {
        get:
          (_, method) =>
          (...args: unknown[]) =>
            client().then((api) => {
              const g = api[name as keyof Api] as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>;
              return g[method](...args);
            }),
      },
    );
  return new Proxy({} as Api, {
    get: (_, name) => {
      if (!groups.has(name)) groups.set(name, group(name));
      return groups.get(name);
    },
  });
}
