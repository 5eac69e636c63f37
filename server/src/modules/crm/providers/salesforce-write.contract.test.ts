// Contract: the Salesforce write layer (SalesforceClient collections / Bulk API 2.0 and the
// SalesforceCrmWriter) against the loopback fake following Salesforce's documented sObject
// Collections, Bulk API 2.0 ingest, error shapes, the limit header and session expiry.
import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { FakeSalesforce } from '../../../../test/fakes/salesforce-server';
import {
  SALESFORCE_API_VERSION,
  SalesforceClient,
  authorizationUrl,
  exchangeCode,
  ingestCsv,
  parseIngestError,
  type SalesforceAppConfig,
  type SalesforceTokens,
} from './salesforce';
import { SalesforceCrmWriter, type CrmWriteResult } from './writer';
import { pkcePair } from '../../../../test/pkce';

describe('Salesforce write contract (fake Salesforce)', () => {
  let sf: FakeSalesforce;
  let cfg: SalesforceAppConfig;

  beforeAll(async () => {
    sf = await FakeSalesforce.start({ clientId: 'client-w', clientSecret: 'secret-w' });
    cfg = {
      clientId: 'client-w',
      clientSecret: 'secret-w',
      loginUrl: sf.url,
      redirectUri: 'http://localhost:3000/api/v1/integrations/salesforce/callback',
    };
  });
  afterAll(async () => {
    await sf?.close();
  });
  beforeEach(() => {
    sf.records.Account.length = 0;
    sf.records.Contact.length = 0;
    sf.records.Task.length = 0;
    sf.writes.rules.length = 0;
    sf.writes.bulkFailAfterRows = null;
    sf.requestLimit = 15000;
    sf.apiRequests = 0;
    sf.requests.length = 0;
  });

  async function tokens(): Promise<SalesforceTokens> {
    const { verifier, challenge } = await pkcePair();
    const url = new URL(authorizationUrl(cfg, 'st', challenge));
    const form = new URLSearchParams({
      client_id: cfg.clientId,
      redirect_uri: cfg.redirectUri,
      state: 'st',
      code_challenge: url.searchParams.get('code_challenge')!,
      decision: 'allow',
    });
    const res = await fetch(`${sf.url}/services/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    return exchangeCode(cfg, code, verifier);
  }
  async function client(onRefresh?: (t: string) => void) {
    const t = await tokens();
    return { client: new SalesforceClient(cfg, t, onRefresh), tokens: t };
  }
  const okIds = (rs: CrmWriteResult[]) => rs.filter((r) => r.error === null).map((r) => r.crmId);
  const api = (path: string) => sf.requests.filter((r) => r.path === `/services/data/v${SALESFORCE_API_VERSION}/${path}`);

  it('upserts accounts by the Dealscout External ID in collections of 200; a second run updates, never duplicates', async () => {
    const { client: c } = await client();
    const w = new SalesforceCrmWriter(c);
    const input = Array.from({ length: 450 }, (_, i) => ({
      localId: `co-${i}`,
      fields: { Name: `Acme ${i}`, Website: `acme${i}.example.com` },
    }));
    const first = await w.upsertAccounts(input);
    expect(first).toHaveLength(450);
    expect(first.every((r) => r.error === null && r.created)).toBe(true);
    expect(first.map((r) => r.localId)).toEqual(input.map((r) => r.localId));
    expect(api('composite/sobjects/Account/Dealscout_Id__c').filter((r) => r.method === 'PATCH')).toHaveLength(3);
    expect(sf.records.Account).toHaveLength(450);
    expect(sf.find('Account', { Dealscout_Id__c: 'co-7' })[0]).toMatchObject({ Name: 'Acme 7', Id: first[7].crmId });

    const again = await w.upsertAccounts(input.map((r) => ({ ...r, fields: { ...r.fields, Name: `${r.fields.Name} Ltd` } })));
    expect(again.every((r) => r.error === null && !r.created)).toBe(true);
    expect(okIds(again)).toEqual(okIds(first));
    expect(sf.records.Account).toHaveLength(450);
    expect(sf.find('Account', { Dealscout_Id__c: 'co-7' })[0].Name).toBe('Acme 7 Ltd');
    expect(c.limitInfo).toMatchObject({ limit: 15000 });
  });

  it("partial failure: each record answers on its own with Salesforce's status codes", async () => {
    const { client: c } = await client();
    const account = sf.addRecord('Account', { Name: 'Globex' });
    sf.rejectWrites({
      sobject: 'Contact',
      when: (v) => v.Title === 'Blocked',
      statusCode: 'FIELD_CUSTOM_VALIDATION_EXCEPTION',
      message: 'Title cannot be Blocked',
    });
    const res = await new SalesforceCrmWriter(c).upsertContacts([
      { localId: 'ct-1', fields: { FirstName: 'Ann', LastName: 'Lee', Email: 'ann@globex.example.com' }, accountCrmId: account.Id },
      { localId: 'ct-2', fields: { FirstName: 'No', Email: 'no@globex.example.com' } },
      { localId: 'ct-3', fields: { LastName: 'Bad', Email: 'not-an-email' } },
      { localId: 'ct-4', fields: { LastName: 'Stop', Title: 'Blocked' } },
      { localId: 'ct-5', fields: { LastName: 'Orphan' }, accountCrmId: '001000000000000AAA' },
      { localId: 'ct-1', fields: { LastName: 'Twice' } },
    ]);
    expect(res.map((r) => [r.localId, r.error?.code ?? 'ok'])).toEqual([
      ['ct-1', 'ok'],
      ['ct-2', 'REQUIRED_FIELD_MISSING'],
      ['ct-3', 'INVALID_EMAIL_ADDRESS'],
      ['ct-4', 'FIELD_CUSTOM_VALIDATION_EXCEPTION'],
      ['ct-5', 'INVALID_CROSS_REFERENCE_KEY'],
      ['ct-1', 'DUPLICATE_LOCAL_ID'],
    ]);
    expect(res[1].error).toMatchObject({ message: 'Required fields are missing: [LastName]', fields: ['LastName'], retryable: false });
    expect(sf.records.Contact).toHaveLength(1);
    expect(sf.records.Contact[0]).toMatchObject({ LastName: 'Lee', AccountId: account.Id, Dealscout_Id__c: 'ct-1' });
  });

  it('a record already linked (crmId) is updated by Id and stamped with the Dealscout id, not created again', async () => {
    const { client: c } = await client();
    const existing = sf.addRecord('Account', { Name: 'Initech' });
    const res = await new SalesforceCrmWriter(c).upsertAccounts([
      { localId: 'co-x', crmId: existing.Id, fields: { Name: 'Initech Inc', Industry: null } },
    ]);
    expect(res[0]).toMatchObject({ crmId: existing.Id, created: false, error: null });
    expect(sf.records.Account).toHaveLength(1);
    expect(sf.records.Account[0]).toMatchObject({ Name: 'Initech Inc', Dealscout_Id__c: 'co-x', Industry: null });
    const gone = await new SalesforceCrmWriter(c).upsertAccounts([
      { localId: 'co-y', crmId: '001000000000000AAA', fields: { Name: 'Gone' } },
    ]);
    expect(gone[0].error?.code).toBe('ENTITY_IS_DELETED');
  });

  it('request-level faults: an unknown field fails its records (not retryable); the limit stops the batch (retryable)', async () => {
    const { client: c } = await client();
    const w = new SalesforceCrmWriter(c, { concurrency: 1 });
    const bad = await w.upsertAccounts([{ localId: 'a', fields: { Name: 'A', Nope__c: 'x' } }]);
    expect(bad[0].error).toMatchObject({
      code: 'INVALID_FIELD',
      message: "No such column 'Nope__c' on sobject of type Account",
      retryable: false,
    });

    sf.requestLimit = sf.apiRequests + 1;
    const res = await w.upsertAccounts(Array.from({ length: 500 }, (_, i) => ({ localId: `rl-${i}`, fields: { Name: `R ${i}` } })));
    expect(res.slice(0, 200).every((r) => r.error === null)).toBe(true);
    expect(res.slice(200).every((r) => r.error?.code === 'REQUEST_LIMIT_EXCEEDED' && r.error.retryable)).toBe(true);
    // Stopped after the refusal: the third chunk was never sent.
    expect(api('composite/sobjects/Account/Dealscout_Id__c').length).toBe(3);
    expect(c.limitInfo).toEqual({ used: sf.requestLimit, limit: sf.requestLimit });
  });

  it('a revoked connection stops the batch as not retryable; the limit refusing a bulk job marks its records retryable', async () => {
    const { client: c } = await client();
    const bulk = await new SalesforceCrmWriter(c, { bulkThreshold: 1, bulkPollIntervalMs: 5 }).upsertAccounts([
      { localId: 'l1', fields: { Name: 'L1' } },
      { localId: 'l2', fields: { Name: 'L2' } },
    ]);
    expect(bulk.every((r) => r.error === null)).toBe(true);
    sf.requestLimit = sf.apiRequests + 1; // the job is created, the upload is refused
    const limited = await new SalesforceCrmWriter(c, { bulkThreshold: 1, bulkPollIntervalMs: 5 }).upsertAccounts([
      { localId: 'l3', fields: { Name: 'L3' } },
      { localId: 'l4', fields: { Name: 'L4' } },
    ]);
    expect(limited.map((r) => [r.error?.code, r.error?.retryable])).toEqual([
      ['REQUEST_LIMIT_EXCEEDED', true],
      ['REQUEST_LIMIT_EXCEEDED', true],
    ]);
    sf.requestLimit = 15000;

    sf.revokeRefreshTokens();
    sf.requests.length = 0;
    const lost = await new SalesforceCrmWriter(c, { concurrency: 1 }).upsertAccounts(
      Array.from({ length: 300 }, (_, i) => ({ localId: `v-${i}`, fields: { Name: `V ${i}` } })),
    );
    expect(new Set(lost.map((r) => `${r.error?.code}:${String(r.error?.retryable)}`))).toEqual(new Set(['invalid_grant:false']));
    expect(api('composite/sobjects/Account/Dealscout_Id__c')).toHaveLength(1);
  });

  it('a session expiring mid-batch is refreshed once and the batch completes', async () => {
    const refreshed: string[] = [];
    const { client: c } = await client((t) => refreshed.push(t));
    sf.expireAccessTokensAfter(1);
    const res = await new SalesforceCrmWriter(c, { concurrency: 1 }).upsertAccounts(
      Array.from({ length: 450 }, (_, i) => ({ localId: `s-${i}`, fields: { Name: `S ${i}` } })),
    );
    expect(res.every((r) => r.error === null)).toBe(true);
    expect(refreshed).toHaveLength(1);
    expect(sf.records.Account).toHaveLength(450);
  });

  it('Bulk API 2.0 above the threshold: job created, CSV uploaded, closed, polled; rows mapped back; re-run does not duplicate', async () => {
    const { client: c } = await client();
    const jobs: string[] = [];
    const w = new SalesforceCrmWriter(c, {
      bulkThreshold: 5,
      bulkPollIntervalMs: 5,
      onBulkJob: (j) => {
        jobs.push(j.jobId);
      },
    });
    const input = Array.from({ length: 30 }, (_, i) => ({
      localId: `b-${i}`,
      fields: { FirstName: 'Bo', LastName: i === 4 ? '' : `Bulk ${i}`, Email: i === 9 ? 'x@' : `b${i}@example.com` },
    }));
    const res = await w.upsertContacts(input);
    expect(jobs).toHaveLength(1);
    expect(res.map((r) => r.localId)).toEqual(input.map((r) => r.localId));
    expect(res[4].error).toMatchObject({ code: 'REQUIRED_FIELD_MISSING', fields: ['LastName'], retryable: false });
    expect(res[9].error?.code).toBe('INVALID_EMAIL_ADDRESS');
    expect(res.filter((r) => r.error === null && r.created)).toHaveLength(28);
    expect(sf.records.Contact).toHaveLength(28);
    const ingest = sf.requests.filter((r) => r.path.includes('/jobs/ingest'));
    expect(ingest.map((r) => r.method).slice(0, 3)).toEqual(['POST', 'PUT', 'PATCH']);
    expect(ingest.some((r) => r.path.endsWith('/successfulResults'))).toBe(true);
    expect(sf.writes.jobs.get(jobs[0])).toMatchObject({
      state: 'JobComplete',
      operation: 'upsert',
      externalIdFieldName: 'Dealscout_Id__c',
    });

    const again = await w.upsertContacts(input.map((r, i) => (i === 4 ? { ...r, fields: { ...r.fields, LastName: 'Fixed' } } : r)));
    expect(again[4]).toMatchObject({ created: true, error: null });
    expect(again.filter((r) => r.error === null && !r.created)).toHaveLength(28);
    expect(sf.records.Contact).toHaveLength(29);
  });

  it('Bulk API 2.0: a session expiring before the upload replays the CSV after the refresh; a failed job leaves unprocessed rows retryable', async () => {
    const refreshed: string[] = [];
    const { client: c } = await client((t) => refreshed.push(t));
    const w = new SalesforceCrmWriter(c, { bulkThreshold: 2, bulkPollIntervalMs: 5 });
    sf.expireAccessTokensAfter(1); // the job is created, the upload meets an expired session
    const res = await w.upsertAccounts(
      Array.from({ length: 10 }, (_, i) => ({ localId: `r-${i}`, fields: { Name: `R ${i}`, NumberOfEmployees: i } })),
    );
    expect(refreshed).toHaveLength(1);
    expect(res.every((r) => r.error === null)).toBe(true);
    expect(sf.find('Account', { Dealscout_Id__c: 'r-3' })[0].NumberOfEmployees).toBe(3);

    sf.writes.bulkFailAfterRows = 4;
    const partial = await w.upsertAccounts(Array.from({ length: 10 }, (_, i) => ({ localId: `u-${i}`, fields: { Name: `U ${i}` } })));
    expect(partial.slice(0, 4).every((r) => r.error === null)).toBe(true);
    expect(partial.slice(4).every((r) => r.error?.code === 'UNPROCESSED' && r.error.retryable)).toBe(true);
  });

  it('a bulk job can be collected again by id (resume after a crash)', async () => {
    const { client: c } = await client();
    const job = await c.createIngestJob({ object: 'Account', operation: 'upsert', externalIdFieldName: 'Dealscout_Id__c' });
    expect(job.state).toBe('Open');
    await c.uploadIngestData(
      job.id,
      ingestCsv([
        { Name: 'Crash Co', Dealscout_Id__c: 'cr-1' },
        { Name: '', Dealscout_Id__c: 'cr-2' },
      ]),
    );
    await c.setIngestJobState(job.id, 'UploadComplete');
    // …the process dies here; a new one resumes with the stored job id.
    const res = await new SalesforceCrmWriter(c, { bulkPollIntervalMs: 5 }).resumeBulkJob(job.id);
    expect(res.find((r) => r.localId === 'cr-1')).toMatchObject({ created: true, error: null });
    expect(res.find((r) => r.localId === 'cr-2')?.error?.code).toBe('REQUIRED_FIELD_MISSING');
    await c.deleteIngestJob(job.id);
    expect(sf.writes.jobs.has(job.id)).toBe(false);
  });

  it('activities become completed Tasks (Email subtype for emails) on WhoId / WhatId; logging twice never creates a second Task', async () => {
    const { client: c } = await client();
    const acct = sf.addRecord('Account', { Name: 'Hooli' });
    const contact = sf.addRecord('Contact', { LastName: 'Belson', AccountId: acct.Id });
    const items = [
      {
        localId: 'act-1',
        type: 'email',
        subject: 'Intro',
        body: 'Hello Gavin',
        date: '2026-11-20',
        contactCrmId: contact.Id,
        accountCrmId: acct.Id,
      },
      { localId: 'act-2', type: 'call', subject: 'Call', body: 'Talked pricing', date: '2026-11-21', contactCrmId: contact.Id },
      { localId: 'act-3', type: 'f2f', subject: 'Lunch', body: '', date: '2026-11-22', accountCrmId: acct.Id },
    ];
    const w = new SalesforceCrmWriter(c);
    const first = await w.logActivities(items);
    expect(first.every((r) => r.error === null && r.created)).toBe(true);
    expect(sf.find('Task', { Dealscout_Id__c: 'act-1' })[0]).toMatchObject({
      Subject: 'Intro',
      Description: 'Hello Gavin',
      ActivityDate: '2026-11-20',
      Status: 'Completed',
      TaskSubtype: 'Email',
      WhoId: contact.Id,
      WhatId: acct.Id,
    });
    expect(sf.find('Task', { Dealscout_Id__c: 'act-2' })[0].TaskSubtype).toBe('Call');
    expect(sf.find('Task', { Dealscout_Id__c: 'act-3' })[0].TaskSubtype).toBe('Task');
    const again = await w.logActivities(items);
    expect(again.map((r) => [r.crmId, r.created])).toEqual(first.map((r) => [r.crmId, false]));
    expect(sf.records.Task).toHaveLength(3);
    // The same through Bulk API 2.0 (insert; duplicates answer the existing Task).
    const bulk = await new SalesforceCrmWriter(c, { bulkThreshold: 1, bulkPollIntervalMs: 5 }).logActivities([
      ...items,
      { ...items[0], localId: 'act-4' },
    ]);
    expect(bulk.map((r) => r.created)).toEqual([false, false, false, true]);
    expect(bulk.slice(0, 3).map((r) => r.crmId)).toEqual(first.map((r) => r.crmId));
    expect(sf.records.Task).toHaveLength(4);
  });

  it('the fake answers as Salesforce documents: 200-record cap, allOrNone rollback, non-external upsert key, one upload per job', async () => {
    const { client: c, tokens: t } = await client();
    const raw = (method: string, path: string, body: string, type = 'application/json') =>
      fetch(`${sf.url}/services/data/v${SALESFORCE_API_VERSION}/${path}`, {
        method,
        body,
        headers: { authorization: `Bearer ${t.accessToken}`, 'content-type': type },
      });
    const many = { records: Array.from({ length: 201 }, (_, i) => ({ attributes: { type: 'Account' }, Name: `N${i}` })) };
    const cap = await raw('POST', 'composite/sobjects', JSON.stringify(many));
    expect(cap.status).toBe(400);
    expect(await cap.json()).toEqual([
      { errorCode: 'EXCEEDED_ID_LIMIT', message: 'record limit reached. cannot submit more than 200 records into this call' },
    ]);
    const notExt = await raw(
      'PATCH',
      'composite/sobjects/Account/Name',
      JSON.stringify({ records: [{ attributes: { type: 'Account' }, Name: 'x' }] }),
    );
    expect(notExt.status).toBe(404);

    const rolled = await c.collection('create', 'Account', [{ Name: 'Kept?' }, { Name: '' }], { allOrNone: true });
    expect(rolled.map((r) => r.errors[0]?.statusCode)).toEqual(['ALL_OR_NONE_OPERATION_ROLLED_BACK', 'REQUIRED_FIELD_MISSING']);
    expect(sf.records.Account).toHaveLength(0);
    const readOnly = await c.collection('create', 'Account', [{ Name: 'RO', LastModifiedDate: '2020-01-01T00:00:00.000+0000' }]);
    expect(readOnly[0].errors[0]).toMatchObject({ statusCode: 'INVALID_FIELD_FOR_INSERT_UPDATE', fields: ['LastModifiedDate'] });
    const dupe = await c.collection(
      'upsert',
      'Account',
      [
        { Name: 'D1', Dealscout_Id__c: 'same' },
        { Name: 'D2', Dealscout_Id__c: 'SAME' },
      ],
      { externalIdField: 'Dealscout_Id__c' },
    );
    expect(dupe.map((r) => r.errors[0]?.statusCode)).toEqual(['DUPLICATE_EXTERNAL_ID', 'DUPLICATE_EXTERNAL_ID']);
    const created = await c.collection('create', 'Account', [
      { Name: 'U1', Dealscout_Id__c: 'uniq' },
      { Name: 'U2', Dealscout_Id__c: 'UNIQ' },
    ]);
    expect(created[1].errors[0]).toEqual({
      statusCode: 'DUPLICATE_VALUE',
      message: `duplicate value found: Dealscout_Id__c duplicates value on record with id: ${created[0].id}`,
      fields: [],
    });
    await expect(
      c.collection(
        'create',
        'Account',
        Array.from({ length: 201 }, () => ({ Name: 'x' })),
      ),
    ).rejects.toMatchObject({ errorCode: 'EXCEEDED_ID_LIMIT' });

    const job = await c.createIngestJob({ object: 'Account', operation: 'insert' });
    await c.uploadIngestData(job.id, 'Name\nOne\n');
    await expect(c.uploadIngestData(job.id, 'Name\nTwo\n')).rejects.toMatchObject({ errorCode: 'INVALIDJOBSTATE' });
    await expect(c.createIngestJob({ object: 'Nope', operation: 'insert' })).rejects.toMatchObject({ errorCode: 'INVALIDJOB' });
    const badCol = await c.createIngestJob({ object: 'Account', operation: 'insert' });
    await c.uploadIngestData(badCol.id, 'Name,Bogus__c\nA,b\n');
    await c.setIngestJobState(badCol.id, 'UploadComplete');
    expect(await c.waitForIngestJob(badCol.id, { pollIntervalMs: 5 })).toMatchObject({
      state: 'Failed',
      errorMessage: 'InvalidBatch : Field name not found : Bogus__c',
    });
    expect((await c.ingestJobResults(badCol.id)).unprocessed).toEqual([{ Name: 'A', Bogus__c: 'b' }]);
  });

  it('CSV and sf__Error helpers', () => {
    expect(
      ingestCsv([
        { Name: 'A, "quoted"', Industry: null },
        { Name: 'B', Website: 'b.example.com' },
      ]),
    ).toBe('Name,Industry,Website\n"A, ""quoted""",#N/A,\nB,,b.example.com\n');
    expect(parseIngestError('REQUIRED_FIELD_MISSING:Required fields are missing: [LastName]:LastName --')).toEqual({
      statusCode: 'REQUIRED_FIELD_MISSING',
      message: 'Required fields are missing: [LastName]',
      fields: ['LastName'],
    });
    expect(parseIngestError('DUPLICATE_VALUE:duplicate value found: X duplicates value on record with id: 001A:--').message).toBe(
      'duplicate value found: X duplicates value on record with id: 001A',
    );
  });

  it('seeds 100,000 accounts and 200,000 contacts in memory, and upserts by external id find the seeded records', async () => {
    sf.seed('Account', 100_000, (i) => ({ Name: `Seed ${i}`, Dealscout_Id__c: `seed-${i}` }));
    sf.seed('Contact', 200_000, (i) => ({ LastName: `Person ${i}`, Email: `p${i}@seed.example.com` }));
    expect(sf.records.Account).toHaveLength(100_000);
    expect(sf.records.Contact).toHaveLength(200_000);
    const { client: c } = await client();
    const res = await new SalesforceCrmWriter(c).upsertAccounts(
      Array.from({ length: 400 }, (_, i) => ({ localId: `seed-${i * 7}`, fields: { Name: `Renamed ${i}` } })),
    );
    expect(res.every((r) => r.error === null && !r.created)).toBe(true);
    expect(sf.records.Account).toHaveLength(100_000);
    expect(sf.find('Account', { Dealscout_Id__c: 'seed-70' })[0].Name).toBe('Renamed 10');
  });
});
