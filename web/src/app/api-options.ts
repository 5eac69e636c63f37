// How the web app talks to the API: same origin, cookie session (the CSRF header from its cookie),
// a 401 answer signing the user out.
import type { HttpOptions } from '@dealscout/shared/client';
import { sessionEvents } from '../modules/session/session-events';

export const API_OPTIONS: HttpOptions = {
  baseUrl: '',
  onUnauthorized: (error) => sessionEvents.unauthorized(error),
};
