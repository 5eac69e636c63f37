import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, TestClient, TEST_PASSWORD, type TestContext } from '../../../../test/helpers';
import { newCompany, newContact, link, uniq } from '../../../../test/records';

const issuesOf = (body: { issues?: { path: string; message: string }[] }) =>
  Object.fromEntries((body.issues ?? []).map((i) => [i.path, i.message]));

describe('mailbox people (Outlook add-in)', () => {
  let ctx: TestContext;
  let a: TestClient;
  let b: TestClient;
  /** The add-in's client: a bearer token, no cookie. */
  let addin: TestClient;

  beforeAll(async () => {
    ctx = await createTestApp();
    const oa = await createOrg(ctx, { name: 'Alpha' });
    const ob = await createOrg(ctx, { name: 'Beta' });
    a = await signedIn(ctx, oa.admin.email, '10.44.0.1');
    b = await signedIn(ctx, ob.admin.email, '10.44.0.2');
    addin = new TestClient(ctx.app, '10.44.0.3');
    const res = await addin.post('/api/v1/auth/token', { email: oa.admin.email, password: TEST_PASSWORD, label: 'Outlook add-in' });
    expect(res.statusCode, res.body).toBe(200);
    addin.bearer = res.json().token;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const count = async (table: 'contact' | 'company' | 'company_contact') => {
    const [{ n }] = await ctx.em().getConnection().execute<{ n: number }[]>(`select count(*)::int as n from ${table}`);
    return n;
  };

  describe('POST /api/v1/contact/match-emails', () => {
    it("matches an email's participants case-insensitively, in the order asked, with their primary company", async () => {
      const u = uniq();
      const company = await newCompany(a, { name: `Acme ${u}`, website: `acme-${u}.com` });
      const jane = await newContact(a, { firstName: 'Jane', lastName: 'Doe', email: `jane-${u}@acme-${u}.com` });
      const bob = await newContact(a, { firstName: 'Bob', lastName: 'Roe', email: `bob-${u}@other-${u}.com` });
      await link(a, company.id, jane.id);
      const res = await addin.post('/api/v1/contact/match-emails', {
        emails: [`  BOB-${u}@Other-${u}.com`, `nobody-${u}@acme-${u}.com`, `Jane-${u}@ACME-${u}.com`, `jane-${u}@acme-${u}.com`],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        contacts: [
          { id: bob.id, firstName: 'Bob', lastName: 'Roe', email: `bob-${u}@other-${u}.com`, primaryCompany: null },
          {
            id: jane.id,
            firstName: 'Jane',
            lastName: 'Doe',
            email: `jane-${u}@acme-${u}.com`,
            primaryCompany: { id: company.id, name: `Acme ${u}`, website: `acme-${u}.com`, domain: `acme-${u}.com` },
          },
        ],
      });
    });

    it("never answers another organization's contacts", async () => {
      const u = uniq();
      await newContact(b, { firstName: 'Secret', lastName: 'Person', email: `secret-${u}@beta.com` });
      const res = await a.post('/api/v1/contact/match-emails', { emails: [`secret-${u}@beta.com`] });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().contacts).toEqual([]);
    });

    it('400 with a clear message for no emails or too many', async () => {
      const none = await a.post('/api/v1/contact/match-emails', { emails: [] });
      expect(none.statusCode).toBe(400);
      expect(issuesOf(none.json())).toEqual({ emails: 'At least one email is required' });
      const missing = await a.post('/api/v1/contact/match-emails', {});
      expect(missing.statusCode).toBe(400);
      expect(issuesOf(missing.json())).toEqual({ emails: 'At least one email is required' });
      const many = await a.post('/api/v1/contact/match-emails', { emails: Array.from({ length: 101 }, (_, i) => `p${i}@x.com`) });
      expect(many.statusCode).toBe(400);
      expect(issuesOf(many.json())).toEqual({ emails: 'At most 100 emails can be matched at once' });
    });

    it('401 without a session or token', async () => {
      const res = await new TestClient(ctx.app, '10.44.0.9').post('/api/v1/contact/match-emails', { emails: ['a@b.com'] });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('POST /api/v1/contact/from-email', () => {
    it('creates the contact and its company from the email domain in one step (key contact, primary company)', async () => {
      const u = uniq();
      const res = await addin.post('/api/v1/contact/from-email', {
        contact: { firstName: 'Nina', lastName: 'Park', email: `Nina.Park@Northwind-${u}.co.uk` },
      });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({
        success: true,
        message: `Contact and company Northwind ${u} created`,
        companyCreated: true,
        company: { name: `Northwind ${u}`, website: `northwind-${u}.co.uk`, domain: `northwind-${u}.co.uk` },
        contact: {
          firstName: 'Nina',
          lastName: 'Park',
          email: `nina.park@northwind-${u}.co.uk`,
          primaryCompany: { domain: `northwind-${u}.co.uk` },
        },
      });
      expect(body.contact.entityMapping).toEqual([expect.objectContaining({ companyId: body.company.id, isKey: true, isPrimary: true })]);
      const company = await a.get(`/api/v1/company/details/${body.company.id}`);
      expect(company.json().company.entityMapping.map((m: { contactId: string }) => m.contactId)).toEqual([body.contact.id]);
      // Published for the other panes and the web app's tables.
      const events = await ctx
        .em()
        .getConnection()
        .execute<{ path: string; kind: string }[]>(`select path, kind from realtime_event where data->>'id' in (?, ?) order by seq`, [
          body.contact.id,
          body.company.id,
        ]);
      const created = events.filter((e) => e.kind === 'entity.created');
      expect(created.map((e) => e.path.split('/').pop()).sort()).toEqual(['company', 'contact']);
      for (const e of created) expect(e.path).toMatch(/^org\/[^/]+\/entities\/(company|contact)$/);
      // And the next match finds it.
      const match = await addin.post('/api/v1/contact/match-emails', { emails: [`nina.park@northwind-${u}.co.uk`] });
      expect(match.json().contacts.map((c: { id: string }) => c.id)).toEqual([body.contact.id]);
    });

    it('uses the name the rep typed for the new company', async () => {
      const u = uniq();
      const res = await a.post('/api/v1/contact/from-email', {
        contact: { firstName: 'Al', lastName: 'Ng', email: `al@ng-${u}.com` },
        companyName: '  Ng Holdings  ',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().company).toMatchObject({ name: 'Ng Holdings', domain: `ng-${u}.com` });
    });

    it('links to the company that already has the domain instead of creating one', async () => {
      const u = uniq();
      const existing = await newCompany(a, { name: `Globex ${u}`, website: `https://www.globex-${u}.com/about` });
      const before = await count('company');
      const res = await a.post('/api/v1/contact/from-email', {
        contact: { firstName: 'Hank', lastName: 'Scorpio', email: `hank@globex-${u}.com` },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        message: `Contact created and linked to Globex ${u}`,
        companyCreated: false,
        company: { id: existing.id },
      });
      expect(await count('company')).toBe(before);
    });

    it('a personal mail domain gets no company', async () => {
      const u = uniq();
      const before = await count('company');
      const res = await a.post('/api/v1/contact/from-email', {
        contact: { firstName: 'Pat', lastName: 'Lee', email: `pat.${u}@gmail.com` },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        message: 'Contact created (a personal email domain has no company)',
        company: null,
        companyCreated: false,
        contact: { primaryCompany: null },
      });
      expect(await count('company')).toBe(before);
    });

    it("another organization's company with the same domain is not used", async () => {
      const u = uniq();
      const theirs = await newCompany(b, { name: `Initech ${u}`, website: `initech-${u}.com` });
      const res = await a.post('/api/v1/contact/from-email', {
        contact: { firstName: 'Pete', lastName: 'Gibbons', email: `pete@initech-${u}.com` },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().companyCreated).toBe(true);
      expect(res.json().company.id).not.toBe(theirs.id);
    });

    it('409 for a known email, and nothing is written', async () => {
      const u = uniq();
      await newContact(a, { firstName: 'Old', lastName: 'Timer', email: `old-${u}@fresh-${u}.com` });
      const before = [await count('contact'), await count('company'), await count('company_contact')];
      const res = await a.post('/api/v1/contact/from-email', {
        contact: { firstName: 'Old', lastName: 'Timer', email: `OLD-${u}@fresh-${u}.com` },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ success: false, message: 'Contact with same email already exists' });
      expect([await count('contact'), await count('company'), await count('company_contact')]).toEqual(before);
    });

    it("400 with the contact's validation messages, and nothing is written", async () => {
      const before = [await count('contact'), await count('company')];
      const res = await a.post('/api/v1/contact/from-email', { contact: { firstName: ' ', lastName: '', email: 'not-an-email' } });
      expect(res.statusCode).toBe(400);
      expect(issuesOf(res.json())).toEqual({
        'contact.firstName': 'First name is required',
        'contact.lastName': 'Last name is required',
        'contact.email': 'Invalid email',
      });
      const longName = await a.post('/api/v1/contact/from-email', {
        contact: { firstName: 'A', lastName: 'B', email: 'a@long-name.com' },
        companyName: 'x'.repeat(256),
      });
      expect(longName.statusCode).toBe(400);
      expect(issuesOf(longName.json())).toEqual({ companyName: 'Company name must be at most 255 characters long' });
      expect([await count('contact'), await count('company')]).toEqual(before);
    });
  });
});
