// Request logs never carry OAuth authorization codes, `state`, tokens or keys: the app's log
// stream is captured while the real callback routes and others are called with them.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import Fastify, { type FastifyInstance, type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { createTestApp, createOrg, signedIn, type TestContext } from '../test/helpers';
import { RedactingLogController, isSecretParam, logSerializers, redactUrl, redactUrlsInText } from './logger';

const SECRETS = ['CODE-0a1b2c', 'STATE-3d4e5f', 'TOKEN-6a7b8c', 'KEY-9d0e1f', 'REFRESH-2a3b4c', 'PW-5d6e7f', 'SECRET-8a9b0c', 'SIG-1d2e3f'];

function routes(app: FastifyInstance) {
  app.get('/api/v1/test/outbound-failure', { config: { auth: 'public' } }, async () => {
    throw new Error(`upstream https://maps.example.com/api/place?query=acme&key=${SECRETS[3]} answered 500`);
  });
}

describe('request logs', () => {
  let ctx: TestContext;
  const lines: string[] = [];
  beforeAll(async () => {
    ctx = await createTestApp({
      routes,
      logStream: {
        write: (l) => {
          lines.push(l);
        },
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("redact the OAuth callbacks' query strings and every secret-named parameter, keeping the rest", async () => {
    const [code, state, token, key, refresh, password, secret, sig] = SECRETS;
    const admin = await signedIn(ctx, (await createOrg(ctx)).admin.email);
    lines.length = 0;
    await ctx.app.inject({ method: 'GET', url: `/api/v1/user/o365-integration/callback?code=${code}&state=${state}&session_state=x` });
    await admin.get(`/api/v1/integrations/salesforce/callback?code=${code}&state=${state}`);
    await admin.get(
      `/api/v1/company?search=keepme&access_token=${token}&apiKey=${key}&refresh_token=${refresh}&password=${password}&client_secret=${secret}`,
    );
    await ctx.app.inject({ method: 'GET', url: `/api/v1/no-such-route?code=${code}&X-Amz-Signature=${sig}&page=2` });
    await ctx.app.inject({ method: 'GET', url: '/api/v1/test/outbound-failure' });
    const log = lines.join('\n');
    for (const s of SECRETS) expect(log, s).not.toContain(s);
    const urls = lines
      .map((l) => JSON.parse(l) as { req?: { url?: string } })
      .map((l) => l.req?.url)
      .filter(Boolean);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/api/v1/user/o365-integration/callback?[redacted]',
        '/api/v1/integrations/salesforce/callback?[redacted]',
        '/api/v1/company?search=keepme&access_token=[redacted]&apiKey=[redacted]&refresh_token=[redacted]&password=[redacted]&client_secret=[redacted]',
        '/api/v1/no-such-route?code=[redacted]&X-Amz-Signature=[redacted]&page=2',
      ]),
    );
    expect(log).toContain('key=[redacted] answered 500');
  });

  it('know a secret by any spelling of its name, and leave other parameters alone', () => {
    for (const n of [
      'code',
      'state',
      'token',
      'key',
      'access_token',
      'refreshToken',
      'id_token',
      'apiKey',
      'api-key',
      'client_secret',
      'Password',
      'sig',
      'code_verifier',
      'api%5Fkey',
    ]) {
      expect(isSecretParam(n), n).toBe(true);
    }
    for (const n of ['search', 'page', 'limit', 'keyword', 'sort', 'listId', 'o365']) expect(isSecretParam(n), n).toBe(false);
    expect(redactUrl('/a/callback/?code=1&state=2#frag')).toBe('/a/callback/?[redacted]');
    expect(redactUrl('/a?b=1&token&key=')).toBe('/a?b=1&token&key=[redacted]');
    expect(redactUrlsInText('GET https://x.test/p?q=1&apikey=abc failed; retry https://x.test/p?token=def')).toBe(
      'GET https://x.test/p?q=1&apikey=[redacted] failed; retry https://x.test/p?token=[redacted]',
    );
  });

  it("also in Fastify's default 404 line ('Route GET:<url> not found')", async () => {
    const out: string[] = [];
    const bare = Fastify({
      loggerInstance: pino(
        { serializers: logSerializers },
        {
          write: (l: string) => {
            out.push(l);
          },
        },
      ) as FastifyBaseLogger,
      logController: new RedactingLogController(),
    });
    await bare.inject({ url: `/nowhere?token=${SECRETS[2]}&q=1` });
    await bare.close();
    expect(out.join('\n')).toContain('Route GET:/nowhere?token=[redacted]&q=1 not found');
    expect(out.join('\n')).not.toContain(SECRETS[2]);
  });
});
