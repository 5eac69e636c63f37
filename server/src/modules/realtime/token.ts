import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/tokens';

/** What a realtime token says: who (user, organization, session) and until when (epoch seconds). */
export interface RealtimeClaims {
  uid: string;
  oid: string;
  sid: string;
  exp: number;
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');

function sign(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(`realtime.${payload}`).digest('base64url');
}

/** `payload.signature`, both base64url: HMAC-SHA256 over the claims with REALTIME_SECRET. */
export function signRealtimeToken(
  claims: Omit<RealtimeClaims, 'exp'>,
  secret: string,
  ttlSeconds: number,
  now = Date.now(),
): { token: string; expiresAt: Date } {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  const payload = b64(JSON.stringify({ ...claims, exp }));
  return { token: `${payload}.${sign(payload, secret)}`, expiresAt: new Date(exp * 1000) };
}

/** The claims of a token this server signed and that has not expired, else null. */
export function verifyRealtimeToken(token: string, secret: string, now = Date.now()): RealtimeClaims | null {
  if (typeof token !== 'string' || token.length > 2000) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  if (!safeEqual(signature, sign(payload, secret))) return null;
  try {
    const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<RealtimeClaims>;
    if (typeof c.uid !== 'string' || typeof c.oid !== 'string' || typeof c.sid !== 'string' || typeof c.exp !== 'number') return null;
    if (c.exp * 1000 <= now) return null;
    return { uid: c.uid, oid: c.oid, sid: c.sid, exp: c.exp };
  } catch {
    return null;
  }
}
