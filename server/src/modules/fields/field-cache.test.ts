import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { fieldCacheOf } from './field-cache';
import { loadQueryContext } from '../records/table-query';

// The field definitions' cache of an API process: a table page costs no field lookup, and a change
// made anywhere — this process, another one, by hand — is seen by the next query at once.
describe('the field definitions cache (SESSION_CACHE_MS, shared LISTEN connection)', () => {
  let ctx: TestContext;
  let c: TestClient;
  let orgId: string;

  beforeAll(async () => {
    // A time to live far longer than any wait below: only the announcements can drop an entry.
    ctx = await createTestApp({ env: { SESSION_CACHE_MS: '600000' } });
    const o = await createOrg(ctx, { name: 'Cached Fields' });
    orgId = o.organization.id;
    c = await signedIn(ctx, o.admin.email, '10.44.0.1');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const cache = () => fieldCacheOf(ctx.orm.em)!;
  const page = (filters: unknown[] = []) => c.post('/api/v1/company/get-companies', { pageSize: 10, filters });
  const handMade = [{ key: 'hand_made', operator: 'and', items: [{ id: 'c1', condition: 'equals', data: 'x' }] }];
  const until = async (check: () => boolean, ms = 3000) => {
    const t0 = Date.now();
    while (!check() && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 20));
    return check();
  };

  it('a table page keeps the organization’s fields of that type, and the next page is served from them', async () => {
    expect((await page()).statusCode).toBe(200);
    const kept = cache().get(orgId, 'company');
    expect(kept?.map((f) => f.key)).toContain('name');
    expect((await page()).statusCode).toBe(200);
    expect(cache().get(orgId, 'company')).toBe(kept);
    expect(cache().get(orgId, 'contact')).toBeNull();
  });

  it('a field written by hand (another process, a script) is dropped at its commit and the next query knows it', async () => {
    expect((await page()).statusCode).toBe(200);
    expect((await page(handMade)).statusCode).toBe(400);
    await ctx
      .em()
      .getConnection()
      .execute(
        `insert into field_definition (id, organization_id, entity_type, key, label, data_type, namespace, is_mandatory, is_pseudo,
          config, created_at, updated_at)
         values (gen_random_uuid(), ?, 'company', 'hand_made', 'Hand made', 'string', 'company', false, false,
           '{"reconciliation":"use_latest","refreshSchedule":"never"}', now(), now())`,
        [orgId],
      );
    expect(await until(() => cache().get(orgId, 'company') === null)).toBe(true);
    const res = await page(handMade);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      cache()
        .get(orgId, 'company')
        ?.map((f) => f.key),
    ).toContain('hand_made');
  });

  it('a field created through the API is known to this process’s next query without waiting', async () => {
    expect((await page()).statusCode).toBe(200);
    const created = await c.post('/api/v1/entity/field', { label: 'Fund size', dataType: 'int', entityType: 'company' });
    expect(created.statusCode, created.body).toBe(201);
    const key = (created.json() as { field: { key: string } }).field.key;
    const res = await page([{ key, operator: 'and', items: [{ id: 'c1', condition: 'greater_than', data: 5 }] }]);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('inside a transaction the fields are read from the database, the transaction’s own new field included', async () => {
    expect((await page()).statusCode).toBe(200);
    await ctx
      .em()
      .transactional(async (tem) => {
        await tem.getConnection().execute(
          `insert into field_definition (id, organization_id, entity_type, key, label, data_type, namespace, is_mandatory, is_pseudo,
            config, created_at, updated_at)
             values (gen_random_uuid(), ?, 'company', 'in_tx', 'In a transaction', 'string', 'company', false, false,
               '{"reconciliation":"use_latest","refreshSchedule":"never"}', now(), now())`,
          [orgId],
          'all',
          tem.getTransactionContext(),
        );
        const q = await loadQueryContext(tem, orgId, 'company');
        expect(q.fieldsByKey.has('in_tx')).toBe(true);
        throw new Error('roll back');
      })
      .catch((err: Error) => expect(err.message).toBe('roll back'));
    const q = await loadQueryContext(ctx.em(), orgId, 'company');
    expect(q.fieldsByKey.has('in_tx')).toBe(false);
  });
});
