import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import { realtimePaths } from '@dealscout/shared/domain';
import type { RealtimeEvent } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { openSocket, type TestSocket } from '../../../test/ws-client';
import { publish, currentSeq, type PublishEvent } from './publish';
import { signRealtimeToken, verifyRealtimeToken } from './token';

describe('realtime: token, socket, paths, replay, session end', () => {
  let ctx: TestContext;
  let url: string;
  let org: { id: string };
  let admin: { id: string; email: string };
  let client: TestClient;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    ctx = await createTestApp();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api/v1/realtime`;
    const o = await createOrg(ctx, { name: 'Realtime Co' });
    org = o.organization;
    admin = o.admin;
    client = await signedIn(ctx, admin.email);
  });
  afterAll(async () => {
    for (const s of sockets) await s.close();
    await ctx.close();
  });

  async function tokenFor(c: TestClient): Promise<{ token: string; uid: string; oid: string }> {
    const res = await c.get('/api/v1/notifications/token');
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  /** An authenticated socket subscribed to `paths` (optionally resuming after `since`). */
  async function connect(c: TestClient, paths: string[], since?: number): Promise<TestSocket> {
    const s = await openSocket(url);
    sockets.push(s);
    s.send({ type: 'auth', token: (await tokenFor(c)).token });
    await s.next('ready');
    s.send({ type: 'subscribe', paths, ...(since !== undefined ? { since } : {}) });
    await s.next('subscribed');
    return s;
  }

  const emit = async (organizationId: string, events: PublishEvent | PublishEvent[]) => {
    const em = ctx.em();
    return em.transactional((tem) => publish(tem, organizationId, events));
  };

  it('GET /api/v1/notifications/token answers {token, uid, oid} to a signed-in user and 401 otherwise', async () => {
    const body = await tokenFor(client);
    expect(body).toMatchObject({ uid: admin.id, oid: org.id, token: expect.any(String), expiresAt: expect.any(String) });
    const claims = verifyRealtimeToken(body.token, ctx.config.REALTIME_SECRET);
    expect(claims).toMatchObject({ uid: admin.id, oid: org.id });
    const anon = await ctx.app.inject({ method: 'GET', url: '/api/v1/notifications/token' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ success: false, message: expect.any(String) });
  });

  it('tokens are signed and short-lived: a forged, tampered or expired token is refused', () => {
    const { token } = signRealtimeToken({ uid: 'u', oid: 'o', sid: 's' }, 'x'.repeat(32), 60, 1_000_000);
    expect(verifyRealtimeToken(token, 'x'.repeat(32), 1_000_000)).toMatchObject({ uid: 'u', oid: 'o', sid: 's' });
    expect(verifyRealtimeToken(token, 'y'.repeat(32), 1_000_000)).toBeNull();
    expect(verifyRealtimeToken(token, 'x'.repeat(32), 1_000_000 + 61_000)).toBeNull();
    const [payload, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ uid: 'other', oid: 'o', sid: 's', exp: 9_999_999_999 })).toString('base64url');
    expect(verifyRealtimeToken(`${forged}.${sig}`, 'x'.repeat(32), 1_000_000)).toBeNull();
    expect(verifyRealtimeToken(`${payload}.${sig}.x`, 'x'.repeat(32), 1_000_000)).toBeNull();
    expect(verifyRealtimeToken('garbage', 'x'.repeat(32), 1_000_000)).toBeNull();
  });

  it('a socket with a bad token, or that subscribes before authenticating, is closed with 4001', async () => {
    const a = await openSocket(url);
    a.send({ type: 'auth', token: 'not-a-token' });
    expect((await a.closed).code).toBe(4001);
    const b = await openSocket(url);
    b.send({ type: 'subscribe', paths: [realtimePaths.activities(org.id)] });
    expect((await b.closed).code).toBe(4001);
  });

  it('subscribing under another organization or user is refused; unknown paths are refused; own paths are accepted', async () => {
    const other = await createOrg(ctx, { name: 'Other Co' });
    const s = await openSocket(url);
    sockets.push(s);
    s.send({ type: 'auth', token: (await tokenFor(client)).token });
    expect(await s.next('ready')).toMatchObject({ uid: admin.id, oid: org.id, seq: expect.any(Number) });
    s.send({
      type: 'subscribe',
      paths: [
        realtimePaths.activities(other.organization.id),
        realtimePaths.notifications(other.admin.id),
        `org/${org.id}/secrets`,
        realtimePaths.activities(org.id),
      ],
    });
    const refused = [await s.next('refused'), await s.next('refused'), await s.next('refused')];
    expect(refused).toEqual([
      { type: 'refused', path: realtimePaths.activities(other.organization.id), message: 'You cannot subscribe to this path.' },
      { type: 'refused', path: realtimePaths.notifications(other.admin.id), message: 'You cannot subscribe to this path.' },
      { type: 'refused', path: `org/${org.id}/secrets`, message: 'Unknown realtime path.' },
    ]);
    expect(await s.next('subscribed')).toMatchObject({ paths: [realtimePaths.activities(org.id)] });
    // Nothing of the other organization arrives, even on the path that was refused.
    await emit(other.organization.id, { path: realtimePaths.activities(other.organization.id), kind: 'test', data: { secret: true } });
    await emit(org.id, { path: realtimePaths.activities(org.id), kind: 'test', data: { mine: true } });
    const events = await s.waitForEvents((e) => e.length >= 1);
    expect(events.map((e) => e.data)).toEqual([{ mine: true }]);
    s.send({ type: 'ping' });
    expect(await s.next('pong')).toEqual({ type: 'pong' });
  });

  it('events arrive in sequence order with their path, kind and data; a subscription also receives the paths below it', async () => {
    const s = await connect(client, [realtimePaths.executions(org.id, 'enrichment'), realtimePaths.notifications(admin.id)]);
    const before = await currentSeq(ctx.em(), org.id);
    await emit(org.id, [
      { path: realtimePaths.executions(org.id, 'enrichment', 'idea'), kind: 'execution.updated', key: 'execution:1', data: { n: 1 } },
      { path: realtimePaths.executions(org.id, 'play', 'contact'), kind: 'execution.updated', data: { n: 2 } },
      { path: realtimePaths.notifications(admin.id), kind: 'notification.created', data: { n: 3 } },
    ]);
    await emit(org.id, { path: realtimePaths.executions(org.id, 'enrichment'), kind: 'execution.updated', data: { n: 4 } });
    const events = await s.waitForEvents((e) => e.length >= 3);
    expect(events.map((e) => [e.seq, e.path, e.kind, e.data])).toEqual([
      [before + 1, realtimePaths.executions(org.id, 'enrichment', 'idea'), 'execution.updated', { n: 1 }],
      [before + 3, realtimePaths.notifications(admin.id), 'notification.created', { n: 3 }],
      [before + 4, realtimePaths.executions(org.id, 'enrichment'), 'execution.updated', { n: 4 }],
    ]);
    expect(events[0].key).toBe('execution:1');
    expect(new Date(events[0].at).toString()).not.toBe('Invalid Date');
  });

  it('a socket subscribed to a path and to one below it gets each event once; sockets subscribed elsewhere get none of them', async () => {
    const both = await connect(client, [realtimePaths.executions(org.id), realtimePaths.executions(org.id, 'enrichment', 'company')]);
    const elsewhere = await connect(client, [realtimePaths.entities(org.id), realtimePaths.executions(org.id, 'play')]);
    const run = Array.from({ length: 50 }, (_, n) => ({
      path: realtimePaths.executions(org.id, 'enrichment', 'company'),
      kind: 'execution.updated',
      key: `execution:${n}`,
      data: { n },
    }));
    await emit(org.id, run);
    await emit(org.id, [
      { path: realtimePaths.entities(org.id, 'company'), kind: 'entity.created', data: { n: 50 } },
      { path: realtimePaths.executions(org.id, 'play', 'company'), kind: 'execution.updated', data: { n: 51 } },
    ]);
    const got = await both.waitForEvents((e) => e.some((x) => (x.data as { n: number }).n === 51));
    expect(got.map((e) => (e.data as { n: number }).n)).toEqual([...run.map((e) => e.data.n), 51]);
    const other = await elsewhere.waitForEvents((e) => e.length >= 2);
    expect(other.map((e) => (e.data as { n: number }).n)).toEqual([50, 51]);
  });

  it('adding paths later (and repeating one) neither loses nor repeats events of the paths already subscribed', async () => {
    const s = await connect(client, [realtimePaths.activities(org.id)]);
    await emit(org.id, { path: realtimePaths.activities(org.id), kind: 'a', data: { n: 1 } });
    await s.waitForEvents((e) => e.length >= 1);
    s.send({ type: 'subscribe', paths: [realtimePaths.activities(org.id), realtimePaths.lists(org.id)] });
    await emit(org.id, { path: realtimePaths.activities(org.id), kind: 'a', data: { n: 2 } });
    await s.next('subscribed');
    await emit(org.id, [
      { path: realtimePaths.lists(org.id), kind: 'a', data: { n: 3 } },
      { path: realtimePaths.activities(org.id), kind: 'a', data: { n: 4 } },
    ]);
    // Unsubscribing drops what the socket has not been sent yet: wait until 3 and 4 have arrived.
    await s.waitForEvents((e) => e.some((x) => (x.data as { n: number }).n === 4));
    s.send({ type: 'unsubscribe', paths: [realtimePaths.lists(org.id)] });
    await s.next('unsubscribed');
    await emit(org.id, [
      { path: realtimePaths.lists(org.id), kind: 'a', data: { n: 5 } },
      { path: realtimePaths.activities(org.id), kind: 'a', data: { n: 6 } },
    ]);
    const events = await s.waitForEvents((e) => e.some((x) => (x.data as { n: number }).n === 6));
    expect(events.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3, 4, 6]);
  });

  it('an event too big for a NOTIFY payload is read from the table and delivered whole', async () => {
    const s = await connect(client, [realtimePaths.activities(org.id)]);
    const big = { text: 'z'.repeat(20_000) };
    await emit(org.id, { path: realtimePaths.activities(org.id), kind: 'big', data: big });
    const [e] = await s.waitForEvents((ev) => ev.length >= 1);
    expect(e.data).toEqual(big);
  });

  it('a rolled-back transaction publishes nothing and leaves no gap in the sequence', async () => {
    const s = await connect(client, [realtimePaths.activities(org.id)]);
    const before = await currentSeq(ctx.em(), org.id);
    await expect(
      ctx.em().transactional(async (tem) => {
        await publish(tem, org.id, { path: realtimePaths.activities(org.id), kind: 'ghost', data: {} });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await emit(org.id, { path: realtimePaths.activities(org.id), kind: 'real', data: {} });
    const events = await s.waitForEvents((e) => e.length >= 1);
    expect(events.map((e) => [e.seq, e.kind])).toEqual([[before + 1, 'real']]);
  });

  it('a transaction still open after publishing holds up no other publish of its organization; numbers follow commit order', async () => {
    const s = await connect(client, [realtimePaths.activities(org.id)]);
    const before = await currentSeq(ctx.em(), org.id);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let published!: () => void;
    const longPublished = new Promise<void>((r) => (published = r));
    const long = ctx.em().transactional(async (tem) => {
      await publish(tem, org.id, { path: realtimePaths.activities(org.id), kind: 'long', data: {} });
      published();
      await released;
    });
    await longPublished;
    // Were the number taken at publish, this would wait for the long transaction's row lock (for ever here).
    await emit(org.id, { path: realtimePaths.activities(org.id), kind: 'short', data: {} });
    const first = await s.waitForEvents((e) => e.length >= 1);
    expect(first.map((e) => [e.seq, e.kind])).toEqual([[before + 1, 'short']]);
    release();
    await long;
    const events = await s.waitForEvents((e) => e.length >= 2);
    expect(events.map((e) => [e.seq, e.kind])).toEqual([
      [before + 1, 'short'],
      [before + 2, 'long'],
    ]);
    const pending = await ctx.orm.em.fork().getConnection().execute(`select count(*)::int as n from realtime_pending`);
    expect(pending[0].n).toBe(0);
  });

  it('reconnecting with the last sequence number replays exactly the missed events, in order, then goes live without duplicates', async () => {
    const member = await createUser(ctx, org.id);
    const memberClient = await signedIn(ctx, member.email);
    const paths = [realtimePaths.activities(org.id), realtimePaths.notifications(member.id)];
    const first = await connect(memberClient, paths);
    await emit(
      org.id,
      [1, 2, 3].map((n) => ({ path: realtimePaths.activities(org.id), kind: 'a', data: { n } })),
    );
    const seen = await first.waitForEvents((e) => e.length >= 3);
    const last = seen[seen.length - 1].seq;
    await first.close();

    // While disconnected: events on its paths, on other paths and on another user's path.
    const missed: PublishEvent[] = [];
    for (let n = 4; n <= 40; n++) {
      const target =
        n % 4 === 0
          ? realtimePaths.notifications(member.id)
          : n % 4 === 1
            ? realtimePaths.notifications(admin.id)
            : n % 4 === 2
              ? realtimePaths.lists(org.id)
              : realtimePaths.activities(org.id);
      missed.push({ path: target, kind: 'a', data: { n } });
    }
    await emit(org.id, missed.slice(0, 20));
    await emit(org.id, missed.slice(20));
    const expected = missed.filter((e) => paths.includes(e.path)).map((e) => (e.data as { n: number }).n);

    const second = await connect(memberClient, paths, last);
    await emit(org.id, { path: realtimePaths.activities(org.id), kind: 'a', data: { n: 41 } });
    const events = await second.waitForEvents((e) => e.some((x) => (x.data as { n: number }).n === 41));
    const ns = events.map((e) => (e.data as { n: number }).n);
    expect(ns).toEqual([...expected, 41]);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs[0]).toBeGreaterThan(last);
  });

  it('a replay sends only the newest event of each key', async () => {
    const s0 = await connect(client, [realtimePaths.executions(org.id)]);
    const subscribed = s0.messages.find((m) => m.type === 'subscribed');
    const since = subscribed?.type === 'subscribed' ? subscribed.seq : -1;
    expect(since).toBe(await currentSeq(ctx.em(), org.id));
    await s0.close();
    await emit(
      org.id,
      Array.from({ length: 100 }, (_, i) => ({
        path: realtimePaths.executions(org.id, 'list', 'list'),
        kind: 'execution.updated',
        key: 'execution:k',
        data: { processed: i + 1 },
      })),
    );
    await emit(org.id, {
      path: realtimePaths.executions(org.id, 'list', 'list'),
      kind: 'execution.updated',
      key: 'execution:other',
      data: { processed: 1 },
    });
    const s = await connect(client, [realtimePaths.executions(org.id)], since);
    const events = await s.waitForEvents((e) => e.length >= 2);
    expect(events.map((e) => [e.key, e.data])).toEqual([
      ['execution:k', { processed: 100 }],
      ['execution:other', { processed: 1 }],
    ]);
  });

  it('live events with the same key are coalesced: the newest always arrives, in order, never more often than published', async () => {
    const s = await connect(client, [realtimePaths.executions(org.id)]);
    await emit(
      org.id,
      Array.from({ length: 200 }, (_, i) => ({
        path: realtimePaths.executions(org.id, 'score', 'idea'),
        kind: 'execution.updated',
        key: 'execution:live',
        data: { processed: i + 1 },
      })),
    );
    const events = await s.waitForEvents((e) => e.some((x) => (x.data as { processed: number }).processed === 200));
    expect(events.length).toBeLessThanOrEqual(200);
    expect(events[events.length - 1].data).toEqual({ processed: 200 });
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('events that reach a socket together are sent together, in sequence order, one per key (the newest)', async () => {
    const s = await connect(client, [realtimePaths.executions(org.id)]);
    const path = realtimePaths.executions(org.id, 'score', 'idea');
    await emit(org.id, [
      { path, kind: 'execution.updated', key: 'execution:a', data: { n: 1 } },
      { path, kind: 'execution.updated', key: 'execution:b', data: { n: 2 } },
      { path, kind: 'execution.updated', key: 'execution:a', data: { n: 3 } },
      { path, kind: 'execution.updated', key: null, data: { n: 4 } },
    ]);
    const events = await s.waitForEvents((e) => e.some((x) => (x.data as { n: number }).n === 4));
    expect(events.map((e) => [e.key, e.data])).toEqual([
      ['execution:b', { n: 2 }],
      ['execution:a', { n: 3 }],
      [null, { n: 4 }],
    ]);
  });

  it('a resume from before the retained events gets a reset (reload), then live events', async () => {
    const other = await createOrg(ctx, { name: 'Pruned Co' });
    const c2 = await signedIn(ctx, other.admin.email);
    await emit(
      other.organization.id,
      [1, 2, 3, 4].map((n) => ({ path: realtimePaths.activities(other.organization.id), kind: 'a', data: { n } })),
    );
    await ctx.em().getConnection().execute(`delete from realtime_event where organization_id = ? and seq <= 2`, [other.organization.id]);
    const s = await openSocket(url);
    sockets.push(s);
    s.send({ type: 'auth', token: (await tokenFor(c2)).token });
    await s.next('ready');
    s.send({ type: 'subscribe', paths: [realtimePaths.activities(other.organization.id)], since: 1 });
    expect(await s.next('reset')).toEqual({ type: 'reset', seq: 4, message: 'Events were missed; reload the data.' });
    expect(await s.next('subscribed')).toMatchObject({ seq: 4 });
    await emit(other.organization.id, { path: realtimePaths.activities(other.organization.id), kind: 'a', data: { n: 5 } });
    const events = await s.waitForEvents((e) => e.length >= 1);
    expect(events.map((e) => [e.seq, e.data])).toEqual([[5, { n: 5 }]]);
  });

  it('many events across several organizations and users: no socket receives anything outside its own organization and user', async () => {
    const orgs = await Promise.all([1, 2, 3].map((i) => createOrg(ctx, { name: `Fuzz ${i}` })));
    const people = await Promise.all(
      orgs.map(async (o) => {
        const member = await createUser(ctx, o.organization.id);
        return [
          { org: o.organization.id, user: o.admin.id, email: o.admin.email },
          { org: o.organization.id, user: member.id, email: member.email },
        ];
      }),
    );
    const everyone = people.flat();
    const subsOf = (p: { org: string; user: string }) => [
      `org/${p.org}/executions`,
      `org/${p.org}/lists`,
      `org/${p.org}/entities`,
      realtimePaths.activities(p.org),
      realtimePaths.notifications(p.user),
    ];
    const conns = await Promise.all(everyone.map(async (p) => ({ p, s: await connect(await signedIn(ctx, p.email), subsOf(p)) })));

    // A deterministic pseudo-random mix of events over every organization's and user's paths.
    let seed = 42;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const published: { org: string; path: string; id: number }[] = [];
    for (let batch = 0; batch < 30; batch++) {
      const byOrg = new Map<string, PublishEvent[]>();
      for (let i = 0; i < 10; i++) {
        const target = everyone[rnd(everyone.length)];
        const kinds = [
          realtimePaths.executions(target.org, 'enrichment', 'company'),
          realtimePaths.lists(target.org, '00000000-0000-4000-8000-00000000000' + rnd(10)),
          realtimePaths.entities(target.org, 'contact'),
          realtimePaths.activities(target.org),
          realtimePaths.notifications(target.user),
        ];
        const path = kinds[rnd(kinds.length)];
        const id = published.length;
        published.push({ org: target.org, path, id });
        byOrg.set(target.org, [...(byOrg.get(target.org) ?? []), { path, kind: 'fuzz', data: { id, org: target.org } }]);
      }
      await Promise.all([...byOrg].map(([o, evs]) => emit(o, evs)));
    }
    for (const { p, s } of conns) {
      const expected = published
        .filter((e) => e.org === p.org && subsOf(p).some((sub) => e.path === sub || e.path.startsWith(`${sub}/`)))
        .map((e) => e.id)
        .sort((a, b) => a - b);
      const events: RealtimeEvent[] = await s.waitForEvents((e) => e.length >= expected.length);
      const got = events.map((e) => e.data as { id: number; org: string });
      expect(got.every((d) => d.org === p.org)).toBe(true);
      expect(events.every((e) => !e.path.startsWith('user/') || e.path === realtimePaths.notifications(p.user))).toBe(true);
      expect(got.map((d) => d.id).sort((a, b) => a - b)).toEqual(expected);
      const seqs = events.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
  });

  it('a socket is closed (4003) when its user logs out, and when the user is disabled', async () => {
    const member = await createUser(ctx, org.id);
    const mc = await signedIn(ctx, member.email);
    const s = await connect(mc, [realtimePaths.activities(org.id)]);
    const logout = await mc.post('/api/account/logout');
    expect(logout.statusCode).toBe(200);
    expect((await s.closed).code).toBe(4003);

    const member2 = await createUser(ctx, org.id);
    const mc2 = await signedIn(ctx, member2.email);
    const s2 = await connect(mc2, [realtimePaths.activities(org.id)]);
    const res = await client.put(`/api/v1/organization/users/${member2.id}/status`, { status: 'disabled' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await s2.closed).code).toBe(4003);

    const member3 = await createUser(ctx, org.id);
    const mc3 = await signedIn(ctx, member3.email);
    const s3 = await connect(mc3, [realtimePaths.activities(org.id)]);
    const del = await client.del(`/api/v1/organization/users/${member3.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await s3.closed).code).toBe(4003);
  });

  it('a token whose session has ended is refused with 4003', async () => {
    const member = await createUser(ctx, org.id);
    const mc = await signedIn(ctx, member.email);
    const { token } = await tokenFor(mc);
    await mc.post('/api/account/logout');
    const s = await openSocket(url);
    s.send({ type: 'auth', token });
    expect((await s.closed).code).toBe(4003);
  });
});

describe('realtime: a socket that cannot keep up', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp({ env: { REALTIME_MAX_BUFFERED_BYTES: '65536' } });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('is closed with 4008 once its unsent data passes the bound, instead of buffering without limit', async () => {
    const { organization, admin } = await createOrg(ctx, { name: 'Slow Co' });
    const client = await signedIn(ctx, admin.email);
    const s = await openSocket(`ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api/v1/realtime`);
    s.send({ type: 'auth', token: (await client.get('/api/v1/notifications/token')).json().token });
    await s.next('ready');
    s.send({ type: 'subscribe', paths: [realtimePaths.activities(organization.id)] });
    await s.next('subscribed');
    // The client stops reading: what the server sends piles up in the kernel, then in the socket.
    const raw = (s.ws as unknown as { _socket: import('node:net').Socket })._socket;
    raw.pause();
    const filler = 'x'.repeat(7000);
    for (let batch = 0; batch < 40 && ctx.app.realtime.stats.droppedSlow === 0; batch++) {
      await ctx.em().transactional((tem) =>
        publish(
          tem,
          organization.id,
          Array.from({ length: 100 }, (_, i) => ({ path: realtimePaths.activities(organization.id), kind: 'bulk', data: { i, filler } })),
        ),
      );
      await ctx.app.realtime.settled();
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(ctx.app.realtime.stats.droppedSlow).toBe(1);
    expect(ctx.app.realtime.socketCount).toBe(0);
    raw.resume();
    expect((await s.closed).code).toBe(4008);
  });
});
