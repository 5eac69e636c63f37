// The one API client of the web app (its options: api-options.ts).
// The client (shared/src/client/api.ts) and its zod contracts are a chunk loaded once the first
// view is on screen (holdApiUntil): the first view's requests go through firstView (first-view.ts of
// shared/src/client), answered as sent and checked once the contracts are in; `api` stands in for
// the client until then, a call waiting for it to load.
import { ApiError, firstViewClient, lazyApi, type FirstViewClient } from '@dealscout/shared/client';
import type { QueryClient } from '@tanstack/react-query';
import { API_OPTIONS } from './api-options';

/** What the client waits for before loading: nothing, unless the first view holds it (holdApiUntil). */
let gate: Promise<unknown> = Promise.resolve();
const loadClient = () => gate.then(() => import('./checked-api')).then((m) => m.checkedApi);

export const api = lazyApi(loadClient);

/** The first view's requests, answered without the contracts (checked once they have loaded). */
export function createFirstView(queryClient: QueryClient): FirstViewClient {
  return firstViewClient(API_OPTIONS, queryClient);
}

let shown: () => void = () => {};
const pageShown = new Promise<void>((resolve) => (shown = resolve));

/** The shell has committed its first page (AppShell): that page's first view is on screen. */
export function firstViewShown(): void {
  shown();
}

/** How long the client waits for the first page at most once its data is in (a sign-in page, say, shows no shell). */
const FIRST_VIEW_WAIT_MS = 2000;

/**
 * The API client and its contracts load once `firstView` (the first view's data and chunks) has
 * settled and the shell has committed the page (firstViewShown), a frame later: calls of `api`
 * made before wait. Without a first view to wait for (null), they load at once.
 */
export function holdApiUntil(firstView: Promise<unknown> | null): void {
  if (firstView)
    gate = firstView
      .then(() => Promise.race([pageShown, new Promise((resolve) => setTimeout(resolve, FIRST_VIEW_WAIT_MS))]))
      .then(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  void loadClient();
}

export { ApiError };

/** The message to show for a failed request: the server's own message when it sent one. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const body = error.body as { message?: unknown } | null;
    if (body && typeof body.message === 'string' && body.message.trim()) return body.message;
    return fallback;
  }
  return fallback;
}
