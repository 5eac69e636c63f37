// Secrets at rest (integration API keys): AES-256-GCM with a key derived from SECRETS_KEY
// (HKDF-SHA256), a random 96-bit IV per value, and the organization id as additional data so a
// ciphertext copied to another organization's row does not decrypt. Format:
// `v1.<iv>.<tag>.<ciphertext>` (base64url parts).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const keys = new Map<string, Buffer>();
function keyOf(secretsKey: string): Buffer {
  let k = keys.get(secretsKey);
  if (!k) {
    k = Buffer.from(hkdfSync('sha256', secretsKey, 'dealscout-secrets', 'aes-256-gcm v1', 32));
    keys.set(secretsKey, k);
  }
  return k;
}

export function encryptSecret(plain: string, secretsKey: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secretsKey), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/** The plain text; throws when the value was not encrypted with this key and context. */
export function decryptSecret(stored: string, secretsKey: string, context: string): string {
  const [v, iv, tag, ct] = stored.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('unknown secret format');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secretsKey), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
