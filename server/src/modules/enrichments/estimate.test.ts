// POST /api/v1/enrichment/estimate: model calls per kind of
// enrichment (a ceiling for agents), AI credits remaining and whether a run exceeds them, the
// expected time at the organization's limits; another organization's enrichment is 404.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { configFor } from './configs';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';

describe('enrichment estimate', () => {
  let ctx: TestContext;
  let admin: TestClient;
  let rival: TestClient;
  let orgId: string;

  const create = async (type: 'llm' | 'agent' | 'mixrankCompanyDetails', name: string) => {
    const res = await admin.post('/api/v1/enrichment', {
      configId: configFor('company', type)!.id,
      name,
      prompt: 'Describe this company.',
      schema: [{ name: 'answer', type: 'string', description: 'The answer.', required: true }],
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Estimate Co' });
    orgId = o.organization.id;
    admin = await signedIn(ctx, o.admin.email);
    rival = await signedIn(ctx, (await createOrg(ctx, { name: 'Rival Estimate Co' })).admin.email);
  });
  afterAll(async () => ctx.close());

  it('one call per row for an LLM prompt, a ceiling for an agent; credits say when a run exceeds them', async () => {
    const llm = await create('llm', 'Estimate LLM');
    const unlimited = (await admin.post('/api/v1/enrichment/estimate', { enrichmentId: llm, count: 40 })).json();
    expect(unlimited).toMatchObject({ modelCalls: 40, upTo: false, creditsRemaining: null, exceedsCredits: false });
    expect(unlimited.expectedSeconds).toBeGreaterThan(0);
    expect(unlimited.message).toMatch(/^40 model call\(s\), about \d+ (s|min)\.$/);
    await ctx.em().execute(`update organization set ai_credits_total = 50, ai_credits_used = 20 where id = ?`, [orgId]);
    const short = (await admin.post('/api/v1/enrichment/estimate', { enrichmentId: llm, count: 40 })).json();
    expect(short).toMatchObject({
      modelCalls: 40,
      creditsRemaining: 30,
      creditsTotal: 50,
      exceedsCredits: true,
      message: 'This run needs 40 AI credits; 30 remain.',
    });
    const agent = await create('agent', 'Estimate agent');
    const a = (await admin.post('/api/v1/enrichment/estimate', { enrichmentId: agent, count: 10 })).json();
    // AGENT_MAX_STEPS (8 by default) and the answer: a ceiling; 10 rows fit in 30 credits at one call each.
    expect(a).toMatchObject({ modelCalls: 90, upTo: true, exceedsCredits: false });
    expect(a.message).toMatch(/^up to 90 model call\(s\)/);
    expect((await admin.post('/api/v1/enrichment/estimate', { enrichmentId: agent, count: 31 })).json()).toMatchObject({
      exceedsCredits: true,
      message: 'This run needs at least 31 AI credits; 30 remain.',
    });
  });

  it('a data-provider enrichment needs no model; bad input is 400, another organization 404', async () => {
    const details = await create('mixrankCompanyDetails', 'Estimate details');
    expect((await admin.post('/api/v1/enrichment/estimate', { enrichmentId: details, count: 1000 })).json()).toMatchObject({
      modelCalls: 0,
      exceedsCredits: false,
    });
    expect((await admin.post('/api/v1/enrichment/estimate', { enrichmentId: 'nope', count: 1 })).statusCode).toBe(400);
    expect((await admin.post('/api/v1/enrichment/estimate', { enrichmentId: details, count: -1 })).statusCode).toBe(400);
    expect((await rival.post('/api/v1/enrichment/estimate', { enrichmentId: details, count: 1 })).statusCode).toBe(404);
  });
});
