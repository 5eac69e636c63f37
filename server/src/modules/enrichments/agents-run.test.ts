// The agent types through the enrichment handler: the AI Research Agent reads a fake page through
// the guarded client (loopback allowed only by the test allowlist) and answers with its sources;
// the LinkedIn enrichment (mixrankCompanyDetails) fills the built-in company info fields from a fake
// MixRank API; without a company-details key it fails with the adapter's message.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { startTestWorker, eventually, type TestWorker } from '../../../test/execution-harness';
import { FakeOpenAiServer } from '../../../test/fakes/openai-server';
import { startFakeWeb, html, type FakeWebServer } from '../../../test/fakes/web-server';
import { startFakeMixRank, type FakeMixRankServer } from '../../../test/fakes/mixrank-server';
import type { EnrichmentResultDto } from '@dealscout/shared/contracts';
import { GuardedHttpClient } from '../../providers/web/guarded-client';
import { BraveSearch } from '../../providers/search/brave';
import { MixRankCompanyDetails } from '../../providers/company-details/mixrank';
import { createQueues } from '../../jobs/definitions';
import { executionJobDefinitions } from '../executions/runner';
import { createEnrichmentHandler } from './handler';
import { configFor } from './configs';

const env = {
  EXECUTION_RETRY_DELAY_SECONDS: '0',
  EXECUTION_RETRY_LIMIT: '0',
  LLM_MAX_ATTEMPTS: '1',
  OPENAI_API_KEY: 'sk-test',
  OPENAI_MODELS: 'gpt-test',
};

describe('enrichments: agents and the LinkedIn lookup', () => {
  let ctx: TestContext;
  let fake: FakeOpenAiServer;
  let web: FakeWebServer;
  let mixrank: FakeMixRankServer;
  let worker: TestWorker;
  let c: TestClient;
  let mixrankConfigured = true;

  const company = async (name: string, website: string) =>
    (await c.post('/api/v1/entity/company', { company: { name, website } })).json().company.id as string;
  const result = (enrichmentId: string, entityId: string) =>
    eventually(
      async () => {
        const [r] = (
          await c.post('/api/v1/enrichment/results', { entityType: 'company', entityIds: [entityId], enrichmentIds: [enrichmentId] })
        ).json().results as EnrichmentResultDto[];
        return r && (r.status === 'complete' || r.status === 'error') ? r : undefined;
      },
      'the result',
      30_000,
    );

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-test'] });
    web = await startFakeWeb({
      '/about': html('<html><body><h1>Acme Robotics</h1><p>Acme builds warehouse robots. Founded 2012.</p></body></html>'),
    });
    mixrank = await startFakeMixRank({ apiKey: 'mx-key' });
    mixrank.add({
      id: 'a-1',
      name: 'Linkco Inc',
      domain: 'linkco.example',
      linkedin_url: 'https://www.linkedin.com/company/linkco',
      founded: 2009,
      employees: 120,
      size: '51-200',
      type: 'Privately Held',
      country: 'Germany',
      followers: '1500',
    });
    ctx = await createTestApp({ boss: true, env: { ...env, OPENAI_BASE_URL: fake.url } });
    await createQueues(ctx.boss!, executionJobDefinitions([]), ctx.config);
    const ports = () => ({
      web: new GuardedHttpClient({ testAllowlist: [web.allowEntry] }),
      search: new BraveSearch({}),
      companyDetails: new MixRankCompanyDetails(mixrankConfigured ? { apiKey: 'mx-key', baseUrl: mixrank.url } : {}),
    });
    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config, agentPorts: ports })]);
    const o = await createOrg(ctx, { name: 'Agent Co' });
    c = await signedIn(ctx, o.admin.email);
  });
  afterAll(async () => {
    await worker.stop();
    await ctx.close();
    await fake.close();
    await web.close();
    await mixrank.close();
  });

  it('the AI Research Agent fetches a page and answers with its sources', async () => {
    const id = (
      await c.post('/api/v1/enrichment', {
        configId: configFor('company', 'agent')!.id,
        name: 'Robots',
        prompt: [{ type: 'text', text: `What does the company build? Read ${web.url('/about')}` }],
        schema: [{ name: 'answer', type: 'string', description: 'What it builds.', required: true }],
      })
    ).json().id as string;
    const co = await company('Acme Robotics', 'acme-robotics.example');
    fake.reply({ toolCalls: [{ name: 'fetch_page', arguments: { url: web.url('/about') } }] }, { json: { answer: 'Warehouse robots' } });
    const res = await c.post('/api/v1/enrichment/execute', { enrichmentId: id, entityType: 'company', entityIds: [co] });
    expect(res.json().started).toBe(1);
    const r = await result(id, co);
    expect(r).toMatchObject({ status: 'complete', value: { result: { answer: 'Warehouse robots' } } });
    expect(r.sources.map((s) => s.url)).toEqual([web.url('/about')]);
    expect(web.requests.map((q) => q.path)).toContain('/about');
    // The page text reached the model as a tool result.
    const second = fake.chatRequests[1];
    expect(JSON.stringify(second.body.messages)).toContain('warehouse robots');
  });

  it('the Deep Research Agent plans, researches and answers (several model calls, one result)', async () => {
    fake.reset();
    const id = (
      await c.post('/api/v1/enrichment', {
        configId: configFor('company', 'deepresearchagent')!.id,
        name: 'Deep',
        prompt: 'Who are the main competitors?',
        schema: [{ name: 'answer', type: 'string', description: 'Competitors.', required: true }],
      })
    ).json().id as string;
    const co = await company('Deepco', 'deepco.example');
    await c.post('/api/v1/enrichment/execute', { enrichmentId: id, entityType: 'company', entityIds: [co] });
    const r = await result(id, co);
    expect(r.status, r.statusMessage ?? '').toBe('complete');
    expect(typeof r.value.result!.answer).toBe('string');
    // Planning, research and the final answer are separate calls, all charged under this execution.
    expect(fake.chatRequests.length).toBeGreaterThan(1);
    const keys = await ctx
      .em()
      .execute<{ charge_key: string }[]>(`select charge_key from llm_charge where charge_key like ?`, [`${r.executionId}:%`]);
    expect(keys.length).toBe(fake.chatRequests.length);
  });

  it('the LinkedIn enrichment fills the built-in company info fields', async () => {
    const id = (
      await c.post('/api/v1/enrichment', {
        configId: configFor('company', 'mixrankCompanyDetails')!.id,
        enrichmentName: 'LinkedIn profile',
      })
    ).json().id as string;
    const co = await company('Linkco', 'https://www.linkco.example/about');
    await c.post('/api/v1/enrichment/execute', { enrichmentId: id, entityType: 'company', entityIds: [co] });
    const r = await result(id, co);
    expect(r.status).toBe('complete');
    expect(r.value.result).toMatchObject({
      name: 'Linkco Inc',
      founded: 2009,
      employee_count: 120,
      follower_count: 1500,
      country: 'Germany',
      size: '51-200',
      type: 'Privately Held',
    });
    expect(Object.keys(r.value.result!).sort()).toEqual([
      'country',
      'description',
      'employee_count',
      'follower_count',
      'founded',
      'name',
      'size',
      'type',
      'url',
      'website',
    ]);
    expect(mixrank.requests.some((q) => q.query.get('url') === 'https://linkco.example/')).toBe(true);
  });

  it('without a company-details key the LinkedIn run ends in error with a message saying so', async () => {
    mixrankConfigured = false;
    try {
      const id = (
        await c.post('/api/v1/enrichment', { configId: configFor('company', 'mixrankCompanyDetails')!.id, enrichmentName: 'No key' })
      ).json().id as string;
      const co = await company('Nokeyco', 'nokey.example');
      await c.post('/api/v1/enrichment/execute', { enrichmentId: id, entityType: 'company', entityIds: [co] });
      const r = await result(id, co);
      expect(r.status).toBe('error');
      expect(r.statusMessage).toMatch(/company details/i);
    } finally {
      mixrankConfigured = true;
    }
  });
});
