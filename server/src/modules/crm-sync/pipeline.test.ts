// Two pages of a Salesforce sync written at once (PagePipeline, handler.ts): a page that commits
// before the page ahead of it does not move the high-water mark past that page, so a sync stopped
// while the earlier page is still being written resumes before it and loses nothing. The earlier
// page is held here by a lock on its company (its company–contact insert checks the foreign key,
// FOR KEY SHARE, which waits for a FOR UPDATE held by another transaction).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { FakeSalesforce } from '../../../test/fakes/salesforce-server';
import { connectSalesforce } from '../../../test/crm';
import { startTestWorker, eventually, type TestWorker } from '../../../test/execution-harness';
import { createQueues } from '../../jobs/definitions';
import { executionJobDefinitions } from '../executions/runner';
import { createCrmSyncHandler } from './handler';

describe('CRM sync pages written two at once', () => {
  let ctx: TestContext;
  let sf: FakeSalesforce;
  let worker: TestWorker;

  beforeAll(async () => {
    sf = await FakeSalesforce.start({ clientId: 'sf-client', pageSize: 2 });
    ctx = await createTestApp({ boss: true, env: {
      SALESFORCE_CLIENT_ID: 'sf-client', SALESFORCE_LOGIN_URL: sf.url, OUTBOUND_ALLOWED_PRIVATE_HOSTS: new URL(sf.url).host,
      EXECUTION_RETRY_LIMIT: '0',
    } });
    await createQueues(ctx.boss!, executionJobDefinitions([createCrmSyncHandler({ config: ctx.config })]), ctx.config);
    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createCrmSyncHandler({ config: ctx.config })], { superviseIntervalSeconds: 1 });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await ctx?.close();
    await sf?.close();
  });

  async function syncDone(c: TestClient): Promise<{ status: string; result: { contacts: Record<string, number> } | null }> {
    return eventually(async () => {
      const s = (await c.get('/api/v1/crm/sync')).json();
      return s.status === 'progress' ? undefined : s;
    }, 'the sync to finish', 60_000);
  }

  it('a page committed before the one ahead of it leaves the mark where it was until that one commits', async () => {
    const { admin: adminUser, organization } = await createOrg(ctx, { name: 'Pipeco' });
    const org = organization.id;
    const admin = await signedIn(ctx, adminUser.email);
    await connectSalesforce(admin, sf);
    const fields = new Map(((await admin.get('/api/v1/entity/fields')).json().fields as { id: string; key: string; entityType: string }[]).map((f) => [`${f.entityType}.${f.key}`, f.id]));
    const settings = (contacts: boolean) => ({ syncAccounts: true, syncContacts: contacts,
      accountMappings: [{ crmField: 'Name', fieldId: fields.get('company.name') }, { crmField: 'Website', fieldId: fields.get('company.website') }],
      contactMappings: [{ crmField: 'Email', fieldId: fields.get('contact.email') }, { crmField: 'LastName', fieldId: fields.get('contact.last_name') }] });

    // The accounts first (their companies must exist to be locked).
    const [held, free] = sf.seed('Account', 2, (i) => ({ Name: i === 0 ? 'Held Co' : 'Free Co', Website: i === 0 ? 'held.example.com' : 'free.example.com' }), 5);
    expect((await admin.put('/api/v1/crm/sync-settings', settings(false))).statusCode).toBe(200);
    expect((await admin.post('/api/v1/crm/sync', {})).statusCode).toBe(200);
    expect((await syncDone(admin)).status).toBe('completed');
    const [heldCompany] = await ctx.em().execute<{ id: string }[]>(`select id from company where organization_id = ? and domain = 'held.example.com'`, [org]);

    // Pages of two: the first has a contact at the held company, the second and third do not.
    const contacts = sf.seed('Contact', 6, (i) => ({ LastName: `Pipe ${i}`, Email: `pipe${i}@example.com`, AccountId: i === 0 ? held.Id : free.Id }), 5);
    expect((await admin.put('/api/v1/crm/sync-settings', settings(true))).statusCode).toBe(200);
    const mark = async () => (await ctx.em().execute<{ last_id: string | null }[]>(
      `select last_id from crm_sync_state where organization_id = ? and object = 'Contact'`, [org]))[0]?.last_id ?? null;
    const has = async (email: string) => (await ctx.em().execute<{ n: number }[]>(`select count(*)::int as n from contact where organization_id = ? and email = ?`, [org, email]))[0].n === 1;

    const locker = new pg.Client({ connectionString: ctx.dbUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query(`select 1 from company where id = $1 for update`, [heldCompany.id]);
      expect((await admin.post('/api/v1/crm/sync', {})).statusCode).toBe(200);
      // The second page commits while the first waits for the lock…
      await eventually(async () => ((await has('pipe3@example.com')) ? true : undefined), 'the second page committed', 30_000);
      await new Promise((r) => setTimeout(r, 300));
      expect(await has('pipe0@example.com')).toBe(false);
      // …and its mark is not written: a sync stopped now would read the first page again.
      expect(await mark()).toBeNull();
      // Two pages in flight at most: the third is not started while the first is held.
      expect(await has('pipe4@example.com')).toBe(false);
      await locker.query('commit');
    } finally {
      await locker.end();
    }
    const done = await syncDone(admin);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(done.result!.contacts).toMatchObject({ created: 6, failed: 0 });
    expect(await mark()).toBe(contacts[5].Id);
    for (let i = 0; i < 6; i += 1) expect(await has(`pipe${i}@example.com`)).toBe(true);
  }, 120_000);
});
