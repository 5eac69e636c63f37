// Profile → Email settings: the signature (per user) and the organization's AI summary (admin edits;
// generated from the website through the guarded fetch and the LLM port — fakes of both on loopback).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { EMAIL_SETTINGS_MESSAGES } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../../test/helpers';
import { FakeOpenAiServer } from '../../../../test/fakes/openai-server';
import { startFakeWeb, type FakeWebServer } from '../../../../test/fakes/web-server';
import { GuardedHttpClient } from '../../../providers/web/guarded-client';
import { Organization } from '../../../db/organization.entity';
import { summaryWeb } from '../../organization/ai-summary';

describe('email settings: signature and the organization AI summary', () => {
  let ctx: TestContext;
  let llm: FakeOpenAiServer;
  let site: FakeWebServer;
  let admin: TestClient;
  let member: TestClient;
  let other: TestClient;
  let orgId: string;
  const original = summaryWeb.factory;

  beforeAll(async () => {
    llm = await FakeOpenAiServer.start({ apiKeys: ['sk-system'] });
    site = await startFakeWeb({
      '/': (_req, res) => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            '<html><head><title>Alpha Partners</title></head><body><h1>Alpha Partners</h1><p>Buy-side M&amp;A advisory for ' +
              'family-owned manufacturers in the DACH region.</p></body></html>',
          );
      },
    });
    summaryWeb.factory = () => new GuardedHttpClient({ testAllowlist: [site.allowEntry] });
    ctx = await createTestApp({ env: { OPENAI_API_KEY: 'sk-system', OPENAI_BASE_URL: llm.url, LLM_MAX_ATTEMPTS: '1' } });
    const a = await createOrg(ctx, { name: 'Alpha Partners' });
    orgId = a.organization.id;
    admin = await signedIn(ctx, a.admin.email);
    member = await signedIn(ctx, (await createUser(ctx, orgId, { role: 'User' })).email);
    other = await signedIn(ctx, (await createOrg(ctx, { name: 'Beta' })).admin.email);
  });
  afterAll(async () => {
    summaryWeb.factory = original;
    await ctx?.close();
    await llm?.close();
    await site?.close();
  });

  it('each user saves their own signature; too long is refused', async () => {
    expect((await member.get('/api/v1/user/email-settings')).json().settings).toEqual({
      signature: null,
      aiSummary: null,
      website: null,
      canEditSummary: false,
    });
    const res = await member.put('/api/v1/user/email-settings', { signature: 'Best,\r\nMia Member\r\nAlpha Partners  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: EMAIL_SETTINGS_MESSAGES.signatureSaved,
      settings: { signature: 'Best,\nMia Member\nAlpha Partners' },
    });
    expect((await admin.get('/api/v1/user/email-settings')).json().settings.signature).toBeNull();
    const long = await member.put('/api/v1/user/email-settings', { signature: 'x'.repeat(5001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(EMAIL_SETTINGS_MESSAGES.signatureTooLong);
    expect((await member.get('/api/v1/user/email-settings')).json().settings.signature).toBe('Best,\nMia Member\nAlpha Partners');
  });

  it('generate needs a website; then reads it and asks the model; the admin saves the edited text; Users cannot', async () => {
    const none = await admin.post('/api/v1/organization/ai-summary/generate');
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(EMAIL_SETTINGS_MESSAGES.noWebsite);
    await ctx.em().nativeUpdate(Organization, { id: orgId }, { website: site.url('/') });
    llm.reply({ content: 'Alpha Partners advises family-owned manufacturers in the DACH region on buy-side M&A.' });
    const gen = await admin.post('/api/v1/organization/ai-summary/generate');
    expect(gen.statusCode, gen.body).toBe(200);
    expect(gen.json().aiSummary).toBe('Alpha Partners advises family-owned manufacturers in the DACH region on buy-side M&A.');
    expect(site.requests.map((r) => r.path)).toContain('/');
    expect(JSON.stringify(llm.requests.at(-1)!.body)).toContain('family-owned manufacturers');
    // A draft: nothing saved until the admin saves.
    expect((await member.get('/api/v1/user/email-settings')).json().settings.aiSummary).toBeNull();
    const saved = await admin.put('/api/v1/organization/ai-summary', { aiSummary: `${gen.json().aiSummary as string} Edited.` });
    expect(saved.json()).toMatchObject({
      message: EMAIL_SETTINGS_MESSAGES.summarySaved,
      settings: { aiSummary: expect.stringMatching(/Edited\.$/), canEditSummary: true },
    });
    expect((await member.get('/api/v1/user/email-settings')).json().settings.aiSummary).toMatch(/Edited\.$/);
    expect((await member.put('/api/v1/organization/ai-summary', { aiSummary: 'mine' })).statusCode).toBe(403);
    expect((await member.post('/api/v1/organization/ai-summary/generate')).statusCode).toBe(403);
    expect((await other.get('/api/v1/user/email-settings')).json().settings.aiSummary).toBeNull();
  });

  it('an unreadable website says so', async () => {
    await ctx.em().nativeUpdate(Organization, { id: orgId }, { website: site.url('/missing') });
    const res = await admin.post('/api/v1/organization/ai-summary/generate');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^Could not read the organization's website: /);
  });
});
