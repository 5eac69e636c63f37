// Contract: the Affinity write layer (AffinityClient writes and AffinityCrmWriter) against the
// loopback fake following Affinity's v1 API: organizations, persons, field values, notes, 422
// validation answers and 429 with Retry-After.
import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { FakeAffinity } from '../../../../test/fakes/affinity-server';
import { AffinityClient } from './affinity';
import { AffinityCrmWriter, affinityNoteMarker, type CrmAccountWrite } from './writer';

const KEY = 'aff-write-key';

describe('Affinity write contract (fake Affinity)', () => {
  let fake: FakeAffinity;
  let client: AffinityClient;
  let w: AffinityCrmWriter;
  beforeAll(async () => {
    fake = await FakeAffinity.start({ apiKeys: [KEY] });
    client = new AffinityClient({ apiKey: KEY, baseUrl: fake.url, maxRetryWaitMs: 2000 });
    w = new AffinityCrmWriter(client);
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => {
    fake.organizations.length = 0;
    fake.persons.splice(1);
    fake.fieldValues.length = 0;
    fake.notes.length = 0;
    fake.requests.length = 0;
  });
  const calls = () => fake.requests.map((r) => `${r.method} ${r.path}`);

  it('organizations: created with field values; a re-run finds them by domain, updates changed values and deletes cleared ones', async () => {
    const input: CrmAccountWrite[] = [
      {
        localId: 'co-1',
        fields: { name: 'Acme', domain: 'https://www.Acme.example.com/about', '103': 87, '104': 'Makes anvils', '102': 2 },
      },
      { localId: 'co-2', fields: { name: 'Globex', domain: 'globex.example.com' } },
    ];
    const first = await w.upsertAccounts(input);
    expect(first.map((r) => [r.localId, r.created, r.error])).toEqual([
      ['co-1', true, null],
      ['co-2', true, null],
    ]);
    const acme = fake.organizations.find((o) => o.id === Number(first[0].crmId))!;
    expect(acme).toMatchObject({ name: 'Acme', domain: 'acme.example.com' });
    expect(fake.valuesOf('organization', acme.id)).toEqual({
      103: 87,
      104: 'Makes anvils',
      102: { id: 2, text: 'Qualified', rank: 1, color: 0 },
    });

    fake.requests.length = 0;
    const again = await w.upsertAccounts([
      { localId: 'co-1', fields: { name: 'Acme Corp', domain: 'acme.example.com', '103': 90, '104': null, '102': 2 } },
    ]);
    expect(again[0]).toMatchObject({ crmId: String(acme.id), created: false, error: null });
    expect(fake.organizations).toHaveLength(2);
    expect(acme.name).toBe('Acme Corp');
    expect(fake.valuesOf('organization', acme.id)).toEqual({ 103: 90, 102: { id: 2, text: 'Qualified', rank: 1, color: 0 } });
    expect(calls()).toEqual([
      'GET /organizations',
      `PUT /organizations/${acme.id}`,
      'GET /field-values',
      expect.stringMatching(/^PUT \/field-values\/\d+$/),
      expect.stringMatching(/^DELETE \/field-values\/\d+$/),
    ]);
  });

  it('a linked organization (crmId) is updated by id; an unknown id and bad input fail that record only', async () => {
    const org = fake.addOrganization('Initech', 'initech.example.com');
    const res = await w.upsertAccounts([
      { localId: 'a', crmId: String(org.id), fields: { name: 'Initech Inc' } },
      { localId: 'b', crmId: '999999', fields: { name: 'Gone' } },
      { localId: 'c', fields: { name: '', domain: 'blank.example.com' } },
      { localId: 'd', fields: { name: 'Typed', '103': 'not a number' } },
      { localId: 'e', fields: { name: 'Odd', Website: 'x' } },
    ]);
    expect(res.map((r) => r.error?.code ?? 'ok')).toEqual(['ok', 'NOT_FOUND', 'VALIDATION', 'VALIDATION', 'INVALID_FIELD']);
    expect(res[2].error).toMatchObject({ message: 'name is required', retryable: false });
    expect(res[3].error?.message).toBe('Dealscout Score expects a number');
    expect(fake.organizations.find((o) => o.id === org.id)?.name).toBe('Initech Inc');
  });

  it('persons: created with email and organization; a re-run finds them by email and merges emails and organizations', async () => {
    const org = fake.addOrganization('Hooli', 'hooli.example.com');
    const other = fake.addOrganization('Other', 'other.example.com');
    const first = await w.upsertContacts([
      {
        localId: 'ct-1',
        fields: { first_name: 'Gavin', last_name: 'Belson', primary_email: 'Gavin@hooli.example.com', 'field:201': 'CEO' },
        accountCrmId: String(org.id),
      },
      { localId: 'ct-2', fields: { first_name: 'No', email: 'no@hooli.example.com' } },
    ]);
    expect(first[0]).toMatchObject({ created: true, error: null });
    expect(first[1].error).toMatchObject({ code: 'VALIDATION', message: 'last_name is required' });
    const p = fake.persons.find((x) => x.id === Number(first[0].crmId))!;
    expect(p).toMatchObject({ emails: ['gavin@hooli.example.com'], organization_ids: [org.id] });
    expect(fake.valuesOf('person', p.id)).toEqual({ 201: 'CEO' });
    p.emails.push('gavin@personal.example.com');

    const again = await w.upsertContacts([
      {
        localId: 'ct-1',
        fields: { first_name: 'Gavin', last_name: 'Belson', email: 'gavin@hooli.example.com', '201': 'CEO' },
        accountCrmId: String(other.id),
      },
    ]);
    expect(again[0]).toMatchObject({ crmId: String(p.id), created: false, error: null });
    expect(fake.persons.filter((x) => x.last_name === 'Belson')).toHaveLength(1);
    expect(p.emails).toEqual(['gavin@hooli.example.com', 'gavin@personal.example.com']);
    expect(p.organization_ids).toEqual([org.id, other.id]);
    // the first run's person, its value and nothing since
    expect(fake.requests.filter((r) => r.method === 'POST' || r.path.startsWith('/field-values/'))).toHaveLength(3);
  });

  it('activities become notes on the person and organization; logging twice never creates a second note', async () => {
    const org = fake.addOrganization('Pied Piper', 'piedpiper.example.com');
    const person = fake.addPerson('Richard', 'Hendricks', 'richard@piedpiper.example.com', [org.id]);
    const items = [
      {
        localId: 'act-1',
        type: 'email',
        subject: 'Intro',
        body: 'Hello Richard',
        date: '2026-11-20',
        contactCrmId: String(person.id),
        accountCrmId: String(org.id),
      },
      { localId: 'act-2', type: 'call', subject: 'Call', body: 'Compression', date: '2026-11-21', accountCrmId: String(org.id) },
      { localId: 'act-3', type: 'other', subject: 'Nowhere', body: '', date: '2026-11-21' },
    ];
    const first = await w.logActivities(items);
    expect(first.map((r) => r.error?.code ?? 'ok')).toEqual(['ok', 'ok', 'MISSING_TARGET']);
    expect(fake.notes[0]).toMatchObject({
      person_ids: [person.id],
      organization_ids: [org.id],
      content: `Intro\n\nHello Richard\n\n${affinityNoteMarker('act-1')}`,
      type: 0,
      created_at: '2026-11-20T12:00:00Z',
    });
    const again = await w.logActivities(items.slice(0, 2));
    expect(again.map((r) => [r.crmId, r.created])).toEqual(first.slice(0, 2).map((r) => [r.crmId, false]));
    expect(fake.notes).toHaveLength(2);
  });

  it('429: a short Retry-After is waited out mid-batch; a long one stops the batch as retryable without more requests', async () => {
    const started = Date.now();
    fake.limitNext(1, 1);
    const res = await w.upsertAccounts([
      { localId: 'r1', fields: { name: 'R1' } },
      { localId: 'r2', fields: { name: 'R2' } },
    ]);
    expect(res.every((r) => r.error === null)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    fake.requests.length = 0;
    fake.limitNext(1, 120);
    const limited = await w.upsertAccounts([
      { localId: 'r3', fields: { name: 'R3' } },
      { localId: 'r4', fields: { name: 'R4' } },
    ]);
    expect(limited.map((r) => r.error)).toEqual([
      expect.objectContaining({ code: 'RATE_LIMITED', retryable: true }),
      expect.objectContaining({ code: 'RATE_LIMITED', retryable: true }),
    ]);
    expect(fake.requests).toHaveLength(1);
    const unauthorized = await new AffinityCrmWriter(new AffinityClient({ apiKey: 'wrong', baseUrl: fake.url })).upsertAccounts([
      { localId: 'x', fields: { name: 'X' } },
      { localId: 'y', fields: { name: 'Y' } },
    ]);
    expect(unauthorized.map((r) => r.error?.code)).toEqual(['UNAUTHORIZED', 'UNAUTHORIZED']);
  });

  it('the fake answers as Affinity documents: one value per single-value field, emails unique, notes need an entity; seeds fast', async () => {
    const org = await client.createOrganization({ name: 'Fields', domain: 'fields.example.com' });
    await client.createFieldValue({ field_id: 104, entity_id: org.id, value: 'one' });
    await expect(client.createFieldValue({ field_id: 104, entity_id: org.id, value: 'two' })).rejects.toMatchObject({ status: 422 });
    await client.createFieldValue({ field_id: 105, entity_id: org.id, value: 'tag-a' });
    await client.createFieldValue({ field_id: 105, entity_id: org.id, value: 'tag-b' });
    expect((await client.fieldValues({ organization_id: org.id })).map((v) => v.value)).toEqual(['one', 'tag-a', 'tag-b']);
    await client.createPerson({ first_name: 'A', last_name: 'B', emails: ['ab@example.com'] });
    await expect(client.createPerson({ first_name: 'C', last_name: 'D', emails: ['AB@example.com'] })).rejects.toMatchObject({
      status: 422,
      message: 'An entity with email AB@example.com already exists',
    });
    await expect(client.createNote({ content: 'orphan' })).rejects.toMatchObject({ status: 422 });
    await expect(client.createOrganization({ name: 'Dup', domain: 'fields.example.com' })).rejects.toMatchObject({ status: 422 });

    fake.seed({ organizations: 20_000, persons: 40_000 });
    expect(fake.organizations.length).toBeGreaterThanOrEqual(20_000);
    expect((await client.findPersonByEmail('person39999@org19999.example.com'))?.organization_ids).toHaveLength(1);
  });
});
