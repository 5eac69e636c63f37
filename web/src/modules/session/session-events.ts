// Session events raised outside React (the API client's 401 hook, the query caches' error hooks)
// and handled by the session controller registered by the app.
import type { ApiError } from '@dealscout/shared/client';

type Handler = (reason: unknown) => void;

let onUnauthorized: Handler = () => {};
let onAuthError: Handler = () => {};

export const sessionEvents = {
  unauthorized(error: ApiError) {
    onUnauthorized(error);
  },
  authError(error: unknown) {
    onAuthError(error);
  },
  register(handlers: { unauthorized: Handler; authError: Handler }) {
    onUnauthorized = handlers.unauthorized;
    onAuthError = handlers.authError;
  },
};
