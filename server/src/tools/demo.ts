// The demo organization of `npm run seed:demo`: an organization worth exploring without typing —
// companies with contacts and key contacts, custom fields with values, an enrichment with
// finished results, activities and notifications. Everything is written through the modules' own
// functions (createCompany, linkCompanyContact, createCustomField, writeFieldValue, createActivity,
// notifyUser…), so the triggers, slots, counts and sort texts are what the product itself keeps.
// Deterministic (a seeded generator) and idempotent: a second run finds the demo admin and
// changes nothing.
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { configFor } from '../modules/enrichments/configs';
import { Enrichment } from '../modules/enrichments/enrichment.entity';
import { assign } from '../modules/enrichments/enrichments.service';
import { createCustomField } from '../modules/fields/fields.service';
import { writeFieldValue } from '../modules/fields/field-values';
import { createActivity } from '../modules/activities/activities.service';
import { notifyUser } from '../modules/notifications/notify';
import { createOrganizationWithAdmin } from '../modules/organization/bootstrap';
import { createCompany, createContact, linkCompanyContact } from '../modules/records/records.service';
import { User, type IUser } from '../modules/users/user.entity';
import { hashPassword } from '../lib/password';
import { crossTenant, tenantSql } from '../db/sql';

export const DEMO_ADMIN_EMAIL = 'demo.admin@dealscout.local';
export const DEMO_PASSWORD = 'Demo1234';
export const DEMO_ORGANIZATION = 'Northwind Capital (demo)';
export const DEMO_COMPANIES = 300;

const PREFIXES = [
  'Acme',
  'Blue',
  'Cedar',
  'Delta',
  'Ember',
  'Falcon',
  'Granite',
  'Harbor',
  'Iris',
  'Juniper',
  'Keystone',
  'Lumen',
  'Maple',
  'Nova',
  'Orchid',
  'Pioneer',
  'Quartz',
  'Ridge',
  'Summit',
  'Tidal',
];
const NOUNS = [
  'Analytics',
  'Foods',
  'Robotics',
  'Logistics',
  'Health',
  'Energy',
  'Software',
  'Textiles',
  'Capital',
  'Labs',
  'Marine',
  'Foundry',
  'Media',
  'Pharma',
  'Systems',
];
const INDUSTRIES = ['Software', 'Manufacturing', 'Healthcare', 'Logistics', 'Energy', 'Consumer', 'Financial services', 'Media'];
const FIRST = [
  'Alex',
  'Blair',
  'Casey',
  'Dana',
  'Eli',
  'Finn',
  'Gray',
  'Harper',
  'Ira',
  'Jules',
  'Kai',
  'Lee',
  'Morgan',
  'Noa',
  'Oakley',
  'Parker',
  'Quinn',
  'Reese',
  'Sky',
  'Taylor',
];
const LAST = [
  'Adams',
  'Baker',
  'Chen',
  'Diaz',
  'Evans',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ito',
  'Jensen',
  'Khan',
  'Lopez',
  'Meyer',
  'Novak',
  'Okafor',
  'Patel',
  'Rossi',
  'Sato',
  'Svensson',
  'Walsh',
];
const TITLES = ['CEO', 'CFO', 'Head of Corporate Development', 'Founder', 'VP Sales', 'COO'];

/** A small deterministic generator (mulberry32), so every demo is the same. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DemoSummary {
  created: boolean;
  email: string;
  password: string;
  organizationId: string;
  companies: number;
  contacts: number;
  fields: number;
  values: number;
  enrichmentResults: number;
  activities: number;
  notifications: number;
}

/** Creates the demo organization (or finds it) and answers what it holds. */
export async function seedDemo(orm: MikroORM, opts: { companies?: number; log?: (m: string) => void } = {}): Promise<DemoSummary> {
  const log = opts.log ?? (() => {});
  const total = opts.companies ?? DEMO_COMPANIES;
  const root = orm.em.fork();
  const existing = await root.findOne(User, { email: DEMO_ADMIN_EMAIL, deleted: false }, crossTenant('operator'));
  if (existing) {
    const orgId = typeof existing.organization === 'string' ? existing.organization : existing.organization.id;
    return { created: false, ...(await summary(orm, orgId)) };
  }
  const { orgId, admin, members } = await createDemoOrganization(root);
  const r = rng(20261125);
  const demo: Demo = {
    orgId,
    admin,
    members,
    actor: { organizationId: orgId, userId: admin.id },
    // The tenant filter as a signed-in request has it.
    em: () => {
      const f = orm.em.fork();
      f.setFilterParams('tenant', { organizationId: orgId });
      return f;
    },
    r,
    pick: <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)],
  };

  log('custom fields');
  const fields = await createDemoFields(demo);
  log(`${total} companies with contacts`);
  const companies: DemoCompany[] = [];
  for (let i = 0; i < total; i++) companies.push(await createDemoCompany(demo, fields, i));
  log('an enrichment with finished results');
  const enrichmentId = await createIndustryEnrichment(demo, fields);
  const enriched = companies.filter((_, i) => i % 10 !== 9);
  await writeIndustryResults(demo, fields, enrichmentId, enriched);
  log('activities and notifications');
  await createDemoActivities(demo, companies);
  await notifyDemoMembers(demo, companies.length, enriched.length);
  return { created: true, ...(await summary(orm, orgId)) };
}

/** The demo organization as seedDemo fills it: its members, the tenant-filtered EntityManager, the generator. */
interface Demo {
  orgId: string;
  admin: IUser;
  members: IUser[];
  actor: { organizationId: string; userId: string };
  em: () => EntityManager;
  /** The deterministic generator: every value it gives is drawn in the same order on every run. */
  r: () => number;
  pick: <T>(xs: readonly T[]) => T;
}
type DemoFields = Record<'revenue' | 'employees' | 'industry' | 'title', Awaited<ReturnType<typeof createCustomField>>>;
type DemoCompany = { id: string; name: string; contacts: string[]; industry: string };

/** The organization, its admin and two members (the same password for all). */
async function createDemoOrganization(root: EntityManager): Promise<{ orgId: string; admin: IUser; members: IUser[] }> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const { organization, user: admin } = await createOrganizationWithAdmin(root, {
    organizationName: DEMO_ORGANIZATION,
    email: DEMO_ADMIN_EMAIL,
    firstName: 'Dana',
    lastName: 'Demo',
    maxUser: 10,
    passwordHash,
  });
  organization.website = 'https://northwind-capital.example';
  const members: IUser[] = [admin];
  for (const [firstName, lastName, role] of [
    ['Riley', 'Researcher', 'User'],
    ['Sam', 'Sales', 'User'],
  ] as const) {
    members.push(
      root.create(User, {
        organization,
        email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@dealscout.local`,
        firstName,
        lastName,
        role,
        status: 'active',
        invitationAccepted: true,
        passwordHash,
      }) as IUser,
    );
  }
  await root.flush();
  return { orgId: organization.id, admin, members };
}

async function createDemoFields(demo: Demo): Promise<DemoFields> {
  const { orgId, admin, em } = demo;
  return {
    revenue: await createCustomField(em(), {
      organizationId: orgId,
      userId: admin.id,
      entityType: 'company',
      label: 'Revenue (USD m)',
      dataType: 'double',
    }),
    employees: await createCustomField(em(), {
      organizationId: orgId,
      userId: admin.id,
      entityType: 'company',
      label: 'Employees',
      dataType: 'int',
    }),
    industry: await createCustomField(em(), {
      organizationId: orgId,
      userId: admin.id,
      entityType: 'company',
      label: 'Industry',
      dataType: 'string',
    }),
    title: await createCustomField(em(), {
      organizationId: orgId,
      userId: admin.id,
      entityType: 'contact',
      label: 'Job title',
      dataType: 'string',
    }),
  };
}

/** Company i of the demo (a deterministic name), its contacts, and its custom values. */
async function createDemoCompany(demo: Demo, fields: DemoFields, i: number): Promise<DemoCompany> {
  const { orgId, actor, members, r, pick } = demo;
  const suffix = i >= PREFIXES.length * NOUNS.length ? ` ${Math.floor(i / (PREFIXES.length * NOUNS.length)) + 1}` : '';
  const name = `${PREFIXES[i % PREFIXES.length]} ${NOUNS[Math.floor(i / PREFIXES.length) % NOUNS.length]}${suffix}`;
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const owner = members[i % members.length];
  const x = demo.em();
  const company = await createCompany(x, actor, {
    name,
    website: `https://www.${slug}.example`,
    accountOwnerId: i % 5 === 4 ? null : owner.id,
  });
  const industry = pick(INDUSTRIES);
  const row = { id: company.id, name, contacts: [] as string[], industry };
  // Most companies have one to three contacts; the first linked becomes the key contact.
  const n = i % 7 === 6 ? 0 : 1 + Math.floor(r() * 3);
  for (let k = 0; k < n; k++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const contact = await createContact(x, actor, {
      firstName: first,
      lastName: last,
      email: `${first}.${last}.${i}.${k}@${slug}.example`.toLowerCase(),
      accountOwnerId: owner.id,
    });
    await linkCompanyContact(x, actor, company.id, contact.id);
    row.contacts.push(contact.id);
    await writeFieldValue(x, {
      organizationId: orgId,
      entityType: 'contact',
      entityId: contact.id,
      field: fields.title,
      value: k === 0 ? pick(TITLES.slice(0, 4)) : pick(TITLES),
    });
  }
  // Revenue and employees for most, the industry for the ones the enrichment did not reach.
  if (i % 10 !== 9) {
    await writeFieldValue(x, {
      organizationId: orgId,
      entityType: 'company',
      entityId: company.id,
      field: fields.revenue,
      value: Math.round(r() * 900_00 + 500) / 100,
    });
    await writeFieldValue(x, {
      organizationId: orgId,
      entityType: 'company',
      entityId: company.id,
      field: fields.employees,
      value: 10 + Math.floor(r() * 4_990),
    });
  }
  return row;
}

/** The 'Industry classifier' enrichment, assigned to the Industry field: its id. */
async function createIndustryEnrichment(demo: Demo, fields: DemoFields): Promise<string> {
  const { orgId, admin, actor, em } = demo;
  const config = configFor('company', 'llm')!;
  const x = em();
  const enrichment = x.create(Enrichment, {
    organization: orgId,
    configId: config.id,
    enrichmentType: config.enrichmentType,
    provider: config.provider,
    entityType: 'company',
    name: 'Industry classifier',
    llmModelId: 'default',
    data: {
      prompt: 'Which industry is {{name}} ({{website}}) in? Answer with one of: ' + INDUSTRIES.join(', ') + '.',
      schema: [{ name: 'industry', type: 'string', description: 'The industry', required: true, createColumn: false }],
      jsonSchema: null,
      websiteToScrape: null,
      scrapeFieldId: null,
    },
    color: null,
    field: null,
    isPrimary: false,
    assignedAt: null,
    listCompanyId: null,
    listColumns: [],
    createdBy: admin.id,
  });
  await x.flush();
  await assign({ em: em(), ...actor }, enrichment.id, fields.industry.id);
  return enrichment.id;
}

/**
 * The enrichment's results, as a finished run leaves them: a complete result per company, and the
 * value in the field it fills with the enrichment's outcome (writeFieldValue with meta).
 */
async function writeIndustryResults(demo: Demo, fields: DemoFields, enrichmentId: string, enriched: readonly DemoCompany[]): Promise<void> {
  const { orgId, em } = demo;
  for (const c of enriched) {
    const y = em();
    const result = { industry: c.industry };
    await tenantSql(y, orgId).all(
      `insert into enrichment_result (id, organization_id, enrichment_id, entity_type, entity_id, execution_id, status, status_message,
        value, sources, updated_at)
       values (gen_random_uuid(), ?, ?, 'company', ?, null, 'complete', null, ?::jsonb, ?::jsonb, clock_timestamp())`,
      [
        orgId,
        enrichmentId,
        c.id,
        JSON.stringify({ result }),
        JSON.stringify([
          { url: `https://www.${c.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example/about`, title: `About ${c.name}` },
        ]),
      ],
    );
    await writeFieldValue(y, {
      organizationId: orgId,
      entityType: 'company',
      entityId: c.id,
      field: fields.industry,
      value: c.industry,
      meta: {
        status: 'completed',
        statusMessage: null,
        infoValue: result,
        details: { enrichmentId: enrichmentId, executionId: null, sources: [] },
      },
    });
  }
}

async function createDemoActivities(demo: Demo, companies: readonly DemoCompany[]): Promise<void> {
  const { orgId, members, em } = demo;
  const today = new Date().toISOString().slice(0, 10);
  const kinds = [
    { type: 'call', content: 'Intro call: interested in a partnership, asked for the deck.' },
    { type: 'f2f', content: 'Met at the trade fair; follow up on pricing next week.' },
    { type: 'text', content: 'Key contact changes role in Q3; keep the CFO in the loop.' },
    { type: 'video', content: 'Demo of the sourcing workflow with their corp dev team.' },
  ] as const;
  for (const [i, c] of companies.entries()) {
    if (i % 4 !== 0 || c.contacts.length === 0) continue;
    const user = members[i % members.length];
    const kind = kinds[(i / 4) % kinds.length];
    await createActivity({ em: em(), organizationId: orgId, user }, {
      type: kind.type,
      companyId: c.id,
      contactId: c.contacts[0],
      date: today,
      content: kind.content,
      title: null,
      followUp: i % 8 === 0,
      timezone: 'UTC',
    } as Parameters<typeof createActivity>[1]);
  }
}

async function notifyDemoMembers(demo: Demo, companies: number, enriched: number): Promise<void> {
  const { orgId, members, em } = demo;
  const notices = [
    { level: 'info', message: `Enrichment 'Industry classifier' finished: ${enriched} companies enriched`, href: '/enrichments' },
    { level: 'info', message: `${companies} demo companies are ready to explore`, href: '/companies' },
    {
      level: 'warning',
      message: `${companies - enriched} companies have no industry yet: run the enrichment on them`,
      href: '/companies',
    },
  ] as const;
  for (const user of members) {
    for (const [k, n] of notices.entries()) {
      const y = em();
      await y.transactional(async (t) => {
        await notifyUser(t, {
          organizationId: orgId,
          userId: user.id,
          level: n.level,
          message: n.message,
          href: n.href,
          uniqueKey: `demo-${k}`,
        });
      });
    }
  }
}

async function summary(orm: MikroORM, orgId: string): Promise<Omit<DemoSummary, 'created'>> {
  const [row] = await tenantSql(orm.em, orgId).all<Record<string, number>>(
    `select (select count(*)::int from company where organization_id = ?) as companies,
            (select count(*)::int from contact where organization_id = ?) as contacts,
            (select count(*)::int from field_definition where organization_id = ? and built_in_column is null) as fields,
            (select count(*)::int from field_value where organization_id = ?) as values,
            (select count(*)::int from enrichment_result where organization_id = ? and status = 'complete') as enrichment_results,
            (select count(*)::int from activity where organization_id = ?) as activities,
            (select count(*)::int from notification where organization_id = ?) as notifications`,
    [orgId, orgId, orgId, orgId, orgId, orgId, orgId],
  );
  return {
    email: DEMO_ADMIN_EMAIL,
    password: DEMO_PASSWORD,
    organizationId: orgId,
    companies: row.companies,
    contacts: row.contacts,
    fields: row.fields,
    values: row.values,
    enrichmentResults: row.enrichment_results,
    activities: row.activities,
    notifications: row.notifications,
  };
}
