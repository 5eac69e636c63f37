// The Office 365 adapter against the loopback fake of the identity platform and Graph:
// the documented requests and answers the product relies on, errors included. Pointing
// O365_AUTHORITY_URL / GRAPH_BASE_URL at Microsoft runs the same calls against the real service.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { FakeGraphServer } from '../../../../test/fakes/graph-server';
import { GraphClient, GraphError, type TokenSet } from './graph';
import { pkcePair } from '../../../../test/pkce';

describe('Microsoft Graph adapter (contract, against the fake)', () => {
  let fake: FakeGraphServer;
  let client: GraphClient;
  const redirectUrl = 'http://localhost:3000/api/v1/user/o365-integration/callback';
  const mail = 'rep@contoso.example';

  const signIn = async (): Promise<TokenSet> => {
    const { verifier, challenge } = await pkcePair();
    const location = await fake.consent(client.authorizeUrl('st-1', challenge, mail), mail);
    const back = new URL(location);
    expect(back.origin + back.pathname).toBe(redirectUrl);
    expect(back.searchParams.get('state')).toBe('st-1');
    return client.redeemCode(back.searchParams.get('code')!, verifier);
  };

  beforeAll(async () => {
    fake = await FakeGraphServer.start();
    fake.addUser({
      mail,
      displayName: 'Rita Rep',
      timeZone: 'Pacific Standard Time',
      workingHours: {
        daysOfWeek: ['monday', 'friday'],
        startTime: '09:00:00.0000000',
        endTime: '17:00:00.0000000',
        timeZone: { name: 'Pacific Standard Time' },
      },
    });
    client = new GraphClient({
      authorityUrl: fake.url,
      tenant: 'common',
      graphBaseUrl: `${fake.url}/v1.0`,
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      redirectUrl,
      timeoutMs: 2000,
    });
  });
  afterAll(async () => fake.close());

  it('authorization code with PKCE: the authorize URL carries the documented parameters; a wrong verifier is invalid_grant', async () => {
    const { challenge } = await pkcePair();
    const u = new URL(client.authorizeUrl('s', challenge));
    expect(u.pathname).toBe('/common/oauth2/v2.0/authorize');
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      client_id: fake.clientId,
      response_type: 'code',
      redirect_uri: redirectUrl,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
    });
    expect(u.searchParams.get('scope')!.split(' ')).toEqual(
      expect.arrayContaining(['offline_access', 'Mail.Send', 'Mail.ReadWrite', 'MailboxSettings.Read']),
    );
    const location = await fake.consent(client.authorizeUrl('s', challenge), mail);
    const code = new URL(location).searchParams.get('code')!;
    const err = await client.redeemCode(code, 'not-the-verifier').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraphError);
    expect((err as GraphError).code).toBe('invalid_grant');
    expect((err as GraphError).status).toBe(400);
  });

  it('redeems a code, reads /me and mailboxSettings, refreshes with rotation; a revoked refresh token is invalid_grant', async () => {
    const t = await signIn();
    expect(t.refreshToken).not.toBe('');
    expect(t.accessExpiresAt).toBeGreaterThan(Date.now() + 60_000);
    expect(await client.me(t.accessToken)).toMatchObject({ mail, displayName: 'Rita Rep' });
    const s = await client.mailboxSettings(t.accessToken);
    expect(s.timeZone).toBe('Pacific Standard Time');
    expect(s.workingHours).toMatchObject({ daysOfWeek: ['monday', 'friday'], startTime: '09:00:00.0000000' });
    const r = await client.refresh(t.refreshToken);
    expect(r.refreshToken).not.toBe(t.refreshToken);
    // A used refresh token was rotated away.
    await expect(client.refresh(t.refreshToken)).rejects.toMatchObject({ code: 'invalid_grant' });
    fake.revoke(mail);
    await expect(client.refresh(r.refreshToken)).rejects.toMatchObject({ code: 'invalid_grant', status: 400 });
  });

  it('an expired or missing access token answers 401 InvalidAuthenticationToken', async () => {
    const t = await signIn();
    await expect(client.me('nope')).rejects.toMatchObject({ status: 401, code: 'InvalidAuthenticationToken' });
    fake.expireAccessTokens(mail);
    await expect(client.me(t.accessToken)).rejects.toMatchObject({ status: 401, code: 'InvalidAuthenticationToken' });
  });

  it('creates a message with the outbox property, finds it by that property, sends it (202) and sees it sent under the same id', async () => {
    const t = await signIn();
    const outboxId = randomUUID();
    const m = await client.createMessage(t.accessToken, {
      subject: 'Hello',
      html: '<p>Hi</p>',
      to: ['ann@example.com'],
      cc: ['cc@example.com'],
      outboxId,
    });
    expect(m.isDraft).toBe(true);
    expect(await client.findByOutboxId(t.accessToken, outboxId)).toMatchObject({ id: m.id, isDraft: true });
    expect(await client.findByOutboxId(t.accessToken, randomUUID())).toBeNull();
    await client.send(t.accessToken, m.id);
    expect(await client.getMessage(t.accessToken, m.id)).toMatchObject({ id: m.id, isDraft: false });
    expect(await client.getMessage(t.accessToken, 'AAkALgmissing')).toBeNull();
    const sent = fake.sent(mail).find((x) => x.id === m.id)!;
    expect(sent.singleValueExtendedProperties).toEqual([{ id: expect.stringContaining('DealscoutOutboxId'), value: outboxId }]);
    expect(sent.ccRecipients).toEqual([{ emailAddress: { address: 'cc@example.com' } }]);
    // Sending it again is refused by the mailbox: a message leaves once.
    await expect(client.send(t.accessToken, m.id)).rejects.toMatchObject({ status: 400 });
  });

  it('429 carries Retry-After; 5xx is transient; a hung request times out as a network error', async () => {
    const t = await signIn();
    fake.fault(/POST \/v1\.0\/me\/messages$/, { kind: 'status', status: 429, retryAfter: 7 });
    const e429 = (await client
      .createMessage(t.accessToken, { subject: 's', html: 'b', to: ['a@example.com'], cc: [], outboxId: randomUUID() })
      .catch((e: unknown) => e)) as GraphError;
    expect([e429.status, e429.retryAfter, e429.throttled]).toEqual([429, 7, true]);
    fake.fault(/GET \/v1\.0\/me$/, { kind: 'status', status: 503 });
    const e503 = (await client.me(t.accessToken).catch((e: unknown) => e)) as GraphError;
    expect([e503.status, e503.transient]).toEqual([503, true]);
    fake.fault(/GET \/v1\.0\/me$/, { kind: 'hang' });
    const hung = (await client.me(t.accessToken).catch((e: unknown) => e)) as GraphError;
    expect([hung.status, hung.code, hung.transient]).toEqual([0, 'network', true]);
  });

  it(
    'createReply keeps the thread: a draft in the original conversation, our subject, body and recipients, the ' +
      'outbox id set; comment and body together are 400',
    async () => {
      const t = await signIn();
      const first = await client.createMessage(t.accessToken, {
        subject: 'Intro',
        html: '<p>Hi</p>',
        to: ['ann@example.com'],
        cc: [],
        outboxId: randomUUID(),
      });
      await client.send(t.accessToken, first.id);
      const incoming = fake.receive(mail, { from: 'ann@example.com', inReplyTo: first.id, html: '<p>Tell me more</p>' });
      expect(incoming.conversationId).toBe(first.conversationId);
      const outboxId = randomUUID();
      const reply = await client.createReply(t.accessToken, incoming.id, {
        subject: 'Re: Intro',
        html: '<p>Sure, here is more</p>',
        to: ['ann@example.com'],
        cc: ['boss@example.com'],
        outboxId,
      });
      expect(reply).toMatchObject({ isDraft: true, conversationId: first.conversationId });
      expect(await client.findByOutboxId(t.accessToken, outboxId)).toMatchObject({ id: reply.id, isDraft: true });
      await client.send(t.accessToken, reply.id);
      const sent = fake.sent(mail).find((m) => m.id === reply.id)!;
      expect(sent.subject).toBe('Re: Intro');
      expect(sent.replyToId).toBe(incoming.id);
      expect(sent.body.content).toBe('<p>Sure, here is more</p>');
      expect(fake.requests.find((q) => q.method === 'POST' && q.path.endsWith(`/${incoming.id}/createReply`))).toBeTruthy();
      // The subject the user gave the reply is the one that leaves; without one, Graph's own ('RE: <original>').
      const edited = await client.createReply(t.accessToken, incoming.id, {
        subject: 'Numbers for next week',
        html: '<p>x</p>',
        to: ['ann@example.com'],
        cc: [],
        outboxId: randomUUID(),
      });
      expect(fake.messages.get(edited.id)?.subject).toBe('Numbers for next week');
      const bare = await client.createReply(t.accessToken, incoming.id, {
        subject: ' ',
        html: '<p>x</p>',
        to: ['ann@example.com'],
        cc: [],
        outboxId: randomUUID(),
      });
      expect(fake.messages.get(bare.id)?.subject).toBe('RE: Intro');
      expect(sent.ccRecipients).toEqual([{ emailAddress: { address: 'boss@example.com' } }]);
      expect(await client.getMessage(t.accessToken, reply.id)).toMatchObject({ isDraft: false, conversationId: first.conversationId });
      // Documented: either a comment or message.body, never both.
      const res = await fetch(`${fake.url}/v1.0/me/messages/${incoming.id}/createReply`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ comment: 'x', message: { body: { contentType: 'Text', content: 'y' } } }),
      });
      expect(res.status).toBe(400);
      await expect(
        client.createReply(t.accessToken, 'AAkALgmissing', {
          subject: 's',
          html: 'b',
          to: ['a@example.com'],
          cc: [],
          outboxId: randomUUID(),
        }),
      ).rejects.toMatchObject({ status: 404, code: 'ErrorItemNotFound' });
    },
  );

  it('Inbox delta query: a full round in pages (nextLink), then the deltaLink answers only what changed: arrivals, updates, removals', async () => {
    const box = 'delta@contoso.example';
    fake.addUser({ mail: box });
    const { verifier, challenge } = await pkcePair();
    const t = await client.redeemCode(
      new URL(await fake.consent(client.authorizeUrl('d', challenge, box), box)).searchParams.get('code')!,
      verifier,
    );
    const old = fake.receive(box, { from: 'old@example.com', receivedAt: new Date(Date.now() - 30 * 86_400_000) });
    const recent = Array.from({ length: 5 }, (_, i) => fake.receive(box, { from: `p${i}@example.com` }));
    // A full round since two weeks ago, two per page: 3 pages, the last one carries the deltaLink.
    const since = new Date(Date.now() - 14 * 86_400_000);
    const seen: string[] = [];
    let page = await client.inboxDelta(t.accessToken, null, { since, pageSize: 2 });
    let pages = 1;
    seen.push(...page.changes.map((c) => c.id));
    while (page.nextLink) {
      expect(page.deltaLink).toBeNull();
      page = await client.inboxDelta(t.accessToken, page.nextLink, { pageSize: 2 });
      pages += 1;
      seen.push(...page.changes.map((c) => c.id));
    }
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(recent.map((m) => m.id).sort());
    expect(seen).not.toContain(old.id);
    const first = page.changes[0];
    expect(first).toMatchObject({
      removed: false,
      from: expect.stringMatching(/@example\.com$/),
      conversationId: expect.any(String),
      receivedDateTime: expect.any(String),
    });
    const deltaLink = page.deltaLink!;
    expect(deltaLink).toContain('$deltatoken=');
    // Nothing changed: an empty page and a new deltaLink.
    const quiet = await client.inboxDelta(t.accessToken, deltaLink);
    expect([quiet.changes, quiet.nextLink]).toEqual([[], null]);
    // One arrival, one read (update), one deletion.
    const arrival = fake.receive(box, { from: 'new@example.com' });
    fake.markRead(recent[0].id);
    fake.remove(recent[1].id);
    const changes = await client.inboxDelta(t.accessToken, quiet.deltaLink!);
    expect(changes.changes.map((c) => [c.id, c.removed]).sort()).toEqual(
      [
        [arrival.id, false],
        [recent[0].id, false],
        [recent[1].id, true],
      ].sort(),
    );
    // The state of another mailbox, or garbage, is 410 (start a new round).
    await expect(
      client.inboxDelta(t.accessToken, `${fake.url}/v1.0/me/mailFolders('inbox')/messages/delta?$deltatoken=bm9wZQ`),
    ).rejects.toMatchObject({ status: 410, code: 'SyncStateNotFound' });
    const other = await signIn();
    await expect(client.inboxDelta(other.accessToken, changes.deltaLink!)).rejects.toMatchObject({ status: 410 });
    // A link outside Graph is never followed with the token.
    await expect(
      client.inboxDelta(t.accessToken, 'https://evil.example.com/v1.0/me/mailFolders/inbox/messages/delta'),
    ).rejects.toMatchObject({ code: 'foreign_link' });
  });

  it('enforces the per-mailbox rate: the 31st send in a minute is 429 with Retry-After', async () => {
    const other = 'busy@contoso.example';
    fake.addUser({ mail: other });
    const { verifier, challenge } = await pkcePair();
    const code = new URL(await fake.consent(client.authorizeUrl('x', challenge, other), other)).searchParams.get('code')!;
    const t = await client.redeemCode(code, verifier);
    for (let i = 0; i < 30; i += 1) await client.sendMail(t.accessToken, { subject: `n${i}`, html: 'x', to: ['a@example.com'] });
    const err = (await client
      .sendMail(t.accessToken, { subject: 'over', html: 'x', to: ['a@example.com'] })
      .catch((e: unknown) => e)) as GraphError;
    expect(err.status).toBe(429);
    expect(err.retryAfter).toBeGreaterThan(0);
    expect(fake.sent(other)).toHaveLength(30);
  });
});
