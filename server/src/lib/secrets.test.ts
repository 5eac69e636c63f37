import { describe, it, expect } from 'vitest';
import { encryptSecret, decryptSecret } from './secrets';

const KEY = 'a-test-secrets-key-of-at-least-32-characters';

describe('secrets at rest (AES-256-GCM)', () => {
  it('round-trips, with a fresh IV each time and no plain text in the stored form', () => {
    const a = encryptSecret('sk-live-123', KEY, 'org-1');
    const b = encryptSecret('sk-live-123', KEY, 'org-1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('sk-live');
    expect(a.startsWith('v1.')).toBe(true);
    expect(decryptSecret(a, KEY, 'org-1')).toBe('sk-live-123');
  });

  it('refuses another key, another organization (context) and a tampered value', () => {
    const s = encryptSecret('sk-live-123', KEY, 'org-1');
    expect(() => decryptSecret(s, 'another-secrets-key-of-at-least-32-chars', 'org-1')).toThrow();
    expect(() => decryptSecret(s, KEY, 'org-2')).toThrow();
    const parts = s.split('.');
    const ct = Buffer.from(parts[3], 'base64url');
    ct[0] ^= 1;
    expect(() => decryptSecret([parts[0], parts[1], parts[2], ct.toString('base64url')].join('.'), KEY, 'org-1')).toThrow();
    expect(() => decryptSecret('plain', KEY, 'org-1')).toThrow('unknown secret format');
  });
});
