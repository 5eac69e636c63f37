import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createTestApp, type TestContext } from '../../test/helpers';
import { HttpError } from '../lib/errors';

/** Routes that fail in the ways a real handler can, registered on a test app before it is ready. */
function failingRoutes(app: FastifyInstance) {
  app.get('/api/v1/test/throws', { config: { auth: 'public' } }, async () => {
    throw new Error('secret internal detail at /srv/dealscout/server/src/secret.ts:42');
  });
  app.get('/api/v1/test/db-error', { config: { auth: 'public' } }, async (req) => {
    await req.em.getConnection().execute('select * from table_that_does_not_exist_xyz');
    return { ok: true };
  });
  app.post('/api/v1/test/db-echo', { config: { auth: 'public' } }, async (req) => {
    // A database error that quotes the submitted value (invalid input syntax for type integer: "…").
    await req.em.getConnection().execute('select ?::int as n', [(req.body as { value: string }).value]);
    return { ok: true };
  });
  app.get('/api/v1/test/http-error', { config: { auth: 'public' } }, async () => {
    throw new HttpError(409, 'A safe message for the user');
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/test/off-contract',
    {
      config: { auth: 'public' },
      schema: { response: { 200: z.object({ ok: z.literal(true) }) } },
    },
    async () => ({ ok: 'internal value' as unknown as true }),
  );
  app.get('/api/v1/test/bad-status', { config: { auth: 'public' } }, async () => {
    throw Object.assign(new Error('upstream exploded: password=hunter2'), { statusCode: 502 });
  });
}

describe('the error contract', () => {
  let ctx: TestContext;
  const logLines: string[] = [];
  beforeAll(async () => {
    ctx = await createTestApp({
      routes: failingRoutes,
      logStream: {
        write: (l) => {
          logLines.push(l);
        },
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it.each(['/api/v1/test/throws', '/api/v1/test/db-error', '/api/v1/test/bad-status', '/api/v1/test/off-contract'])(
    'a 500 (%s) answers JSON without stack or internal text',
    async (url) => {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ success: false, message: 'Internal server error' });
      for (const leak of ['secret', 'stack', '.ts', 'table_that_does_not_exist', 'relation', 'hunter2', 'internal value', 'at '])
        expect(res.body).not.toContain(leak);
    },
  );

  it('a 500 log names the database error by its code, never quoting the submitted JSON', async () => {
    logLines.length = 0;
    const marker = 'SUBMITTED-VALUE-7f3a';
    const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/test/db-echo', payload: { value: `{"card":"${marker}"}` } });
    expect(res.statusCode).toBe(500);
    const failed = logLines.map((l) => JSON.parse(l) as { msg?: string; err?: { code?: string } }).find((l) => l.msg === 'request failed');
    expect(failed?.err?.code).toBe('22P02');
    expect(logLines.join('\n')).not.toContain(marker);
    expect(logLines.join('\n')).not.toContain('card');
  });

  it('an HttpError answers its status and its (safe) message', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/test/http-error' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ success: false, message: 'A safe message for the user' });
  });

  it('a validation error answers 400 with the contract’s message and the issues', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'nope', password: 'abcd' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.message).toBe('Please type a valid email');
    expect(body.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ message: 'Please type a valid email' }),
        expect.objectContaining({ message: 'Please type a valid password' }),
      ]),
    );
  });

  it('malformed JSON answers 400 as JSON', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(typeof res.json().message).toBe('string');
  });

  it('a path that is no route (and no web build) answers 404 as JSON', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/not-there.css' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'Not found' });
  });
});
