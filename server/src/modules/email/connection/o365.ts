// A user's own Office 365 connection (spec 001 §6 'Every user can manage their own
// email-service integration'): one `integration` row per user (provider office365, type email),
// its tokens encrypted with SECRETS_KEY (lib/secrets.ts, the organization id as context), the
// access token refreshed before it expires, and the row's expiresAt = the refresh token's life.
import type { EntityManager } from '@mikro-orm/postgresql';
import { EMAIL_MESSAGES, MAILBOX_LIMITS } from '@dealscout/shared/domain';
import { encryptSecret, decryptSecret } from '../../../lib/secrets';
import { badRequest } from '../../../lib/errors';
import type { Config } from '../../../config';
import { GraphClient, GraphError, graphSettingsFrom, type TokenSet, type MailboxSettings } from '../providers/graph';
import { tenantSql, scopedTo } from '../../../db/sql';
import { Integration, type IIntegration } from '../../integrations/integration.entity';
import { startAuthorization, takeAuthorization } from '../../integrations/oauth';

export const O365_PROVIDER = 'office365' as const;
/** An access token this close to its expiry is refreshed first. */
const REFRESH_MARGIN_MS = 5 * 60_000;

export const O365_MESSAGES = {
  notConfigured: 'Office 365 is not configured on this server. Ask your Dealscout operator to set O365_CLIENT_ID.',
  consentFailed: 'Office 365 did not connect. Please try again.',
} as const;

export function graphClient(config: Config): GraphClient {
  const s = graphSettingsFrom(config);
  if (!s) throw badRequest(O365_MESSAGES.notConfigured);
  return new GraphClient(s);
}

/** A consent taken back at the callback: who started it, the PKCE verifier and the page to return to. */
interface StatePayload {
  uid: string;
  oid: string;
  v: string;
  r: string;
}

/** The consent page address for the caller; the pending authorization is kept by integrations/oauth.ts. */
export async function connectUrl(
  em: EntityManager,
  config: Config,
  actor: { organizationId: string; userId: string; email: string },
  returnTo = '/account/profile',
): Promise<string> {
  const client = graphClient(config);
  const { state, challenge } = await startAuthorization(em, config.SECRETS_KEY, actor, O365_PROVIDER, { returnTo });
  return client.authorizeUrl(state, challenge, actor.email);
}

/**
 * Microsoft's redirect: the consent its `state` names, or null (unknown, tampered, expired, used).
 * A redirect with a code takes the consent (single use); one without (declined, failed) only reads it.
 */
export async function readState(
  em: EntityManager,
  config: Config,
  q: { state?: string; code?: string; error?: string },
): Promise<StatePayload | null> {
  const consume = Boolean(q.code && !q.error);
  const taken = await takeAuthorization(em, config.SECRETS_KEY, q.state, { provider: O365_PROVIDER }, consume);
  if (!taken) return null;
  return { uid: taken.userId, oid: taken.organizationId, v: taken.verifier, r: String(taken.data.returnTo ?? '/account/profile') };
}

interface StoredTokens {
  refreshToken: string;
  accessToken: string;
  accessExpiresAt: number;
}

function seal(config: Config, organizationId: string, t: TokenSet): string {
  return encryptSecret(
    JSON.stringify({ refreshToken: t.refreshToken, accessToken: t.accessToken, accessExpiresAt: t.accessExpiresAt } satisfies StoredTokens),
    config.SECRETS_KEY,
    organizationId,
  );
}

/** Redeems the code, reads the mailbox and stores (or replaces) the user's connection. */
export async function completeConnect(em: EntityManager, config: Config, state: StatePayload, code: string): Promise<IIntegration> {
  const client = graphClient(config);
  const tokens = await client.redeemCode(code, state.v);
  const me = await client.me(tokens.accessToken);
  let settings: MailboxSettings = { timeZone: null, workingHours: null };
  try {
    settings = await client.mailboxSettings(tokens.accessToken);
  } catch (err) {
    // A mailbox without settings access still sends; the send window falls back to the profile.
    if (!(err instanceof GraphError)) throw err;
  }
  const account = me.mail ?? me.userPrincipalName;
  return em.transactional(async (tem) => {
    const row = await tem.findOne(Integration, { organization: state.oid, user: state.uid, provider: O365_PROVIDER }, scopedTo(state.oid));
    const data = {
      accountName: account,
      displayName: me.displayName,
      graphUserId: me.id,
      timeZone: settings.timeZone,
      workingHours: settings.workingHours,
    };
    const expiresAt = new Date(Date.now() + config.O365_REFRESH_TOKEN_DAYS * 86_400_000);
    if (row) {
      Object.assign(row, { name: account, data, secret: seal(config, state.oid, tokens), expiresAt, active: true });
      await tem.flush();
      return row;
    }
    const created = tem.create(Integration, {
      organization: state.oid,
      user: state.uid,
      provider: O365_PROVIDER,
      type: 'email',
      name: account,
      active: true,
      createdBy: state.uid,
      secret: seal(config, state.oid, tokens),
      data,
      expiresAt,
    });
    await tem.flush();
    return created;
  });
}

/** The caller's connection (active or not), or null. */
export async function findConnection(em: EntityManager, organizationId: string, userId: string): Promise<IIntegration | null> {
  return em.findOne(Integration, { organization: organizationId, user: userId, provider: O365_PROVIDER }, scopedTo(organizationId));
}

/** Thrown when the mailbox cannot be used until the user connects again (no row, inactive, expired, refused refresh). */
export class MailboxUnavailable extends Error {
  constructor(message: string = EMAIL_MESSAGES.noOffice365) {
    super(message);
  }
}

/**
 * A usable access token of the user's mailbox: the stored one while it has more than 5 minutes,
 * otherwise refreshed under a lock of the integration row (so concurrent senders refresh once and
 * the rotated refresh token is never lost). `force` refreshes even a fresh one (after a 401).
 */
export async function accessToken(
  em: EntityManager,
  config: Config,
  organizationId: string,
  userId: string,
  force = false,
  known?: StoredConnection | null,
): Promise<{ token: string; integrationId: string }> {
  const read = (row: StoredConnection | null): StoredTokens => {
    if (!row || !row.active || !row.secret) throw new MailboxUnavailable();
    if (row.expiresAt && row.expiresAt.getTime() < Date.now()) throw new MailboxUnavailable();
    return JSON.parse(decryptSecret(row.secret, config.SECRETS_KEY, organizationId)) as StoredTokens;
  };
  const first = known !== undefined && !force ? known : await findConnection(em.fork(), organizationId, userId);
  const t = read(first);
  if (!force && t.accessExpiresAt - REFRESH_MARGIN_MS > Date.now()) return { token: t.accessToken, integrationId: first!.id };
  const staleToken = t.accessToken;
  // The refusal is recorded after the transaction (a throw inside it would roll the record back).
  const outcome = await em
    .fork()
    .transactional(async (tem): Promise<{ token: string; integrationId: string } | { revoked: string; integrationId: string }> => {
      const [row] = await tenantSql(tem, organizationId).all<{ id: string }>(
        `select id from integration where organization_id = ? and user_id = ? and provider = ? for update`,
        [organizationId, userId, O365_PROVIDER],
      );
      if (!row) throw new MailboxUnavailable();
      const current = await tem.findOneOrFail(
        Integration,
        { id: row.id, organization: organizationId },
        { ...scopedTo(organizationId), refresh: true },
      );
      const now = read(current);
      // Another sender refreshed while we waited for the lock.
      if (now.accessToken !== staleToken && now.accessExpiresAt - REFRESH_MARGIN_MS > Date.now())
        return { token: now.accessToken, integrationId: current.id };
      let fresh: TokenSet;
      try {
        fresh = await graphClient(config).refresh(now.refreshToken);
      } catch (err) {
        if (err instanceof GraphError && (err.code === 'invalid_grant' || err.code === 'interaction_required'))
          return { revoked: err.message, integrationId: current.id };
        throw err;
      }
      current.secret = seal(config, organizationId, fresh);
      current.expiresAt = new Date(Date.now() + config.O365_REFRESH_TOKEN_DAYS * 86_400_000);
      await tem.flush();
      return { token: fresh.accessToken, integrationId: current.id };
    });
  if ('revoked' in outcome) {
    // Microsoft refused the grant (revoked, expired by inactivity, password changed): the user must connect again.
    await tenantSql(em.fork(), organizationId).run(
      `update integration set active = false, data = data || ?::jsonb, updated_at = clock_timestamp() where id = ? and organization_id = ?`,
      [JSON.stringify({ error: outcome.revoked }), outcome.integrationId, organizationId],
    );
    throw new MailboxUnavailable();
  }
  return outcome;
}

/** The stored connection as a caller may have read it already (the send's claim reads it with the outbox row). */
export interface StoredConnection {
  id: string;
  active: boolean;
  secret?: string | null;
  expiresAt?: Date | null;
}

/**
 * Runs a Graph call with the user's token; a 401 (expired or revoked access token) refreshes once
 * and tries again. `known`: the connection row the caller read just now (saves a lookup).
 */
export async function withMailbox<T>(
  em: EntityManager,
  config: Config,
  organizationId: string,
  userId: string,
  fn: (client: GraphClient, token: string) => Promise<T>,
  known?: StoredConnection | null,
): Promise<T> {
  const release = await mailboxPermit(`${organizationId}:${userId}`);
  try {
    return await withMailboxHeld(em, config, organizationId, userId, fn, known);
  } finally {
    release();
  }
}

/**
 * At most MAILBOX_LIMITS.concurrentRequests callers of one mailbox at a time in this process
 * (Exchange Online refuses a fifth request at once with 429 MailboxConcurrency): the send jobs of a
 * mailbox are already spread that way (pg-boss group concurrency), but two workers fetching at the
 * same moment can both take the last place; the permit makes the extra one wait here instead.
 */
const permits = new Map<string, { active: number; waiting: (() => void)[] }>();
async function mailboxPermit(key: string): Promise<() => void> {
  let p = permits.get(key);
  if (!p) permits.set(key, (p = { active: 0, waiting: [] }));
  const slot = p;
  if (slot.active >= MAILBOX_LIMITS.concurrentRequests) await new Promise<void>((resolve) => slot.waiting.push(resolve));
  else slot.active += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = slot.waiting.shift();
    if (next)
      next(); // the place passes to the next waiter
    else if ((slot.active -= 1) === 0) permits.delete(key);
  };
}

async function withMailboxHeld<T>(
  em: EntityManager,
  config: Config,
  organizationId: string,
  userId: string,
  fn: (client: GraphClient, token: string) => Promise<T>,
  known?: StoredConnection | null,
): Promise<T> {
  const client = graphClient(config);
  const { token } = await accessToken(em, config, organizationId, userId, false, known);
  try {
    return await fn(client, token);
  } catch (err) {
    if (!(err instanceof GraphError) || err.status !== 401) throw err;
    const again = await accessToken(em, config, organizationId, userId, true);
    return fn(client, again.token);
  }
}
