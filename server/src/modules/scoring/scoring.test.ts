import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { scoreValues, type ScoreRuleSet, type ScoreFieldType, type ScoreOperator, SCORE_OPERATORS_BY_TYPE } from '@dealscout/shared/domain';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { startTestWorker, eventually, type TestWorker } from '../../../test/execution-harness';
import { insertIdeas, lockList, createSource } from '../lists/lists.service';
import { createScoreHandler } from './handler';
import { readIdeaBatch, scoreIdeas, writeScores, SCORE_LIST_LOCK } from './scoring.service';
import { compileScoreBatch, scoreBatchInDatabase, writeRunFields } from './sql-score';
import { expandDetails, type RunField } from '../lists/score-breakdown';

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

const revenue = (over: Partial<ScoreRuleSet> = {}): ScoreRuleSet => ({
  id: 'rs-revenue',
  label: 'Revenue',
  weight: 100,
  defaultScore: 2,
  fieldData: { id: 'revenue', sourceType: 'mandatory', fieldType: 'double', fieldPath: 'data.revenue' },
  rules: [
    { id: 'r-big', operator: 'greater_than', value: { primary: '500' }, score: 10 },
    { id: 'r-mid', operator: 'between', value: { primary: '100', secondary: '500' }, score: 6 },
  ],
  ...over,
});

describe('scoring models and runs (spec 002 §5, §7 Scoring)', () => {
  let ctx: TestContext;
  let orgA: string;
  let adminA: string;
  let a: TestClient;
  let b: TestClient;
  let worker: TestWorker;
  let enrichmentId: string;
  /** A rule set over the enrichment's `industry` (read by path from each idea's result). */
  const industrySet = (): ScoreRuleSet => ({
    id: 'rs-ind',
    label: 'Industry',
    weight: 60,
    defaultScore: 3,
    fieldData: { id: 'ind', sourceType: 'enrichment', fieldType: 'string', fieldPath: '$.result.industry', enrichmentId },
    rules: [{ id: 'r-soft', operator: 'contain', value: { primary: 'software' }, score: 8 }],
  });

  beforeAll(async () => {
    ctx = await createTestApp({ boss: true });
    const oa = await createOrg(ctx, { name: 'Alpha' });
    const ob = await createOrg(ctx, { name: 'Beta' });
    orgA = oa.organization.id;
    adminA = oa.admin.id;
    a = await signedIn(ctx, oa.admin.email, '10.42.0.1');
    b = await signedIn(ctx, ob.admin.email, '10.42.0.2');
    enrichmentId = randomUUID();
    await ctx.em().execute(
      `insert into enrichment (id, organization_id, config_id, enrichment_type, provider, entity_type, name, data, created_at, updated_at)
       values (?, ?, 'industry', 'ai', 'openai', 'idea', 'Industry', '{}'::jsonb, now(), now())`,
      [enrichmentId, orgA],
    );
    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createScoreHandler({ batch: 7 })]);
  });
  afterAll(async () => {
    await worker?.stop();
    await ctx.close();
  });

  const newList = async (c: TestClient, name = `List ${randomUUID().slice(0, 6)}`) => {
    const res = await c.post('/api/v1/list-company', { name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().list as { id: string; name: string };
  };
  /** Ideas inserted the way an import does; `data` per idea. */
  const seedIdeas = async (listId: string, data: Record<string, unknown>[]) => {
    const em = ctx.em();
    await em.transactional(async (tem) => {
      await lockList(tem, orgA, listId);
      const sourceId = await createSource(
        tem,
        { organizationId: orgA, userId: adminA },
        listId,
        'csv',
        { fileName: 'seed.csv' },
        'completed',
      );
      await insertIdeas(
        tem,
        orgA,
        listId,
        sourceId,
        data.map((d, i) => ({
          name: `co ${i}`,
          website: `https://co${i}-${listId.slice(0, 6)}.example.com`,
          domain: `co${i}-${listId.slice(0, 6)}.example.com`,
          data: d,
        })),
      );
    });
    const rows = await ctx
      .em()
      .execute<{ id: string; name: string; website: string; domain: string; data: Record<string, unknown> }[]>(
        `select id, name, website, domain, data from idea where organization_id = ? and list_id = ? order by id`,
        [orgA, listId],
      );
    return rows;
  };
  /** Each idea of the list with its results, as the ideas table's DTO shows them. */
  /**
   * A writer holds the list's score lock and has done `write` without committing: `deletion` on another
   * connection waits for it (on the advisory lock) and runs once the writer commits.
   */
  const deleteWaitsForWriter = async (listId: string, write: (writer: pg.Client) => Promise<unknown>, deletion: [string, unknown[]]) => {
    const writer = new pg.Client({ connectionString: ctx.dbUrl });
    const deleter = new pg.Client({ connectionString: ctx.dbUrl });
    await writer.connect();
    await deleter.connect();
    try {
      await writer.query('begin');
      await writer.query(SCORE_LIST_LOCK.replace('?', '$1'), [listId]);
      await write(writer);
      const deleterPid = (await deleter.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const deleting = deleter.query(...deletion);
      await eventually(async () => {
        const { rows } = await writer.query<{ w: string | null }>(`select wait_event as w from pg_stat_activity where pid = $1`, [
          deleterPid,
        ]);
        return rows[0]?.w === 'advisory' ? true : undefined;
      }, 'the delete waits for the writer');
      await writer.query('commit');
      await deleting;
    } finally {
      await writer.end();
      await deleter.end();
    }
  };

  const results = async (listId: string) => {
    const rows = await ctx
      .em()
      .execute<{ id: string }[]>(`select id from idea where organization_id = ? and list_id = ? order by id`, [orgA, listId]);
    // The stored breakdown joined with its run's fields (breakdown.ts), as the ideas' DTO and the export read it.
    const scores = await ctx.em().execute<
      {
        idea_id: string;
        model_id: string;
        total_score: number;
        details: unknown[];
        fields: RunField[] | null;
        execution_id: string;
        status: string;
      }[]
    >(
      `select s.idea_id, s.model_id, s.total_score, s.details, sr.fields, s.execution_id, s.status from idea_score s
         left join score_run sr on sr.organization_id = s.organization_id and sr.id = s.execution_id
        where s.organization_id = ? and s.idea_id in (select id from idea where organization_id = ? and list_id = ?)`,
      [orgA, orgA, listId],
    );
    return rows.map((r) => ({
      id: r.id,
      scoring_results: scores
        .filter((s) => s.idea_id === r.id)
        .map((s) => ({
          scoringModelId: s.model_id,
          totalScore: s.total_score,
          details: expandDetails(s.details, s.fields),
          executionId: s.execution_id,
          status: s.status,
        })),
    }));
  };
  it('creates, lists, reads, updates and deletes (204) models, with the editor messages; another organization gets 404', async () => {
    const list = await newList(a, 'Nordic SaaS');
    const created = await a.post('/api/v1/scoring-model', { name: 'Early Saas', listCompanyId: list.id, ruleSets: [revenue()] });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      success: true,
      message: 'Score created successfully.',
      scoringModel: { name: 'Early Saas', listCompanyId: list.id, description: '' },
    });
    const id = created.json().scoringModel.id as string;
    expect((await a.get(`/api/v1/scoring-model/?listCompanyId=${list.id}`)).json().scoringModels.map((m: { id: string }) => m.id)).toEqual([
      id,
    ]);
    // The documented path (no trailing slash) answers the same as the specification's spelling.
    expect((await a.get(`/api/v1/scoring-model?listCompanyId=${list.id}`)).json().scoringModels.map((m: { id: string }) => m.id)).toEqual([
      id,
    ]);
    expect((await a.get(`/api/v1/scoring-model/${id}`)).json().scoringModel.ruleSets).toEqual([revenue()]);
    const updated = await a.put(`/api/v1/scoring-model/${id}`, { name: 'Later Saas', ruleSets: [revenue({ weight: 60 })] });
    expect(updated.json()).toMatchObject({ success: true, message: 'Score updated successfully.', scoringModel: { name: 'Later Saas' } });

    // Every message of 002 §5, as the editor words it.
    const bad = async (body: Record<string, unknown>) =>
      (await a.post('/api/v1/scoring-model', { listCompanyId: list.id, name: 'm', ruleSets: [revenue()], ...body })).json();
    expect(await bad({ name: ' ' })).toMatchObject({ success: false, message: 'Invalid score name.' });
    expect(await bad({ ruleSets: [] })).toMatchObject({ message: 'Please add at least one rule.' });
    expect(await bad({ ruleSets: [revenue(), revenue({ id: 'x' })] })).toMatchObject({
      message: 'The following fields are duplicated: Revenue',
    });
    expect(
      await bad({ ruleSets: [revenue({ rules: [{ id: 'r', operator: 'between', value: { primary: '1' }, score: 5 }] })] }),
    ).toMatchObject({ message: 'Please fill all the values.' });
    expect(await bad({ ruleSets: [revenue({ rules: [{ id: 'r', operator: 'is', value: { primary: '1' }, score: 5 }] })] })).toMatchObject({
      message: 'No supported operator found for this field type.',
    });
    expect(
      await bad({
        ruleSets: [
          revenue({
            rules: [
              { id: 'r', operator: 'equals', value: { primary: '1' }, score: 5 },
              { id: 's', operator: 'equals', value: { primary: '1' }, score: 6 },
            ],
          }),
        ],
      }),
    ).toMatchObject({ message: 'The value must not be same: Revenue' });
    expect(await bad({ name: 'nul\u0000' })).toMatchObject({ success: false });
    expect((await a.post('/api/v1/scoring-model', { name: 'm', listCompanyId: randomUUID(), ruleSets: [revenue()] })).statusCode).toBe(404);

    // Another organization: its session with our ids is 404 and changes nothing.
    expect((await b.get(`/api/v1/scoring-model/${id}`)).statusCode).toBe(404);
    expect((await b.get(`/api/v1/scoring-model/?listCompanyId=${list.id}`)).statusCode).toBe(404);
    expect((await b.get(`/api/v1/scoring-model?listCompanyId=${list.id}`)).statusCode).toBe(404);
    expect((await b.put(`/api/v1/scoring-model/${id}`, { name: 'Mine', ruleSets: [revenue()] })).statusCode).toBe(404);
    expect((await b.del(`/api/v1/scoring-model/${id}`)).statusCode).toBe(404);
    expect((await b.post('/api/v1/scoring-model/execute', { scoringModelId: id, options: { runAll: true } })).statusCode).toBe(404);
    expect((await b.post('/api/v1/scoring-model', { name: 'm', listCompanyId: list.id, ruleSets: [revenue()] })).statusCode).toBe(404);
    expect((await a.get(`/api/v1/scoring-model/${id}`)).json().scoringModel.name).toBe('Later Saas');

    // No ideas: the spec's run-scope messages.
    expect((await a.post('/api/v1/scoring-model/execute', { scoringModelId: id, entityIds: [randomUUID()] })).json()).toMatchObject({
      success: false,
      message: 'No ideas to run score on.',
    });
    expect((await a.post('/api/v1/scoring-model/execute', { scoringModelId: id, options: { runAll: true } })).json()).toMatchObject({
      success: false,
      message: 'No ideas to run score.',
    });

    const del = await a.del(`/api/v1/scoring-model/${id}`);
    expect(del.statusCode).toBe(204);
    expect((await a.get(`/api/v1/scoring-model/${id}`)).statusCode).toBe(404);
  });

  it('runs for the first ideas and for all, writes a breakdown per idea equal to the reference scorer, replaces its own earlier results', async () => {
    const list = await newList(a);
    const data = Array.from({ length: 30 }, (_, i) => ({
      revenue: i % 5 === 0 ? null : i * 40,
      tags: i % 3 === 0 ? ['SaaS', 'Nordic'] : ['Retail'],
    }));
    const ideas = await seedIdeas(list.id, data);
    const tags: ScoreRuleSet = {
      id: 'rs-tags',
      label: 'Tags',
      weight: 40,
      defaultScore: 1,
      fieldData: { id: 'tags', sourceType: 'mandatory', fieldType: 'array', fieldPath: 'data.tags' },
      rules: [{ id: 'r-saas', operator: 'is', value: { primary: 'saas' }, score: 9 }],
    };
    const industry = industrySet();
    // Enrichment results for the first half of the ideas.
    for (const [i, idea] of ideas.slice(0, 15).entries()) {
      await ctx.em().execute(
        `insert into enrichment_result (id, organization_id, enrichment_id, entity_type, entity_id, status, value, updated_at) values
            (gen_random_uuid(), ?, ?, 'idea', ?, 'complete', ?::jsonb, now())`,
        [orgA, enrichmentId, idea.id, JSON.stringify({ result: { industry: i % 2 ? 'Software (B2B)' : 'Logistics' } })],
      );
    }
    const model = (
      await a.post('/api/v1/scoring-model', { name: 'Fit', listCompanyId: list.id, ruleSets: [revenue(), tags, industry] })
    ).json().scoringModel;

    const first = ideas.slice(0, 10).map((i) => i.id);
    const started = await a.post('/api/v1/scoring-model/execute', { scoringModelId: model.id, entityType: 'idea', entityIds: first });
    expect(started.json()).toMatchObject({ success: true, message: 'Score execution started.', total: 10 });
    const exec = started.json().executionId as string;
    const done = await eventually(async () => {
      const r = (await a.get(`/api/v1/execution/${exec}`)).json();
      return r.execution?.status === 'completed' ? r.execution : undefined;
    }, 'score run completed');
    expect(done).toMatchObject({ type: 'score', typeId: model.id, progress: { processed: 10, total: 10 } });
    let rows = await results(list.id);
    expect(
      rows
        .filter((r) => r.scoring_results.length > 0)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...first].sort());

    // Every result is what the reference scorer says for the same values.
    const expected = (idea: (typeof ideas)[number], i: number) => {
      const enriched = i < 15 ? (i % 2 ? 'Software (B2B)' : 'Logistics') : undefined;
      return scoreValues([revenue(), tags, industry], (f) => (f.sourceType === 'enrichment' ? enriched : idea.data[f.fieldPath.slice(5)]));
    };
    for (const row of rows.filter((r) => first.includes(r.id))) {
      const i = ideas.findIndex((x) => x.id === row.id);
      expect(row.scoring_results).toHaveLength(1);
      expect(row.scoring_results[0]).toMatchObject({
        scoringModelId: model.id,
        status: 'completed',
        executionId: exec,
        totalScore: expected(ideas[i]!, i).totalScore,
        details: expected(ideas[i]!, i).fields,
      });
    }

    // Run on all (7 per batch in this test): every idea, each with one entry for the model.
    const all = await a.post('/api/v1/scoring-model/execute', { scoringModelId: model.id, options: { runAll: true } });
    expect(all.json().total).toBe(30);
    await eventually(
      async () =>
        (await a.get(`/api/v1/execution/${all.json().executionId}`)).json().execution?.status === 'completed' ? true : undefined,
      'run on all',
    );
    rows = await results(list.id);
    expect(rows.every((r) => r.scoring_results.length === 1 && r.scoring_results[0]!.executionId === all.json().executionId)).toBe(true);
    for (const row of rows) {
      const i = ideas.findIndex((x) => x.id === row.id);
      expect(row.scoring_results[0]!.totalScore).toBe(expected(ideas[i]!, i).totalScore);
    }
    // The ideas table's DTO carries the result.
    const pageHttp = await a.post('/api/v1/list-company/idea/list', { listCompanyId: list.id, pageSize: 1 });
    expect(pageHttp.statusCode, pageHttp.body).toBe(200);
    const pageRes = pageHttp.json();
    expect(pageRes.listCompanyIdeas[0].scoringResults[0]).toMatchObject({ scoringModelId: model.id, totalScore: expect.any(Number) });

    // Sorted by the model's total (the score column's header), both ways; a bad or foreign key.
    const byScore = async (sortOrder: 'asc' | 'desc') =>
      (
        (
          await a.post('/api/v1/list-company/idea/list', { listCompanyId: list.id, pageSize: 100, sortKey: `score:${model.id}`, sortOrder })
        ).json().listCompanyIdeas as { id: string; scoringResults: { totalScore: number }[] }[]
      ).map((r) => r.scoringResults[0]!.totalScore);
    const totals = rows.map((r) => r.scoring_results[0]!.totalScore);
    expect(await byScore('desc')).toEqual([...totals].sort((x, y) => y - x));
    expect(await byScore('asc')).toEqual([...totals].sort((x, y) => x - y));
    expect(
      (await a.post('/api/v1/list-company/idea/list', { listCompanyId: list.id, sortKey: "score:x' or 1=1 --", sortOrder: 'asc' }))
        .statusCode,
    ).toBe(400);
    const foreign = await b.post('/api/v1/list-company/idea/list', {
      listCompanyId: list.id,
      sortKey: `score:${model.id}`,
      sortOrder: 'asc',
    });
    expect(foreign.statusCode).toBe(404);

    // The export carries each model's total and its breakdown in words.
    const csv = (await a.post('/api/v1/list-company/idea/export', { listCompanyId: list.id })).body;
    const [head, ...lines] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(head!.endsWith('Fit score,Fit breakdown')).toBe(true);
    const big = ideas.findIndex((x) => x.data.revenue === 640);
    const line = lines.find((l) => l.startsWith(`${ideas[big]!.name},`))!;
    expect(line).toContain(`${expected(ideas[big]!, big).totalScore.toFixed(2)},`);
    expect(line).toContain('Revenue = 640: Greater than 500: score 10 × weight 100');

    // Deleting the model removes its results.
    expect((await a.del(`/api/v1/scoring-model/${model.id}`)).statusCode).toBe(204);
    expect((await results(list.id)).every((r) => r.scoring_results.length === 0)).toBe(true);
  });

  it("reads each idea's enrichment value through the results index, never every result of the organization in each batch", async () => {
    const list = await newList(a);
    await seedIdeas(list.id, [{ revenue: 1 }, { revenue: 700 }]);
    const industry = industrySet();
    const scope = { listId: list.id, ideaIds: null, filters: null };
    const { sql, params } = compileScoreBatch(orgA, randomUUID(), randomUUID(), scope, [revenue(), industry], null, 1000);
    const client = new pg.Client({ connectionString: ctx.dbUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (format json) ${sql}`, params);
      // The node above each read of enrichment_result: a Limit, i.e. the lookup of one idea inside the
      // nested loop over the batch; flattened into a join, PostgreSQL may hash the whole table for every batch.
      const above: string[] = [];
      const walk = (n: PlanNode, parent: PlanNode | null) => {
        if (n['Relation Name'] === 'enrichment_result') above.push(parent?.['Node Type'] ?? 'none');
        for (const c of n.Plans ?? []) walk(c, n);
      };
      walk(rows[0]!['QUERY PLAN'][0].Plan, null);
      expect(above).toEqual(['Limit']);
    } finally {
      await client.end();
    }
  });

  it('writes each result into one index and checks no key: idea_score has no index on its id and no key to idea or model', async () => {
    const rows = await ctx.em().execute<{ def: string }[]>(
      `select pg_get_indexdef(indexrelid) as def from pg_index where indrelid = 'idea_score'::regclass
       union all select pg_get_constraintdef(oid) from pg_constraint where conrelid = 'idea_score'::regclass and contype = 'f'
       union all select tgrelid::regclass || ' ' || tgname from pg_trigger where not tgisinternal and tgname like 'idea_score%'
       order by 1`,
    );
    expect(rows.map((r) => r.def)).toEqual([
      'CREATE UNIQUE INDEX idea_score_pkey ON public.idea_score USING btree (organization_id, idea_id, model_id)',
      'idea idea_score_cascade',
      'scoring_model idea_score_cascade',
    ]);
  });

  it("writes results only for a model of the run's organization and list, and a model's delete takes its results once the writers commit", async () => {
    const list = await newList(a);
    const other = await newList(a);
    const ideas = await seedIdeas(
      list.id,
      [1, 700, 900].map((revenue) => ({ revenue })),
    );
    const newModel = async (c: TestClient, listId: string, name: string) => {
      const res = await c.post('/api/v1/scoring-model', { name, listCompanyId: listId, ruleSets: [revenue()] });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().scoringModel.id as string;
    };
    const [m1, m2, m3] = [await newModel(a, list.id, 'One'), await newModel(a, list.id, 'Two'), await newModel(a, list.id, 'Three')];
    // Another organization's model, a model of another list, a model that does not exist: nothing written, no error.
    const foreign = await newModel(b, (await newList(b)).id, 'Theirs');
    const elsewhere = await newModel(a, other.id, 'Elsewhere');
    const scope = { listId: list.id, ideaIds: null, filters: null };
    const byModel = async () =>
      (
        await ctx
          .em()
          .execute<{ model_id: string; n: string }[]>(
            `select model_id, count(*) as n from idea_score where organization_id = ? group by model_id`,
            [orgA],
          )
      )
        .map((r) => `${r.model_id}:${r.n}`)
        .sort();
    for (const m of [foreign, elsewhere, randomUUID()]) {
      expect(await scoreBatchInDatabase(ctx.em(), orgA, m, randomUUID(), scope, [revenue()], null, null)).toMatchObject({ n: 3 });
      await writeScores(ctx.em(), orgA, list.id, m, randomUUID(), [{ id: ideas[0]!.id, totalScore: 1, fields: [] }]);
    }
    const foreignScores = await ctx.em().execute<{ n: string }[]>(`select count(*) as n from idea_score where model_id = ?`, [foreign]);
    expect(foreignScores[0]!.n).toBe('0');
    expect(await byModel()).toEqual([]);

    for (const m of [m1, m2, m3]) await scoreBatchInDatabase(ctx.em(), orgA, m, randomUUID(), scope, [revenue()], null, null);
    expect(await byModel()).toEqual([`${m1}:3`, `${m2}:3`, `${m3}:3`].sort());

    // Through the route: the model goes, and its results with it.
    expect((await a.del(`/api/v1/scoring-model/${m1}`)).statusCode).toBe(204);
    expect(await byModel()).toEqual([`${m2}:3`, `${m3}:3`].sort());

    // A writer holds the list's score lock and has written a result it has not committed yet: the
    // delete of its model waits for it, then deletes the committed result with the others.
    await deleteWaitsForWriter(
      list.id,
      async (writer) => {
        await writer.query(`delete from idea_score where organization_id = $1 and model_id = $2`, [orgA, m2]);
        const { sql, params } = compileScoreBatch(orgA, m2, randomUUID(), scope, [revenue()], null, null);
        expect((await writer.query<{ written: number }>(sql, params)).rows[0]!.written).toBe(3);
      },
      [`delete from scoring_model where organization_id = $1 and id = $2`, [orgA, m2]],
    );
    // A writer that starts after the delete finds no model and writes nothing.
    expect(await scoreBatchInDatabase(ctx.em(), orgA, m2, randomUUID(), scope, [revenue()], null, null)).toMatchObject({ n: 3 });
    expect(await byModel()).toEqual([`${m3}:3`]);

    // Deleting the list deletes its models, and their results with them.
    expect((await a.del(`/api/v1/list-company/${list.id}`)).statusCode).toBe(200);
    expect(await byModel()).toEqual([]);
  });

  it('deleting ideas or their list deletes their results, once the writers in flight on the list have committed', async () => {
    const list = await newList(a);
    const ideas = await seedIdeas(
      list.id,
      [1, 700, 900, 50, 300, 20].map((revenue) => ({ revenue })),
    );
    const newModel = async (name: string) =>
      (await a.post('/api/v1/scoring-model', { name, listCompanyId: list.id, ruleSets: [revenue()] })).json().scoringModel.id as string;
    const [m1, m2] = [await newModel('One'), await newModel('Two')];
    const scope = { listId: list.id, ideaIds: null, filters: null };
    await scoreBatchInDatabase(ctx.em(), orgA, m1, randomUUID(), scope, [revenue()], null, null);
    const scored = async () =>
      (
        await ctx
          .em()
          .execute<{ idea_id: string }[]>(
            `select idea_id from idea_score where organization_id = ? and model_id in (?, ?) order by idea_id`,
            [orgA, m1, m2],
          )
      ).map((r) => r.idea_id);
    expect(await scored()).toEqual(ideas.map((i) => i.id));

    // Through the route: the idea goes, and its result with it.
    const del = await a.post('/api/v1/list-company/idea/delete', { listCompanyId: list.id, listCompanyIdeaIds: [ideas[0]!.id] });
    expect(del.statusCode, del.body).toBe(200);
    expect(await scored()).toEqual(ideas.slice(1).map((i) => i.id));

    // A writer holds the list's score lock and has written a result it has not committed yet: the
    // delete of that idea waits for it, then deletes the committed result.
    await deleteWaitsForWriter(
      list.id,
      (writer) =>
        writer.query(
          `insert into idea_score (organization_id, model_id, idea_id, status, total_score, details, updated_at)
           values ($1, $2, $3, 'completed', 5, '[]', now())`,
          [orgA, m2, ideas[1]!.id],
        ),
      [`delete from idea where organization_id = $1 and id = $2`, [orgA, ideas[1]!.id]],
    );
    expect(await scored()).toEqual(ideas.slice(2).map((i) => i.id));

    // The trigger finds the results by index whatever its first call on a connection deleted (its plan is kept).
    const one = new pg.Client({ connectionString: ctx.dbUrl });
    await one.connect();
    try {
      await one.query('begin');
      // Three ideas first (the plan is made for them), then one.
      await one.query(`delete from idea where organization_id = $1 and id = any($2::uuid[])`, [orgA, ideas.slice(2, 5).map((i) => i.id)]);
      await one.query(`delete from idea where organization_id = $1 and id = $2`, [orgA, ideas[5]!.id]);
      const { rows } = await one.query<{ seq: string; idx: string }>(
        `select seq_scan as seq, idx_scan as idx from pg_stat_xact_user_tables where relname = 'idea_score'`,
      );
      expect(rows[0]).toMatchObject({ seq: '0' });
      expect(Number(rows[0]!.idx)).toBeGreaterThanOrEqual(2);
      await one.query('rollback');
    } finally {
      await one.end();
    }

    // Deleting the list deletes its ideas, and their results with them.
    expect((await a.del(`/api/v1/list-company/${list.id}`)).statusCode).toBe(200);
    expect(await scored()).toEqual([]);
  });

  it('reads a list in one pass: its value shown and its elements, an empty or invalid list, in a list field and a text field', async () => {
    const list = await newList(a);
    const tags = [[], ['SaaS'], [' SaaS ', 3, true], ['Retail', 'x'], [{ b: 2 }], [null], ['SaaS', [1]], 'SaaS', { a: 1 }, null, 7];
    const ideas = await seedIdeas(
      list.id,
      tags.map((t, i) => ({ tags: t, n: i })),
    );
    // A rule id JSON must escape (it comes written into the breakdown).
    const ruleSets: ScoreRuleSet[] = [
      {
        id: 'list',
        label: 'Tags',
        weight: 40,
        defaultScore: 1,
        fieldData: { id: 'list', sourceType: 'mandatory', fieldType: 'array', fieldPath: 'data.tags' },
        rules: [
          { id: 'is "saas"\u00e9\n', operator: 'is', value: { primary: 'saas' }, score: 7 },
          { id: 'not', operator: 'is_not', value: { primary: 'retail' }, score: 3 },
        ],
      },
      {
        id: 'text',
        label: 'Tags as text',
        weight: 20,
        defaultScore: 2,
        fieldData: { id: 'text', sourceType: 'mandatory', fieldType: 'string', fieldPath: 'data.tags' },
        rules: [{ id: 'c', operator: 'contain', value: { primary: 'saas' }, score: 5 }],
      },
    ];
    const created = await a.post('/api/v1/scoring-model', { name: 'Lists', listCompanyId: list.id, ruleSets });
    expect(created.statusCode, created.body).toBe(201);
    const model = created.json().scoringModel.id as string;
    const runId = randomUUID();
    await ctx
      .em()
      .execute(`insert into score_run (id, organization_id, model_id, list_id, created_at) values (?, ?, ?, ?, now())`, [
        runId,
        orgA,
        model,
        list.id,
      ]);
    await writeRunFields(ctx.em(), orgA, runId, ruleSets);
    await scoreBatchInDatabase(ctx.em(), orgA, model, runId, { listId: list.id, ideaIds: null, filters: null }, ruleSets, null, null);
    const rows = await results(list.id);
    expect(rows).toHaveLength(tags.length);
    for (const row of rows) {
      const t = tags[Number(ideas.find((x) => x.id === row.id)!.data.n)];
      const want = scoreValues(ruleSets, () => t);
      expect(row.scoring_results[0], JSON.stringify(t)).toMatchObject({ totalScore: want.totalScore, details: want.fields });
    }
    const shown = rows.flatMap((r) => r.scoring_results[0]!.details.map((d) => (d as { value: unknown }).value));
    expect(shown).toEqual(expect.arrayContaining([' SaaS , 3, true', 'Retail, x', '[…]', '{…}']));
  });

  it('property: the batched scorer over the database gives exactly the reference evaluation, for any model and values', async () => {
    const list = await newList(a);
    const keys = ['k0', 'k1', 'k2', 'k3', 'k4'];
    // Doubles JavaScript writes without an exponent (|x| ≥ 1e-6): PostgreSQL shows numbers in plain notation (ARCHITECTURE 'Scoring').
    const plainDouble = fc
      .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
      .filter((x) => x === 0 || Math.abs(x) >= 1e-6);
    const text = fc.string({
      unit: fc.constantFrom('a', 'S', 's', 'A', 'c', ' ', '\u00a0', '\t', '1', '0', ',', '.', '-', 'e', 'é'),
      maxLength: 8,
    });
    const value = fc.oneof(
      fc.constant(null),
      fc.integer({ min: -1000, max: 1000 }),
      plainDouble,
      fc.boolean(),
      fc.constantFrom(
        '',
        ' ',
        '\u00a0\t',
        'SaaS',
        'saas ',
        'Acme Software',
        '42',
        ' 42\t',
        '1,000',
        '1e3',
        '.5',
        '1.',
        '+3',
        '-0',
        '1e400',
        'yes',
        'no',
        'TRUE',
        ' No ',
        '1',
        '0',
      ),
      text,
      fc.constant({ a: 1, b: 'x' }),
      fc.constant([{ b: 2 }]),
      fc.constant([null]),
      fc.array(fc.oneof(fc.constantFrom('SaaS', 'Retail', 'x', ' saas'), fc.integer({ min: -5, max: 5 }), fc.boolean()), { maxLength: 3 }),
    );
    const ideasArb = fc.array(fc.record(Object.fromEntries(keys.map((k) => [k, value])) as Record<string, fc.Arbitrary<unknown>>), {
      minLength: 1,
      maxLength: 12,
    });
    const ruleArb = (type: ScoreFieldType) =>
      fc.record({
        operator: fc.constantFrom(...(SCORE_OPERATORS_BY_TYPE[type] as ScoreOperator[])),
        primary: fc.constantFrom(
          '0',
          '42',
          '100',
          '-5',
          '1,000',
          '0.5',
          'saas',
          ' SaaS ',
          'true',
          'yes',
          'No',
          'Acme',
          'software',
          'a',
          'é',
        ),
        secondary: fc.constantFrom('10', '500', '-100'),
        score: fc.integer({ min: 0, max: 10 }),
      });
    const fieldArb = fc.constantFrom<ScoreFieldType>('int', 'double', 'boolean', 'array', 'string', 'url', 'other').chain((type) =>
      fc.record({
        type: fc.constant(type),
        key: fc.constantFrom(...keys),
        weight: fc.constantFrom(20, 40, 60, 80, 100),
        defaultScore: fc.integer({ min: 0, max: 10 }),
        rules: fc.uniqueArray(ruleArb(type), { minLength: 1, maxLength: 3, selector: (r) => r.operator }),
      }),
    );
    const modelArb = fc.uniqueArray(fieldArb, { minLength: 1, maxLength: 5, selector: (f) => f.key });
    let run = 0;
    const propertyModel = (
      await a.post('/api/v1/scoring-model', { name: 'Property', listCompanyId: list.id, ruleSets: [revenue()] })
    ).json().scoringModel.id as string;
    const sqlModel = (await a.post('/api/v1/scoring-model', { name: 'Property SQL', listCompanyId: list.id, ruleSets: [revenue()] })).json()
      .scoringModel.id as string;
    await fc.assert(
      fc.asyncProperty(ideasArb, modelArb, async (values, fields) => {
        run += 1;
        const ruleSets: ScoreRuleSet[] = fields.map((f, i) => ({
          id: `rs${i}`,
          label: `F${i}`,
          weight: f.weight,
          defaultScore: f.defaultScore,
          fieldData: { id: `f${i}`, sourceType: 'mandatory', fieldType: f.type, fieldPath: `data.${f.key}` },
          rules: f.rules.map((r, j) => ({
            id: `r${j}`,
            operator: r.operator,
            value: { primary: r.primary, secondary: r.secondary },
            score: r.score,
          })),
        }));
        await ctx.em().execute(`delete from idea where organization_id = ? and list_id = ?`, [orgA, list.id]);
        const ideas = await seedIdeas(
          list.id,
          values.map((v, i) => ({ ...v, n: `${run}-${i}` })),
        );
        const em = ctx.em();
        const scope = { listId: list.id, ideaIds: null, filters: null };
        // The worker-side path (values read into Node, scored with scoreValues()) for one model…
        let after: string | null = null;
        for (;;) {
          const batch = await readIdeaBatch(em, orgA, scope, ruleSets, after, 5);
          if (batch.length === 0) break;
          await writeScores(em, orgA, list.id, propertyModel, randomUUID(), scoreIdeas(ruleSets, batch));
          after = batch[batch.length - 1]!.id;
        }
        // …and the set-based one (the model compiled into SQL, what runs use) for the other, batches of 5,
        // with its run's fields written as a run writes them.
        const runId = randomUUID();
        await em.execute(`insert into score_run (id, organization_id, model_id, list_id, created_at) values (?, ?, ?, ?, now())`, [
          runId,
          orgA,
          sqlModel,
          list.id,
        ]);
        await writeRunFields(em, orgA, runId, ruleSets);
        after = null;
        for (;;) {
          const { n, last } = await scoreBatchInDatabase(em, orgA, sqlModel, runId, scope, ruleSets, after, 5);
          if (n === 0 || !last) break;
          after = last;
        }
        const rows = await results(list.id);
        expect(rows).toHaveLength(values.length);
        for (const row of rows) {
          const idea = ideas.find((x) => x.id === row.id)!;
          const original = values[Number(String(idea.data.n).split('-')[1])]!;
          const want = scoreValues(ruleSets, (f) => original[f.fieldPath.slice(5)]);
          const byModel = new Map(row.scoring_results.map((r) => [r.scoringModelId, r]));
          expect(byModel.get(propertyModel)).toMatchObject({ totalScore: want.totalScore, details: want.fields });
          expect(byModel.get(sqlModel), JSON.stringify({ value: original, model: ruleSets })).toMatchObject({
            totalScore: want.totalScore,
            details: want.fields,
          });
        }
      }),
      { numRuns: 60 },
    );
  });
});
