// kill -9 of a real worker process (server/src/main.ts --role worker) in the middle of a Salesforce
// sync: the pages written before the kill are committed with their high-water mark, a new worker
// takes the job again (the heartbeat stopped), resumes after the mark, and the sync completes with
// every account and contact exactly once.
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { startWorkerProcess, killWorkers, type WorkerProcess } from '../../../../test/worker-process';
import { createTestApp, createOrg, signedIn, type TestContext } from '../../../../test/helpers';
import { eventually } from '../../../../test/execution-harness';
import { FakeSalesforce } from '../../../../test/fakes/salesforce-server';
import { connectSalesforce, fieldIds } from '../../../../test/crm';
import { createQueues } from '../../../jobs/definitions';
import { jobDefinitions } from '../../../job-registry';

const ACCOUNTS = 6_000;
const CONTACTS = 2_000;

describe('a worker killed mid-sync', () => {
  let ctx: TestContext;
  let sf: FakeSalesforce;
  let env: Record<string, string>;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    sf = await FakeSalesforce.start({ clientId: 'sf-client', pageSize: 200 });
    env = {
      SALESFORCE_CLIENT_ID: 'sf-client',
      SALESFORCE_LOGIN_URL: sf.url,
      OUTBOUND_ALLOWED_PRIVATE_HOSTS: new URL(sf.url).host,
      JOB_HEARTBEAT_SECONDS: '10',
      JOB_SUPERVISE_SECONDS: '2',
      EXECUTION_RETRY_DELAY_SECONDS: '0',
    };
    ctx = await createTestApp({ boss: true, env });
    await createQueues(ctx.boss!, jobDefinitions, ctx.config);
  }, 60_000);
  afterEach(async () => {
    await killWorkers(workers);
  });
  afterAll(async () => {
    await ctx?.close();
    await sf?.close();
  });

  async function startWorker(): Promise<WorkerProcess> {
    const w = await startWorkerProcess(ctx.dbUrl, { ...env });
    workers.push(w);
    return w;
  }

  it('kill -9 between pages: a new worker resumes after the mark, nothing is created twice', async () => {
    const { admin, organization } = await createOrg(ctx, { name: 'Killsync' });
    const org = organization.id;
    const rep = await signedIn(ctx, admin.email);
    await connectSalesforce(rep, sf);
    sf.seed('Account', ACCOUNTS, (i) => ({ Name: `Kill ${i}`, Website: `kill-${i}.example.com`, Industry: i % 2 ? 'Odd' : 'Even' }), 5);
    const accounts = sf.records.Account;
    sf.seed(
      'Contact',
      CONTACTS,
      (i) => ({ FirstName: `K${i}`, LastName: 'Ill', Email: `k${i}@kill.example.com`, AccountId: accounts[i].Id }),
      5,
    );
    const fields = await fieldIds(rep);
    const saved = await rep.put('/api/v1/crm/sync-settings', {
      syncAccounts: true,
      syncContacts: true,
      accountMappings: [
        { crmField: 'Name', fieldId: fields.get('company.name') },
        { crmField: 'Website', fieldId: fields.get('company.website') },
      ],
      contactMappings: [
        { crmField: 'Email', fieldId: fields.get('contact.email') },
        { crmField: 'FirstName', fieldId: fields.get('contact.first_name') },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const first = await startWorker();
    const sync = await rep.post('/api/v1/crm/sync', {});
    expect(sync.json().status).toBe('progress');
    const count = async (sql: string) => (await ctx.em().execute<{ n: number }[]>(sql, [org]))[0].n;
    // A few pages written (the mark moved), far from all: kill.
    await eventually(
      async () => ((await count(`select count(*)::int as n from company where organization_id = ?`)) >= 600 ? true : undefined),
      'some pages written',
      90_000,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = await count(`select count(*)::int as n from company where organization_id = ?`);
    expect(atKill).toBeLessThan(ACCOUNTS);
    const [mark] = await ctx
      .em()
      .execute<{ last_id: string }[]>(`select last_id from crm_sync_state where organization_id = ? and object = 'Account'`, [org]);
    expect(mark.last_id).toMatch(/^001S/);
    const queriesBefore = sf.requests.length;

    await startWorker();
    const done = await eventually(
      async () => {
        const s = (await rep.get('/api/v1/crm/sync')).json();
        return s.status === 'progress' ? undefined : s;
      },
      'the sync to complete on the second worker',
      180_000,
    );
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(await count(`select count(*)::int as n from company where organization_id = ?`)).toBe(ACCOUNTS);
    expect(await count(`select count(*)::int as n from contact where organization_id = ?`)).toBe(CONTACTS);
    expect(await count(`select count(*)::int as n from crm_link where organization_id = ? and entity_type = 'company'`)).toBe(ACCOUNTS);
    expect(await count(`select count(*)::int as n from company_contact where organization_id = ?`)).toBe(CONTACTS);
    // 'created' is logged once per company, whichever attempt wrote it.
    expect(
      await count(
        `select count(*)::int as n from crm_sync_change where organization_id = ? and action = 'created' and entity_type = 'company'`,
      ),
    ).toBe(ACCOUNTS);
    // The second attempt started from the mark, not from the beginning.
    const resumed = sf.requests
      .slice(queriesBefore)
      .map((r) => r.query.get('q') ?? '')
      .find((q) => q.includes('FROM Account'));
    expect(resumed).toMatch(/WHERE SystemModstamp >= /);
  }, 360_000);
});
