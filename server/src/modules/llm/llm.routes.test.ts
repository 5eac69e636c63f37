// LLM settings, integrations (openai key encrypted at rest) and the enrichment AI helpers, through
// the real app, a real database and the real LLM adapter against the fake OpenAI-compatible server.
import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { FakeOpenAiServer } from '../../../test/fakes/openai-server';
import { ENRICHMENT_AI_MESSAGES, INTEGRATION_MESSAGES, LLM_SETTINGS_MESSAGES, type OrganizationAiDto } from '@dealscout/shared/contracts';
import { NOT_CONFIGURED_MESSAGE, CREDITS_EXHAUSTED_MESSAGE } from '../../providers/llm';
import { Organization } from '../../db/organization.entity';

const ORG_KEY = 'sk-org-0123456789-SECRETVALUE';
const SHORT_KEY = 'sk-short';

describe('LLM settings, integrations and AI helpers', () => {
  let ctx: TestContext;
  let fake: FakeOpenAiServer;
  /** A server on an internal address the operator did not allow. */
  let internal: FakeOpenAiServer;
  let admin: TestClient;
  let member: TestClient;
  let orgId: string;
  let other: { client: TestClient; orgId: string };

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-system', ORG_KEY, SHORT_KEY] });
    internal = await FakeOpenAiServer.start({ apiKeys: [ORG_KEY] });
    // The fake provider runs on loopback: the operator allows exactly that address and port.
    ctx = await createTestApp({
      env: {
        OPENAI_API_KEY: 'sk-system',
        OPENAI_BASE_URL: fake.url,
        OPENAI_MODELS: 'gpt-test,gpt-test-mini',
        LLM_MAX_ATTEMPTS: '1',
        OUTBOUND_ALLOWED_PRIVATE_HOSTS: new URL(fake.url).host,
      },
    });
    const a = await createOrg(ctx, { name: 'Alpha' });
    orgId = a.organization.id;
    admin = await signedIn(ctx, a.admin.email);
    member = await signedIn(ctx, (await createUser(ctx, orgId, { role: 'User' })).email);
    const b = await createOrg(ctx, { name: 'Beta' });
    other = { client: await signedIn(ctx, b.admin.email), orgId: b.organization.id };
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
    await internal?.close();
  });
  beforeEach(() => {
    fake.reset();
    internal.reset();
  });

  const orgAi = async (c: TestClient) => {
    const res = await c.get('/api/v1/organization');
    expect(res.statusCode).toBe(200);
    return res.json().organization as OrganizationAiDto & { id: string };
  };

  it('GET /organization carries credits.ai, the llm list with its default, llmSettings and llmModels', async () => {
    const org = await orgAi(member);
    expect(org.credits.ai).toEqual({ remaining: null, total: null, expiresAt: null });
    expect(org.settings.llm).toEqual([
      { isDefault: true, llmModel: { id: 'gpt-test', name: 'gpt-test' } },
      { isDefault: false, llmModel: { id: 'gpt-test-mini', name: 'gpt-test-mini' } },
    ]);
    expect(org.settings.llmSettings).toEqual({ id: orgId, useSystemLlmSetting: true });
    expect(org.llmModels.map((m) => m.id)).toEqual(['gpt-test', 'gpt-test-mini']);
    expect(org.llmProvider).toEqual({ source: 'system', configured: true, systemAvailable: true, organizationIntegrationId: null });
    await ctx
      .em()
      .nativeUpdate(
        Organization,
        { id: orgId },
        { aiCreditsTotal: 100, aiCreditsUsed: 30, aiCreditsExpiresAt: new Date('2030-01-01T00:00:00Z') },
      );
    expect((await orgAi(member)).credits.ai).toEqual({ remaining: 70, total: 100, expiresAt: '2030-01-01T00:00:00.000Z' });
    await ctx.em().nativeUpdate(Organization, { id: orgId }, { aiCreditsTotal: null, aiCreditsUsed: 0, aiCreditsExpiresAt: null });
  });

  describe('PUT /organization/llmSetting', () => {
    it('admin sets the default model; generation then uses it', async () => {
      const res = await admin.put('/api/v1/organization/llmSetting', {
        settings: {
          llm: [
            { llmModelId: 'gpt-test', isDefault: false },
            { llmModelId: 'gpt-test-mini', isDefault: true },
          ],
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(LLM_SETTINGS_MESSAGES.updated);
      expect(res.json().ai.settings.llm[0]).toEqual({ isDefault: true, llmModel: { id: 'gpt-test-mini', name: 'gpt-test-mini' } });
      fake.reply({
        json: { enrichmentName: 'Headcount', keyName: 'employees', keyDescription: 'Employees', keyDataType: 'number', keyOptions: [] },
      });
      expect((await member.post('/api/v1/enrichment/generate-prompt', { prompt: 'How many employees?' })).statusCode).toBe(200);
      expect(fake.chatRequests[0].body.model).toBe('gpt-test-mini');
      await admin.put('/api/v1/organization/llmSetting', {
        settings: {
          llm: [
            { llmModelId: 'gpt-test', isDefault: true },
            { llmModelId: 'gpt-test-mini', isDefault: false },
          ],
        },
      });
    });

    it('refuses unknown models, duplicates and anything but exactly one default, changing nothing', async () => {
      const before = await orgAi(admin);
      const cases: Array<[unknown, string]> = [
        [{ settings: { llm: [{ llmModelId: 'gpt-9', isDefault: true }] } }, LLM_SETTINGS_MESSAGES.unknownModel('gpt-9')],
        [{ settings: { llm: [{ llmModelId: 'gpt-test', isDefault: false }] } }, LLM_SETTINGS_MESSAGES.oneDefault],
        [
          {
            settings: {
              llm: [
                { llmModelId: 'gpt-test', isDefault: true },
                { llmModelId: 'gpt-test-mini', isDefault: true },
              ],
            },
          },
          LLM_SETTINGS_MESSAGES.oneDefault,
        ],
        [
          {
            settings: {
              llm: [
                { llmModelId: 'gpt-test', isDefault: true },
                { llmModelId: 'gpt-test', isDefault: false },
              ],
            },
          },
          LLM_SETTINGS_MESSAGES.duplicateModel('gpt-test'),
        ],
        [{ settings: { llm: [] } }, 'Choose at least one model'],
      ];
      for (const [body, message] of cases) {
        const res = await admin.put('/api/v1/organization/llmSetting', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toBe(message);
      }
      expect(await orgAi(admin)).toEqual(before);
    });

    it('is admin only (403 for a User)', async () => {
      const res = await member.put('/api/v1/organization/llmSetting', { settings: { llm: [{ llmModelId: 'gpt-test', isDefault: true }] } });
      expect(res.statusCode).toBe(403);
    });
  });

  describe("integrations: the organization's own openai key", () => {
    it('connect (201): the key is checked with the provider, stored encrypted, never returned; calls then use it', async () => {
      const res = await admin.post('/api/v1/organization/integration', {
        provider: 'openai',
        name: 'Team key',
        apiKey: ORG_KEY,
        baseUrl: fake.url,
        models: ['org-model-a', 'org-model-b'],
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().message).toBe(INTEGRATION_MESSAGES.connected);
      const integration = res.json().integration;
      expect(integration).toMatchObject({
        provider: 'openai',
        type: 'llm',
        scope: 'organization',
        data: {
          name: 'Team key',
          active: true,
          expiresAt: null,
          metadata: { baseUrl: fake.url, models: ['org-model-a', 'org-model-b'], keyHint: 'ALUE' },
        },
      });
      expect(integration.data.createdBy).toMatchObject({ firstName: 'Ada', lastName: 'Admin' });
      expect(res.body).not.toContain(ORG_KEY);
      expect(fake.requests.some((r) => r.method === 'GET' && r.path.endsWith('/models') && r.authorization === `Bearer ${ORG_KEY}`)).toBe(
        true,
      );

      // At rest: no column of the row holds the key (the whole row as text).
      const db = new pg.Client({ connectionString: ctx.dbUrl });
      await db.connect();
      const rows = (await db.query(`select row_to_json(i)::text as t from integration i where id = $1`, [integration.id])).rows;
      await db.end();
      expect(rows).toHaveLength(1);
      expect(rows[0].t).not.toContain(ORG_KEY);
      expect(rows[0].t).not.toContain('SECRETVALUE');

      const list = await member.get('/api/v1/integration');
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(ORG_KEY);
      expect(list.json().integrations.map((i: { id: string }) => i.id)).toEqual([integration.id]);

      const org = await orgAi(member);
      expect(org.llmProvider).toEqual({
        source: 'organization',
        configured: true,
        systemAvailable: true,
        organizationIntegrationId: integration.id,
      });
      expect(org.settings.llmSettings.useSystemLlmSetting).toBe(false);
      expect(org.llmModels.map((m) => m.id)).toEqual(['org-model-a', 'org-model-b']);

      fake.reply({
        json: { enrichmentName: 'Industry', keyName: 'industry', keyDescription: 'Industry', keyDataType: 'string', keyOptions: [] },
      });
      expect((await member.post('/api/v1/enrichment/generate-prompt', { prompt: 'Which industry?' })).statusCode).toBe(200);
      expect(fake.chatRequests[0].authorization).toBe(`Bearer ${ORG_KEY}`);
      expect(fake.chatRequests[0].body.model).toBe('org-model-a');

      // Toggle back to the system key and forth again.
      const toSystem = await admin.put('/api/v1/organization/useSystemLLMSetting', { id: orgId, status: true });
      expect(toSystem.statusCode).toBe(200);
      expect(toSystem.json().ai.llmProvider.source).toBe('system');
      fake.reset();
      await member.post('/api/v1/enrichment/generate-prompt', { prompt: 'Which industry?' });
      expect(fake.chatRequests[0].authorization).toBe('Bearer sk-system');
      expect((await admin.put('/api/v1/organization/useSystemLLMSetting', { id: orgId, status: false })).json().ai.llmProvider.source).toBe(
        'organization',
      );

      // Another organization cannot see or remove it.
      expect((await other.client.get('/api/v1/integration')).json().integrations).toEqual([]);
      expect((await other.client.del(`/api/v1/organization/integration/${integration.id}`)).statusCode).toBe(404);
      // A User cannot remove it either.
      expect((await member.del(`/api/v1/organization/integration/${integration.id}`)).statusCode).toBe(403);

      const del = await admin.del(`/api/v1/organization/integration/${integration.id}`);
      expect(del.statusCode).toBe(200);
      expect(del.json().message).toBe(INTEGRATION_MESSAGES.removed);
      expect((await orgAi(admin)).llmProvider).toMatchObject({ source: 'system', organizationIntegrationId: null });
      expect((await admin.del(`/api/v1/organization/integration/${integration.id}`)).statusCode).toBe(404);
    });

    it('SSRF: a base URL on an internal address (cloud metadata, loopback, private ranges) is refused before any request, nothing stored', async () => {
      for (const baseUrl of [
        'http://169.254.169.254/latest',
        internal.url,
        `${internal.url.replace('127.0.0.1', 'localhost')}/v1`,
        'http://10.0.0.7:11434/v1',
        'http://[::1]:8080/v1',
        'http://2130706433/v1',
      ]) {
        const res = await admin.post('/api/v1/organization/integration', { provider: 'openai', name: 'Probe', apiKey: ORG_KEY, baseUrl });
        expect(res.statusCode, baseUrl).toBe(400);
        expect(res.json().message, baseUrl).toMatch(/^This base URL cannot be used: .*not a public internet address/);
      }
      expect(internal.requests).toEqual([]);
      expect((await admin.get('/api/v1/integration')).json().integrations).toEqual([]);
    });

    it('SSRF: a stored key whose base URL is internal is never called (model calls fail with a message)', async () => {
      const { Integration } = await import('../integrations/integration.entity');
      const { encryptSecret } = await import('../../lib/secrets');
      const em = ctx.em();
      const row = em.create(Integration, {
        organization: orgId,
        provider: 'openai',
        type: 'llm',
        name: 'Old row',
        active: true,
        secret: encryptSecret(ORG_KEY, ctx.config.SECRETS_KEY, orgId),
        data: { baseUrl: internal.url, models: ['m'] },
      });
      await em.flush();
      expect((await admin.put('/api/v1/organization/useSystemLLMSetting', { id: orgId, status: false })).statusCode).toBe(200);
      const res = await member.post('/api/v1/enrichment/generate-prompt', { prompt: 'Which industry?' });
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toMatch(/^The AI provider's base URL cannot be used: .*not a public internet address/);
      expect(internal.requests).toEqual([]);
      expect((await admin.del(`/api/v1/organization/integration/${row.id}`)).statusCode).toBe(200);
    });

    it('a key shorter than 12 characters gets no hint (the hint would be most of the key)', async () => {
      const res = await admin.post('/api/v1/organization/integration', {
        provider: 'openai',
        name: 'Tiny',
        apiKey: SHORT_KEY,
        baseUrl: fake.url,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().integration.data.metadata.keyHint).toBeNull();
      expect(res.body).not.toContain('hort');
      expect((await admin.del(`/api/v1/organization/integration/${res.json().integration.id}`)).statusCode).toBe(200);
    });

    it('a key the provider refuses is not stored (400)', async () => {
      const res = await admin.post('/api/v1/organization/integration', {
        provider: 'openai',
        name: 'Bad',
        apiKey: 'sk-wrong',
        baseUrl: fake.url,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(INTEGRATION_MESSAGES.keyRefused);
      expect((await admin.get('/api/v1/integration')).json().integrations).toEqual([]);
    });

    it('validation: the spec-style messages, nothing stored; admin only', async () => {
      const cases: Array<[unknown, string]> = [
        [{ provider: 'openai', name: '', apiKey: 'x' }, 'API key name is required'],
        [{ provider: 'openai', name: 'n', apiKey: ' ' }, 'API key is required'],
        [{ provider: 'hubspot', name: 'n', apiKey: 'x' }, 'Unsupported integration provider'],
        [{ provider: 'openai', name: 'n', apiKey: 'x', baseUrl: 'ftp://example.com' }, 'Base URL must be an http(s) URL'],
      ];
      for (const [body, message] of cases) {
        const res = await admin.post('/api/v1/organization/integration', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toBe(message);
      }
      expect(
        (await member.post('/api/v1/organization/integration', { provider: 'openai', name: 'n', apiKey: ORG_KEY, baseUrl: fake.url }))
          .statusCode,
      ).toBe(403);
      expect((await admin.get('/api/v1/integration')).json().integrations).toEqual([]);
    });

    it('useSystemLLMSetting: status false needs an organization key; a foreign settings id is 404; admin only', async () => {
      const res = await admin.put('/api/v1/organization/useSystemLLMSetting', { id: orgId, status: false });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(LLM_SETTINGS_MESSAGES.noOrganizationKey);
      expect((await admin.put('/api/v1/organization/useSystemLLMSetting', { id: other.orgId, status: true })).statusCode).toBe(404);
      expect((await member.put('/api/v1/organization/useSystemLLMSetting', { id: orgId, status: true })).statusCode).toBe(403);
    });
  });

  describe('POST /enrichment/generate-prompt and /generate-schema-object', () => {
    it('generate-prompt answers the enrichment name and its field, cleaned', async () => {
      fake.reply({
        json: {
          enrichmentName: 'Ownership type',
          keyName: 'Ownership Type',
          keyDescription: 'Who owns the company.',
          keyDataType: 'categorical',
          keyOptions: ['Family', 'PE-backed', 'Family', ' '],
        },
      });
      const res = await member.post('/api/v1/enrichment/generate-prompt', {
        prompt: 'Is the company family owned or PE backed?',
        entityType: 'company',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        enrichmentName: 'Ownership type',
        keyName: 'ownership_type',
        keyDescription: 'Who owns the company.',
        keyDataType: 'categorical',
        keyOptions: ['Family', 'PE-backed'],
      });
      const sent = fake.chatRequests[0].body;
      expect(sent.response_format?.json_schema?.strict).toBe(true);
      expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'Is the company family owned or PE backed?' });
    });

    it('generate-prompt: an empty prompt is 400 "Prompt is required" with no call', async () => {
      const res = await member.post('/api/v1/enrichment/generate-prompt', { prompt: '  ' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Prompt is required');
      expect(fake.chatRequests).toHaveLength(0);
    });

    it('generate-schema-object answers one column; none found gives the spec message', async () => {
      fake.reply({
        json: {
          found: true,
          keyName: 'hq_country',
          keyDescription: 'Country of the headquarters.',
          keyDataType: 'string',
          keyOptions: ['ignored'],
        },
      });
      const ok = await member.post('/api/v1/enrichment/generate-schema-object', {
        hint: 'where is the HQ',
        prompt: 'Research the company',
        existingNames: ['answer'],
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({
        success: true,
        keyName: 'hq_country',
        keyDataType: 'string',
        keyDescription: 'Country of the headquarters.',
        keyOptions: [],
      });
      expect(fake.chatRequests[0].body.messages[0].content).toContain('answer');

      fake.reply({ json: { found: false, keyName: '', keyDescription: '', keyDataType: 'string', keyOptions: [] } });
      const none = await member.post('/api/v1/enrichment/generate-schema-object', { hint: 'asdf qwer' });
      expect(none.statusCode).toBe(400);
      expect(none.json().message).toBe(ENRICHMENT_AI_MESSAGES.noColumns);
      expect((await member.post('/api/v1/enrichment/generate-schema-object', { hint: '' })).json().message).toBe('Hint is required');
    });

    it('credits exhausted: 402 with the message; provider failures map to their status', async () => {
      await ctx.em().nativeUpdate(Organization, { id: orgId }, { aiCreditsTotal: 0 });
      const res = await member.post('/api/v1/enrichment/generate-schema-object', { hint: 'revenue' });
      expect(res.statusCode).toBe(402);
      expect(res.json().message).toBe(CREDITS_EXHAUSTED_MESSAGE);
      await ctx.em().nativeUpdate(Organization, { id: orgId }, { aiCreditsTotal: null });
      fake.reply({ status: 500 });
      const failed = await member.post('/api/v1/enrichment/generate-schema-object', { hint: 'revenue' });
      expect(failed.statusCode).toBe(502);
      expect(failed.json().message).toBe('The AI provider failed (500).');
    });

    it('not configured: 400 saying where to configure a provider, no request sent', async () => {
      const bare = await createTestApp();
      try {
        const { admin: a } = await createOrg(bare, { name: 'No AI' });
        const c = await signedIn(bare, a.email);
        const res = await c.post('/api/v1/enrichment/generate-prompt', { prompt: 'x' });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(NOT_CONFIGURED_MESSAGE);
        const org = (await c.get('/api/v1/organization')).json().organization as OrganizationAiDto;
        expect(org.llmProvider).toEqual({ source: 'system', configured: false, systemAvailable: false, organizationIntegrationId: null });
        const toSystem = await c.put('/api/v1/organization/useSystemLLMSetting', {
          id: (org as OrganizationAiDto & { id: string }).id,
          status: true,
        });
        expect(toSystem.statusCode).toBe(400);
        expect(toSystem.json().message).toBe(LLM_SETTINGS_MESSAGES.noSystemProvider);
      } finally {
        await bare.close();
      }
      expect(fake.chatRequests).toHaveLength(0);
    });
  });
});
