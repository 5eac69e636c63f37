import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pkceChallenge, pkcePair } from './pkce';

describe('pkcePair', () => {
  it('gives a verifier of 43–128 unreserved characters and its S256 challenge', () => {
    const { verifier, challenge } = pkcePair();
    expect(verifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(pkcePair().verifier).not.toBe(verifier);
  });

  it("computes RFC 7636's example challenge", () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});
