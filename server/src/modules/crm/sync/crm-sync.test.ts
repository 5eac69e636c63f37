// CRM sync: settings and mappings, the sync execution against the fakes of Salesforce and
// Affinity (a real worker on pg-boss), matching by CRM id then domain / email, reconciliation both
// ways (use_latest, keep_existing), incremental reads by SystemModstamp, a user's sync limited to
// the accounts of their CRM user, token refresh and rate limits mid-sync (resumed without
// duplicates), the sync history of a record, 404 across organizations, and every message.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CRM_SYNC_MESSAGES, CRM_USERNAME_MESSAGES, type FieldMapping } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../../test/helpers';
import { FakeSalesforce } from '../../../../test/fakes/salesforce-server';
import { connectSalesforce as connectSf } from '../../../../test/crm';
import { FakeAffinity } from '../../../../test/fakes/affinity-server';
import { startTestWorker, eventually, type TestWorker } from '../../../../test/execution-harness';
import { newCompany, newContact, newField, setValue } from '../../../../test/records';
import { createQueues } from '../../../jobs/definitions';
import { executionJobDefinitions } from '../../executions/runner';
import { createCrmSyncHandler, wholeSync } from './handler';
import { crmWins } from './reconcile';
import { slotColumn } from '../../fields/projection';

const AFF_KEY = 'affinity-key-sync-0123456789';

interface Field {
  id: string;
  key: string;
  label: string;
}

describe('CRM sync', () => {
  let ctx: TestContext;
  let sf: FakeSalesforce;
  let aff: FakeAffinity;
  let worker: TestWorker;

  beforeAll(async () => {
    sf = await FakeSalesforce.start({ clientId: 'sf-client', pageSize: 3 });
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
    await createQueues(ctx.boss!, executionJobDefinitions([createCrmSyncHandler({ config: ctx.config })]), ctx.config);
    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createCrmSyncHandler({ config: ctx.config })], { superviseIntervalSeconds: 1 });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await ctx?.close();
    await sf?.close();
    await aff?.close();
  });

  const connectSalesforce = (admin: TestClient) => connectSf(admin, sf);
  async function fieldsOf(c: TestClient, entityType: 'company' | 'contact'): Promise<Map<string, Field>> {
    const res = await c.get(`/api/v1/entity/fields?entityType=${entityType}`);
    return new Map((res.json().fields as Field[]).map((f) => [f.key, f]));
  }
  async function sync(c: TestClient): Promise<{
    status: string;
    message: string | null;
    result: { accounts: Record<string, number>; contacts: Record<string, number>; failures: string[] } | null;
    processed: number | null;
    executionId: string;
  }> {
    const start = await c.post('/api/v1/crm/sync', {});
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json()).toMatchObject({ status: 'progress', message: CRM_SYNC_MESSAGES.progress });
    return eventually(
      async () => {
        const s = (await c.get('/api/v1/crm/sync')).json();
        return s.status === 'progress' ? undefined : s;
      },
      'the sync to finish',
      60_000,
    );
  }
  const count = async (sql: string, params: unknown[]) => (await ctx.em().execute<{ n: number }[]>(sql, params))[0].n;

  it('decides conflicts: use_latest takes the later change, keep_existing fills only empties', () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const t1 = new Date('2026-01-02T00:00:00Z');
    expect(crmWins('use_latest', 'ours', 'theirs', t0, t1)).toBe(true);
    expect(crmWins('use_latest', 'ours', 'theirs', t1, t0)).toBe(false);
    expect(crmWins('use_latest', 'same', 'same', t0, t1)).toBe(false);
    expect(crmWins('keep_existing', 'ours', 'theirs', t0, t1)).toBe(false);
    expect(crmWins('keep_existing', null, 'theirs', t1, t0)).toBe(true);
    expect(crmWins('keep_existing', '  ', 'theirs', t1, t0)).toBe(true);
  });

  it('a resumed Affinity sync (every attempt reads everything) adds up created and updated; what earlier attempts wrote is not counted unchanged again', () => {
    const c = (created: number, updated: number, unchanged: number, skipped = 0, failed = 0) => ({
      created,
      updated,
      unchanged,
      skipped,
      failed,
    });
    // 20,000 organizations: the first attempt created 12,000 and updated 1,000 before it stopped; the
    // second read all 20,000 again (13,000 of them now unchanged) and created the other 7,000.
    const earlier = { accounts: c(12_000, 1_000, 0), contacts: c(0, 0, 0) };
    const current = { accounts: c(7_000, 0, 13_000, 2, 1), contacts: c(5, 1, 4) };
    const kept = { accounts: c(19_000, 1_000, 13_000, 2, 1), contacts: c(5, 1, 4) };
    expect(wholeSync('affinity', earlier, current, kept)).toEqual({ accounts: c(19_000, 1_000, 0, 2, 1), contacts: c(5, 1, 4) });
    // Salesforce resumes after its mark: what every attempt committed is the whole sync.
    expect(wholeSync('salesforce', earlier, current, kept)).toEqual(kept);
  });

  describe('Salesforce', () => {
    let admin: TestClient;
    let rep: TestClient;
    let orgId: string;
    let industry: Field;
    let title: Field;
    let accountMappings: FieldMapping[];
    let contactMappings: FieldMapping[];
    const acc: Record<string, string> = {};

    beforeAll(async () => {
      const a = await createOrg(ctx, { name: 'Syncco' });
      orgId = a.organization.id;
      admin = await signedIn(ctx, a.admin.email);
      rep = await signedIn(ctx, (await createUser(ctx, orgId, { role: 'User' })).email);
      await connectSalesforce(admin);
      industry = await newField(admin, 'company', 'string', 'Industry');
      title = await newField(admin, 'contact', 'string', 'Job title');
      const co = await fieldsOf(admin, 'company');
      const ct = await fieldsOf(admin, 'contact');
      accountMappings = [
        { crmField: 'Name', fieldId: co.get('name')!.id, reconciliation: 'use_latest' },
        { crmField: 'Website', fieldId: co.get('website')!.id, reconciliation: 'use_latest' },
        { crmField: 'Industry', fieldId: industry.id, reconciliation: 'keep_existing' },
      ];
      contactMappings = [
        { crmField: 'FirstName', fieldId: ct.get('first_name')!.id, reconciliation: 'use_latest' },
        { crmField: 'LastName', fieldId: ct.get('last_name')!.id, reconciliation: 'use_latest' },
        { crmField: 'Email', fieldId: ct.get('email')!.id, reconciliation: 'use_latest' },
        { crmField: 'Title', fieldId: title.id, reconciliation: 'use_latest' },
      ];
      // Salesforce: four accounts (one whose domain Dealscout already has, one without a website), five contacts.
      acc.acme = sf.addRecord('Account', { Name: 'Acme Corp', Website: 'https://www.acme.example.com', Industry: 'Manufacturing' }).Id;
      acc.globex = sf.addRecord('Account', { Name: 'Globex', Website: 'globex.example.com', Industry: 'Energy' }).Id;
      acc.initech = sf.addRecord('Account', { Name: 'Initech', Website: 'https://initech.example.com', Industry: null }).Id;
      acc.nosite = sf.addRecord('Account', { Name: 'No Website Ltd', Website: null }).Id;
      sf.addRecord('Contact', {
        FirstName: 'Wile',
        LastName: 'Coyote',
        Email: 'wile@acme.example.com',
        Title: 'Engineer',
        AccountId: acc.acme,
      });
      sf.addRecord('Contact', {
        FirstName: 'Hank',
        LastName: 'Scorpio',
        Email: 'HANK@globex.example.com',
        Title: 'CEO',
        AccountId: acc.globex,
      });
      sf.addRecord('Contact', {
        FirstName: 'Peter',
        LastName: 'Gibbons',
        Email: 'peter@initech.example.com',
        Title: null,
        AccountId: acc.initech,
      });
      sf.addRecord('Contact', { FirstName: 'Nomail', LastName: 'Person', Email: null, AccountId: acc.initech });
      sf.addRecord('Contact', { FirstName: 'Road', LastName: 'Runner', Email: 'road@runner.example.com', Title: 'Bird' });
    }, 60_000);

    it('refuses to sync without Account and Contact mappings (invalid, the spec message)', async () => {
      const none = await admin.post('/api/v1/crm/sync', {});
      expect(none.json()).toMatchObject({ status: 'invalid', message: CRM_SYNC_MESSAGES.invalidSettings, executionId: null });
      const saved = await admin.put('/api/v1/crm/sync-settings', {
        syncAccounts: true,
        syncContacts: true,
        accountMappings,
        contactMappings: [],
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect((await admin.post('/api/v1/crm/sync', {})).json()).toMatchObject({
        status: 'invalid',
        message: CRM_SYNC_MESSAGES.invalidSettings,
      });
    });

    it('offers the CRM fields from describe and checks the Dealscout fields mapped', async () => {
      const res = await admin.get('/api/v1/crm/fields');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.provider).toBe('salesforce');
      expect(body.account.map((f: { name: string }) => f.name)).toEqual(
        expect.arrayContaining(['Name', 'Website', 'Industry', 'AnnualRevenue']),
      );
      expect(body.account.map((f: { name: string }) => f.name)).not.toContain('Id');
      expect(body.contact.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['FirstName', 'Email', 'Title']));
      const co = await fieldsOf(admin, 'company');
      const bad = await admin.put('/api/v1/crm/sync-settings', {
        syncAccounts: true,
        syncContacts: true,
        accountMappings: [{ crmField: 'Id', fieldId: co.get('id')!.id }],
        contactMappings,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(CRM_SYNC_MESSAGES.fieldInvalid);
      const dup = await admin.put('/api/v1/crm/sync-settings', {
        syncAccounts: true,
        syncContacts: true,
        accountMappings: [accountMappings[0], { ...accountMappings[0], crmField: 'Industry' }],
        contactMappings,
      });
      expect(dup.json().message).toBe(CRM_SYNC_MESSAGES.duplicateTarget);
      // A contact field in the account mappings is not a field of companies: 404 like any unknown id.
      expect(
        (
          await admin.put('/api/v1/crm/sync-settings', {
            syncAccounts: true,
            syncContacts: true,
            accountMappings: [{ crmField: 'Title', fieldId: title.id }],
            contactMappings,
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await rep.put('/api/v1/crm/sync-settings', { syncAccounts: true, syncContacts: true, accountMappings, contactMappings }))
          .statusCode,
      ).toBe(403);
      const ok = await admin.put('/api/v1/crm/sync-settings', { syncAccounts: true, syncContacts: true, accountMappings, contactMappings });
      expect(ok.json()).toMatchObject({
        message: CRM_SYNC_MESSAGES.settingsSaved,
        settings: { provider: 'salesforce', syncAccounts: true, accountMappings: accountMappings.map((m) => ({ ...m })) },
      });
      expect((await rep.get('/api/v1/crm/sync-settings')).json().settings.contactMappings).toHaveLength(4);
    });

    it("a user without a linked CRM username is told to add it (invalid, the spec's tooltip)", async () => {
      expect((await rep.post('/api/v1/crm/sync', {})).json()).toMatchObject({
        status: 'invalid',
        message: CRM_SYNC_MESSAGES.tooltipUsername('Salesforce'),
      });
    });

    it('first sync: matched by domain and email, created otherwise, linked, custom fields written, history kept', async () => {
      const existing = await newCompany(admin, { name: 'ACME (ours)', website: 'acme.example.com' });
      await setValue(admin, 'company', existing.id, industry.id, 'Aerospace');
      const wile = await newContact(admin, { firstName: 'W.', lastName: 'Coyote', email: 'wile@acme.example.com' });
      // The session has expired: jsforce refreshes it once with the refresh token and the sync goes on.
      sf.expireAccessTokens();
      const s = await sync(admin);
      expect(s.status, JSON.stringify(s)).toBe('completed');
      expect(s.message).toBe(CRM_SYNC_MESSAGES.completed);
      expect(s.result!.accounts).toMatchObject({ created: 2, skipped: 1, failed: 0 });
      expect(s.result!.contacts).toMatchObject({ created: 3, skipped: 1, failed: 0 });
      expect(s.processed).toBe(9);
      // The sync's progress line: records synced of the total Salesforce gave, cancellable while it runs;
      // the admin's recent runs list it (the CRM card and the notifications show it).
      const line = (await admin.post('/api/v1/execution/progress', { ids: [s.executionId] })).json().runs;
      expect(line).toEqual([
        expect.objectContaining({
          id: s.executionId,
          kind: 'execution',
          type: 'crmsync',
          status: 'completed',
          done: 9,
          total: 9,
          cancellable: true,
        }),
      ]);
      const mine = (await admin.post('/api/v1/execution/progress', {})).json().runs as { id: string }[];
      expect(mine.map((r) => r.id)).toContain(s.executionId);
      expect(await count(`select count(*)::int as n from company where organization_id = ?`, [orgId])).toBe(3);
      expect(await count(`select count(*)::int as n from contact where organization_id = ?`, [orgId])).toBe(4);
      expect(await count(`select count(*)::int as n from crm_link where organization_id = ? and source = 'salesforce'`, [orgId])).toBe(7);
      // The existing company was matched by its domain; keep_existing kept our Industry.
      const detail = (await admin.get(`/api/v1/company/details/${existing.id}`)).json();
      expect(JSON.stringify(detail)).toContain('Aerospace');
      // Globex: created with its Industry; Hank's email matched case-insensitively and linked to Globex as primary.
      const [globex] = await ctx
        .em()
        .execute<{ id: string; name: string; owner_id: string }[]>(
          `select id, name, owner_id from company where organization_id = ? and domain = 'globex.example.com'`,
          [orgId],
        );
      expect(globex.name).toBe('Globex');
      const [ind] = await ctx
        .em()
        .execute<{ value: unknown }[]>(`select value from field_value where organization_id = ? and entity_id = ? and field_id = ?`, [
          orgId,
          globex.id,
          industry.id,
        ]);
      expect(ind.value).toBe('Energy');
      // …and in its typed slot (the table's sort and filter read it), written with the new company.
      const [{ slot }] = await ctx
        .em()
        .execute<{ slot: number }[]>(`select slot from field_definition where organization_id = ? and id = ?`, [orgId, industry.id]);
      const [projected] = await ctx
        .em()
        .execute<Record<string, unknown>[]>(`select ${slotColumn(slot)} as v from company where organization_id = ? and id = ?`, [
          orgId,
          globex.id,
        ]);
      expect(projected.v).toBe('energy');
      expect(
        await count(
          `select count(*)::int as n from company_contact cc join contact c on c.id = cc.contact_id where cc.organization_id = ? and
            cc.company_id = ? and lower(c.email) = 'hank@globex.example.com' and cc.is_primary`,
          [orgId, globex.id],
        ),
      ).toBe(1);
      // Every contact's primary-company sort text is its primary company's (the sync writes it with the contact).
      expect(
        await count(
          `select count(*)::int as n from contact c where c.organization_id = ? and c.primary_company_sort is distinct from
          (select lower(co.name) from company_contact cc join company co on co.organization_id = cc.organization_id and co.id =
            cc.company_id where cc.organization_id = c.organization_id and cc.contact_id = c.id and cc.is_primary)`,
          [orgId],
        ),
      ).toBe(0);
      expect(
        await count(`select count(*)::int as n from contact where organization_id = ? and primary_company_sort = 'globex'`, [orgId]),
      ).toBeGreaterThanOrEqual(1);
      // The drawer's history: Globex created by sync; our contact Wile linked. Wile's first name was
      // edited here after the CRM's last change, so use_latest keeps ours ('W.'); the empty title is filled.
      const hist = (await admin.get(`/api/v1/crm/sync-changes?entityType=company&entityId=${globex.id}`)).json().changes as {
        action: string;
        side: string;
      }[];
      expect(hist.map((h) => h.action)).toContain('created');
      expect(hist.every((h) => h.side === 'dealscout')).toBe(true);
      const wileHist = (await admin.get(`/api/v1/crm/sync-changes?entityType=contact&entityId=${wile.id}`)).json().changes as {
        side: string;
        action: string;
        fieldLabel: string | null;
        oldValue: string | null;
        newValue: string | null;
      }[];
      expect(wileHist).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ action: 'linked' }),
          expect.objectContaining({ action: 'updated', fieldLabel: 'Job title', newValue: 'Engineer' }),
        ]),
      );
      expect(wileHist.some((h) => h.fieldLabel === 'First name' && h.side === 'dealscout')).toBe(false);
      // …and the outbound phase wrote ours back to Salesforce (push.ts).
      expect(wileHist).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ side: 'crm', action: 'updated', fieldLabel: 'First name', oldValue: 'Wile', newValue: 'W.' }),
        ]),
      );
      expect(
        (await ctx.em().execute<{ first_name: string }[]>(`select first_name from contact where id = ?`, [wile.id]))[0].first_name,
      ).toBe('W.');
      // The refreshed access token was stored.
      expect(sf.requests.filter((r) => r.path === '/services/oauth2/token').length).toBeGreaterThanOrEqual(2);
    }, 90_000);

    it('a second sync reads only what changed since the mark and creates nothing twice; conflicts go by the rules', async () => {
      const before = await count(`select count(*)::int as n from company where organization_id = ?`, [orgId]);
      const [globex] = await ctx
        .em()
        .execute<{ id: string }[]>(`select id from company where organization_id = ? and domain = 'globex.example.com'`, [orgId]);
      // Dealscout edits Globex's name after the CRM's last change: use_latest keeps ours while the CRM does not change it again.
      await new Promise((r) => setTimeout(r, 20));
      expect(
        (
          await admin.put('/api/v1/entity/company', {
            id: globex.id,
            company: { name: 'Globex (edited here)', website: 'globex.example.com' },
          })
        ).statusCode,
      ).toBe(200);
      const same = await sync(admin);
      expect(same.status).toBe('completed');
      // Only the records on the mark's second are read again (skipped up to the last id): no new writes.
      expect(same.result!.accounts.created + same.result!.contacts.created).toBe(0);
      expect(same.result!.accounts.updated).toBe(0);
      expect((await ctx.em().execute<{ name: string }[]>(`select name from company where id = ?`, [globex.id]))[0].name).toBe(
        'Globex (edited here)',
      );
      // Salesforce changes Globex later (a newer SystemModstamp): use_latest takes it; Industry is keep_existing, so ours stays.
      await new Promise((r) => setTimeout(r, 1100));
      sf.touch('Account', acc.globex, { Name: 'Globex Corporation', Industry: 'Utilities' });
      sf.touch('Account', acc.initech, { Industry: 'Software' });
      const changed = await sync(admin);
      expect(changed.result!.accounts).toMatchObject({ created: 0, updated: 2 });
      // Read from the mark: the query asks for records modified since the last one written.
      const q = sf.requests
        .filter((r) => r.path.endsWith('/query'))
        .map((r) => r.query.get('q') ?? '')
        .filter((x) => x.includes('FROM Account'));
      expect(q[q.length - 1]).toMatch(/WHERE SystemModstamp >= \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z ORDER BY SystemModstamp ASC, Id ASC$/);
      expect((await ctx.em().execute<{ name: string }[]>(`select name from company where id = ?`, [globex.id]))[0].name).toBe(
        'Globex Corporation',
      );
      const vals = await ctx
        .em()
        .execute<{ domain: string; value: unknown }[]>(
          `select c.domain, v.value from field_value v join company c on c.id = v.entity_id where v.organization_id = ? and v.field_id = ? order by 1`,
          [orgId, industry.id],
        );
      // Globex keeps 'Energy' (ours, keep_existing); Initech had none, so the CRM fills it.
      expect(vals).toEqual([
        { domain: 'acme.example.com', value: 'Aerospace' },
        { domain: 'globex.example.com', value: 'Energy' },
        { domain: 'initech.example.com', value: 'Software' },
      ]);
      expect(await count(`select count(*)::int as n from company where organization_id = ?`, [orgId])).toBe(before);
    }, 90_000);

    it('two Salesforce contacts with one email (a duplicate in the CRM) at two accounts: one contact, linked to both companies, one primary', async () => {
      sf.addRecord('Contact', { FirstName: 'Dee', LastName: 'Duplicate', Email: 'dee.dup@acme.example.com', AccountId: acc.acme });
      sf.addRecord('Contact', { FirstName: 'Dee', LastName: 'Duplicate', Email: 'DEE.DUP@acme.example.com', AccountId: acc.globex });
      const run = await sync(admin);
      expect(run.status, JSON.stringify(run.result)).toBe('completed');
      const dee = await ctx
        .em()
        .execute<{ id: string }[]>(`select id from contact where organization_id = ? and lower(email) = 'dee.dup@acme.example.com'`, [
          orgId,
        ]);
      expect(dee).toHaveLength(1);
      const links = await ctx.em().execute<{ domain: string; is_primary: boolean }[]>(
        `select c.domain, l.is_primary from company_contact l join company c on c.organization_id = l.organization_id and c.id =
            l.company_id where l.organization_id = ? and l.contact_id = ? order by c.domain`,
        [orgId, dee[0].id],
      );
      expect(links.map((l) => l.domain)).toEqual(['acme.example.com', 'globex.example.com']);
      expect(links.filter((l) => l.is_primary)).toHaveLength(1);
    }, 90_000);

    it('pages are written two at once: an email split across two pages is one contact; pages read again after a lost mark change nothing', async () => {
      // Pages of 3 (the fake's page size): each pair below straddles two pages written together, the
      // second pair in the opposite order (each page inserts the other's key after its own).
      const mk = (first: string, email: string, account: string) =>
        sf.addRecord('Contact', { FirstName: first, LastName: 'Split', Email: email, Title: 'Partner', AccountId: account });
      const emails = ['split.a@acme.example.com', 'split.b@acme.example.com', 'split.c@acme.example.com', 'split.d@acme.example.com'];
      const added = [
        mk('A1', emails[0], acc.acme),
        mk('B1', emails[1], acc.acme),
        mk('C1', emails[2], acc.acme),
        mk('C2', emails[2].toUpperCase(), acc.globex),
        mk('B2', emails[1].toUpperCase(), acc.globex),
        mk('A2', emails[0].toUpperCase(), acc.globex),
        mk('D1', emails[3], acc.initech),
      ];
      // The last of these in the query's order (SystemModstamp, then Id: several share a millisecond)
      // is the last record the sync reads, where its mark ends up.
      const order = (r: { SystemModstamp?: string; Id: string }) => `${r.SystemModstamp} ${r.Id}`;
      const newest = added.reduce((a, b) => (order(b) > order(a) ? b : a));
      const run = await sync(admin);
      expect(run.status, JSON.stringify(run)).toBe('completed');
      const split = await ctx
        .em()
        .execute<{ id: string; email: string }[]>(
          `select id, lower(email) as email from contact where organization_id = ? and last_name = 'Split' order by 2`,
          [orgId],
        );
      expect(split.map((c) => c.email)).toEqual(emails);
      const linkCount = async () =>
        count(
          `select count(*)::int as n from company_contact l join contact c on c.id = l.contact_id where l.organization_id = ? and c.last_name = 'Split'`,
          [orgId],
        );
      const primaries = async () =>
        count(
          `select count(*)::int as n from company_contact l join contact c on c.id = l.contact_id where l.organization_id = ? and
            c.last_name = 'Split' and l.is_primary`,
          [orgId],
        );
      expect(await linkCount()).toBe(7);
      expect(await primaries()).toBe(4);
      const [mark] = await ctx
        .em()
        .execute<{ last_id: string }[]>(
          `select last_id from crm_sync_state where organization_id = ? and object = 'Contact' and scope = '*'`,
          [orgId],
        );
      expect(mark.last_id).toBe(newest.Id);

      // A sync stopped after a page committed but before its mark did (a page written before the one
      // ahead of it) reads those pages again: here every contact, from no mark at all.
      const totals = async () => ({
        contacts: await count(`select count(*)::int as n from contact where organization_id = ?`, [orgId]),
        links: await count(`select count(*)::int as n from crm_link where organization_id = ? and entity_type = 'contact'`, [orgId]),
        memberships: await count(`select count(*)::int as n from company_contact where organization_id = ?`, [orgId]),
        changes: await count(
          `select count(*)::int as n from crm_sync_change where organization_id = ? and entity_type = 'contact' and side = 'dealscout'`,
          [orgId],
        ),
      });
      const before = await totals();
      await ctx
        .em()
        .execute(`update crm_sync_state set high_water = null, last_id = null where organization_id = ? and object = 'Contact'`, [orgId]);
      const again = await sync(admin);
      expect(again.status, JSON.stringify(again.result)).toBe('completed');
      expect(again.result!.contacts).toMatchObject({ created: 0, updated: 0, failed: 0 });
      expect(again.result!.contacts.unchanged).toBeGreaterThanOrEqual(split.length);
      expect(await totals()).toEqual(before);
    }, 90_000);

    it('a user syncs the accounts of their CRM user only; created records are owned by the linked user', async () => {
      const b = await createOrg(ctx, { name: 'Repco' });
      const bAdmin = await signedIn(ctx, b.admin.email);
      const bRepUser = await createUser(ctx, b.organization.id, { role: 'User' });
      const bRep = await signedIn(ctx, bRepUser.email);
      await connectSalesforce(bAdmin);
      const ritaSf = sf.addUser(`rita.${Date.now()}@acme.example.com`, 'Rita Rep');
      sf.addRecord('Account', { Name: 'Rita Account', Website: 'rita-account.example.com', OwnerId: ritaSf.Id });
      sf.addRecord('Contact', { FirstName: 'Rita', LastName: 'Contact', Email: 'rita.contact@example.com', OwnerId: ritaSf.Id });
      const co = await fieldsOf(bAdmin, 'company');
      const ct = await fieldsOf(bAdmin, 'contact');
      expect(
        (
          await bAdmin.put('/api/v1/crm/sync-settings', {
            syncAccounts: true,
            syncContacts: true,
            accountMappings: [{ crmField: 'Name', fieldId: co.get('name')!.id }],
            contactMappings: [{ crmField: 'Email', fieldId: ct.get('email')!.id }],
          })
        ).statusCode,
      ).toBe(200);
      expect((await bRep.post('/api/v1/crm/user-settings', { username: ritaSf.Username })).statusCode).toBe(201);
      const s = await sync(bRep);
      expect(s.status, JSON.stringify(s)).toBe('completed');
      const companies = await ctx
        .em()
        .execute<{ name: string; owner_id: string }[]>(`select name, owner_id from company where organization_id = ?`, [b.organization.id]);
      expect(companies).toEqual([{ name: 'Rita Account', owner_id: bRepUser.id }]);
      expect(await count(`select count(*)::int as n from contact where organization_id = ?`, [b.organization.id])).toBe(1);
      // Another organization's record: 404.
      const [foreign] = await ctx.em().execute<{ id: string }[]>(`select id from company where organization_id = ? limit 1`, [orgId]);
      expect((await bRep.get(`/api/v1/crm/sync-changes?entityType=company&entityId=${foreign.id}`)).statusCode).toBe(404);
    }, 90_000);

    it(
      'the API limit reached mid-sync: the run fails its attempt, the retry resumes after the last page written, ' +
        'nothing is duplicated, the summary counts the whole sync',
      async () => {
        const extra = sf.seed('Account', 30, (i) => ({ Name: `Bulk ${i}`, Website: `bulk-${i}.example.com` }));
        expect(extra).toHaveLength(30);
        // A few pages, then REQUEST_LIMIT_EXCEEDED; the limit is lifted before the retry (1 s later).
        sf.requestLimit = sf.apiRequests + 4;
        const companiesBefore = await count(`select count(*)::int as n from company where organization_id = ?`, [orgId]);
        const start = await admin.post('/api/v1/crm/sync', {});
        const executionId = start.json().executionId as string;
        await eventually(
          async () => {
            const [r] = await ctx
              .em()
              .execute<{ status_message: string | null }[]>(`select status_message from execution where id = ?`, [executionId]);
            return r.status_message === 'Salesforce is limiting requests right now. Please try again in a minute.' ? true : undefined;
          },
          'the rate-limited attempt',
          30_000,
        );
        const partial = await count(`select count(*)::int as n from company where organization_id = ? and name like 'Bulk %'`, [orgId]);
        expect(partial).toBeGreaterThan(0);
        expect(partial).toBeLessThan(30);
        sf.requestLimit = 1_000_000;
        const done = await eventually(
          async () => {
            const st = (await admin.get('/api/v1/crm/sync')).json();
            return st.status === 'progress' ? undefined : st;
          },
          'the retried sync',
          60_000,
        );
        expect(done.status).toBe('completed');
        expect(await count(`select count(*)::int as n from company where organization_id = ? and name like 'Bulk %'`, [orgId])).toBe(30);
        // The summary is the whole sync's: the first attempt's pages count too (the 30, and any account
        // another test added to the fake CRM since this organization's last sync).
        const companiesAfter = await count(`select count(*)::int as n from company where organization_id = ?`, [orgId]);
        expect(companiesAfter - companiesBefore).toBeGreaterThanOrEqual(30);
        expect(done.result.accounts).toMatchObject({ created: companiesAfter - companiesBefore, failed: 0 });
        expect(
          await count(
            `select count(*)::int as n from crm_link where organization_id = ? and entity_type = 'company' and external_id like '001S%'`,
            [orgId],
          ),
        ).toBe(30);
      },
      120_000,
    );

    it('an unreachable or revoked Salesforce fails the sync with the server message (failed)', async () => {
      const c = await createOrg(ctx, { name: 'Revokeco' });
      const cAdmin = await signedIn(ctx, c.admin.email);
      await connectSalesforce(cAdmin);
      const co = await fieldsOf(cAdmin, 'company');
      const ct = await fieldsOf(cAdmin, 'contact');
      await cAdmin.put('/api/v1/crm/sync-settings', {
        syncAccounts: true,
        syncContacts: true,
        accountMappings: [{ crmField: 'Name', fieldId: co.get('name')!.id }],
        contactMappings: [{ crmField: 'Email', fieldId: ct.get('email')!.id }],
      });
      await ctx
        .em()
        .execute(
          `update integration set data = jsonb_set(data, '{instanceUrl}', to_jsonb(?::text)) where organization_id = ? and provider = 'salesforce'`,
          ['http://127.0.0.1:9', c.organization.id],
        );
      const s = await sync(cAdmin);
      expect(s.status).toBe('failed');
      expect(s.message).toBe('Could not reach Salesforce. Please try again.');
      // Revoked at Salesforce: the refresh is refused; the message asks for a reconnect.
      await ctx
        .em()
        .execute(
          `update integration set data = jsonb_set(data, '{instanceUrl}', to_jsonb(?::text)) where organization_id = ? and provider = 'salesforce'`,
          [sf.url, c.organization.id],
        );
      sf.revokeRefreshTokens();
      const revoked = await sync(cAdmin);
      expect(revoked.status).toBe('failed');
      expect(revoked.message).toBe(
        "Salesforce no longer accepts Dealscout's connection. Ask your organization Admin to reconnect Salesforce.",
      );
    }, 120_000);

    it('without an active CRM: the not-enabled message', async () => {
      const d = await createOrg(ctx, { name: 'Nocrm' });
      const dAdmin = await signedIn(ctx, d.admin.email);
      expect((await dAdmin.post('/api/v1/crm/sync', {})).json()).toMatchObject({
        status: 'invalid',
        message: CRM_USERNAME_MESSAGES.notEnabled,
      });
      expect((await dAdmin.get('/api/v1/crm/sync')).json()).toMatchObject({ status: null });
      expect((await dAdmin.get('/api/v1/crm/fields')).json().message).toBe(CRM_USERNAME_MESSAGES.notEnabled);
    });
  });

  describe('Affinity', () => {
    it('organizations and persons become companies and contacts; a 429 is waited out', async () => {
      const g = await createOrg(ctx, { name: 'Affco' });
      const gAdmin = await signedIn(ctx, g.admin.email);
      expect((await gAdmin.post('/api/v1/organization/integration', { provider: 'affinity', apiKey: AFF_KEY })).statusCode).toBe(201);
      const o1 = aff.addOrganization('Stark Industries', 'stark.example.com');
      aff.addOrganization('No Domain Org', null);
      aff.addPerson('Tony', 'Stark', 'tony@stark.example.com', [o1.id]);
      const fields = (await gAdmin.get('/api/v1/crm/fields')).json();
      expect(fields.account.map((f: { label: string }) => f.label)).toEqual(expect.arrayContaining(['Name', 'Domain', 'Industry']));
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
      aff.limitNext(1, 1);
      const s = await sync(gAdmin);
      expect(s.status, JSON.stringify(s)).toBe('completed');
      const rows = await ctx.em().execute<{ name: string }[]>(`select name from company where organization_id = ?`, [g.organization.id]);
      expect(rows).toEqual([{ name: 'Stark Industries' }]);
      expect(await count(`select count(*)::int as n from company_contact where organization_id = ?`, [g.organization.id])).toBe(1);
      // Again: nothing new.
      const again = await sync(gAdmin);
      expect(again.result!.accounts.created + again.result!.contacts.created).toBe(0);
      expect(await count(`select count(*)::int as n from contact where organization_id = ?`, [g.organization.id])).toBe(1);
    }, 90_000);

    it('mapped Affinity global fields are read with their records (v2) and change here when they change in Affinity', async () => {
      const h = await createOrg(ctx, { name: 'Afffields' });
      const hAdmin = await signedIn(ctx, h.admin.email);
      expect((await hAdmin.post('/api/v1/organization/integration', { provider: 'affinity', apiKey: AFF_KEY })).statusCode).toBe(201);
      const org = aff.addOrganization('Wayne Enterprises', 'wayne.example.com');
      const person = aff.addPerson('Lucius', 'Fox', 'lucius@wayne.example.com', [org.id]);
      const value = (fieldId: number, entityId: number, entityType: 'organization' | 'person', v: unknown) =>
        aff.fieldValues.push({
          id: 900_000 + aff.fieldValues.length,
          field_id: fieldId,
          entity_id: entityId,
          entity_type: entityType,
          list_entry_id: null,
          value: v,
        });
      value(101, org.id, 'organization', 'Defense');
      value(102, org.id, 'organization', { id: 2, text: 'Qualified', rank: 1, color: 0 });
      value(201, person.id, 'person', 'CEO');
      const offered = (await hAdmin.get('/api/v1/crm/fields')).json();
      expect(offered.account).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'field:101', label: 'Industry' }),
          expect.objectContaining({ name: 'field:102', label: 'Stage' }),
        ]),
      );
      const sector = await newField(hAdmin, 'company', 'string', 'Sector');
      const stage = await newField(hAdmin, 'company', 'string', 'Stage');
      const role = await newField(hAdmin, 'contact', 'string', 'Role');
      const co = await fieldsOf(hAdmin, 'company');
      const ct = await fieldsOf(hAdmin, 'contact');
      expect(
        (
          await hAdmin.put('/api/v1/crm/sync-settings', {
            syncAccounts: true,
            syncContacts: true,
            accountMappings: [
              { crmField: 'name', fieldId: co.get('name')!.id },
              { crmField: 'field:101', fieldId: sector.id, reconciliation: 'use_latest' },
              { crmField: 'field:102', fieldId: stage.id },
            ],
            contactMappings: [
              { crmField: 'primary_email', fieldId: ct.get('email')!.id },
              { crmField: 'field:201', fieldId: role.id, reconciliation: 'use_latest' },
            ],
          })
        ).statusCode,
      ).toBe(200);
      const before = aff.requests.length;
      const first = await sync(hAdmin);
      expect(first.status, JSON.stringify(first)).toBe('completed');
      const v2 = aff.requests.slice(before).filter((r) => r.path.startsWith('/v2/'));
      expect(v2.map((r) => r.path).sort()).toEqual(['/v2/companies', '/v2/persons']);
      expect(aff.requests.slice(before).some((r) => r.path === '/field-values' && r.method === 'GET')).toBe(false);
      const labels = new Map([
        [sector.id, 'Sector'],
        [stage.id, 'Stage'],
        [role.id, 'Role'],
      ]);
      const valuesOf = async () =>
        Object.fromEntries(
          (
            await ctx
              .em()
              .execute<{ field_id: string; value: unknown }[]>(
                `select field_id, value from field_value where organization_id = ? and field_id in (?, ?, ?)`,
                [h.organization.id, sector.id, stage.id, role.id],
              )
          ).map((r) => [labels.get(r.field_id), r.value]),
        );
      expect(await valuesOf()).toEqual({ Sector: 'Defense', Stage: 'Qualified', Role: 'CEO' });
      // Changed in Affinity: the next sync takes it (use_latest; it differs from what both sides agreed).
      aff.fieldValues.find((v) => v.field_id === 201 && v.entity_id === person.id)!.value = 'Chairman';
      const second = await sync(hAdmin);
      expect(second.status, JSON.stringify(second)).toBe('completed');
      expect(second.result!.contacts).toMatchObject({ created: 0, updated: 1 });
      expect(await valuesOf()).toEqual({ Sector: 'Defense', Stage: 'Qualified', Role: 'Chairman' });
    }, 90_000);
  });
});
