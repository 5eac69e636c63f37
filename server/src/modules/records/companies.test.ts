import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newCompany, newContact, newField, setValue, link, uniq, f, type CompanyLike } from '../../../test/records';
import { User } from '../users/user.entity';

const OWNER_INVALID = { success: false, message: 'Account owner must be an active member of your organization' };

describe('companies', () => {
  let ctx: TestContext;
  let orgA: string;
  let orgB: string;
  let a: TestClient;
  let b: TestClient;
  let adminA: { id: string; email: string; firstName: string; lastName: string };

  beforeAll(async () => {
    ctx = await createTestApp();
    const oa = await createOrg(ctx, { name: 'Alpha' });
    const ob = await createOrg(ctx, { name: 'Beta' });
    orgA = oa.organization.id;
    orgB = ob.organization.id;
    adminA = oa.admin;
    a = await signedIn(ctx, oa.admin.email, '10.32.0.1');
    b = await signedIn(ctx, ob.admin.email, '10.32.0.2');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const details = async (c: TestClient, id: string) => {
    const res = await c.get(`/api/v1/company/details/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().company;
  };
  const countCompanies = async (where: string, params: unknown[]) => {
    const [{ n }] = await ctx
      .em()
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from company where ${where}`, params);
    return n;
  };

  describe('POST /api/v1/entity/company', () => {
    it("creates a company: 201 'Company created successfully', the domain normalized from the website", async () => {
      const u = uniq();
      const res = await a.post('/api/v1/entity/company', {
        company: { name: `  Acme ${u} `, website: ` https://www.Acme-${u}.com/about?x=1 ` },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        success: true,
        message: 'Company created successfully',
        company: {
          name: `Acme ${u}`,
          website: `https://www.Acme-${u}.com/about?x=1`,
          domain: `acme-${u}.com`,
          owner: null,
          keyContact: null,
          contactCount: 0,
          fields: {},
          entityMapping: [],
        },
      });
      const { company } = res.json();
      expect(company.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await details(a, company.id)).toMatchObject({ id: company.id, name: `Acme ${u}`, domain: `acme-${u}.com` });
    });

    it('every validation message of spec 002 §5 Company', async () => {
      const cases: [Record<string, unknown>, Record<string, string>][] = [
        [{}, { 'company.name': 'Company name is required', 'company.website': 'Company website is required' }],
        [
          { name: '', website: '' },
          { 'company.name': 'Company name is required', 'company.website': 'Company website is required' },
        ],
        [{ name: '   ', website: 'acme.com' }, { 'company.name': 'Company name is required' }],
        [
          { name: null, website: null },
          { 'company.name': 'Company name is required', 'company.website': 'Company website is required' },
        ],
        [{ name: 'x'.repeat(256), website: 'acme.com' }, { 'company.name': 'Company name must be at most 255 characters long' }],
        [{ name: 'Acme', website: 'not a website' }, { 'company.website': 'Invalid URL' }],
        [{ name: 'Acme', website: 'acme' }, { 'company.website': 'Invalid URL' }],
        [{ name: 'Acme', website: 'ftp://acme.com' }, { 'company.website': 'Invalid URL' }],
        [{ name: 'Acme', website: `${'a'.repeat(252)}.com` }, { 'company.website': 'URL must be at most 255 characters long' }],
      ];
      for (const [company, expected] of cases) {
        const res = await a.post('/api/v1/entity/company', { company });
        expect(res.statusCode, JSON.stringify(company)).toBe(400);
        const body = res.json();
        expect(body.success).toBe(false);
        expect(Object.fromEntries(body.issues.map((i: { path: string; message: string }) => [i.path, i.message]))).toEqual(expected);
        expect(body.message).toBe(Object.values(expected)[0]);
      }
      // The longest valid name and website are accepted.
      const u = uniq();
      const ok = await a.post('/api/v1/entity/company', {
        company: { name: `${u}${'n'.repeat(255)}`.slice(0, 255), website: `${u}${'w'.repeat(251)}`.slice(0, 251) + '.com' },
      });
      expect(ok.statusCode, ok.body).toBe(201);
    });

    it("409 'Company with same domain already exists' whatever the scheme, www, path, port or case", async () => {
      const u = uniq();
      const first = await newCompany(a, { name: `Dup ${u}`, website: `https://www.dup-${u}.com/about` });
      expect(first.domain).toBe(`dup-${u}.com`);
      for (const website of [
        `dup-${u}.com`,
        `HTTP://DUP-${u}.COM`,
        `www.dup-${u}.com/other/path`,
        `https://dup-${u}.com:8443/`,
        `Dup-${u}.com?ref=x`,
      ]) {
        const res = await a.post('/api/v1/entity/company', { company: { name: `Other ${u}`, website } });
        expect(res.statusCode, website).toBe(409);
        expect(res.json()).toEqual({ success: false, message: 'Company with same domain already exists' });
      }
      expect(await countCompanies('organization_id = ? and domain = ?', [orgA, `dup-${u}.com`])).toBe(1);
      // A sub-domain is another domain; the same domain in another organization is fine.
      expect((await a.post('/api/v1/entity/company', { company: { name: `Sub ${u}`, website: `eu.dup-${u}.com` } })).statusCode).toBe(201);
      expect((await b.post('/api/v1/entity/company', { company: { name: `Dup ${u}`, website: `dup-${u}.com` } })).statusCode).toBe(201);
    });

    it('concurrent creates of one domain: exactly one is created, the others are 409', async () => {
      const u = uniq();
      const res = await Promise.all(
        ['', 'www.', 'https://', 'http://www.', 'HTTPS://'].map((p) =>
          a.post('/api/v1/entity/company', { company: { name: `Race ${u}`, website: `${p}race-${u}.com` } }),
        ),
      );
      expect(res.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
      for (const r of res.filter((x) => x.statusCode === 409))
        expect(r.json()).toEqual({ success: false, message: 'Company with same domain already exists' });
      expect(await countCompanies('organization_id = ? and domain = ?', [orgA, `race-${u}.com`])).toBe(1);
    });

    it('with a new contact: both created and linked (key contact, primary company)', async () => {
      const u = uniq();
      const res = await a.post('/api/v1/entity/company', {
        company: { name: `Nested ${u}`, website: `nested-${u}.com` },
        contact: { firstName: 'Ann', lastName: 'Lee', email: `Ann.${u}@Nested.com` },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { company } = res.json();
      expect(company.keyContact).toMatchObject({ firstName: 'Ann', lastName: 'Lee', email: `ann.${u}@nested.com` });
      expect(company.contactCount).toBe(1);
      expect(company.entityMapping).toEqual([
        expect.objectContaining({
          companyId: company.id,
          contactId: company.keyContact.id,
          isKey: true,
          isPrimary: true,
          label: null,
          value: null,
        }),
      ]);
      const contact = (await a.get(`/api/v1/contact/details/${company.keyContact.id}`)).json().contact;
      expect(contact.primaryCompany).toMatchObject({ id: company.id, name: `Nested ${u}` });
    });

    it('the new contact is validated by the same rules (nothing is created)', async () => {
      const u = uniq();
      const res = await a.post('/api/v1/entity/company', {
        company: { name: `Bad contact ${u}`, website: `bad-contact-${u}.com` },
        contact: { firstName: '', lastName: 'x'.repeat(129), email: 'nope' },
      });
      expect(res.statusCode).toBe(400);
      const issues = Object.fromEntries(res.json().issues.map((i: { path: string; message: string }) => [i.path, i.message]));
      expect(issues).toEqual({
        'contact.firstName': 'First name is required',
        'contact.lastName': 'Last name must be at most 128 characters long',
        'contact.email': 'Invalid email',
      });
      expect(await countCompanies('organization_id = ? and domain = ?', [orgA, `bad-contact-${u}.com`])).toBe(0);
    });

    it('is atomic: a contact that fails (duplicate email) leaves no company behind', async () => {
      const u = uniq();
      const existing = await newContact(a, { email: `taken-${u}@example.com` });
      const res = await a.post('/api/v1/entity/company', {
        company: { name: `Atomic ${u}`, website: `atomic-${u}.com` },
        contact: { firstName: 'Dan', lastName: 'Dupe', email: `TAKEN-${u}@example.com` },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ success: false, message: 'Contact with same email already exists' });
      expect(await countCompanies('organization_id = ? and domain = ?', [orgA, `atomic-${u}.com`])).toBe(0);
      // The same company can be created afterwards (nothing half-written holds the domain).
      const again = await a.post('/api/v1/entity/company', {
        company: { name: `Atomic ${u}`, website: `atomic-${u}.com` },
        assignContactId: existing.id,
      });
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json().company.keyContact.id).toBe(existing.id);
    });

    it('assignContactId links an existing contact; an unknown or foreign contact is 404 and creates nothing', async () => {
      const u = uniq();
      const theirs = await newContact(b);
      for (const assignContactId of [theirs.id, randomUUID()]) {
        const res = await a.post('/api/v1/entity/company', {
          company: { name: `Assign ${u}`, website: `assign-${u}.com` },
          assignContactId,
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Contact not found' });
      }
      expect(await countCompanies('organization_id = ? and domain = ?', [orgA, `assign-${u}.com`])).toBe(0);
      expect((await b.get(`/api/v1/contact/details/${theirs.id}`)).json().contact.companyCount).toBe(0);
    });

    it('accountOwnerId: an active member of the organization owns it', async () => {
      const member = await createUser(ctx, orgA, { firstName: 'Olive', lastName: 'Owner' });
      const company = await newCompany(a, { accountOwnerId: member.id });
      expect(company.owner).toEqual({ id: member.id, firstName: 'Olive', lastName: 'Owner', email: member.email });
    });

    it('accountOwnerId refused for a disabled, deleted or not-yet-accepted member and for a user of another organization', async () => {
      const disabled = await createUser(ctx, orgA, { status: 'disabled' });
      const deleted = await createUser(ctx, orgA, { deleted: true });
      const pending = await createUser(ctx, orgA);
      await ctx.em().nativeUpdate(User, { id: pending.id }, { invitationAccepted: false }, { filters: false });
      const foreign = await createUser(ctx, orgB);
      const u = uniq();
      for (const owner of [disabled, deleted, pending, foreign]) {
        const res = await a.post('/api/v1/entity/company', {
          company: { name: `Owned ${u}`, website: `owned-${u}.com`, accountOwnerId: owner.id },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(OWNER_INVALID);
      }
      expect(await countCompanies('organization_id = ? and domain = ?', [orgA, `owned-${u}.com`])).toBe(0);
    });
  });

  describe("POST /api/v1/company/create (spec 002 §7 Company): the New Company dialog's answers", () => {
    it("201 'Company created successfully' with the company, as POST /entity/company answers", async () => {
      const u = uniq();
      const res = await a.post('/api/v1/company/create', {
        company: { name: ` Create ${u} `, website: `https://www.Create-${u}.com/x`, accountOwnerId: adminA.id },
      });
      expect(res.statusCode, res.body).toBe(201);
      const viaDialog = await a.post('/api/v1/entity/company', {
        company: { name: `Create ${u}`, website: `dialog-${u}.com`, accountOwnerId: adminA.id },
      });
      const strip = (c: Record<string, unknown>) => {
        const { id: _i, website: _w, domain: _d, createdAt: _c, updatedAt: _u, ...rest } = c;
        return rest;
      };
      expect(strip(res.json().company)).toEqual(strip(viaDialog.json().company));
      expect(res.json()).toMatchObject({
        success: true,
        message: 'Company created successfully',
        company: { name: `Create ${u}`, domain: `create-${u}.com`, owner: { id: adminA.id } },
      });
      expect(await details(a, res.json().company.id)).toMatchObject({ name: `Create ${u}`, domain: `create-${u}.com` });
    });

    it('the same validation messages (400, nothing created), including NUL bytes', async () => {
      const u = uniq();
      for (const company of [
        {},
        { name: '   ', website: `v-${u}.com` },
        { name: 'Acme', website: 'acme' },
        { name: 'x'.repeat(256), website: `v-${u}.com` },
        { name: `Nul\u0000${u}`, website: `v-${u}.com` },
      ]) {
        const [mine, dialog] = await Promise.all([
          a.post('/api/v1/company/create', { company }),
          a.post('/api/v1/entity/company', { company }),
        ]);
        expect(mine.statusCode, JSON.stringify(company)).toBe(400);
        expect(mine.json()).toEqual(dialog.json());
        expect(mine.json().success).toBe(false);
      }
      // An unpaired surrogate is refused like a NUL (PostgreSQL would have stored U+FFFD).
      const lone = await a.post('/api/v1/company/create', { company: { name: `Lone \ud800 ${u}`, website: `v-${u}.com` } });
      expect(lone.statusCode).toBe(400);
      // The guard in front of every route (plugins/input-guard.ts) answers it.
      expect(lone.json()).toMatchObject({ message: 'Text must not contain NUL characters or invalid Unicode (lone surrogates).' });
      expect(await countCompanies('organization_id = ? and domain = ?', [orgA, `v-${u}.com`])).toBe(0);
    });

    it("409 'Company with same domain already exists'; a nested contact is linked; a foreign contact is 404", async () => {
      const u = uniq();
      await newCompany(a, { name: `Taken ${u}`, website: `taken-${u}.com` });
      const dup = await a.post('/api/v1/company/create', { company: { name: `Again ${u}`, website: `https://www.TAKEN-${u}.com` } });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toEqual({ success: false, message: 'Company with same domain already exists' });
      const nested = await a.post('/api/v1/company/create', {
        company: { name: `Nest ${u}`, website: `nest-${u}.com` },
        contact: { firstName: 'Kim', lastName: 'Key', email: `kim.${u}@nest.com` },
      });
      expect(nested.statusCode, nested.body).toBe(201);
      expect(nested.json().company.keyContact).toMatchObject({ firstName: 'Kim', lastName: 'Key' });
      const foreign = await a.post('/api/v1/company/create', {
        company: { name: `Foreign ${u}`, website: `foreign-${u}.com` },
        assignContactId: (await newContact(b)).id,
      });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ success: false, message: 'Contact not found' });
      expect(await countCompanies('organization_id = ? and domain = ?', [orgA, `foreign-${u}.com`])).toBe(0);
    });

    it('needs a session (401)', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/company/create',
        payload: { company: { name: 'Anon', website: 'anon.example' } },
      });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('POST /api/v1/entity (company and contact together)', () => {
    it('creates both, linked', async () => {
      const u = uniq();
      const res = await a.post('/api/v1/entity', {
        company: { name: `Pair ${u}`, website: `pair-${u}.com` },
        contact: { firstName: 'Pia', lastName: 'Pair', email: `pia-${u}@pair.com` },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { companyId, contactId, message } = res.json();
      expect(message).toBe('Company created successfully');
      const company = await details(a, companyId);
      expect(company.entityMapping).toEqual([expect.objectContaining({ contactId, isKey: true, isPrimary: true })]);
    });

    it('validates both with the spec’s messages', async () => {
      const res = await a.post('/api/v1/entity', {
        company: { name: '', website: 'x' },
        contact: { firstName: 'A', lastName: '', email: '' },
      });
      expect(res.statusCode).toBe(400);
      expect(Object.fromEntries(res.json().issues.map((i: { path: string; message: string }) => [i.path, i.message]))).toEqual({
        'company.name': 'Company name is required',
        'company.website': 'Invalid URL',
        'contact.lastName': 'Last name is required',
        'contact.email': 'Email is required',
      });
    });

    it('is atomic: a duplicate domain leaves no contact; a duplicate email leaves no company', async () => {
      const u = uniq();
      await newCompany(a, { website: `pairdup-${u}.com` });
      const r1 = await a.post('/api/v1/entity', {
        company: { name: 'X', website: `www.pairdup-${u}.com` },
        contact: { firstName: 'N', lastName: 'O', email: `lonely-${u}@x.com` },
      });
      expect(r1.statusCode).toBe(409);
      expect(r1.json().message).toBe('Company with same domain already exists');
      const [{ n }] = await ctx
        .em()
        .getConnection()
        .execute<{ n: number }[]>('select count(*)::int as n from contact where email = ?', [`lonely-${u}@x.com`]);
      expect(n).toBe(0);
      await newContact(a, { email: `pairtaken-${u}@x.com` });
      const r2 = await a.post('/api/v1/entity', {
        company: { name: 'Y', website: `pairfresh-${u}.com` },
        contact: { firstName: 'N', lastName: 'O', email: `pairtaken-${u}@x.com` },
      });
      expect(r2.statusCode).toBe(409);
      expect(await countCompanies('domain = ?', [`pairfresh-${u}.com`])).toBe(0);
    });
  });

  describe('PUT /api/v1/entity/company', () => {
    it("updates name and website (domain follows): 'Company updated'", async () => {
      const c = await newCompany(a);
      const u = uniq();
      const res = await a.put('/api/v1/entity/company', {
        id: c.id,
        company: { name: `Renamed ${u}`, website: `https://www.renamed-${u}.io/x` },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        message: 'Company updated',
        company: { id: c.id, name: `Renamed ${u}`, website: `https://www.renamed-${u}.io/x`, domain: `renamed-${u}.io` },
      });
      expect(await details(a, c.id)).toMatchObject({ name: `Renamed ${u}`, domain: `renamed-${u}.io` });
    });

    it('keeping its own domain in another spelling is fine; taking another company’s domain is 409', async () => {
      const u = uniq();
      const mine = await newCompany(a, { website: `mine-${u}.com` });
      const other = await newCompany(a, { website: `other-${u}.com` });
      const ok = await a.put('/api/v1/entity/company', {
        id: mine.id,
        company: { name: mine.name, website: `HTTPS://WWW.MINE-${u}.COM/about` },
      });
      expect(ok.statusCode, ok.body).toBe(200);
      const clash = await a.put('/api/v1/entity/company', { id: mine.id, company: { name: 'Changed', website: `www.other-${u}.com` } });
      expect(clash.statusCode).toBe(409);
      expect(clash.json()).toEqual({ success: false, message: 'Company with same domain already exists' });
      expect(await details(a, mine.id)).toMatchObject({ name: mine.name, domain: `mine-${u}.com` });
      expect(await details(a, other.id)).toMatchObject({ domain: `other-${u}.com` });
    });

    it('validates with the same messages', async () => {
      const c = await newCompany(a);
      const res = await a.put('/api/v1/entity/company', { id: c.id, company: { name: '', website: 'nope' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Company name is required');
      expect(res.json().issues).toEqual([
        { path: 'company.name', message: 'Company name is required' },
        { path: 'company.website', message: 'Invalid URL' },
      ]);
    });

    it('accountOwnerId sets, keeps (absent) and clears (null) the owner', async () => {
      const member = await createUser(ctx, orgA, { firstName: 'Kim', lastName: 'Keeper' });
      const c = await newCompany(a);
      let res = await a.put('/api/v1/entity/company', {
        id: c.id,
        company: { name: c.name, website: c.website },
        accountOwnerId: member.id,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().company.owner).toMatchObject({ id: member.id, firstName: 'Kim', lastName: 'Keeper' });
      res = await a.put('/api/v1/entity/company', { id: c.id, company: { name: 'Still owned', website: c.website } });
      expect(res.json().company.owner.id).toBe(member.id);
      res = await a.put('/api/v1/entity/company', { id: c.id, company: { name: c.name, website: c.website, accountOwnerId: adminA.id } });
      expect(res.json().company.owner.id).toBe(adminA.id);
      res = await a.put('/api/v1/entity/company', { id: c.id, company: { name: c.name, website: c.website }, accountOwnerId: null });
      expect(res.statusCode).toBe(200);
      expect(res.json().company.owner).toBeNull();
    });

    it('accountOwnerId refused for a disabled member and for a user of another organization (nothing changes)', async () => {
      const disabled = await createUser(ctx, orgA, { status: 'disabled' });
      const foreign = await createUser(ctx, orgB);
      const c = await newCompany(a, { accountOwnerId: adminA.id });
      for (const owner of [disabled, foreign]) {
        const res = await a.put('/api/v1/entity/company', {
          id: c.id,
          company: { name: 'Should not stick', website: c.website },
          accountOwnerId: owner.id,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(OWNER_INVALID);
      }
      expect(await details(a, c.id)).toMatchObject({ name: c.name, owner: { id: adminA.id } });
    });

    it('assignContactId links a contact; a foreign contact is 404 and the update is rolled back', async () => {
      const c = await newCompany(a);
      const p = await newContact(a);
      const res = await a.put('/api/v1/entity/company', { id: c.id, company: { name: c.name, website: c.website }, assignContactId: p.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().company.keyContact.id).toBe(p.id);
      const theirs = await newContact(b);
      const bad = await a.put('/api/v1/entity/company', {
        id: c.id,
        company: { name: 'Rolled back', website: c.website },
        assignContactId: theirs.id,
      });
      expect(bad.statusCode).toBe(404);
      expect(bad.json().message).toBe('Contact not found');
      expect((await details(a, c.id)).name).toBe(c.name);
    });

    it('404 for another organization’s company or an unknown id', async () => {
      const theirs = await newCompany(b);
      for (const id of [theirs.id, randomUUID()]) {
        const res = await a.put('/api/v1/entity/company', { id, company: { name: 'Hijack', website: `hijack-${uniq()}.com` } });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Company not found' });
      }
      expect((await details(b, theirs.id)).name).toBe(theirs.name);
    });
  });

  describe('POST /api/v1/entity/create and PUT /api/v1/entity/update (company)', () => {
    it('create answers 201 with companyId; update answers its message', async () => {
      const u = uniq();
      const res = await a.post('/api/v1/entity/create', {
        entityType: 'company',
        data: { name: `Generic ${u}`, website: `generic-${u}.com` },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({ success: true, message: 'Company created successfully', companyId: expect.any(String) });
      const id = res.json().companyId;
      expect((await details(a, id)).domain).toBe(`generic-${u}.com`);
      const up = await a.put('/api/v1/entity/update', {
        entityType: 'company',
        id,
        data: { name: `Generic2 ${u}`, website: `generic-${u}.com` },
      });
      expect(up.statusCode, up.body).toBe(200);
      expect(up.json()).toEqual({ success: true, message: 'Company updated' });
      expect((await details(a, id)).name).toBe(`Generic2 ${u}`);
    });

    it('validation, 409 and 404', async () => {
      const bad = await a.post('/api/v1/entity/create', { entityType: 'company', data: { name: 'x', website: '' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Company website is required');
      const existing = await newCompany(a);
      const dup = await a.post('/api/v1/entity/create', {
        entityType: 'company',
        data: { name: 'x', website: `https://${existing.domain}` },
      });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().message).toBe('Company with same domain already exists');
      const other = await newCompany(a);
      const dupUp = await a.put('/api/v1/entity/update', {
        entityType: 'company',
        id: other.id,
        data: { name: 'x', website: existing.domain },
      });
      expect(dupUp.statusCode).toBe(409);
      const theirs = await newCompany(b);
      const nf = await a.put('/api/v1/entity/update', {
        entityType: 'company',
        id: theirs.id,
        data: { name: 'x', website: `nf-${uniq()}.com` },
      });
      expect(nf.statusCode).toBe(404);
      expect(nf.json().message).toBe('Company not found');
      expect((await a.post('/api/v1/entity/create', { entityType: 'idea', data: {} })).statusCode).toBe(400);
    });
  });

  describe('links: create-mapping, set-key, mapping-contact', () => {
    it('the first contact of a company becomes its key contact, the first company of a contact its primary', async () => {
      const c1 = await newCompany(a);
      const c2 = await newCompany(a);
      const p1 = await newContact(a);
      const p2 = await newContact(a);
      const res = await a.post('/api/v1/company/create-mapping', { companyId: c1.id, contactId: p1.id });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({
        success: true,
        message: 'Linked successfully',
        mapping: { companyId: c1.id, contactId: p1.id, isKey: true, isPrimary: true, label: null, value: null },
      });
      expect(await link(a, c1.id, p2.id)).toMatchObject({ isKey: false, isPrimary: true });
      expect(await link(a, c2.id, p1.id)).toMatchObject({ isKey: true, isPrimary: false });
      expect((await details(a, c1.id)).keyContact.id).toBe(p1.id);
      expect((await details(a, c1.id)).contactCount).toBe(2);
    });

    it('linking twice keeps one link', async () => {
      const c = await newCompany(a);
      const p = await newContact(a);
      await link(a, c.id, p.id, { label: 'CEO' });
      const again = await a.post('/api/v1/company/create-mapping', { companyId: c.id, contactId: p.id, label: 'Other' });
      expect(again.statusCode).toBe(201);
      expect(again.json().mapping).toMatchObject({ isKey: true, label: 'CEO' });
      expect((await details(a, c.id)).entityMapping).toHaveLength(1);
    });

    it('set-key moves the key flag: exactly one key contact per company', async () => {
      const c = await newCompany(a);
      const [p1, p2, p3] = [await newContact(a), await newContact(a), await newContact(a)];
      for (const p of [p1, p2, p3]) await link(a, c.id, p.id);
      const res = await a.put('/api/v1/company/set-key', { companyId: c.id, contactId: p3.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        message: 'Key contact updated',
        mapping: expect.objectContaining({ companyId: c.id, contactId: p3.id, isKey: true }),
      });
      let d = await details(a, c.id);
      expect(d.keyContact.id).toBe(p3.id);
      expect(d.entityMapping.filter((m: { isKey: boolean }) => m.isKey).map((m: { contactId: string }) => m.contactId)).toEqual([p3.id]);
      // Again, to the same one and to another: still one.
      await a.put('/api/v1/company/set-key', { companyId: c.id, contactId: p3.id });
      await a.put('/api/v1/company/set-key', { companyId: c.id, contactId: p2.id });
      d = await details(a, c.id);
      expect(d.entityMapping.filter((m: { isKey: boolean }) => m.isKey).map((m: { contactId: string }) => m.contactId)).toEqual([p2.id]);
      // The key of another company is untouched.
      const other = await newCompany(a);
      await link(a, other.id, p1.id);
      await a.put('/api/v1/company/set-key', { companyId: c.id, contactId: p1.id });
      expect((await details(a, other.id)).keyContact.id).toBe(p1.id);
    });

    it('concurrent links of one company all succeed; exactly one becomes the key contact', async () => {
      const c = await newCompany(a);
      const contacts = await Promise.all(Array.from({ length: 6 }, () => newContact(a)));
      const res = await Promise.all(contacts.map((p) => a.post('/api/v1/company/create-mapping', { companyId: c.id, contactId: p.id })));
      expect(res.map((r) => r.statusCode)).toEqual(contacts.map(() => 201));
      expect(res.filter((r) => r.json().mapping.isKey)).toHaveLength(1);
      expect(res.every((r) => r.json().mapping.isPrimary)).toBe(true);
      const d = await details(a, c.id);
      expect(d.contactCount).toBe(6);
      expect(d.entityMapping.filter((m: { isKey: boolean }) => m.isKey)).toHaveLength(1);
    });

    it('concurrent set-key calls all succeed and leave exactly one key contact', async () => {
      const c = await newCompany(a);
      const contacts = await Promise.all(Array.from({ length: 6 }, () => newContact(a)));
      for (const p of contacts) await link(a, c.id, p.id);
      const res = await Promise.all(contacts.map((p) => a.put('/api/v1/company/set-key', { companyId: c.id, contactId: p.id })));
      expect(res.map((r) => r.statusCode)).toEqual(contacts.map(() => 200));
      const d = await details(a, c.id);
      expect(d.entityMapping.filter((m: { isKey: boolean }) => m.isKey)).toHaveLength(1);
      expect(contacts.map((p) => p.id)).toContain(d.keyContact.id);
    });

    it('set-key for records that are not linked is 404', async () => {
      const c = await newCompany(a);
      const p = await newContact(a);
      const res = await a.put('/api/v1/company/set-key', { companyId: c.id, contactId: p.id });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'These records are not linked' });
    });

    it('mapping-contact sets label and value, moves the key, and removes the link', async () => {
      const c = await newCompany(a);
      const p1 = await newContact(a);
      const p2 = await newContact(a);
      await link(a, c.id, p1.id);
      await link(a, c.id, p2.id);
      let res = await a.put('/api/v1/entity/mapping-contact', { companyId: c.id, contactId: p2.id, label: '  CFO ', value: 'Finance' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        message: 'Linked successfully',
        mapping: { companyId: c.id, contactId: p2.id, isKey: false, isPrimary: true, label: 'CFO', value: 'Finance' },
      });
      res = await a.put('/api/v1/entity/mapping-contact', { companyId: c.id, contactId: p2.id, isKey: true });
      expect(res.json().mapping).toMatchObject({ isKey: true, label: 'CFO', value: 'Finance' });
      expect((await details(a, c.id)).keyContact.id).toBe(p2.id);
      res = await a.put('/api/v1/entity/mapping-contact', { companyId: c.id, contactId: p2.id, label: null });
      expect(res.json().mapping).toMatchObject({ label: null, value: 'Finance', isKey: true });
      res = await a.put('/api/v1/entity/mapping-contact', { companyId: c.id, contactId: p1.id, remove: true });
      expect(res.statusCode).toBe(200);
      expect(res.json().mapping).toBeNull();
      const d = await details(a, c.id);
      expect(d.entityMapping.map((m: { contactId: string }) => m.contactId)).toEqual([p2.id]);
      expect(d.contactCount).toBe(1);
      // The contact itself stays.
      expect((await a.get(`/api/v1/contact/details/${p1.id}`)).statusCode).toBe(200);
    });

    it('mapping-contact: label at most 100 characters; not linked is 404', async () => {
      const c = await newCompany(a);
      const p = await newContact(a);
      expect((await a.put('/api/v1/entity/mapping-contact', { companyId: c.id, contactId: p.id, label: 'x' })).statusCode).toBe(404);
      await link(a, c.id, p.id);
      expect((await a.put('/api/v1/entity/mapping-contact', { companyId: c.id, contactId: p.id, label: 'x'.repeat(101) })).statusCode).toBe(
        400,
      );
    });

    it('404 for another organization’s company or contact on every link route; nothing is linked', async () => {
      const mineC = await newCompany(a);
      const mineP = await newContact(a);
      const theirC = await newCompany(b);
      const theirP = await newContact(b);
      await link(b, theirC.id, theirP.id);
      const r1 = await a.post('/api/v1/company/create-mapping', { companyId: mineC.id, contactId: theirP.id });
      expect(r1.statusCode).toBe(404);
      expect(r1.json().message).toBe('Contact not found');
      const r2 = await a.post('/api/v1/company/create-mapping', { companyId: theirC.id, contactId: mineP.id });
      expect(r2.statusCode).toBe(404);
      expect(r2.json().message).toBe('Company not found');
      for (const [method, url, body] of [
        ['PUT', '/api/v1/company/set-key', { companyId: theirC.id, contactId: theirP.id }],
        ['PUT', '/api/v1/entity/mapping-contact', { companyId: theirC.id, contactId: theirP.id, label: 'pwned' }],
        ['PUT', '/api/v1/entity/mapping-contact', { companyId: theirC.id, contactId: theirP.id, remove: true }],
      ] as const) {
        const res = await a.request(method, url, body);
        expect(res.statusCode, url).toBe(404);
      }
      expect((await details(a, mineC.id)).entityMapping).toEqual([]);
      expect((await details(b, theirC.id)).entityMapping).toEqual([
        expect.objectContaining({ contactId: theirP.id, label: null, isKey: true }),
      ]);
    });
  });

  describe('GET /api/v1/company/details/{id}', () => {
    it('the company with its contacts: key contact first, then by label', async () => {
      const c = await newCompany(a);
      const p1 = await newContact(a, { firstName: 'First' });
      const p2 = await newContact(a, { firstName: 'Second' });
      const p3 = await newContact(a, { firstName: 'Third' });
      const p4 = await newContact(a, { firstName: 'Fourth' });
      await link(a, c.id, p1.id, { label: 'Mid' });
      await link(a, c.id, p2.id, { label: 'zeta' });
      await link(a, c.id, p3.id, { label: 'Alpha' });
      await link(a, c.id, p4.id, { label: 'beta' });
      await a.put('/api/v1/company/set-key', { companyId: c.id, contactId: p2.id });
      const field = await newField(a, 'company', 'int');
      await setValue(a, 'company', c.id, field.id, 12);
      const d = await details(a, c.id);
      expect(d.entityMapping.map((m: { label: string }) => m.label)).toEqual(['zeta', 'Alpha', 'beta', 'Mid']);
      expect(d.entityMapping[0]).toMatchObject({
        contactId: p2.id,
        isKey: true,
        firstName: 'Second',
        lastName: p2.lastName,
        email: p2.email,
      });
      expect(d).toMatchObject({
        id: c.id,
        name: c.name,
        website: c.website,
        domain: c.domain,
        contactCount: 4,
        keyContact: { id: p2.id, firstName: 'Second' },
      });
      expect(d.fields[field.id]).toMatchObject({ fieldId: field.id, value: 12, status: 'completed' });
    });

    it('404 for another organization’s company and unknown ids; 400 for a malformed id', async () => {
      const theirs = await newCompany(b);
      for (const id of [theirs.id, randomUUID()]) {
        const res = await a.get(`/api/v1/company/details/${id}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Company not found' });
      }
      expect((await a.get('/api/v1/company/details/nope')).statusCode).toBe(400);
    });
  });

  describe('search', () => {
    it('POST /api/v1/company/search finds by name or domain, ignoring case; only the caller’s', async () => {
      const u = uniq();
      const byName = await newCompany(a, { name: `Zyx${u} Holdings`, website: `holdings-${u}.com` });
      const byDomain = await newCompany(a, { name: `Other ${u}`, website: `zyx${u}-domain.com` });
      await newCompany(b, { name: `Zyx${u} Foreign`, website: `foreign-${u}.com` });
      const res = await a.post('/api/v1/company/search', { query: `ZYX${u}` });
      expect(res.statusCode, res.body).toBe(200);
      const hits = res.json().results;
      expect(hits.map((h: { id: string }) => h.id).sort()).toEqual([byName.id, byDomain.id].sort());
      expect(hits.find((h: { id: string }) => h.id === byName.id)).toEqual({
        id: byName.id,
        entityType: 'company',
        title: `Zyx${u} Holdings`,
        subtitle: `holdings-${u}.com`,
      });
    });

    it('LIKE wildcards are literal; limit caps the hits', async () => {
      const u = uniq();
      await newCompany(a, { name: `Pct${u} 100% Growth` });
      await newCompany(a, { name: `Pct${u} 100x Growth` });
      const hits = (await a.post('/api/v1/company/search', { query: `pct${u} 100%` })).json().results;
      expect(hits.map((h: { title: string }) => h.title)).toEqual([`Pct${u} 100% Growth`]);
      const under = (await a.post('/api/v1/company/search', { query: `pct${u} 100_` })).json().results;
      expect(under).toEqual([]);
      for (let i = 0; i < 3; i++) await newCompany(a, { name: `Lim${u} ${i}` });
      expect((await a.post('/api/v1/company/search', { query: `lim${u}`, limit: 2 })).json().results).toHaveLength(2);
      expect((await a.post('/api/v1/company/search', { query: 'x', limit: 51 })).statusCode).toBe(400);
    });

    it('POST /api/v1/entity/search finds companies and contacts, or one kind', async () => {
      const u = uniq();
      const c = await newCompany(a, { name: `Qwv${u} Capital` });
      const p = await newContact(a, { firstName: `Qwv${u}`, lastName: 'Person' });
      const both = (await a.post('/api/v1/entity/search', { query: `qwv${u}` })).json().results;
      expect(both).toEqual(
        expect.arrayContaining([
          { id: c.id, entityType: 'company', title: `Qwv${u} Capital`, subtitle: c.domain },
          { id: p.id, entityType: 'contact', title: `Qwv${u} Person`, subtitle: p.email },
        ]),
      );
      expect(both).toHaveLength(2);
      const onlyContacts = (await a.post('/api/v1/entity/search', { query: `qwv${u}`, entityType: 'contact' })).json().results;
      expect(onlyContacts.map((h: { id: string }) => h.id)).toEqual([p.id]);
      expect((await b.post('/api/v1/entity/search', { query: `qwv${u}` })).json().results).toEqual([]);
    });
  });

  describe('GET /api/v1/company/owners-list', () => {
    it('lists only active, accepted, non-deleted members of the organization', async () => {
      const fresh = await createOrg(ctx, { name: 'Owners' });
      const c = await signedIn(ctx, fresh.admin.email, '10.32.0.9');
      const active = await createUser(ctx, fresh.organization.id, { firstName: 'Aaron', lastName: 'Active' });
      const disabled = await createUser(ctx, fresh.organization.id, { status: 'disabled' });
      const deleted = await createUser(ctx, fresh.organization.id, { deleted: true });
      const pending = await createUser(ctx, fresh.organization.id);
      await ctx.em().nativeUpdate(User, { id: pending.id }, { invitationAccepted: false }, { filters: false });
      await createUser(ctx, orgB);
      const res = await c.get('/api/v1/company/owners-list');
      expect(res.statusCode).toBe(200);
      const owners = res.json().owners;
      expect(owners.map((o: { id: string }) => o.id).sort()).toEqual([active.id, fresh.admin.id].sort());
      expect(owners.find((o: { id: string }) => o.id === active.id)).toEqual({
        id: active.id,
        firstName: 'Aaron',
        lastName: 'Active',
        email: active.email,
        active: true,
        invitationAccepted: true,
        deleted: false,
      });
      for (const u of [disabled, deleted, pending]) expect(owners.map((o: { id: string }) => o.id)).not.toContain(u.id);
    });
  });

  describe('delete', () => {
    it("DELETE /api/v1/company/delete/{id}: 'Company deleted', with its links and field values; the contacts stay", async () => {
      const c = await newCompany(a);
      const p = await newContact(a);
      await link(a, c.id, p.id);
      const field = await newField(a, 'company', 'string');
      await setValue(a, 'company', c.id, field.id, 'value');
      const res = await a.del(`/api/v1/company/delete/${c.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Company deleted' });
      expect((await a.get(`/api/v1/company/details/${c.id}`)).statusCode).toBe(404);
      const contact = (await a.get(`/api/v1/contact/details/${p.id}`)).json().contact;
      expect(contact).toMatchObject({ companyCount: 0, primaryCompany: null, entityMapping: [] });
      const [{ n }] = await ctx
        .em()
        .getConnection()
        .execute<{ n: number }[]>('select count(*)::int as n from field_value where entity_id = ?', [c.id]);
      expect(n).toBe(0);
      const again = await a.del(`/api/v1/company/delete/${c.id}`);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ success: false, message: 'Company not found' });
    });

    it('404 for another organization’s company (it stays)', async () => {
      const theirs = await newCompany(b);
      const res = await a.del(`/api/v1/company/delete/${theirs.id}`);
      expect(res.statusCode).toBe(404);
      expect((await b.get(`/api/v1/company/details/${theirs.id}`)).statusCode).toBe(200);
    });

    it('bulk delete by ids: counts what went; other organizations’ ids are ignored', async () => {
      const c1 = await newCompany(a);
      const c2 = await newCompany(a);
      const keep = await newCompany(a);
      const theirs = await newCompany(b);
      const res = await a.post('/api/v1/company/bulk-delete', { selection: { ids: [c1.id, c2.id, theirs.id] } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: '2 companies deleted', count: 2 });
      expect((await a.get(`/api/v1/company/details/${c1.id}`)).statusCode).toBe(404);
      expect((await a.get(`/api/v1/company/details/${c2.id}`)).statusCode).toBe(404);
      expect((await a.get(`/api/v1/company/details/${keep.id}`)).statusCode).toBe(200);
      expect((await b.get(`/api/v1/company/details/${theirs.id}`)).statusCode).toBe(200);
      const one = await a.post('/api/v1/company/bulk-delete', { selection: { ids: [keep.id] } });
      expect(one.json()).toEqual({ success: true, message: '1 company deleted', count: 1 });
      expect((await a.post('/api/v1/company/bulk-delete', { selection: { ids: [] } })).statusCode).toBe(400);
    });

    it('bulk delete of all selected: the rows the search and filters select, minus the exclusions', async () => {
      const u = uniq();
      const field = await newField(a, 'company', 'int', `Score ${u}`);
      const made: CompanyLike[] = [];
      for (let i = 0; i < 6; i++) {
        const c = await newCompany(a, { name: `Bulk${u} ${i}` });
        if (i < 5) await setValue(a, 'company', c.id, field.id, i * 10);
        made.push(c);
      }
      const outside = await newCompany(a, { name: `Outside${u}` });
      await setValue(a, 'company', outside.id, field.id, 99);
      // Scores 20, 30, 40 (and ≥ 20) among the "Bulk" ones; exclude the one scored 30.
      const res = await a.post('/api/v1/company/bulk-delete', {
        selection: {
          allSelected: true,
          text: `bulk${u}`,
          filters: [f(field.key, [['greater_than_or_equal', 20]])],
          excludeIds: [made[3].id],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().count).toBe(2);
      const left = (await a.post('/api/v1/company/get-companies', { text: `bulk${u}`, pageSize: 100 }))
        .json()
        .rows.map((r: { id: string }) => r.id)
        .sort();
      expect(left).toEqual([made[0].id, made[1].id, made[3].id, made[5].id].sort());
      expect((await a.get(`/api/v1/company/details/${outside.id}`)).statusCode).toBe(200);
    });

    it('all selected is refused with the filter editor’s message when a filter is incomplete (nothing is deleted)', async () => {
      const c = await newCompany(a);
      const res = await a.post('/api/v1/company/bulk-delete', {
        selection: { allSelected: true, filters: [f('name', [['contains', '']])] },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Please fill in all condition values before saving.');
      expect((await a.get(`/api/v1/company/details/${c.id}`)).statusCode).toBe(200);
    });

    it('all selected without a search or filters deletes every company of the organization, and only those', async () => {
      const fresh = await createOrg(ctx, { name: 'Wipe' });
      const c = await signedIn(ctx, fresh.admin.email, '10.32.0.10');
      for (let i = 0; i < 3; i++) await newCompany(c);
      const theirs = await newCompany(b);
      const res = await c.post('/api/v1/company/bulk-delete', { selection: { allSelected: true } });
      expect(res.json()).toEqual({ success: true, message: '3 companies deleted', count: 3 });
      expect((await c.post('/api/v1/company/get-companies', {})).json()).toMatchObject({ totalRecords: 0, hasRecords: false, rows: [] });
      expect((await b.get(`/api/v1/company/details/${theirs.id}`)).statusCode).toBe(200);
      expect(await countCompanies('organization_id = ?', [orgA])).toBeGreaterThan(0);
    });
  });

  describe('sessions and CSRF', () => {
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/v1/entity/company', { company: { name: 'X', website: 'x-anon.com' } }],
      [
        'POST',
        '/api/v1/entity',
        { company: { name: 'X', website: 'x-anon.com' }, contact: { firstName: 'a', lastName: 'b', email: 'a@anon.com' } },
      ],
      ['PUT', '/api/v1/entity/company', { id: randomUUID(), company: { name: 'X', website: 'x-anon.com' } }],
      ['POST', '/api/v1/entity/create', { entityType: 'company', data: { name: 'X', website: 'x-anon.com' } }],
      ['PUT', '/api/v1/entity/update', { entityType: 'company', id: randomUUID(), data: { name: 'X', website: 'x-anon.com' } }],
      ['POST', '/api/v1/company/create-mapping', { companyId: randomUUID(), contactId: randomUUID() }],
      ['PUT', '/api/v1/company/set-key', { companyId: randomUUID(), contactId: randomUUID() }],
      ['PUT', '/api/v1/entity/mapping-contact', { companyId: randomUUID(), contactId: randomUUID() }],
      ['POST', '/api/v1/entity/search', { query: 'x' }],
      ['POST', '/api/v1/company/search', { query: 'x' }],
      ['GET', `/api/v1/company/details/${randomUUID()}`],
      ['DELETE', `/api/v1/company/delete/${randomUUID()}`],
      ['POST', '/api/v1/company/bulk-delete', { selection: { ids: [randomUUID()] } }],
      ['GET', '/api/v1/company/owners-list'],
      ['POST', '/api/v1/company/get-companies', {}],
      ['POST', '/api/v1/company/export', { selection: { allSelected: true } }],
    ];

    it.each(routes)('401 without a session: %s %s', async (method, url, payload) => {
      const res = await ctx.app.inject({ method: method as 'GET', url, payload: payload as Record<string, unknown> | undefined });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, message: 'Unauthorized: please sign in' });
    });

    it('state-changing calls are refused without the CSRF header (nothing changes)', async () => {
      const c = await newCompany(a);
      a.sendCsrf = false;
      try {
        const u = uniq();
        const calls = [
          await a.post('/api/v1/entity/company', { company: { name: `Csrf ${u}`, website: `csrf-${u}.com` } }),
          await a.put('/api/v1/entity/company', { id: c.id, company: { name: 'Csrf rename', website: c.website } }),
          await a.del(`/api/v1/company/delete/${c.id}`),
          await a.post('/api/v1/company/bulk-delete', { selection: { ids: [c.id] } }),
        ];
        for (const res of calls) {
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual({ success: false, message: 'Invalid or missing CSRF token' });
        }
        expect(await countCompanies('domain = ?', [`csrf-${u}.com`])).toBe(0);
      } finally {
        a.sendCsrf = true;
      }
      expect((await details(a, c.id)).name).toBe(c.name);
    });
  });
});
