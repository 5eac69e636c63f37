// Two pages of a Salesforce sync written at once (PagePipeline, handler.ts): a page that commits
// before the page ahead of it does not move the high-water mark past that page, so a sync stopped
// while the earlier page is still being written resumes before it and loses nothing. The earlier
// page is held here by a lock on its company (its company–contact insert checks the foreign key,
// FOR KEY SHARE, which waits for a FOR UPDATE held by another transaction). A page that PostgreSQL
// fails as a deadlock (two pages waiting on each other's new keys) is written again, at most three
// times; the fault comes from a trigger in the database, so the real retry path runs.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../../test/helpers';
import { FakeSalesforce } from '../../../../test/fakes/salesforce-server';
import { connectSalesforce, fieldIds } from '../../../../test/crm';
import { startTestWorker, eventually, type TestWorker } from '../../../../test/execution-harness';
import { createQueues } from '../../../jobs/definitions';
import { executionJobDefinitions } from '../../executions/runner';
import { createCrmSyncHandler } from './handler';

describe('CRM sync pages written two at once', () => {
  let ctx: TestContext;
  let sf: FakeSalesforce;
  let worker: TestWorker;

  beforeAll(async () => {
    sf = await FakeSalesforce.start({ clientId: 'sf-client', pageSize: 2 });
    ctx = await createTestApp({
      boss: true,
      env: {
        SALESFORCE_CLIENT_ID: 'sf-client',
        SALESFORCE_LOGIN_URL: sf.url,
        OUTBOUND_ALLOWED_PRIVATE_HOSTS: new URL(sf.url).host,
        EXECUTION_RETRY_LIMIT: '0',
      },
    });
    await createQueues(ctx.boss!, executionJobDefinitions([createCrmSyncHandler({ config: ctx.config })]), ctx.config);
    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createCrmSyncHandler({ config: ctx.config })], { superviseIntervalSeconds: 1 });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await ctx?.close();
    await sf?.close();
  });

  async function syncDone(c: TestClient): Promise<{ status: string; result: { contacts: Record<string, number> } | null }> {
    return eventually(
      async () => {
        const s = (await c.get('/api/v1/crm/sync')).json();
        return s.status === 'progress' ? undefined : s;
      },
      'the sync to finish',
      60_000,
    );
  }

  /** A new organization whose Admin has connected the fake Salesforce; its field ids by entityType.key. */
  async function connected(name: string): Promise<{ org: string; admin: TestClient; fields: Map<string, string> }> {
    const { admin: adminUser, organization } = await createOrg(ctx, { name });
    const admin = await signedIn(ctx, adminUser.email);
    await connectSalesforce(admin, sf);
    return { org: organization.id, admin, fields: await fieldIds(admin) };
  }

  it('a page committed before the one ahead of it leaves the mark where it was until that one commits', async () => {
    const { org, admin, fields } = await connected('Pipeco');
    const settings = (contacts: boolean) => ({
      syncAccounts: true,
      syncContacts: contacts,
      accountMappings: [
        { crmField: 'Name', fieldId: fields.get('company.name') },
        { crmField: 'Website', fieldId: fields.get('company.website') },
      ],
      contactMappings: [
        { crmField: 'Email', fieldId: fields.get('contact.email') },
        { crmField: 'LastName', fieldId: fields.get('contact.last_name') },
      ],
    });

    // The accounts first (their companies must exist to be locked).
    const [held, free] = sf.seed(
      'Account',
      2,
      (i) => ({ Name: i === 0 ? 'Held Co' : 'Free Co', Website: i === 0 ? 'held.example.com' : 'free.example.com' }),
      5,
    );
    expect((await admin.put('/api/v1/crm/sync-settings', settings(false))).statusCode).toBe(200);
    expect((await admin.post('/api/v1/crm/sync', {})).statusCode).toBe(200);
    expect((await syncDone(admin)).status).toBe('completed');
    const [heldCompany] = await ctx
      .em()
      .execute<{ id: string }[]>(`select id from company where organization_id = ? and domain = 'held.example.com'`, [org]);

    // Pages of two: the first has a contact at the held company, the second and third do not.
    const contacts = sf.seed(
      'Contact',
      6,
      (i) => ({ LastName: `Pipe ${i}`, Email: `pipe${i}@example.com`, AccountId: i === 0 ? held.Id : free.Id }),
      5,
    );
    expect((await admin.put('/api/v1/crm/sync-settings', settings(true))).statusCode).toBe(200);
    const mark = async () =>
      (
        await ctx
          .em()
          .execute<{ last_id: string | null }[]>(`select last_id from crm_sync_state where organization_id = ? and object = 'Contact'`, [
            org,
          ])
      )[0]?.last_id ?? null;
    const has = async (email: string) =>
      (
        await ctx
          .em()
          .execute<{ n: number }[]>(`select count(*)::int as n from contact where organization_id = ? and email = ?`, [org, email])
      )[0].n === 1;

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

  it(
    "a page failed by PostgreSQL's deadlock detection is written again; a page that keeps failing fails the sync, " +
      'and the next sync writes each record once',
    async () => {
      const { org, admin, fields } = await connected('Deadlockco');
      expect(
        (
          await admin.put('/api/v1/crm/sync-settings', {
            syncAccounts: true,
            syncContacts: true,
            accountMappings: [{ crmField: 'Name', fieldId: fields.get('company.name') }],
            contactMappings: [
              { crmField: 'Email', fieldId: fields.get('contact.email') },
              { crmField: 'LastName', fieldId: fields.get('contact.last_name') },
            ],
          })
        ).statusCode,
      ).toBe(200);
      const [account] = sf.seed('Account', 1, () => ({ Name: 'Deadlock Co' }), 5);
      sf.seed('Contact', 6, (i) => ({ LastName: `Lock ${i}`, Email: `deadlock${i}@example.com`, AccountId: account.Id }), 5);

      // A real failure from the database, not a stand-in for our code: a trigger on this
      // organization's contact inserts raises a deadlock (40P01) for the first `n` statements that
      // reach it (a sequence counts them: nextval is not undone by the failed transaction).
      const inject = async (n: number) => {
        await ctx.em().execute(`create sequence if not exists deadlock_attempts`);
        await ctx.em().execute(`select setval('deadlock_attempts', 1, false)`);
        await ctx.em().execute(`create or replace function deadlock_fault() returns trigger language plpgsql as $$
        begin
          if nextval('deadlock_attempts') <= ${n} then
            raise exception 'deadlock detected (injected)' using errcode = '40P01';
          end if;
          return new;
        end $$`);
        await ctx.em().execute(`drop trigger if exists deadlock_fault on contact`);
        await ctx.em().execute(`create trigger deadlock_fault before insert on contact for each row
        when (new.organization_id = '${org}'::uuid) execute function deadlock_fault()`);
      };
      const attempts = async () =>
        Number(
          (await ctx.em().execute<{ n: string }[]>(`select case when is_called then last_value else 0 end as n from deadlock_attempts`))[0]
            .n,
        );
      const contacts = async () =>
        (
          await ctx
            .em()
            .execute<{ n: number; emails: number }[]>(
              `select count(*)::int as n, count(distinct email)::int as emails from contact where organization_id = ?`,
              [org],
            )
        )[0];
      const links = async () =>
        (
          await ctx
            .em()
            .execute<{ n: number }[]>(`select count(*)::int as n from crm_link where organization_id = ? and entity_type = 'contact'`, [
              org,
            ])
        )[0].n;

      // Every contact of the fake (the other test's too: the admin reads everything).
      const total = sf.find('Contact').length;
      try {
        // Once: the page that met it is written again and the sync completes.
        await inject(1);
        expect((await admin.post('/api/v1/crm/sync', {})).statusCode).toBe(200);
        const once = await syncDone(admin);
        expect(once.status, JSON.stringify(once)).toBe('completed');
        expect(once.result!.contacts).toMatchObject({ created: total, failed: 0 });
        expect(await attempts()).toBeGreaterThanOrEqual(2);
        expect(await contacts()).toEqual({ n: total, emails: total });
        expect(await links()).toBe(total);

        // Always: after three tries the page fails the sync…
        sf.seed('Contact', 4, (i) => ({ LastName: `Stuck ${i}`, Email: `stuck${i}@example.com`, AccountId: account.Id }), 5);
        await inject(1_000);
        expect((await admin.post('/api/v1/crm/sync', {})).statusCode).toBe(200);
        const stuck = await syncDone(admin);
        expect(stuck.status).toBe('failed');
        expect(await attempts()).toBeGreaterThanOrEqual(3);
        expect(await contacts()).toEqual({ n: total, emails: total });
      } finally {
        await ctx.em().execute(`drop trigger if exists deadlock_fault on contact`);
      }
      // …and the next one, with the database well again, writes each new contact once.
      expect((await admin.post('/api/v1/crm/sync', {})).statusCode).toBe(200);
      const after = await syncDone(admin);
      expect(after.status, JSON.stringify(after)).toBe('completed');
      expect(after.result!.contacts).toMatchObject({ created: 4, failed: 0 });
      expect(await contacts()).toEqual({ n: total + 4, emails: total + 4 });
      expect(await links()).toBe(total + 4);
    },
    120_000,
  );
});
