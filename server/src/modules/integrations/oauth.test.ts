// The one way the server keeps an OAuth authorization it started (oauth.ts), against the real
// database: the state and the S256 challenge, the verifier back at the callback with who started
// it, and a refusal for another organization, user or provider, a tampered, expired or used state.
import { createHash } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { calculatePKCECodeChallenge } from 'oauth4webapi';
import { createTestApp, createOrg, createUser, type TestContext } from '../../../test/helpers';
import { startAuthorization, takeAuthorization, OAUTH_STATE_TTL_MS, type OAuthParty } from './oauth';

describe('OAuth authorizations (PKCE S256, one pending authorization per state, single use)', () => {
  let ctx: TestContext;
  let alice: OAuthParty;
  let bob: OAuthParty;
  let carol: OAuthParty;
  const key = () => ctx.config.SECRETS_KEY;
  const start = (who: OAuthParty, provider: 'salesforce' | 'office365' = 'salesforce', data: Record<string, unknown> = {}) =>
    startAuthorization(ctx.em(), key(), who, provider, data);
  const take = (state: string | undefined, expected: Parameters<typeof takeAuthorization>[3], consume = true) =>
    takeAuthorization(ctx.em(), key(), state, expected, consume);
  const rowsOf = (organizationId: string) =>
    ctx
      .em()
      .getConnection()
      .execute<{ state_hash: string; verifier: string }[]>(
        `select state_hash, verifier from oauth_authorization where organization_id = ?`,
        [organizationId],
      );

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await createOrg(ctx, { name: 'Alpha' });
    alice = { organizationId: a.organization.id, userId: a.admin.id };
    bob = { organizationId: a.organization.id, userId: (await createUser(ctx, a.organization.id)).id };
    const c = await createOrg(ctx, { name: 'Gamma' });
    carol = { organizationId: c.organization.id, userId: c.admin.id };
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("the challenge is S256 as RFC 7636's example computes it", async () => {
    expect(await calculatePKCECodeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });
  it('gives back the verifier of the S256 challenge and who started it, once; neither state nor verifier is stored in clear', async () => {
    const { state, challenge } = await start(alice, 'salesforce', { environment: 'sandbox' });
    expect(state.startsWith(`${alice.organizationId}.`)).toBe(true);
    const [row] = await rowsOf(alice.organizationId);
    expect(row.state_hash).not.toContain(state.split('.')[1]);
    const taken = await take(state, { provider: 'salesforce', ...alice });
    expect(taken).toMatchObject({ ...alice, provider: 'salesforce', data: { environment: 'sandbox' } });
    expect(taken!.verifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(createHash('sha256').update(taken!.verifier).digest('base64url')).toBe(challenge);
    expect(row.verifier).not.toContain(taken!.verifier);
    // Reused: refused, and nothing is left behind.
    expect(await take(state, { provider: 'salesforce', ...alice })).toBeNull();
    expect(await rowsOf(alice.organizationId)).toEqual([]);
  });

  it('refuses a state for another organization, another user or another provider, without using it up', async () => {
    const { state } = await start(alice, 'office365', { returnTo: '/account/profile' });
    expect(await take(state, { provider: 'office365', ...carol })).toBeNull();
    expect(await take(state, { provider: 'office365', ...bob })).toBeNull();
    expect(await take(state, { provider: 'salesforce', ...alice })).toBeNull();
    // A public callback expects no one: the state says who started it.
    expect(await take(state, { provider: 'office365' })).toMatchObject({ ...alice, data: { returnTo: '/account/profile' } });
  });

  it('refuses a tampered, forged or missing state', async () => {
    const { state } = await start(bob);
    const [org, random] = state.split('.');
    const flipped = `${org}.${random.slice(0, -1)}${random.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [flipped, `${carol.organizationId}.${random}`, `${org}.`, 'forged', 'v1.forged', '', undefined])
      expect(await take(bad, { provider: 'salesforce' })).toBeNull();
    expect(await take(state, { provider: 'salesforce', ...bob })).toMatchObject(bob);
  });

  it('refuses a state older than 15 minutes (and uses it up)', async () => {
    let state: string;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() - OAUTH_STATE_TTL_MS - 1000);
      ({ state } = await start(carol));
    } finally {
      vi.useRealTimers();
    }
    expect(await take(state, { provider: 'salesforce', ...carol })).toBeNull();
    expect(await rowsOf(carol.organizationId)).toEqual([]);
  });

  it('reads without using up when asked (a callback with no code), then takes once; a new start replaces the earlier one', async () => {
    const first = await start(alice, 'office365', { returnTo: '/plays' });
    const second = await start(alice, 'office365', { returnTo: '/plays' });
    expect(await take(first.state, { provider: 'office365' })).toBeNull();
    expect(await take(second.state, { provider: 'office365' }, false)).toMatchObject({ data: { returnTo: '/plays' } });
    expect(await take(second.state, { provider: 'office365' }, false)).not.toBeNull();
    expect(await take(second.state, { provider: 'office365' })).not.toBeNull();
    expect(await take(second.state, { provider: 'office365' }, false)).toBeNull();
  });
});
