import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newCompany, newContact, newField, setValue, link, uniq, f, type ContactLike } from '../../../test/records';

const OWNER_INVALID = { success: false, message: 'Account owner must be an active member of your organization' };
const issuesOf = (body: { issues: { path: string; message: string }[] }) => Object.fromEntries(body.issues.map((i) => [i.path, i.message]));

describe('contacts', () => {
  let ctx: TestContext;
  let orgA: string;
  let orgB: string;
  let a: TestClient;
  let b: TestClient;
  let adminAId: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    const oa = await createOrg(ctx, { name: 'Alpha' });
    const ob = await createOrg(ctx, { name: 'Beta' });
    orgA = oa.organization.id;
    orgB = ob.organization.id;
    adminAId = oa.admin.id;
    a = await signedIn(ctx, oa.admin.email, '10.33.0.1');
    b = await signedIn(ctx, ob.admin.email, '10.33.0.2');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const details = async (c: TestClient, id: string) => {
    const res = await c.get(`/api/v1/contact/details/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().contact;
  };
  const countContacts = async (where: string, params: unknown[]) => {
    const [{ n }] = await ctx
      .em()
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from contact where ${where}`, params);
    return n;
  };

  describe('POST /api/v1/entity/contact', () => {
    it("creates a contact: 201 'Contact created successfully'; names trimmed, email trimmed and lowercased", async () => {
      const u = uniq();
      const res = await a.post('/api/v1/entity/contact', {
        contact: { firstName: ' Ann ', lastName: ' Lee ', email: ` Ann.Lee+${u}@Example.COM ` },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        success: true,
        message: 'Contact created successfully',
        contact: {
          firstName: 'Ann',
          lastName: 'Lee',
          email: `ann.lee+${u}@example.com`,
          owner: null,
          primaryCompany: null,
          companyCount: 0,
          fields: {},
          entityMapping: [],
        },
      });
      expect(await details(a, res.json().contact.id)).toMatchObject({ email: `ann.lee+${u}@example.com` });
    });

    it('every validation message of spec 002 §5 Contact', async () => {
      const cases: [Record<string, unknown>, Record<string, string>][] = [
        [
          {},
          {
            'contact.firstName': 'First name is required',
            'contact.lastName': 'Last name is required',
            'contact.email': 'Email is required',
          },
        ],
        [
          { firstName: ' ', lastName: '', email: '  ' },
          {
            'contact.firstName': 'First name is required',
            'contact.lastName': 'Last name is required',
            'contact.email': 'Email is required',
          },
        ],
        [
          { firstName: 'a'.repeat(129), lastName: 'b', email: 'ok@example.com' },
          { 'contact.firstName': 'First name must be at most 128 characters long' },
        ],
        [
          { firstName: 'a', lastName: 'b'.repeat(129), email: 'ok@example.com' },
          { 'contact.lastName': 'Last name must be at most 128 characters long' },
        ],
        [{ firstName: 'a', lastName: 'b', email: 'not-an-email' }, { 'contact.email': 'Invalid email' }],
        [{ firstName: 'a', lastName: 'b', email: 'a@b' }, { 'contact.email': 'Invalid email' }],
        [{ firstName: 'a', lastName: 'b', email: 'a b@c.com' }, { 'contact.email': 'Invalid email' }],
        [
          { firstName: 'a', lastName: 'b', email: `${'x'.repeat(120)}@example.com` },
          { 'contact.email': 'Email must be at most 128 characters long' },
        ],
      ];
      for (const [contact, expected] of cases) {
        const res = await a.post('/api/v1/entity/contact', { contact });
        expect(res.statusCode, JSON.stringify(contact)).toBe(400);
        expect(res.json().success).toBe(false);
        expect(issuesOf(res.json())).toEqual(expected);
        expect(res.json().message).toBe(Object.values(expected)[0]);
      }
      const u = uniq();
      const ok = await a.post('/api/v1/entity/contact', {
        contact: { firstName: 'a'.repeat(128), lastName: 'b'.repeat(128), email: `${u}${'c'.repeat(128)}`.slice(0, 116) + '@example.com' },
      });
      expect(ok.statusCode, ok.body).toBe(201);
    });

    it("409 'Contact with same email already exists' ignoring case and spaces; another organization may have it", async () => {
      const u = uniq();
      await newContact(a, { email: `dup-${u}@example.com` });
      for (const email of [`dup-${u}@example.com`, `DUP-${u}@EXAMPLE.COM`, `  Dup-${u}@Example.com `]) {
        const res = await a.post('/api/v1/entity/contact', { contact: { firstName: 'D', lastName: 'U', email } });
        expect(res.statusCode, email).toBe(409);
        expect(res.json()).toEqual({ success: false, message: 'Contact with same email already exists' });
      }
      expect(await countContacts('organization_id = ? and email = ?', [orgA, `dup-${u}@example.com`])).toBe(1);
      expect(
        (await b.post('/api/v1/entity/contact', { contact: { firstName: 'D', lastName: 'U', email: `dup-${u}@example.com` } })).statusCode,
      ).toBe(201);
    });

    it('concurrent creates of one email: exactly one is created, the others are 409', async () => {
      const u = uniq();
      const res = await Promise.all(
        [`race-${u}@x.com`, `RACE-${u}@x.com`, ` Race-${u}@X.com`, `race-${u}@X.COM`].map((email) =>
          a.post('/api/v1/entity/contact', { contact: { firstName: 'R', lastName: 'C', email } }),
        ),
      );
      expect(res.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
      for (const r of res.filter((x) => x.statusCode === 409))
        expect(r.json()).toEqual({ success: false, message: 'Contact with same email already exists' });
      expect(await countContacts('organization_id = ? and email = ?', [orgA, `race-${u}@x.com`])).toBe(1);
    });

    it('with a new company: both created and linked (primary company, key contact)', async () => {
      const u = uniq();
      const res = await a.post('/api/v1/entity/contact', {
        contact: { firstName: 'Cy', lastName: 'Nest', email: `cy-${u}@nest.com` },
        company: { name: `Nest ${u}`, website: `https://www.nest-${u}.com` },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { contact } = res.json();
      expect(contact.primaryCompany).toMatchObject({ name: `Nest ${u}`, domain: `nest-${u}.com` });
      expect(contact.entityMapping).toEqual([
        expect.objectContaining({
          contactId: contact.id,
          isPrimary: true,
          isKey: true,
          name: `Nest ${u}`,
          website: `https://www.nest-${u}.com`,
        }),
      ]);
    });

    it('the new company is validated by the same rules (nothing is created)', async () => {
      const u = uniq();
      const res = await a.post('/api/v1/entity/contact', {
        contact: { firstName: 'V', lastName: 'W', email: `vw-${u}@x.com` },
        company: { name: '', website: 'bad url' },
      });
      expect(res.statusCode).toBe(400);
      expect(issuesOf(res.json())).toEqual({ 'company.name': 'Company name is required', 'company.website': 'Invalid URL' });
      expect(await countContacts('email = ?', [`vw-${u}@x.com`])).toBe(0);
    });

    it('is atomic: a company that fails (duplicate domain) leaves no contact behind', async () => {
      const u = uniq();
      await newCompany(a, { website: `taken-${u}.com` });
      const res = await a.post('/api/v1/entity/contact', {
        contact: { firstName: 'A', lastName: 'T', email: `atomic-${u}@x.com` },
        company: { name: 'Again', website: `https://www.taken-${u}.com/x` },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ success: false, message: 'Company with same domain already exists' });
      expect(await countContacts('email = ?', [`atomic-${u}@x.com`])).toBe(0);
      expect(
        (await a.post('/api/v1/entity/contact', { contact: { firstName: 'A', lastName: 'T', email: `atomic-${u}@x.com` } })).statusCode,
      ).toBe(201);
    });

    it('assignCompanyId links an existing company; unknown or foreign is 404 and creates nothing', async () => {
      const mine = await newCompany(a);
      const u = uniq();
      const ok = await a.post('/api/v1/entity/contact', {
        contact: { firstName: 'L', lastName: 'K', email: `lk-${u}@x.com` },
        assignCompanyId: mine.id,
      });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json().contact.primaryCompany.id).toBe(mine.id);
      const theirs = await newCompany(b);
      for (const assignCompanyId of [theirs.id, randomUUID()]) {
        const res = await a.post('/api/v1/entity/contact', {
          contact: { firstName: 'L', lastName: 'K', email: `nf-${u}@x.com` },
          assignCompanyId,
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Company not found' });
      }
      expect(await countContacts('email = ?', [`nf-${u}@x.com`])).toBe(0);
    });

    it('accountOwnerId: a member owns it; a disabled member or another organization’s user is refused', async () => {
      const member = await createUser(ctx, orgA, { firstName: 'Own', lastName: 'Er' });
      const mine = await newContact(a, { accountOwnerId: member.id });
      expect(mine.owner).toEqual({ id: member.id, firstName: 'Own', lastName: 'Er', email: member.email });
      const disabled = await createUser(ctx, orgA, { status: 'disabled' });
      const foreign = await createUser(ctx, orgB);
      const u = uniq();
      for (const owner of [disabled, foreign]) {
        const res = await a.post('/api/v1/entity/contact', {
          contact: { firstName: 'O', lastName: 'R', email: `owned-${u}@x.com`, accountOwnerId: owner.id },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(OWNER_INVALID);
      }
      expect(await countContacts('email = ?', [`owned-${u}@x.com`])).toBe(0);
    });
  });

  describe('PUT /api/v1/entity/contact', () => {
    it("updates: 'Contact updated'", async () => {
      const p = await newContact(a);
      const u = uniq();
      const res = await a.put('/api/v1/entity/contact', {
        id: p.id,
        contact: { firstName: 'New', lastName: 'Name', email: `NEW-${u}@x.com` },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        message: 'Contact updated',
        contact: { id: p.id, firstName: 'New', lastName: 'Name', email: `new-${u}@x.com` },
      });
    });

    it('its own email in another case is fine; another contact’s email is 409 and nothing changes', async () => {
      const p1 = await newContact(a);
      const p2 = await newContact(a);
      expect(
        (
          await a.put('/api/v1/entity/contact', {
            id: p1.id,
            contact: { firstName: 'Same', lastName: 'Me', email: p1.email.toUpperCase() },
          })
        ).statusCode,
      ).toBe(200);
      const res = await a.put('/api/v1/entity/contact', {
        id: p1.id,
        contact: { firstName: 'Changed', lastName: 'Me', email: ` ${p2.email.toUpperCase()} ` },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ success: false, message: 'Contact with same email already exists' });
      expect(await details(a, p1.id)).toMatchObject({ firstName: 'Same', email: p1.email });
    });

    it('validates with the same messages', async () => {
      const p = await newContact(a);
      const res = await a.put('/api/v1/entity/contact', { id: p.id, contact: { firstName: '', lastName: 'x', email: 'bad' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().issues).toEqual([
        { path: 'contact.firstName', message: 'First name is required' },
        { path: 'contact.email', message: 'Invalid email' },
      ]);
    });

    it('accountOwnerId sets and clears; a disabled member is refused', async () => {
      const p = await newContact(a);
      const base = { firstName: p.firstName, lastName: p.lastName, email: p.email };
      let res = await a.put('/api/v1/entity/contact', { id: p.id, contact: base, accountOwnerId: adminAId });
      expect(res.json().contact.owner.id).toBe(adminAId);
      const disabled = await createUser(ctx, orgA, { status: 'disabled' });
      res = await a.put('/api/v1/entity/contact', { id: p.id, contact: base, accountOwnerId: disabled.id });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(OWNER_INVALID);
      expect((await details(a, p.id)).owner.id).toBe(adminAId);
      res = await a.put('/api/v1/entity/contact', { id: p.id, contact: base, accountOwnerId: null });
      expect(res.json().contact.owner).toBeNull();
    });

    it('assignCompanyId links a company; a foreign company is 404 and the update is rolled back', async () => {
      const p = await newContact(a);
      const c = await newCompany(a);
      const res = await a.put('/api/v1/entity/contact', {
        id: p.id,
        contact: { firstName: p.firstName, lastName: p.lastName, email: p.email },
        assignCompanyId: c.id,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().contact.primaryCompany.id).toBe(c.id);
      const theirs = await newCompany(b);
      const bad = await a.put('/api/v1/entity/contact', {
        id: p.id,
        contact: { firstName: 'Rolled', lastName: 'Back', email: p.email },
        assignCompanyId: theirs.id,
      });
      expect(bad.statusCode).toBe(404);
      expect((await details(a, p.id)).firstName).toBe(p.firstName);
    });

    it('404 for another organization’s contact or an unknown id', async () => {
      const theirs = await newContact(b);
      for (const id of [theirs.id, randomUUID()]) {
        const res = await a.put('/api/v1/entity/contact', { id, contact: { firstName: 'H', lastName: 'J', email: `hj-${uniq()}@x.com` } });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Contact not found' });
      }
      expect((await details(b, theirs.id)).firstName).toBe(theirs.firstName);
    });
  });

  describe('POST /api/v1/entity/create and PUT /api/v1/entity/update (contact)', () => {
    it('create answers 201 with contactId; update answers its message; 409 and 404', async () => {
      const u = uniq();
      const res = await a.post('/api/v1/entity/create', {
        entityType: 'contact',
        data: { firstName: 'G', lastName: 'C', email: `gc-${u}@x.com` },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({ success: true, message: 'Contact created successfully', contactId: expect.any(String) });
      const id = res.json().contactId;
      const up = await a.put('/api/v1/entity/update', {
        entityType: 'contact',
        id,
        data: { firstName: 'G2', lastName: 'C', email: `gc-${u}@x.com` },
      });
      expect(up.json()).toEqual({ success: true, message: 'Contact updated' });
      expect((await details(a, id)).firstName).toBe('G2');
      const bad = await a.post('/api/v1/entity/create', { entityType: 'contact', data: { firstName: 'G', lastName: 'C', email: '' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Email is required');
      const dup = await a.post('/api/v1/entity/create', {
        entityType: 'contact',
        data: { firstName: 'G', lastName: 'C', email: `GC-${u}@x.com` },
      });
      expect(dup.statusCode).toBe(409);
      const theirs = await newContact(b);
      const nf = await a.put('/api/v1/entity/update', {
        entityType: 'contact',
        id: theirs.id,
        data: { firstName: 'x', lastName: 'y', email: `nf-${u}@x.com` },
      });
      expect(nf.statusCode).toBe(404);
      expect(nf.json().message).toBe('Contact not found');
    });
  });

  describe('links from the contact side', () => {
    it('set-primary moves the primary flag: exactly one primary company per contact', async () => {
      const p = await newContact(a);
      const [c1, c2, c3] = [await newCompany(a), await newCompany(a), await newCompany(a)];
      expect(await link(a, c1.id, p.id)).toMatchObject({ isPrimary: true });
      expect(await link(a, c2.id, p.id)).toMatchObject({ isPrimary: false });
      expect(await link(a, c3.id, p.id)).toMatchObject({ isPrimary: false });
      const res = await a.put('/api/v1/contact/set-primary', { companyId: c3.id, contactId: p.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        message: 'Primary company updated',
        mapping: expect.objectContaining({ companyId: c3.id, contactId: p.id, isPrimary: true }),
      });
      let d = await details(a, p.id);
      expect(d.primaryCompany.id).toBe(c3.id);
      expect(d.entityMapping.filter((m: { isPrimary: boolean }) => m.isPrimary).map((m: { companyId: string }) => m.companyId)).toEqual([
        c3.id,
      ]);
      await a.put('/api/v1/contact/set-primary', { companyId: c2.id, contactId: p.id });
      d = await details(a, p.id);
      expect(d.entityMapping.filter((m: { isPrimary: boolean }) => m.isPrimary).map((m: { companyId: string }) => m.companyId)).toEqual([
        c2.id,
      ]);
      // The primary company is listed first, then the others by name.
      expect(d.entityMapping[0].companyId).toBe(c2.id);
      // Key flags of the companies are not touched.
      expect((await a.get(`/api/v1/company/details/${c1.id}`)).json().company.keyContact.id).toBe(p.id);
    });

    it('concurrent links of one contact and concurrent set-primary calls: all succeed, exactly one primary company', async () => {
      const p = await newContact(a);
      const companies = await Promise.all(Array.from({ length: 5 }, () => newCompany(a)));
      const links = await Promise.all(companies.map((c) => a.post('/api/v1/company/create-mapping', { companyId: c.id, contactId: p.id })));
      expect(links.map((r) => r.statusCode)).toEqual(companies.map(() => 201));
      expect(links.filter((r) => r.json().mapping.isPrimary)).toHaveLength(1);
      const res = await Promise.all(companies.map((c) => a.put('/api/v1/contact/set-primary', { companyId: c.id, contactId: p.id })));
      expect(res.map((r) => r.statusCode)).toEqual(companies.map(() => 200));
      const d = await details(a, p.id);
      expect(d.entityMapping.filter((m: { isPrimary: boolean }) => m.isPrimary)).toHaveLength(1);
      expect(d.companyCount).toBe(5);
    });

    it('set-primary for records that are not linked, or another organization’s, is 404', async () => {
      const p = await newContact(a);
      const c = await newCompany(a);
      const res = await a.put('/api/v1/contact/set-primary', { companyId: c.id, contactId: p.id });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'These records are not linked' });
      const theirC = await newCompany(b);
      const theirP = await newContact(b);
      await link(b, theirC.id, theirP.id);
      expect((await a.put('/api/v1/contact/set-primary', { companyId: theirC.id, contactId: theirP.id })).statusCode).toBe(404);
      expect((await a.put('/api/v1/entity/mapping-company', { companyId: theirC.id, contactId: theirP.id, remove: true })).statusCode).toBe(
        404,
      );
      expect((await details(b, theirP.id)).entityMapping).toHaveLength(1);
    });

    it('mapping-company sets label and value, the primary flag, and removes the link', async () => {
      const p = await newContact(a);
      const c1 = await newCompany(a);
      const c2 = await newCompany(a);
      await link(a, c1.id, p.id);
      await link(a, c2.id, p.id);
      let res = await a.put('/api/v1/entity/mapping-company', { companyId: c2.id, contactId: p.id, label: 'Board', value: 'Observer' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        message: 'Linked successfully',
        mapping: { companyId: c2.id, contactId: p.id, isKey: true, isPrimary: false, label: 'Board', value: 'Observer' },
      });
      res = await a.put('/api/v1/entity/mapping-company', { companyId: c2.id, contactId: p.id, isPrimary: true });
      expect(res.json().mapping).toMatchObject({ isPrimary: true, label: 'Board' });
      expect((await details(a, p.id)).primaryCompany.id).toBe(c2.id);
      res = await a.put('/api/v1/entity/mapping-company', { companyId: c1.id, contactId: p.id, remove: true });
      expect(res.json().mapping).toBeNull();
      const d = await details(a, p.id);
      expect(d.entityMapping.map((m: { companyId: string }) => m.companyId)).toEqual([c2.id]);
      expect(d.companyCount).toBe(1);
      expect((await a.get(`/api/v1/company/details/${c1.id}`)).statusCode).toBe(200);
    });
  });

  describe('GET /api/v1/contact/details/{id}', () => {
    it('the contact with its companies (primary first, then by name) and field values', async () => {
      const u = uniq();
      const p = await newContact(a);
      const cz = await newCompany(a, { name: `Zulu ${u}` });
      const ca = await newCompany(a, { name: `alpha ${u}` });
      const cm = await newCompany(a, { name: `Mike ${u}` });
      for (const c of [cm, cz, ca]) await link(a, c.id, p.id);
      const field = await newField(a, 'contact', 'boolean');
      await setValue(a, 'contact', p.id, field.id, 'yes');
      const d = await details(a, p.id);
      expect(d.entityMapping.map((m: { name: string }) => m.name)).toEqual([`Mike ${u}`, `alpha ${u}`, `Zulu ${u}`]);
      expect(d).toMatchObject({
        id: p.id,
        companyCount: 3,
        primaryCompany: { id: cm.id, name: `Mike ${u}`, domain: cm.domain, website: cm.website },
      });
      expect(d.fields[field.id]).toMatchObject({ value: true, status: 'completed' });
    });

    it('404 for another organization’s contact and unknown ids', async () => {
      const theirs = await newContact(b);
      for (const id of [theirs.id, randomUUID()]) {
        const res = await a.get(`/api/v1/contact/details/${id}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Contact not found' });
      }
    });
  });

  describe('POST /api/v1/contact/search', () => {
    it('finds by first name, last name or email, ignoring case; only contacts; only the caller’s', async () => {
      const u = uniq();
      const byFirst = await newContact(a, { firstName: `Hjk${u}`, lastName: 'One' });
      const byEmail = await newContact(a, { email: `x.hjk${u}@mail.com` });
      await newCompany(a, { name: `Hjk${u} Company` });
      await newContact(b, { firstName: `Hjk${u}` });
      const hits = (await a.post('/api/v1/contact/search', { query: `HJK${u}` })).json().results;
      expect(hits.map((h: { id: string }) => h.id).sort()).toEqual([byFirst.id, byEmail.id].sort());
      expect(hits.find((h: { id: string }) => h.id === byFirst.id)).toEqual({
        id: byFirst.id,
        entityType: 'contact',
        title: `Hjk${u} One`,
        subtitle: byFirst.email,
      });
    });
  });

  describe('delete', () => {
    it("DELETE /api/v1/contact/delete/{id}: 'Contact deleted', with links and field values; the companies stay", async () => {
      const p = await newContact(a);
      const c = await newCompany(a);
      await link(a, c.id, p.id);
      const field = await newField(a, 'contact', 'string');
      await setValue(a, 'contact', p.id, field.id, 'v');
      const res = await a.del(`/api/v1/contact/delete/${p.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Contact deleted' });
      expect((await a.get(`/api/v1/contact/details/${p.id}`)).statusCode).toBe(404);
      expect((await a.get(`/api/v1/company/details/${c.id}`)).json().company).toMatchObject({
        keyContact: null,
        contactCount: 0,
        entityMapping: [],
      });
      const [{ n }] = await ctx
        .em()
        .getConnection()
        .execute<{ n: number }[]>('select count(*)::int as n from field_value where entity_id = ?', [p.id]);
      expect(n).toBe(0);
      const again = await a.del(`/api/v1/contact/delete/${p.id}`);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ success: false, message: 'Contact not found' });
    });

    it('404 for another organization’s contact (it stays)', async () => {
      const theirs = await newContact(b);
      expect((await a.del(`/api/v1/contact/delete/${theirs.id}`)).statusCode).toBe(404);
      expect((await b.get(`/api/v1/contact/details/${theirs.id}`)).statusCode).toBe(200);
    });

    it('bulk delete by ids and by all selected (search, filters, exclusions)', async () => {
      const p1 = await newContact(a);
      const theirs = await newContact(b);
      const res = await a.post('/api/v1/contact/bulk-delete', { selection: { ids: [p1.id, theirs.id] } });
      expect(res.json()).toEqual({ success: true, message: '1 contact deleted', count: 1 });
      expect((await b.get(`/api/v1/contact/details/${theirs.id}`)).statusCode).toBe(200);

      const u = uniq();
      const field = await newField(a, 'contact', 'string', `Stage ${u}`);
      const made: ContactLike[] = [];
      for (let i = 0; i < 5; i++) {
        const p = await newContact(a, { lastName: `Bulk${u}` });
        if (i !== 4) await setValue(a, 'contact', p.id, field.id, i % 2 === 0 ? 'Lead' : 'Customer');
        made.push(p);
      }
      // not_equals 'customer' selects the leads and the one without a value (i = 0, 2, 4); exclude i = 2.
      const all = await a.post('/api/v1/contact/bulk-delete', {
        selection: { allSelected: true, text: `bulk${u}`, filters: [f(field.key, [['not_equals', 'customer']])], excludeIds: [made[2].id] },
      });
      expect(all.statusCode, all.body).toBe(200);
      expect(all.json()).toEqual({ success: true, message: '2 contacts deleted', count: 2 });
      const left = (await a.post('/api/v1/contact/get-contacts', { text: `bulk${u}`, pageSize: 100 }))
        .json()
        .rows.map((r: { id: string }) => r.id)
        .sort();
      expect(left).toEqual([made[1].id, made[2].id, made[3].id].sort());
    });
  });

  describe('sessions and CSRF', () => {
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/v1/entity/contact', { contact: { firstName: 'a', lastName: 'b', email: 'a@anon.com' } }],
      ['PUT', '/api/v1/entity/contact', { id: randomUUID(), contact: { firstName: 'a', lastName: 'b', email: 'a@anon.com' } }],
      ['PUT', '/api/v1/entity/mapping-company', { companyId: randomUUID(), contactId: randomUUID() }],
      ['PUT', '/api/v1/contact/set-primary', { companyId: randomUUID(), contactId: randomUUID() }],
      ['POST', '/api/v1/contact/search', { query: 'x' }],
      ['GET', `/api/v1/contact/details/${randomUUID()}`],
      ['DELETE', `/api/v1/contact/delete/${randomUUID()}`],
      ['POST', '/api/v1/contact/bulk-delete', { selection: { ids: [randomUUID()] } }],
      ['POST', '/api/v1/contact/get-contacts', {}],
      ['POST', '/api/v1/contact/export', { selection: { allSelected: true } }],
    ];

    it.each(routes)('401 without a session: %s %s', async (method, url, payload) => {
      const res = await ctx.app.inject({ method: method as 'GET', url, payload: payload as Record<string, unknown> | undefined });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, message: 'Unauthorized: please sign in' });
    });

    it('state-changing calls are refused without the CSRF header (nothing changes)', async () => {
      const p = await newContact(a);
      const c = await newCompany(a);
      await link(a, c.id, p.id);
      const u = uniq();
      a.sendCsrf = false;
      try {
        for (const res of [
          await a.post('/api/v1/entity/contact', { contact: { firstName: 'C', lastName: 'S', email: `csrf-${u}@x.com` } }),
          await a.put('/api/v1/entity/contact', { id: p.id, contact: { firstName: 'Changed', lastName: 'S', email: p.email } }),
          await a.put('/api/v1/entity/mapping-company', { companyId: c.id, contactId: p.id, remove: true }),
          await a.del(`/api/v1/contact/delete/${p.id}`),
        ]) {
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual({ success: false, message: 'Invalid or missing CSRF token' });
        }
      } finally {
        a.sendCsrf = true;
      }
      expect(await countContacts('email = ?', [`csrf-${u}@x.com`])).toBe(0);
      expect(await details(a, p.id)).toMatchObject({ firstName: p.firstName, companyCount: 1 });
    });
  });
});
