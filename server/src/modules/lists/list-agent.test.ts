// The list-building agent source through a list execution, against the LLM fake (OpenAI's API), the
// Brave Search fake and a fake web page: the model searches, reads a page and proposes companies
// with their sources; they become ideas (one without a usable website is dropped), each keeping
// its reason and sources; without an AI provider the source fails with the LLM's message.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { startTestWorker, eventually, type TestWorker } from '../../../test/execution-harness';
import { FakeOpenAiServer } from '../../../test/fakes/openai-server';
import { startFakeBrave, type FakeBraveServer } from '../../../test/fakes/brave-search-server';
import { startFakeWeb, html, type FakeWebServer } from '../../../test/fakes/web-server';
import { GuardedHttpClient } from '../../providers/web/guarded-client';
import { BraveSearch } from '../../providers/search/brave';
import { createListHandler } from './handler';

function multipart(fields: Record<string, string>): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----ds${randomUUID()}`;
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return {
    body: Buffer.from(parts.join('') + `--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('the list-building agent source', () => {
  let ctx: TestContext;
  let llm: FakeOpenAiServer;
  let brave: FakeBraveServer;
  let web: FakeWebServer;
  let worker: TestWorker;
  let a: TestClient;

  beforeAll(async () => {
    llm = await FakeOpenAiServer.start({ apiKeys: ['sk-test'] });
    brave = await startFakeBrave({ apiKey: 'brave-key' });
    web = await startFakeWeb({
      '/guide': html(
        '<html><body><h1>Danish bakery guide</h1><p>Lagkage Industri (lagkage.example.dk) and Rugbrød Fabrik ' +
          '(rugbroed.example.dk) bake for supermarkets.</p></body></html>',
      ),
    });
    ctx = await createTestApp({
      boss: true,
      env: {
        EXECUTION_RETRY_DELAY_SECONDS: '0',
        EXECUTION_RETRY_LIMIT: '0',
        LLM_MAX_ATTEMPTS: '1',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODELS: 'gpt-test',
        OPENAI_BASE_URL: llm.url,
      },
    });
    const ports = () => ({
      web: new GuardedHttpClient({ testAllowlist: [web.allowEntry] }),
      search: new BraveSearch({ apiKey: 'brave-key', baseUrl: brave.url }),
    });
    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createListHandler({ config: ctx.config, agent: { ports } })]);
    const o = await createOrg(ctx, { name: 'Agent Lists' });
    a = await signedIn(ctx, o.admin.email, '10.44.0.1');
  });
  afterAll(async () => {
    await worker?.stop();
    await ctx?.close();
    await Promise.all([llm?.close(), brave?.close(), web?.close()]);
  }, 120_000);

  it('searches, reads a page and proposes companies with their sources; they become ideas', async () => {
    const list = (await a.post('/api/v1/list-company', { name: 'Bakeries' })).json().list as { id: string };
    brave.results('industrial bakeries denmark', [
      { title: 'Danish bakery guide', url: web.url('/guide'), description: 'Industrial bakeries in Denmark' },
    ]);
    llm.reply(
      { toolCalls: [{ name: 'web_search', arguments: { query: 'industrial bakeries denmark' } }] },
      { toolCalls: [{ name: 'fetch_page', arguments: { url: web.url('/guide') } }] },
      {
        json: {
          companies: [
            {
              name: 'Lagkage Industri',
              website: 'https://www.lagkage.example.dk',
              reason: 'An industrial bakery in Denmark.',
              sources: [web.url('/guide')],
            },
            {
              name: 'Rugbrød Fabrik',
              website: 'rugbroed.example.dk',
              reason: 'Bakes rye bread for supermarkets.',
              sources: [web.url('/guide')],
            },
            { name: 'No Site', website: 'not a website', reason: 'Mentioned without a site.', sources: [] },
          ],
        },
      },
    );
    const m = multipart({
      listCompanyId: list.id,
      intentionSourceId: 'agent',
      source: JSON.stringify({ description: 'Industrial bakeries in Denmark', maxResultCount: 10 }),
    });
    const added = await a.post('/api/v1/list-company/source', m.body, m.headers);
    expect(added.statusCode, added.body).toBe(201);
    const sourceId = added.json().sourceId as string;
    await a.post('/api/v1/list-company/execute', { typeId: sourceId, entityType: 'list', entityId: list.id });
    const l = await eventually(
      async () => {
        const x = (await a.get(`/api/v1/list-company/${list.id}`)).json().list;
        return x.sources[0].status === 'completed' || x.sources[0].status === 'failed' ? x : undefined;
      },
      'the agent source',
      30_000,
    );
    expect(l.sources[0]).toMatchObject({ status: 'completed', total: 2, statusReason: '2 ideas added, 0 already in the list' });
    const ideas = (await a.post('/api/v1/list-company/idea/list', { listCompanyId: list.id, sortKey: 'name', sortOrder: 'asc' })).json()
      .listCompanyIdeas;
    expect(ideas.map((i: { name: string; domain: string }) => [i.name, i.domain])).toEqual([
      ['Lagkage Industri', 'lagkage.example.dk'],
      ['Rugbrød Fabrik', 'rugbroed.example.dk'],
    ]);
    expect(ideas[0].data).toEqual({ reason: 'An industrial bakery in Denmark.', sources: web.url('/guide') });
    // The search and the page reached the model; the description is in its task.
    expect(brave.requests.map((r) => r.query.get('q'))).toContain('industrial bakeries denmark');
    expect(web.requests.map((r) => r.path)).toContain('/guide');
    expect(JSON.stringify(llm.chatRequests[0].body.messages)).toContain('Industrial bakeries in Denmark');
  });
});
