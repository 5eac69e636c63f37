// CRM sync, outbound phase (push.ts) against the fakes of Salesforce and Affinity with a
// real worker on pg-boss: a mapped field edited here reaches the CRM record, a second sync sends
// nothing, records created here are created there once, activities become Tasks / notes once, a
// crash between the CRM write and our database update (a bulk job included) duplicates nothing on
// the retried attempt, the missing Dealscout_Id__c field is a clear message, and another
// organization's record is a 404 in the sync history.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CRM_SYNC_MESSAGES, type FieldMapping } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../../test/helpers';
import { FakeSalesforce } from '../../../../test/fakes/salesforce-server';
import { FakeAffinity } from '../../../../test/fakes/affinity-server';
import { startTestWorker, eventually, type TestWorker } from '../../../../test/execution-harness';
import { link, newCompany, newContact, newField, setValue } from '../../../../test/records';
import { createQueues } from '../../../jobs/definitions';
import { executionJobDefinitions } from '../../executions/runner';
import { createCrmSyncHandler } from './handler';

const AFF_KEY = 'affinity-key-push-0123456789';
/** Small enough that a handful of records created here go through a Bulk API 2.0 job. */
const WRITER = { bulkThreshold: 3, bulkPollIntervalMs: 20 };

interface Field {
  id: string;
  key: string;
  label: string;
}
type SyncState = {
  status: string;
  message: string | null;
  result: {
    accounts: Record<string, number>;
    contacts: Record<string, number>;
    outbound: { written: number; failed: number } | null;
    failures: string[];
  } | null;
};

describe('CRM sync: outbound', () => {
  let ctx: TestContext;
  let sf: FakeSalesforce;
  let aff: FakeAffinity;
  let worker: TestWorker;

  beforeAll(async () => {
    sf = await FakeSalesforce.start({ clientId: 'sf-client', pageSize: 50 });
    aff = await FakeAffinity.start({ apiKeys: [AFF_KEY] });
    ctx = await createTestApp({
      boss: true,
      env: {
        SALESFORCE_CLIENT_ID: 'sf-client',
        SALESFORCE_LOGIN_URL: sf.url,
        AFFINITY_BASE_URL: aff.url,
        OUTBOUND_ALLOWED_PRIVATE_HOSTS: [sf.url, aff.url].map((u) => new URL(u).host).join(','),
        EXECUTION_RETRY_LIMIT: '2',
        EXECUTION_RETRY_DELAY_SECONDS: '1',
      },
    });
    await createQueues(
      ctx.boss!,
      executionJobDefinitions([createCrmSyncHandler({ config: ctx.config, writerOptions: WRITER })]),
      ctx.config,
    );
    worker = await startTestWorker(
      ctx.dbUrl,
      ctx.config,
      [createCrmSyncHandler({ config: ctx.config, writerOptions: WRITER, analyzeAfterRows: 2 })],
      { superviseIntervalSeconds: 1 },
    );
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await ctx?.close();
    await sf?.close();
    await aff?.close();
  });

  async function fieldsOf(c: TestClient, entityType: 'company' | 'contact'): Promise<Map<string, Field>> {
    const res = await c.get(`/api/v1/entity/fields?entityType=${entityType}`);
    return new Map((res.json().fields as Field[]).map((f) => [f.key, f]));
  }
  async function sync(c: TestClient): Promise<SyncState> {
    const start = await c.post('/api/v1/crm/sync', {});
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json().status, start.body).toBe('progress');
    return eventually(
      async () => {
        const s = (await c.get('/api/v1/crm/sync')).json();
        return s.status === 'progress' ? undefined : s;
      },
      'the sync to finish',
      60_000,
    );
  }
  /** Connects through the fake's consent page; answers where the callback sends the browser. */
  async function connectSalesforce(c: TestClient): Promise<URL> {
    const start = await c.post('/api/v1/organization/integration', { provider: 'salesforce' });
    expect(start.statusCode, start.body).toBe(201);
    const url = new URL(start.json().authorizationUrl as string);
    const res = await fetch(`${sf.url}/services/oauth2/authorize`, {
      method: 'POST',
      body: new URLSearchParams({ ...Object.fromEntries(url.searchParams), decision: 'allow' }),
      redirect: 'manual',
    });
    const back = new URL(res.headers.get('location')!);
    return new URL((await c.get(`${back.pathname}${back.search}`)).headers.location as string);
  }
  const rows = <T>(sql: string, params: unknown[]) => ctx.em().execute<T[]>(sql, params);
  const writes = () =>
    sf.requests.filter((r) => r.method !== 'GET' && (r.path.includes('/composite/sobjects') || r.path.includes('/jobs/ingest'))).length;

  describe('Salesforce', () => {
    let admin: TestClient;
    let orgId: string;
    let industry: Field;
    let title: Field;
    const acc: Record<string, string> = {};
    const con: Record<string, string> = {};

    beforeAll(async () => {
      const a = await createOrg(ctx, { name: 'Pushco' });
      orgId = a.organization.id;
      admin = await signedIn(ctx, a.admin.email);
      const to = await connectSalesforce(admin);
      expect(to.searchParams.get('crm')).toBe('salesforce');
      expect(to.searchParams.get('crmWarning')).toBeNull();
      industry = await newField(admin, 'company', 'string', 'Industry');
      title = await newField(admin, 'contact', 'string', 'Job title');
      const co = await fieldsOf(admin, 'company');
      const ct = await fieldsOf(admin, 'contact');
      const accountMappings: FieldMapping[] = [
        { crmField: 'Name', fieldId: co.get('name')!.id, reconciliation: 'use_latest' },
        { crmField: 'Website', fieldId: co.get('website')!.id, reconciliation: 'use_latest' },
        { crmField: 'Industry', fieldId: industry.id, reconciliation: 'keep_existing' },
      ];
      const contactMappings: FieldMapping[] = [
        { crmField: 'FirstName', fieldId: ct.get('first_name')!.id, reconciliation: 'use_latest' },
        { crmField: 'LastName', fieldId: ct.get('last_name')!.id, reconciliation: 'use_latest' },
        { crmField: 'Email', fieldId: ct.get('email')!.id, reconciliation: 'use_latest' },
        { crmField: 'Title', fieldId: title.id, reconciliation: 'use_latest' },
      ];
      expect(
        (await admin.put('/api/v1/crm/sync-settings', { syncAccounts: true, syncContacts: true, accountMappings, contactMappings }))
          .statusCode,
      ).toBe(200);
      acc.hooli = sf.addRecord('Account', { Name: 'Hooli', Website: 'https://hooli.example.com', Industry: 'Technology' }).Id;
      con.gavin = sf.addRecord('Contact', {
        FirstName: 'Gavin',
        LastName: 'Belson',
        Email: 'gavin@hooli.example.com',
        Title: 'CEO',
        AccountId: acc.hooli,
      }).Id;
      const analyzed = async () =>
        (
          await rows<{ n: number }>(
            `select count(*)::int as n from pg_stat_user_tables where relname in ('crm_link', 'company', 'contact', 'company_contact',
              'field_value') and last_analyze is not null`,
            [],
          )
        )[0].n;
      const analyzedBefore = await analyzed();
      const first = await sync(admin);
      expect(first.status, JSON.stringify(first)).toBe('completed');
      expect(first.result!.accounts.created).toBe(1);
      // The inbound phase wrote 2 rows (≥ analyzeAfterRows here): the outbound read plans on fresh statistics.
      expect(analyzedBefore).toBeLessThan(5);
      for (let i = 0; i < 50 && (await analyzed()) < 5; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await analyzed()).toBe(5);
      // Read from Salesforce and nothing changed here since: nothing goes back.
      expect(first.result!.outbound).toEqual({ written: 0, failed: 0 });
    }, 90_000);

    it('a mapped field edited here reaches the CRM record; the change is in the history (side crm); a second sync sends nothing', async () => {
      const [hooli] = await rows<{ id: string }>(`select id from company where organization_id = ? and domain = 'hooli.example.com'`, [
        orgId,
      ]);
      const [gavin] = await rows<{ id: string }>(
        `select id from contact where organization_id = ? and lower(email) = 'gavin@hooli.example.com'`,
        [orgId],
      );
      await new Promise((r) => setTimeout(r, 20));
      expect(
        (await admin.put('/api/v1/entity/company', { id: hooli.id, company: { name: 'Hooli XYZ', website: 'hooli.example.com' } }))
          .statusCode,
      ).toBe(200);
      await setValue(admin, 'company', hooli.id, industry.id, 'Conglomerate');
      await setValue(admin, 'contact', gavin.id, title.id, 'Former CEO');
      const s = await sync(admin);
      expect(s.status, JSON.stringify(s)).toBe('completed');
      expect(s.message).toBe(CRM_SYNC_MESSAGES.completed);
      expect(s.result!.outbound).toEqual({ written: 2, failed: 0 });
      const [account] = sf.find('Account', { Id: acc.hooli });
      expect(account).toMatchObject({ Name: 'Hooli XYZ', Industry: 'Conglomerate', Dealscout_Id__c: hooli.id });
      expect(sf.find('Contact', { Id: con.gavin })[0]).toMatchObject({
        Title: 'Former CEO',
        FirstName: 'Gavin',
        Dealscout_Id__c: gavin.id,
      });
      // Our edits were not overwritten by the inbound phase (Salesforce did not change them since).
      expect((await rows<{ name: string }>(`select name from company where id = ?`, [hooli.id]))[0].name).toBe('Hooli XYZ');
      const hist = (await admin.get(`/api/v1/crm/sync-changes?entityType=company&entityId=${hooli.id}`)).json().changes as {
        side: string;
        action: string;
        fieldLabel: string | null;
        oldValue: string | null;
        newValue: string | null;
      }[];
      expect(hist).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ side: 'crm', action: 'updated', fieldLabel: 'Name', oldValue: 'Hooli', newValue: 'Hooli XYZ' }),
          expect.objectContaining({
            side: 'crm',
            action: 'updated',
            fieldLabel: 'Industry',
            oldValue: 'Technology',
            newValue: 'Conglomerate',
          }),
        ]),
      );
      // Again: nothing to send, no write request at all; the CRM's record (touched by our write) is read back unchanged.
      const before = writes();
      const again = await sync(admin);
      expect(again.result!.outbound).toEqual({ written: 0, failed: 0 });
      expect(again.result!.accounts.updated + again.result!.contacts.updated).toBe(0);
      expect(writes()).toBe(before);
    }, 90_000);

    it('a CRM change after ours wins under use_latest and is not sent back; keep_existing sends ours back', async () => {
      const [hooli] = await rows<{ id: string }>(`select id from company where organization_id = ? and domain = 'hooli.example.com'`, [
        orgId,
      ]);
      await new Promise((r) => setTimeout(r, 1100));
      sf.touch('Account', acc.hooli, { Name: 'Hooli Inc', Industry: 'Retail' });
      const s = await sync(admin);
      expect(s.status).toBe('completed');
      expect((await rows<{ name: string }>(`select name from company where id = ?`, [hooli.id]))[0].name).toBe('Hooli Inc');
      // Industry is keep_existing: Dealscout's value stays and goes back to Salesforce.
      expect(sf.find('Account', { Id: acc.hooli })[0]).toMatchObject({ Name: 'Hooli Inc', Industry: 'Conglomerate' });
      expect(s.result!.outbound).toEqual({ written: 1, failed: 0 });
    }, 90_000);

    it('use_latest field by field: the CRM changed the name, we changed the website later — both sides end with both changes', async () => {
      const [hooli] = await rows<{ id: string }>(`select id from company where organization_id = ? and domain = 'hooli.example.com'`, [
        orgId,
      ]);
      await new Promise((r) => setTimeout(r, 1100));
      sf.touch('Account', acc.hooli, { Name: 'Hooli Holdings' });
      await new Promise((r) => setTimeout(r, 50));
      expect(
        (
          await admin.put('/api/v1/entity/company', {
            id: hooli.id,
            company: { name: 'Hooli Inc', website: 'https://www.hooli.example.com' },
          })
        ).statusCode,
      ).toBe(200);
      const s = await sync(admin);
      expect(s.status).toBe('completed');
      expect((await rows<{ name: string; website: string }>(`select name, website from company where id = ?`, [hooli.id]))[0]).toEqual({
        name: 'Hooli Holdings',
        website: 'https://www.hooli.example.com',
      });
      expect(sf.find('Account', { Id: acc.hooli })[0]).toMatchObject({ Name: 'Hooli Holdings', Website: 'https://www.hooli.example.com' });
    }, 90_000);

    it('records created here are created in Salesforce with the Dealscout id, contacts under their account; an activity becomes one Task', async () => {
      const pied = await newCompany(admin, { name: 'Pied Piper', website: 'piedpiper.example.com' });
      await setValue(admin, 'company', pied.id, industry.id, 'Compression');
      const richard = await newContact(admin, { firstName: 'Richard', lastName: 'Hendricks', email: 'richard@piedpiper.example.com' });
      await link(admin, pied.id, richard.id);
      const today = new Date().toISOString().slice(0, 10);
      const logged = await admin.post('/api/v1/activity', {
        type: 'call',
        companyId: pied.id,
        contactId: richard.id,
        date: today,
        content: 'Talked compression',
      });
      expect(logged.statusCode, logged.body).toBe(201);
      const s = await sync(admin);
      expect(s.status, JSON.stringify(s)).toBe('completed');
      const [account] = sf.find('Account', { Dealscout_Id__c: pied.id });
      expect(account).toMatchObject({ Name: 'Pied Piper', Website: 'piedpiper.example.com', Industry: 'Compression' });
      const [contact] = sf.find('Contact', { Dealscout_Id__c: richard.id });
      expect(contact).toMatchObject({
        FirstName: 'Richard',
        LastName: 'Hendricks',
        Email: 'richard@piedpiper.example.com',
        AccountId: account.Id,
      });
      const tasks = sf.find('Task', { WhoId: contact.Id });
      expect(tasks).toHaveLength(1);
      expect(tasks[0]).toMatchObject({ WhatId: account.Id, TaskSubtype: 'Call', Status: 'Completed', ActivityDate: today });
      expect(
        await rows<{ external_id: string }>(`select external_id from crm_link where organization_id = ? and company_id = ?`, [
          orgId,
          pied.id,
        ]),
      ).toEqual([{ external_id: account.Id }]);
      const hist = (await admin.get(`/api/v1/crm/sync-changes?entityType=contact&entityId=${richard.id}`)).json().changes as {
        side: string;
        action: string;
      }[];
      expect(hist).toEqual(expect.arrayContaining([expect.objectContaining({ side: 'crm', action: 'created' })]));
      // Again: nothing more in Salesforce.
      const again = await sync(admin);
      expect(again.result!.outbound).toEqual({ written: 0, failed: 0 });
      expect(sf.find('Account', { Dealscout_Id__c: pied.id })).toHaveLength(1);
      expect(sf.find('Task', { WhoId: contact.Id })).toHaveLength(1);
    }, 90_000);

    it('a crash between the Salesforce writes (a bulk job) and our database update: the retried attempt collects the job, nothing is duplicated', async () => {
      const made = [];
      for (let i = 0; i < 5; i += 1) made.push(await newCompany(admin, { name: `Crash ${i}`, website: `crash-${i}.example.com` }));
      const jobsBefore = sf.writes.jobs.size;
      // The first link written for these companies fails once: the attempt dies after Salesforce has them.
      await ctx.em().execute(`create sequence if not exists push_test_crash`);
      await ctx.em().execute(`create or replace function push_test_crash_fn() returns trigger language plpgsql as $$
        begin if new.external_id is not null and new.organization_id = '${orgId}' and new.company_id is not null and
          nextval('push_test_crash') = 1 then raise exception 'simulated crash'; end if; return new; end $$`);
      await ctx.em().execute(`create trigger push_test_crash before insert on crm_link for each row execute function push_test_crash_fn()`);
      try {
        const start = await admin.post('/api/v1/crm/sync', {});
        const executionId = start.json().executionId as string;
        const done = await eventually(
          async () => {
            const st = (await admin.get('/api/v1/crm/sync')).json();
            return st.status === 'progress' ? undefined : st;
          },
          'the retried sync',
          60_000,
        );
        expect(done.status, JSON.stringify(done)).toBe('completed');
        expect(executionId).toBeTruthy();
        // The trigger ran more than once: the first attempt died on it, the retry went through.
        expect(
          Number((await rows<{ last_value: string }>(`select last_value from push_test_crash`, []))[0].last_value),
        ).toBeGreaterThanOrEqual(2);
      } finally {
        await ctx.em().execute(`drop trigger if exists push_test_crash on crm_link`);
      }
      for (const c of made) expect(sf.find('Account', { Dealscout_Id__c: c.id }), c.id).toHaveLength(1);
      // One bulk job for the five, collected by the retry rather than loaded again; none left pending.
      expect(sf.writes.jobs.size - jobsBefore).toBe(1);
      expect(await rows(`select job_id from crm_push_job where organization_id = ?`, [orgId])).toEqual([]);
      const linked = await rows<{ n: number }>(
        `select count(*)::int as n from crm_link where organization_id = ? and company_id in (select (jsonb_array_elements_text(?::jsonb))::uuid)`,
        [orgId, JSON.stringify(made.map((c) => c.id))],
      );
      expect(linked[0].n).toBe(5);
    }, 120_000);

    it('a collections write repeated after a crash upserts by Dealscout_Id__c: one record', async () => {
      const solo = await newCompany(admin, { name: 'Endframe', website: 'endframe.example.com' });
      await ctx.em().execute(`alter sequence push_test_crash restart with 1`);
      await ctx.em().execute(`create trigger push_test_crash before insert on crm_link for each row execute function push_test_crash_fn()`);
      try {
        const s = await sync(admin);
        expect(s.status, JSON.stringify(s)).toBe('completed');
      } finally {
        await ctx.em().execute(`drop trigger if exists push_test_crash on crm_link`);
      }
      expect(sf.find('Account', { Dealscout_Id__c: solo.id })).toHaveLength(1);
      expect(sf.find('Account', { Name: 'Endframe' })).toHaveLength(1);
    }, 120_000);

    it('the API limit reached by the write: the attempt fails with the rate-limit message, the retry writes it once', async () => {
      // How many requests a sync with nothing to send makes (its queries), to let exactly those and the describe through.
      const before = sf.apiRequests;
      expect((await sync(admin)).result!.outbound).toEqual({ written: 0, failed: 0 });
      const reads = sf.apiRequests - before;
      const limited = await newCompany(admin, { name: 'Limited Co', website: 'limited.example.com' });
      sf.requestLimit = sf.apiRequests + reads + 1;
      const start = await admin.post('/api/v1/crm/sync', {});
      const executionId = start.json().executionId as string;
      await eventually(
        async () => {
          const [r] = await rows<{ status_message: string | null }>(`select status_message from execution where id = ?`, [executionId]);
          return r.status_message === 'Salesforce is limiting requests right now. Please try again in a minute.' ? true : undefined;
        },
        'the rate-limited attempt',
        30_000,
      );
      expect(sf.find('Account', { Dealscout_Id__c: limited.id })).toHaveLength(0);
      sf.requestLimit = 1_000_000;
      const done = await eventually(
        async () => {
          const st = (await admin.get('/api/v1/crm/sync')).json();
          return st.status === 'progress' ? undefined : st;
        },
        'the retried sync',
        60_000,
      );
      expect(done.status, JSON.stringify(done)).toBe('completed');
      expect(sf.find('Account', { Dealscout_Id__c: limited.id })).toHaveLength(1);
    }, 120_000);

    it('a record Salesforce refuses is counted as failed (with its code) and tried again on the next sync', async () => {
      const refused = await newCompany(admin, { name: 'Refused Co', website: 'refused.example.com' });
      let lift = false;
      sf.rejectWrites({
        sobject: 'Account',
        when: (v) => !lift && v.Name === 'Refused Co',
        statusCode: 'FIELD_CUSTOM_VALIDATION_EXCEPTION',
        message: 'Industry is required',
      });
      const s = await sync(admin);
      expect(s.status).toBe('completed');
      expect(s.message).toBe(CRM_SYNC_MESSAGES.failures);
      expect(s.result!.outbound).toEqual({ written: 0, failed: 1 });
      expect(s.result!.failures.join(' ')).toContain('FIELD_CUSTOM_VALIDATION_EXCEPTION');
      lift = true;
      const again = await sync(admin);
      expect(again.message).toBe(CRM_SYNC_MESSAGES.completed);
      expect(sf.find('Account', { Dealscout_Id__c: refused.id })).toHaveLength(1);
    }, 120_000);

    it('a stored bulk job Salesforce no longer knows is forgotten; its record is compared and sent again', async () => {
      const lost = await newCompany(admin, { name: 'Lost Job Co', website: 'lostjob.example.com' });
      await ctx.em().execute(
        `insert into crm_push_job (id, organization_id, provider, entity_type, job_id, items, created_at) values (gen_random_uuid(),
            ?, 'salesforce', 'company', '7500000000GONEAAA', ?, now())`,
        [orgId, JSON.stringify({ [lost.id]: { localId: lost.id, crmId: null, agreed: {}, sent: [] } })],
      );
      const s = await sync(admin);
      expect(s.status, JSON.stringify(s)).toBe('completed');
      expect(sf.find('Account', { Dealscout_Id__c: lost.id })).toHaveLength(1);
      expect(await rows(`select job_id from crm_push_job where organization_id = ?`, [orgId])).toEqual([]);
    }, 90_000);

    it('another organization cannot read the sync history of this one (404)', async () => {
      const b = await createOrg(ctx, { name: 'Pushco rival' });
      const rival = await signedIn(ctx, b.admin.email);
      const [hooli] = await rows<{ id: string }>(`select id from company where organization_id = ? and domain = 'hooli.example.com'`, [
        orgId,
      ]);
      expect((await rival.get(`/api/v1/crm/sync-changes?entityType=company&entityId=${hooli.id}`)).statusCode).toBe(404);
    });

    it('without the Dealscout_Id__c External ID field in Salesforce: the sync fails with a message that says what to create', async () => {
      const saved = sf.fields.Account;
      sf.fields.Account = saved.filter((f) => f.name !== 'Dealscout_Id__c');
      try {
        await newCompany(admin, { name: 'Raviga', website: 'raviga.example.com' });
        const s = await sync(admin);
        expect(s.status).toBe('failed');
        expect(s.message).toBe(CRM_SYNC_MESSAGES.externalIdMissing('Dealscout_Id__c', 'Account'));
        expect(sf.find('Account', { Name: 'Raviga' })).toHaveLength(0);
      } finally {
        sf.fields.Account = saved;
      }
    }, 90_000);
  });

  describe('Salesforce without the Dealscout_Id__c field', () => {
    it('connecting still connects, with a warning that says what to create', async () => {
      const saved = sf.fields.Task;
      sf.fields.Task = saved.filter((f) => f.name !== 'Dealscout_Id__c');
      try {
        const c = await createOrg(ctx, { name: 'Nofieldco' });
        const to = await connectSalesforce(await signedIn(ctx, c.admin.email));
        expect(to.searchParams.get('crm')).toBe('salesforce');
        expect(to.searchParams.get('crmWarning')).toBe(CRM_SYNC_MESSAGES.externalIdMissing('Dealscout_Id__c', 'Activity'));
      } finally {
        sf.fields.Task = saved;
      }
    }, 60_000);
  });

  describe('Affinity', () => {
    it('an edit here reaches the organization (not overwritten by the read); a company created here is created once, also when its link was lost', async () => {
      const g = await createOrg(ctx, { name: 'Affpush' });
      const gAdmin = await signedIn(ctx, g.admin.email);
      expect((await gAdmin.post('/api/v1/organization/integration', { provider: 'affinity', apiKey: AFF_KEY })).statusCode).toBe(201);
      const o1 = aff.addOrganization('Aviato', 'aviato.example.com');
      aff.addPerson('Erlich', 'Bachman', 'erlich@aviato.example.com', [o1.id]);
      const co = await fieldsOf(gAdmin, 'company');
      const ct = await fieldsOf(gAdmin, 'contact');
      expect(
        (
          await gAdmin.put('/api/v1/crm/sync-settings', {
            syncAccounts: true,
            syncContacts: true,
            accountMappings: [{ crmField: 'name', fieldId: co.get('name')!.id }],
            contactMappings: [{ crmField: 'first_name', fieldId: ct.get('first_name')!.id }],
          })
        ).statusCode,
      ).toBe(200);
      expect((await sync(gAdmin)).result!.outbound).toEqual({ written: 0, failed: 0 });
      const [aviato] = await rows<{ id: string }>(`select id from company where organization_id = ? and domain = 'aviato.example.com'`, [
        g.organization.id,
      ]);
      expect(
        (await gAdmin.put('/api/v1/entity/company', { id: aviato.id, company: { name: 'Aviato Ltd', website: 'aviato.example.com' } }))
          .statusCode,
      ).toBe(200);
      const bream = await newCompany(gAdmin, { name: 'Bream-Hall', website: 'breamhall.example.com' });
      const s = await sync(gAdmin);
      expect(s.status, JSON.stringify(s)).toBe('completed');
      expect(aff.organizations.find((o) => o.id === o1.id)!.name).toBe('Aviato Ltd');
      expect((await rows<{ name: string }>(`select name from company where id = ?`, [aviato.id]))[0].name).toBe('Aviato Ltd');
      expect(aff.organizations.filter((o) => o.domain === 'breamhall.example.com')).toHaveLength(1);
      // An activity logged here on the linked person: one note, also after more syncs.
      const [erlich] = await rows<{ id: string }>(
        `select id from contact where organization_id = ? and lower(email) = 'erlich@aviato.example.com'`,
        [g.organization.id],
      );
      const today = new Date().toISOString().slice(0, 10);
      const logged = await gAdmin.post('/api/v1/activity', {
        type: 'f2f',
        companyId: aviato.id,
        contactId: erlich.id,
        date: today,
        content: 'Met at the incubator',
      });
      expect(logged.statusCode, logged.body).toBe(201);
      const activityId = logged.json().activity?.id ?? logged.json().id;
      // A link lost (as after a crash before we stored it): the next sync finds the organization by domain instead of creating it again.
      await ctx.em().execute(`delete from crm_link where organization_id = ? and company_id = ?`, [g.organization.id, bream.id]);
      const again = await sync(gAdmin);
      expect(again.status).toBe('completed');
      expect(aff.organizations.filter((o) => o.domain === 'breamhall.example.com')).toHaveLength(1);
      expect(aff.organizations.filter((o) => o.domain === 'aviato.example.com')).toHaveLength(1);
      const third = await sync(gAdmin);
      expect(third.result!.outbound).toEqual({ written: 0, failed: 0 });
      const notes = aff.notes.filter((n) => n.content.includes(`Dealscout activity ${activityId}`));
      expect(notes).toHaveLength(1);
      expect(notes[0].content).toContain('Met at the incubator');
    }, 120_000);
  });
});
