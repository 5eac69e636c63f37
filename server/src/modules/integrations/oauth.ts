// The OAuth 2.0 authorization code flows the server starts (Salesforce, Office 365), with PKCE
// (RFC 7636, S256), one way for both. Starting stores a pending authorization in `oauth_authorization`
// (oauth-authorization.entity.ts): who started it (organization, user), the provider, the SHA-256
// hash of a fresh random state, the verifier encrypted with the organization as context, and 15
// minutes to live. The state sent to the provider is `<organization id>.<random>`, so the callback,
// public or not, finds the row within that organization. Taking it at the callback deletes it in the
// same statement: a state is used once; an unknown, tampered, expired or already-used state, or one
// started by another organization or user than the callback expects, gives nothing back.
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { calculatePKCECodeChallenge, generateRandomCodeVerifier, generateRandomState } from 'oauth4webapi';
import { tenantSql } from '../../db/sql';
import { decryptSecret, encryptSecret } from '../../lib/secrets';

export type OAuthProvider = 'salesforce' | 'office365';

/** How long a consent round trip may take. */
export const OAUTH_STATE_TTL_MS = 15 * 60_000;

/** Who starts an authorization, and who a callback expects (when it knows: a signed-in callback). */
export interface OAuthParty {
  organizationId: string;
  userId: string;
}

/** A pending authorization taken back at the callback. */
export interface OAuthAuthorizationTaken extends OAuthParty {
  provider: OAuthProvider;
  verifier: string;
  data: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/** The organization a state names and its hash, or null when it cannot be one of ours. */
function parseState(state: string | undefined): { organizationId: string; stateHash: string } | null {
  if (!state) return null;
  const dot = state.indexOf('.');
  const organizationId = state.slice(0, dot);
  if (dot < 0 || !UUID.test(organizationId) || state.length - dot < 20) return null;
  return { organizationId: organizationId.toLowerCase(), stateHash: hashState(state) };
}

/**
 * Starts an authorization: stores the pending authorization (replacing this user's earlier one for
 * the provider, and sweeping the organization's expired ones) and answers the state and the S256
 * challenge to put in the provider's authorization URL. `data` comes back at the callback.
 */
export async function startAuthorization(
  em: EntityManager,
  secretsKey: string,
  who: OAuthParty,
  provider: OAuthProvider,
  data: Record<string, unknown> = {},
): Promise<{ state: string; challenge: string }> {
  const verifier = generateRandomCodeVerifier();
  const state = `${who.organizationId}.${generateRandomState()}`;
  const sql = tenantSql(em, who.organizationId);
  await sql.run(`delete from oauth_authorization where organization_id = ? and (expires_at < now() or (user_id = ? and provider = ?))`, [
    who.organizationId,
    who.userId,
    provider,
  ]);
  await sql.run(
    `insert into oauth_authorization (id, organization_id, user_id, provider, state_hash, verifier, data, expires_at, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?::jsonb, ?, now())`,
    [
      who.organizationId,
      who.userId,
      provider,
      hashState(state),
      encryptSecret(verifier, secretsKey, who.organizationId),
      JSON.stringify(data),
      new Date(Date.now() + OAUTH_STATE_TTL_MS),
    ],
  );
  return { state, challenge: await calculatePKCECodeChallenge(verifier) };
}

interface Row {
  user_id: string;
  provider: OAuthProvider;
  verifier: string;
  data: Record<string, unknown>;
  expires_at: Date | string;
}

/**
 * The callback's check. `consume` (the default) deletes the pending authorization as it reads it, so
 * the state cannot be used again, even when it had expired; without it the authorization is only read
 * (a callback that will not exchange a code). Null for an unknown, tampered, expired or used state,
 * for another provider's, and for one started by another organization or user than `expected` names.
 */
export async function takeAuthorization(
  em: EntityManager,
  secretsKey: string,
  state: string | undefined,
  expected: { provider: OAuthProvider; organizationId?: string; userId?: string },
  consume = true,
): Promise<OAuthAuthorizationTaken | null> {
  const parsed = parseState(state);
  if (!parsed || (expected.organizationId !== undefined && expected.organizationId.toLowerCase() !== parsed.organizationId)) return null;
  const { organizationId, stateHash } = parsed;
  const where = `organization_id = ? and state_hash = ? and provider = ?${expected.userId !== undefined ? ' and user_id = ?' : ''}`;
  const params = [organizationId, stateHash, expected.provider, ...(expected.userId !== undefined ? [expected.userId] : [])];
  const columns = 'user_id, provider, verifier, data, expires_at';
  const [row] = await tenantSql(em, organizationId).all<Row>(
    consume
      ? `delete from oauth_authorization where ${where} returning ${columns}`
      : `select ${columns} from oauth_authorization where ${where}`,
    params,
  );
  if (!row || new Date(row.expires_at).getTime() <= Date.now()) return null;
  let verifier: string;
  try {
    verifier = decryptSecret(row.verifier, secretsKey, organizationId);
  } catch {
    return null;
  }
  const data = typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data;
  return { organizationId, userId: row.user_id, provider: row.provider, verifier, data };
}
