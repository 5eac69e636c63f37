// The one API client of the web app: same origin, cookie session, CSRF header from the cookie.
import { createApi, ApiError } from '@dealscout/shared/client';
import { sessionEvents } from '../modules/session/session-events';

export const api = createApi({
  baseUrl: '',
  onUnauthorized: (error) => sessionEvents.unauthorized(error),
});

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
