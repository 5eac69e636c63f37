// PKCE (RFC 7636) for the OAuth code flows the server starts (Salesforce, Microsoft 365): a fresh
// verifier per authorization and its S256 challenge. The verifier stays on the server (encrypted)
// until the code is exchanged; only the challenge goes to the browser.
import { createHash, randomBytes } from 'node:crypto';

/** The S256 challenge of a verifier: base64url(SHA-256(verifier)). */
export const pkceChallenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** A fresh verifier (86 characters of base64url, within the 43–128 the RFC allows) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(64).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier) };
}
