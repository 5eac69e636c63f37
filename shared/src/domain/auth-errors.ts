// Which errors sign the user out (spec 000 §4 'Session'): messages about unauthorized, token, 401,
// 403, session expired — but not null/undefined property-access errors, which also mention 'token'
// sometimes (e.g. "Cannot read properties of undefined (reading 'token')").

// V8 today: "Cannot read properties of undefined (reading 'x')"; older V8: "Cannot read property 'x' of null";
// Firefox: "can't access property \"x\", y is undefined"; Safari: "undefined is not an object".
const NULL_ACCESS_RE =
  /cannot read propert(y|ies)\b.*\bof (null|undefined)|is (null|undefined)|undefined is not an object|null is not an object/i;
const AUTH_RE = /unauthori[sz]ed|\btoken\b|\b401\b|\b403\b|session expired|forbidden/i;

export function isAuthError(error: unknown): boolean {
  if (error == null) return false;
  const status = typeof error === 'object' && error !== null && 'status' in error ? Number((error as { status: unknown }).status) : NaN;
  if (status === 401 || status === 403) return true;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  if (!message || NULL_ACCESS_RE.test(message)) return false;
  return AUTH_RE.test(message);
}
