// The API client with every zod contract, a chunk of its own: SessionStore.api() imports it when a
// call needs it (sign-in, sign-out), and the connected chunk uses it for the signed-in pane.
export { createApi } from '@dealscout/shared/client';
