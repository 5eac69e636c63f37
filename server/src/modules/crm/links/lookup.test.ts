import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, TEST_PASSWORD, TestClient, type TestContext } from '../../../../test/helpers';
import { newCompany, newContact, uniq } from '../../../../test/records';

describe('POST /api/v1/entity/lookup', () => {
  let ctx: TestContext;
  let a: TestClient;
  let b: TestClient;
  let orgA: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    const oa = await createOrg(ctx, { name: 'Alpha' });
    const ob = await createOrg(ctx, { name: 'Beta' });
    orgA = oa.organization.id;
    a = await signedIn(ctx, oa.admin.email, '10.40.0.1');
    b = await signedIn(ctx, ob.admin.email, '10.40.0.2');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const lookup = (c: TestClient, body: Record<string, unknown>) => c.post('/api/v1/entity/lookup', body);
  const links = async () =>
    ctx
      .em()
      .getConnection()
      .execute<{ source: string; entity_type: string; external_id: string; company_id: string | null; contact_id: string | null }[]>(
        `select source, entity_type, external_id, company_id, contact_id from crm_link where organization_id = ? order by created_at, external_id`,
        [orgA],
      );

  it('finds a company by domain from any spelling of its website, remembers the CRM id, then finds it by that id alone', async () => {
    const u = uniq();
    const company = await newCompany(a, { name: `Acme ${u}`, website: `https://acme-${u}.com` });
    const crmId = `001${u}`.slice(0, 18);
    let res = await lookup(a, { entityType: 'company', source: 'salesforce', crmId, website: `http://WWW.Acme-${u}.com/about` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, match: { entityType: 'company', id: company.id, matchedBy: 'domain' } });
    // The drawer's first read comes with it: the same details as GET /company/details/:id.
    expect(res.json().company).toEqual((await a.get(`/api/v1/company/details/${company.id}`)).json().company);
    expect((await links()).filter((l) => l.external_id === crmId)).toEqual([
      { source: 'salesforce', entity_type: 'company', external_id: crmId, company_id: company.id, contact_id: null },
    ]);

    // The website changed in the CRM: the id still finds it.
    res = await lookup(a, { entityType: 'company', source: 'salesforce', crmId, website: `acme-renamed-${u}.com` });
    expect(res.json().match).toEqual({ entityType: 'company', id: company.id, matchedBy: 'crmId' });
    // Another source's id of the same value is another record.
    res = await lookup(a, { entityType: 'company', source: 'hubspot', crmId });
    expect(res.json()).toEqual({ success: true, match: null });
    // Asking again links nothing twice.
    await lookup(a, { entityType: 'company', source: 'salesforce', crmId, website: `acme-${u}.com` });
    expect((await links()).filter((l) => l.external_id === crmId)).toHaveLength(1);
  });

  it('answers null for an unknown record and remembers nothing', async () => {
    const u = uniq();
    const before = (await links()).length;
    const res = await lookup(a, { entityType: 'company', source: 'linkedin', crmId: `nobody-${u}`, website: `nobody-${u}.com` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, match: null });
    expect((await links()).length).toBe(before);
  });

  it('finds a contact by email (case-insensitive) and then by its CRM id', async () => {
    const u = uniq();
    const contact = await newContact(a, { firstName: 'Jane', lastName: 'Doe', email: `jane.${u}@acme.com` });
    let res = await lookup(a, {
      entityType: 'contact',
      source: 'affinity',
      crmId: `9${u.replace(/\D/g, '')}`,
      email: `Jane.${u}@ACME.com`,
    });
    expect(res.json().match).toEqual({ entityType: 'contact', id: contact.id, matchedBy: 'email' });
    expect(res.json().contact).toMatchObject({ id: contact.id, firstName: 'Jane', lastName: 'Doe' });
    expect(res.json().company).toBeUndefined();
    res = await lookup(a, { entityType: 'contact', source: 'affinity', crmId: `9${u.replace(/\D/g, '')}` });
    expect(res.json().match).toEqual({ entityType: 'contact', id: contact.id, matchedBy: 'crmId' });
    // A company lookup with the same id is not the contact.
    res = await lookup(a, { entityType: 'company', source: 'affinity', crmId: `9${u.replace(/\D/g, '')}` });
    expect(res.json().match).toBeNull();
  });

  it("never finds another organization's records, by domain or by CRM id", async () => {
    const u = uniq();
    const company = await newCompany(a, { name: `Own ${u}`, website: `own-${u}.com` });
    await lookup(a, { entityType: 'company', source: 'hubspot', crmId: `h${u}`, website: `own-${u}.com` });
    expect((await lookup(b, { entityType: 'company', source: 'hubspot', crmId: `h${u}` })).json().match).toBeNull();
    expect((await lookup(b, { entityType: 'company', source: 'hubspot', website: `own-${u}.com` })).json().match).toBeNull();
    // B's own company with the same domain gets B's own link; A's link is untouched.
    const bCompany = await newCompany(b, { name: `Theirs ${u}`, website: `own-${u}.com` });
    expect((await lookup(b, { entityType: 'company', source: 'hubspot', crmId: `h${u}`, website: `own-${u}.com` })).json().match.id).toBe(
      bCompany.id,
    );
    expect((await lookup(a, { entityType: 'company', source: 'hubspot', crmId: `h${u}` })).json().match.id).toBe(company.id);
  });

  it('a deleted record takes its links with it', async () => {
    const u = uniq();
    const company = await newCompany(a, { name: `Gone ${u}`, website: `gone-${u}.com` });
    await lookup(a, { entityType: 'company', source: 'linkedin', crmId: `gone-${u}`, website: `gone-${u}.com` });
    expect((await a.del(`/api/v1/company/delete/${company.id}`)).statusCode).toBe(200);
    expect((await lookup(a, { entityType: 'company', source: 'linkedin', crmId: `gone-${u}` })).json().match).toBeNull();
    expect((await links()).filter((l) => l.external_id === `gone-${u}`)).toEqual([]);
  });

  it('works with a bearer token (the extension) and refuses anonymous callers', async () => {
    const u = uniq();
    const company = await newCompany(a, { name: `Tok ${u}`, website: `tok-${u}.com` });
    const email = (await a.get('/api/v1/user')).json().user.email as string;
    const anon = new TestClient(ctx.app, '10.40.0.3');
    const tok = await anon.post('/api/v1/auth/token', { email, password: TEST_PASSWORD, label: 'Chrome extension' });
    expect(tok.statusCode, tok.body).toBe(200);
    expect(
      (await anon.post('/api/v1/entity/lookup', { entityType: 'company', source: 'salesforce', website: `tok-${u}.com` })).statusCode,
    ).toBe(401);
    anon.bearer = tok.json().token;
    const res = await anon.post('/api/v1/entity/lookup', { entityType: 'company', source: 'salesforce', website: `tok-${u}.com` });
    expect(res.json().match).toEqual({ entityType: 'company', id: company.id, matchedBy: 'domain' });
  });

  it('bad input: a 400 with a clear message, nothing written', async () => {
    const before = (await links()).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ entityType: 'idea', source: 'salesforce', crmId: 'x' }, 'Entity type must be company or contact'],
      [{ entityType: 'company', source: 'pipedrive', crmId: 'x' }, 'Source must be one of salesforce, affinity, linkedin, hubspot'],
      [{ entityType: 'company', source: 'salesforce' }, 'Give a CRM id, a website or domain, or an email to look up'],
      [
        { entityType: 'company', source: 'salesforce', crmId: '  ', website: '' },
        'Give a CRM id, a website or domain, or an email to look up',
      ],
      [
        { entityType: 'company', source: 'salesforce', crmId: 'a\u0000b', website: 'acme.com' },
        'Text must not contain NUL characters or invalid Unicode (lone surrogates).',
      ],
      [
        { entityType: 'company', source: 'salesforce', crmId: 'x', website: 'acme\uD800.com' },
        'Text must not contain NUL characters or invalid Unicode (lone surrogates).',
      ],
      [{ entityType: 'company', source: 'salesforce', crmId: 'x'.repeat(256) }, 'Too big: expected string to have <=255 characters'],
    ];
    for (const [body, message] of cases) {
      const res = await lookup(a, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().success).toBe(false);
      expect(JSON.stringify(res.json()), JSON.stringify(body)).toContain(message);
    }
    expect((await links()).length).toBe(before);
  });
});
