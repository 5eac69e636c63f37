// The LLM adapter (Chat Completions over HTTP) against the fake OpenAI-compatible server, with a real
// database for the per-organization provider, credits and charge keys.
import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { createTestApp, createOrg, type TestContext } from '../../../test/helpers';
import { FakeOpenAiServer, lastUserText } from '../../../test/fakes/openai-server';
import { getLlm, LlmError, type LlmService, CREDITS_EXHAUSTED_MESSAGE, NOT_CONFIGURED_MESSAGE } from './index';
import { loadConfig } from '../../config';
import { chargeCreditGroup } from './credits';
import { Organization } from '../../db/organization.entity';
import { encryptSecret } from '../../lib/secrets';
import { Integration } from '../../modules/integrations/integration.entity';

const SCHEMA = {
  name: 'answer',
  schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
};

async function failure(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof LlmError) return err;
    throw err;
  }
  throw new Error('expected an LlmError');
}

describe('LLM adapter (Chat Completions over HTTP against the fake server)', () => {
  let ctx: TestContext;
  let fake: FakeOpenAiServer;
  let llm: LlmService;
  let orgId: string;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-system', 'sk-org'] });
    ctx = await createTestApp({
      env: {
        OPENAI_API_KEY: 'sk-system',
        OPENAI_BASE_URL: fake.url,
        OPENAI_MODELS: 'gpt-test,gpt-test-mini',
        LLM_TIMEOUT_MS: '1500',
        LLM_MAX_ATTEMPTS: '3',
        LLM_MAX_RETRY_WAIT_MS: '2000',
        OUTBOUND_ALLOWED_PRIVATE_HOSTS: new URL(fake.url).host,
      },
    });
    llm = getLlm({ em: ctx.em(), config: ctx.config });
    orgId = (await createOrg(ctx)).organization.id;
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  it('structured output: sends a strict json_schema response_format and answers the JSON text', async () => {
    fake.reply({ json: { answer: 'Paris' } });
    const res = await llm.complete({
      organizationId: orgId,
      model: 'default',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Capital of France?' },
      ],
      responseSchema: SCHEMA,
    });
    expect(JSON.parse(res.content!)).toEqual({ answer: 'Paris' });
    expect(res.model).toBe('gpt-test');
    expect(res.finishReason).toBe('stop');
    const [req] = fake.chatRequests;
    expect(req.authorization).toBe('Bearer sk-system');
    expect(req.body.model).toBe('gpt-test');
    expect(req.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'answer', strict: true, schema: SCHEMA.schema } });
    expect(req.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Capital of France?' },
    ]);
  });

  it('a named model is used when offered; an unknown one fails clearly', async () => {
    fake.reply({ content: 'hi' });
    const res = await llm.complete({ organizationId: orgId, model: 'gpt-test-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.content).toBe('hi');
    expect(fake.chatRequests[0].body.model).toBe('gpt-test-mini');
    const err = await failure(llm.complete({ organizationId: orgId, model: 'gpt-nope', messages: [{ role: 'user', content: 'hi' }] }));
    expect(err.kind).toBe('not_configured');
    expect(err.message).toContain("'gpt-nope' is not available");
  });

  it('tool calls: the model calls a tool, the result goes back, the model answers', async () => {
    fake.reply({ toolCalls: [{ name: 'search', arguments: { query: 'Acme revenue' } }] }, { json: { answer: '42M' } });
    const tools = [
      {
        name: 'search',
        description: 'Web search',
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
      },
    ];
    const first = await llm.complete({
      organizationId: orgId,
      model: 'default',
      messages: [{ role: 'user', content: 'Acme revenue?' }],
      tools,
      responseSchema: SCHEMA,
    });
    expect(first.content).toBeNull();
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toHaveLength(1);
    expect(first.toolCalls[0].name).toBe('search');
    expect(JSON.parse(first.toolCalls[0].arguments)).toEqual({ query: 'Acme revenue' });
    const second = await llm.complete({
      organizationId: orgId,
      model: 'default',
      tools,
      responseSchema: SCHEMA,
      messages: [
        { role: 'user', content: 'Acme revenue?' },
        { role: 'assistant', content: null, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: first.toolCalls[0].id, content: 'Acme had 42M revenue.' },
      ],
    });
    expect(JSON.parse(second.content!)).toEqual({ answer: '42M' });
    const sent = fake.chatRequests[0].body;
    expect(sent.tools).toEqual([{ type: 'function', function: tools[0] }]);
    const followUp = fake.chatRequests[1].body.messages;
    expect(followUp[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: first.toolCalls[0].id, type: 'function', function: { name: 'search' } }],
    });
    expect(followUp[2]).toEqual({ role: 'tool', tool_call_id: first.toolCalls[0].id, content: 'Acme had 42M revenue.' });
  });

  it('429 with Retry-After: waits what the server asks, then succeeds', async () => {
    fake.reply({ status: 429, headers: { 'retry-after': '1' } }, { json: { answer: 'ok' } });
    const res = await llm.complete({
      organizationId: orgId,
      model: 'default',
      messages: [{ role: 'user', content: 'x' }],
      responseSchema: SCHEMA,
    });
    expect(JSON.parse(res.content!)).toEqual({ answer: 'ok' });
    const [a, b] = fake.chatRequests;
    expect(b.at - a.at).toBeGreaterThanOrEqual(950);
  });

  it('429 with a Retry-After longer than we wait: fails as rate_limited and retryable, after one request', async () => {
    fake.reply({ status: 429, headers: { 'retry-after': '120' } });
    const err = await failure(llm.complete({ organizationId: orgId, model: 'default', messages: [{ role: 'user', content: 'x' }] }));
    expect(err.kind).toBe('rate_limited');
    expect(err.retryable).toBe(true);
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('5xx: retried with backoff; persistent 5xx fails as a retryable provider error after LLM_MAX_ATTEMPTS', async () => {
    fake.reply({ status: 502 }, { json: { answer: 'ok' } });
    const res = await llm.complete({
      organizationId: orgId,
      model: 'default',
      messages: [{ role: 'user', content: 'x' }],
      responseSchema: SCHEMA,
    });
    expect(JSON.parse(res.content!)).toEqual({ answer: 'ok' });
    fake.reset();
    fake.otherwise({ status: 503, headers: { 'retry-after-ms': '10' } });
    const err = await failure(llm.complete({ organizationId: orgId, model: 'default', messages: [{ role: 'user', content: 'x' }] }));
    expect(err.kind).toBe('provider');
    expect(err.retryable).toBe(true);
    expect(err.message).toBe('The AI provider failed (503).');
    expect(fake.chatRequests).toHaveLength(3);
  });

  it('a 400 from the provider is not retried', async () => {
    fake.reply({ status: 400, body: { error: { message: 'Invalid schema for response_format', type: 'invalid_request_error' } } });
    const err = await failure(llm.complete({ organizationId: orgId, model: 'default', messages: [{ role: 'user', content: 'x' }] }));
    expect(err.kind).toBe('provider');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('Invalid schema for response_format');
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('timeout: a hanging provider fails as timeout (retryable) after LLM_TIMEOUT_MS', async () => {
    fake.reply({ hang: true });
    const err = await failure(llm.complete({ organizationId: orgId, model: 'default', messages: [{ role: 'user', content: 'x' }] }));
    expect(err.kind).toBe('timeout');
    expect(err.retryable).toBe(true);
  });

  it('abort: the caller’s signal cancels a call in flight', async () => {
    fake.reply({ hang: true });
    const ac = new AbortController();
    const p = llm.complete({
      organizationId: orgId,
      model: 'default',
      messages: [{ role: 'user', content: 'x' }],
      signal: ac.signal,
      timeoutMs: 10_000,
    });
    await expect.poll(() => fake.chatRequests.length).toBe(1);
    ac.abort();
    const err = await failure(p);
    expect(err.kind).toBe('cancelled');
  });

  it('malformed output: content that is not JSON with a schema is bad_output; a body that is not JSON too', async () => {
    fake.reply({ content: 'Sure! Paris.' });
    const err = await failure(
      llm.complete({ organizationId: orgId, model: 'default', messages: [{ role: 'user', content: 'x' }], responseSchema: SCHEMA }),
    );
    expect(err.kind).toBe('bad_output');
    expect(err.message).toBe('The AI model returned an answer that is not valid JSON.');
    fake.reply({ raw: '{"id": "chatcmpl-1", "choices": [' });
    const err2 = await failure(
      llm.complete({ organizationId: orgId, model: 'default', messages: [{ role: 'user', content: 'x' }], responseSchema: SCHEMA }),
    );
    expect(err2.kind).toBe('bad_output');
  });

  it('unscripted requests get a sample valid against the schema (for benches and journeys)', async () => {
    const res = await llm.complete({
      organizationId: orgId,
      model: 'default',
      messages: [{ role: 'user', content: 'x' }],
      responseSchema: {
        name: 's',
        schema: {
          type: 'object',
          properties: { size: { type: 'number' }, kind: { type: 'string', enum: ['a', 'b'] } },
          required: ['size', 'kind'],
          additionalProperties: false,
        },
      },
    });
    expect(JSON.parse(res.content!)).toEqual({ size: 0, kind: 'a' });
  });

  it('concurrent calls are answered by content (when) and each gets its own answer', async () => {
    fake.when((r) => lastUserText(r).includes('Acme'), { json: { answer: 'acme' }, latencyMs: 30 });
    fake.when((r) => lastUserText(r).includes('Globex'), { json: { answer: 'globex' } });
    const [a, b] = await Promise.all(
      ['Acme', 'Globex'].map((n) =>
        llm.complete({
          organizationId: orgId,
          model: 'default',
          messages: [{ role: 'user', content: `About ${n}` }],
          responseSchema: SCHEMA,
        }),
      ),
    );
    expect(JSON.parse(a.content!).answer).toBe('acme');
    expect(JSON.parse(b.content!).answer).toBe('globex');
  });

  describe('credits.ai', () => {
    it('are charged once per charge key; exhausted credits refuse the call before any request', async () => {
      const { organization } = await createOrg(ctx, { name: 'Credits Co' });
      const em = ctx.em();
      await em.nativeUpdate(Organization, { id: organization.id }, { aiCreditsTotal: 2, aiCreditsUsed: 0 });
      const call = (key: string) =>
        llm.complete({ organizationId: organization.id, model: 'default', messages: [{ role: 'user', content: 'x' }], chargeKey: key });
      await call('exec-1:step-1');
      await call('exec-1:step-1'); // a retried job repeating its call
      let org = await ctx.em().findOneOrFail(Organization, { id: organization.id });
      expect(org.aiCreditsUsed).toBe(1);
      await call('exec-1:step-2');
      org = await ctx.em().findOneOrFail(Organization, { id: organization.id });
      expect(org.aiCreditsUsed).toBe(2);
      const before = fake.chatRequests.length;
      const err = await failure(call('exec-2:step-1'));
      expect(err.kind).toBe('credits_exhausted');
      expect(err.message).toBe(CREDITS_EXHAUSTED_MESSAGE);
      expect(fake.chatRequests.length).toBe(before);
      // A key charged before still answers (no second charge needed).
      await call('exec-1:step-1');
      org = await ctx.em().findOneOrFail(Organization, { id: organization.id });
      expect(org.aiCreditsUsed).toBe(2);
    });

    it('concurrent calls with one key are charged once; a failed call is refunded', async () => {
      const { organization } = await createOrg(ctx, { name: 'Race Co' });
      await ctx.em().nativeUpdate(Organization, { id: organization.id }, { aiCreditsTotal: 10 });
      await Promise.all(
        Array.from({ length: 5 }, () =>
          llm.complete({
            organizationId: organization.id,
            model: 'default',
            messages: [{ role: 'user', content: 'x' }],
            chargeKey: 'same',
          }),
        ),
      );
      expect((await ctx.em().findOneOrFail(Organization, { id: organization.id })).aiCreditsUsed).toBe(1);
      fake.reply({ status: 400 });
      await failure(
        llm.complete({ organizationId: organization.id, model: 'default', messages: [{ role: 'user', content: 'x' }], chargeKey: 'fails' }),
      );
      expect((await ctx.em().findOneOrFail(Organization, { id: organization.id })).aiCreditsUsed).toBe(1);
      const rows = await ctx
        .em()
        .execute(`select charge_key from llm_charge where organization_id = ? order by charge_key`, [organization.id]);
      expect(rows.map((r) => r.charge_key)).toEqual(['same']);
    });

    it('N parallel calls with M < N credits left: exactly M are charged and answered, the others refused before any request', async () => {
      const { organization } = await createOrg(ctx, { name: 'Parallel Co' });
      await ctx.em().nativeUpdate(Organization, { id: organization.id }, { aiCreditsTotal: 10, aiCreditsUsed: 3 });
      const before = fake.chatRequests.length;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          llm.complete({
            organizationId: organization.id,
            model: 'default',
            messages: [{ role: 'user', content: 'x' }],
            chargeKey: `p:${i}`,
          }),
        ),
      );
      const ok = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(ok).toHaveLength(7);
      expect(refused).toHaveLength(13);
      for (const r of refused) expect((r.reason as LlmError).message).toBe(CREDITS_EXHAUSTED_MESSAGE);
      expect(fake.chatRequests.length - before).toBe(7);
      expect((await ctx.em().findOneOrFail(Organization, { id: organization.id })).aiCreditsUsed).toBe(10);
      const [{ n }] = await ctx
        .em()
        .execute<{ n: number }[]>(`select count(*)::int as n from llm_charge where organization_id = ?`, [organization.id]);
      expect(n).toBe(7);
    });

    it('charge statements running at the same time (separate connections) never spend more than the credits left', async () => {
      const { organization } = await createOrg(ctx, { name: 'Parallel Groups Co' });
      await ctx.em().nativeUpdate(Organization, { id: organization.id }, { aiCreditsTotal: 25, aiCreditsUsed: 0 });
      // 8 groups of 5 keys, each its own statement on its own pooled connection; one key appears in two groups.
      const groups = Array.from({ length: 8 }, (_, g) =>
        Array.from({ length: 5 }, (_, i) => ({ key: g === 7 && i === 0 ? 'g0:0' : `g${g}:${i}`, model: 'gpt-test' })),
      );
      const outs = await Promise.all(groups.map((items) => chargeCreditGroup(ctx.em().fork(), organization.id, items)));
      const charged = outs.flatMap((o) => [...o.charged]);
      const refused = outs.flatMap((o) => [...o.refused]);
      expect(charged).toHaveLength(25);
      expect(new Set(charged).size).toBe(25);
      // 39 distinct keys: 25 charged, the rest refused or (the repeated key) already charged.
      expect(refused.length).toBeGreaterThanOrEqual(13);
      expect(charged.length + new Set(refused.filter((k) => !charged.includes(k))).size).toBeGreaterThanOrEqual(38);
      expect((await ctx.em().findOneOrFail(Organization, { id: organization.id })).aiCreditsUsed).toBe(25);
      const [{ n }] = await ctx
        .em()
        .execute<{ n: number }[]>(`select count(*)::int as n from llm_charge where organization_id = ?`, [organization.id]);
      expect(n).toBe(25);
    });

    it('a call is charged before it waits for a slot, and gets its credit back when cancelled while waiting', async () => {
      const { organization } = await createOrg(ctx, { name: 'Waiting Co' });
      await ctx.em().nativeUpdate(Organization, { id: organization.id }, { aiCreditsTotal: 100, aiCreditsUsed: 0 });
      const limit = ctx.config.LLM_ORG_CONCURRENCY;
      fake.when(() => true, { json: { answer: 'slow' }, latencyMs: 400 });
      const call = (key: string, signal?: AbortSignal) =>
        llm.complete({
          organizationId: organization.id,
          model: 'default',
          messages: [{ role: 'user', content: 'x' }],
          chargeKey: key,
          signal,
        });
      const busy = Array.from({ length: limit }, (_, i) => call(`busy:${i}`));
      const ac = new AbortController();
      const waiting = failure(call('waiting', ac.signal));
      await new Promise((r) => setTimeout(r, 150));
      // Waiting for a slot, already charged.
      expect((await ctx.em().findOneOrFail(Organization, { id: organization.id })).aiCreditsUsed).toBe(limit + 1);
      ac.abort();
      expect((await waiting).kind).toBe('cancelled');
      await Promise.all(busy);
      expect((await ctx.em().findOneOrFail(Organization, { id: organization.id })).aiCreditsUsed).toBe(limit);
      const keys = await ctx
        .em()
        .execute<{ charge_key: string }[]>(`select charge_key from llm_charge where organization_id = ?`, [organization.id]);
      expect(keys.map((k) => k.charge_key)).not.toContain('waiting');
    });

    it('expired credits are refused with their date', async () => {
      const { organization } = await createOrg(ctx, { name: 'Expired Co' });
      await ctx
        .em()
        .nativeUpdate(Organization, { id: organization.id }, { aiCreditsTotal: 10, aiCreditsExpiresAt: new Date('2020-01-02T00:00:00Z') });
      const err = await failure(
        llm.complete({ organizationId: organization.id, model: 'default', messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(err.kind).toBe('credits_exhausted');
      expect(err.message).toContain('expired on 2020-01-02');
    });
  });

  describe('provider per organization', () => {
    it("the organization's own key (encrypted integration) is used instead of the system key, and spends no credits", async () => {
      const { organization, admin } = await createOrg(ctx, { name: 'Own Key Co' });
      const em = ctx.em();
      em.create(Integration, {
        organization: organization.id,
        provider: 'openai',
        type: 'llm',
        name: 'Our key',
        createdBy: admin.id,
        secret: encryptSecret('sk-org', ctx.config.SECRETS_KEY, organization.id),
        data: { baseUrl: fake.url, models: ['org-model'] },
      });
      await em.flush();
      await em.nativeUpdate(
        Organization,
        { id: organization.id },
        { settings: { llmSettings: { useSystemLlmSetting: false } }, aiCreditsTotal: 0 },
      );
      fake.reply({ content: 'from org key' });
      const res = await llm.complete({ organizationId: organization.id, model: 'default', messages: [{ role: 'user', content: 'x' }] });
      expect(res.content).toBe('from org key');
      expect(fake.chatRequests[0].authorization).toBe('Bearer sk-org');
      expect(fake.chatRequests[0].body.model).toBe('org-model');
      // Back to the system setting: the system key, and credits apply (0 left).
      await ctx.em().nativeUpdate(Organization, { id: organization.id }, { settings: { llmSettings: { useSystemLlmSetting: true } } });
      const err = await failure(
        llm.complete({ organizationId: organization.id, model: 'default', messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(err.kind).toBe('credits_exhausted');
    });

    it('not configured: no system key and no organization key fails fast, saying where to configure one', async () => {
      const bare = getLlm({ em: ctx.em(), config: loadConfig({ NODE_ENV: 'test', DATABASE_URL: ctx.dbUrl }) });
      const err = await failure(bare.complete({ organizationId: orgId, model: 'default', messages: [{ role: 'user', content: 'x' }] }));
      expect(err.kind).toBe('not_configured');
      expect(err.message).toBe(NOT_CONFIGURED_MESSAGE);
      expect(fake.chatRequests).toHaveLength(0);
    });

    it('a wrong key is refused by the provider with a message about the key, not retried', async () => {
      const wrong = getLlm({
        em: ctx.em(),
        config: loadConfig({ NODE_ENV: 'test', OPENAI_API_KEY: 'sk-wrong', OPENAI_BASE_URL: fake.url }),
      });
      const err = await failure(wrong.complete({ organizationId: orgId, model: 'default', messages: [{ role: 'user', content: 'x' }] }));
      expect(err.kind).toBe('provider');
      expect(err.message).toBe('The AI provider refused the API key. Check the key in the AI provider settings.');
      expect(fake.requests).toHaveLength(1);
    });
  });
});
