// The Dealscout server the extension talks to (options page). Pure rules, unit-tested.

export const DEFAULT_SERVER_URL = 'http://localhost:3000';

export const SERVER_URL_MESSAGES = {
  required: 'Server address is required',
  invalid: 'Enter the server address as http(s)://host[:port]',
  insecure: 'Use https:// for a server other than this computer',
  saved: 'Server address saved. Sign in again in the side panel.',
} as const;

const LOCAL = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** 'dealscout.example.com/' → {origin:'https://dealscout.example.com'}; a bad address → {error}. */
export function parseServerUrl(input: string): { origin: string } | { error: string } {
  let s = input.trim();
  if (!s) return { error: SERVER_URL_MESSAGES.required };
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = `${LOCAL.test(s.split(/[:/]/)[0]) ? 'http' : 'https'}://${s}`;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return { error: SERVER_URL_MESSAGES.invalid };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password)
    return { error: SERVER_URL_MESSAGES.invalid };
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return { error: SERVER_URL_MESSAGES.invalid };
  // A bearer token must not cross the network in clear text.
  if (url.protocol === 'http:' && !LOCAL.test(url.hostname)) return { error: SERVER_URL_MESSAGES.insecure };
  return { origin: url.origin };
}
