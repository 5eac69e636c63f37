// `npm run seed:demo` leaves an organization worth exploring (server/src/tools/demo.ts): checked
// through the API as its admin sees it, and the script itself prints the sign-in plainly.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp, TestClient, type TestContext } from '../../test/helpers';
import { replyMailboxJob } from '../modules/email/replies/replies.job';
import { loadConfig } from '../config';
import { FakeGraphServer } from '../../test/fakes/graph-server';
import { seedDemo, DEMO_ADMIN_EMAIL, DEMO_PASSWORD, DEMO_COMPANIES, type DemoSummary } from './demo';

const SIZE = 40;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('npm run seed:demo', { timeout: 600_000 }, () => {
  let ctx: TestContext;
  let first: DemoSummary;
  let c: TestClient;

  beforeAll(async () => {
    ctx = await createTestApp();
    // The demo's shape at a tenth of its size (300 companies take minutes on a busy machine); the
    // script seeds the full DEMO_COMPANIES.
    first = await seedDemo(ctx.orm, { companies: SIZE });
    // Signed in with the demo password itself.
    c = new TestClient(ctx.app, '10.81.0.1');
    await c.login(DEMO_ADMIN_EMAIL, DEMO_PASSWORD);
  }, 600_000);
  afterAll(async () => {
    await ctx.close();
  });

  it('a few hundred companies, most with contacts and a key contact', async () => {
    expect(first.created).toBe(true);
    expect(DEMO_COMPANIES).toBeGreaterThanOrEqual(200);
    const page = (await c.post('/api/v1/company/get-companies', { pageSize: 1000 })).json();
    expect(page.totalRecords).toBe(SIZE);
    expect(first.companies).toBe(SIZE);
    expect(page.totalIsEstimate).toBe(false);
    const withKey = page.rows.filter((r: { keyContact: unknown }) => r.keyContact !== null);
    expect(withKey.length).toBeGreaterThan(SIZE * 0.7);
    expect(withKey.length).toBeLessThan(SIZE);
    const contacts = (await c.post('/api/v1/contact/get-contacts', { pageSize: 10 })).json();
    expect(contacts.totalRecords).toBe(first.contacts);
    expect(first.contacts).toBeGreaterThan(SIZE);
    expect(contacts.rows[0].primaryCompany).not.toBeNull();
  });

  it('custom fields with values, filterable and sortable like any', async () => {
    const fields = (await c.get('/api/v1/entity/fields')).json().fields as {
      id: string;
      key: string;
      label: string;
      builtIn: boolean;
      entityType: string;
    }[];
    const custom = fields.filter((f) => !f.builtIn);
    expect(custom.map((f) => `${f.entityType}:${f.label}`).sort()).toEqual([
      'company:Employees',
      'company:Industry',
      'company:Revenue (USD m)',
      'contact:Job title',
    ]);
    const revenue = custom.find((f) => f.label === 'Revenue (USD m)')!;
    const rich = (
      await c.post('/api/v1/company/get-companies', {
        pageSize: 10,
        sortKey: revenue.key,
        sortOrder: 'desc',
        filters: [{ key: revenue.key, operator: 'and', items: [{ id: 'c1', condition: 'greater_than', data: 100 }] }],
      })
    ).json();
    expect(rich.totalRecords).toBeGreaterThan(SIZE / 2);
    const values = rich.rows.map((r: { fields: Record<string, { value: number }> }) => r.fields[revenue.id].value);
    expect(values).toEqual([...values].sort((a: number, b: number) => b - a));
    expect(values.every((v: number) => v > 100)).toBe(true);
  });

  it('an enrichment assigned to Industry, with finished results in the field and in its results', async () => {
    const list = (await c.post('/api/v1/enrichment/list', { pageIndex: 0 })).json();
    const enrichment = list.enrichments.find((e: { name: string }) => e.name === 'Industry classifier');
    expect(enrichment).toBeDefined();
    const fields = (await c.get('/api/v1/entity/fields')).json().fields as {
      id: string;
      label: string;
      assignedEnrichments: { id: string }[];
    }[];
    const industry = fields.find((f) => f.label === 'Industry')!;
    expect(industry.assignedEnrichments.map((e) => e.id)).toContain(enrichment.id);
    const page = (await c.post('/api/v1/company/get-companies', { pageSize: 50 })).json();
    const filled = page.rows.filter((r: { fields: Record<string, unknown> }) => r.fields[industry.id]);
    expect(filled.length).toBe(Math.round(SIZE * 0.9));
    expect(filled[0].fields[industry.id]).toMatchObject({ status: 'completed' });
    const results = (
      await c.post('/api/v1/enrichment/results', {
        entityType: 'company',
        entityIds: filled.map((r: { id: string }) => r.id),
        enrichmentIds: [enrichment.id],
      })
    ).json().results;
    expect(results).toHaveLength(filled.length);
    expect(results[0]).toMatchObject({ status: 'complete' });
    expect(first.enrichmentResults).toBe(Math.round(SIZE * 0.9));
  });

  it('activities on the companies and notifications in the bell', async () => {
    expect(first.activities).toBeGreaterThan(5);
    const page = (await c.post('/api/v1/company/get-companies', { pageSize: 1000 })).json();
    let seen = 0;
    for (const row of page.rows) seen += (await c.get(`/api/v1/activity/company/${row.id}`)).json().activities.length;
    expect(seen).toBeGreaterThan(0);
    const bell = (await c.get('/api/v1/notifications')).json();
    expect(bell.notifications.length).toBe(3);
    expect(bell.notifications.map((n: { message: string }) => n.message).join('\n')).toContain("Enrichment 'Industry classifier' finished");
  });

  it('a second run changes nothing; the script prints the sign-in plainly', async () => {
    const again = await seedDemo(ctx.orm, { companies: SIZE });
    expect(again).toEqual({ ...first, created: false });
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/src/tools/seed-demo.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: ctx.dbUrl, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      timeout: 120_000,
    });
    expect(stdout).toContain('Demo organization already present');
    expect(stdout).toContain(`Sign in as: ${DEMO_ADMIN_EMAIL}`);
    expect(stdout).toContain(`Password:   ${DEMO_PASSWORD}`);
    expect(stdout).not.toContain('[redacted]');
    expect(stdout).toContain(`It holds ${SIZE} companies`);
    // The demo admin's mailbox, connected offline against the Graph fake (tools/demo-mail.ts).
    expect(stdout).toContain(
      `Mailbox ${DEMO_ADMIN_EMAIL} connected (offline, against the Graph fake): 3 emails sent, 3 scheduled, 1 refused (Try Again), 1 answered.`,
    );
    const status = (await c.get('/api/v1/email/service-status')).json();
    expect(status.integration).toMatchObject({ account: DEMO_ADMIN_EMAIL, active: true });
    const again2 = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/src/tools/seed-demo.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: ctx.dbUrl, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      timeout: 120_000,
    });
    expect(again2.stdout).toContain(`Mailbox ${DEMO_ADMIN_EMAIL} already connected (nothing changed).`);
  });

  it('the demo reads like real use and leaves no job failing: a real refusal reason, the reply follower runs clean', async () => {
    const db = ctx.em();
    const org = first.organizationId;
    // No test text anywhere in the organization's rows (the refused email's banner included).
    const tables = (
      await db.execute<{ table_name: string }[]>(
        `select table_name from information_schema.columns where table_schema = 'public' and column_name = 'organization_id'`,
      )
    ).map((r) => r.table_name);
    for (const t of tables) {
      const [{ n }] = await db.execute<{ n: number }[]>(
        `select count(*)::int as n from "${t}" x where organization_id = ? and x::text ilike '%injected fault%'`,
        [org],
      );
      expect(n, t).toBe(0);
    }
    const [refused] = await db.execute<{ status_message: string }[]>(
      `select status_message from channel_email where organization_id = ? and subject = 'Partnership idea'`,
      [org],
    );
    expect(refused.status_message).toMatch(/recipient/i);
    // The fake the seed connected through is gone: no link of its is kept for the follower.
    const [sync] = await db.execute<{ delta_link: string | null; next_link: string | null; error: string | null }[]>(
      `select delta_link, next_link, error from mailbox_sync where organization_id = ?`,
      [org],
    );
    expect(sync).toEqual({ delta_link: null, next_link: null, error: null });
    const [mailbox] = await db.execute<{ id: string }[]>(
      `select id from integration where organization_id = ? and provider = 'office365' and user_id is not null`,
      [org],
    );
    const run = (config: typeof ctx.config) =>
      replyMailboxJob.handle(
        { organizationId: org, integrationId: mailbox.id },
        { orm: ctx.orm, logger: ctx.app.log as never, boss: null as never, config },
        null as never,
      );
    // The follower job once, as the worker's minute sweep would run it: Office 365 not configured here.
    await expect(run(ctx.config)).resolves.toBeUndefined();
    // With Office 365 configured, even a link an older seed left behind (the fake's address) starts a
    // new round instead of failing; the fake's tokens are refused and the card asks to reconnect.
    const graph = await FakeGraphServer.start();
    try {
      await db.execute(`update mailbox_sync set delta_link = ? where organization_id = ?`, [
        "http://127.0.0.1:9/v1.0/me/mailFolders('inbox')/messages/delta?$deltatoken=old",
        org,
      ]);
      const configured = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        PUBLIC_URL: 'http://localhost:3000',
        WEB_DIST: '/nonexistent',
        DATABASE_URL: ctx.dbUrl,
        SECRETS_KEY: ctx.config.SECRETS_KEY,
        O365_CLIENT_ID: graph.clientId,
        O365_CLIENT_SECRET: graph.clientSecret,
        O365_AUTHORITY_URL: graph.url,
        GRAPH_BASE_URL: `${graph.url}/v1.0`,
      });
      await expect(run(configured)).resolves.toBeUndefined();
      const [after] = await db.execute<{ error: string | null }[]>(`select error from mailbox_sync where organization_id = ?`, [org]);
      expect(after.error).toBeNull();
    } finally {
      await graph.close();
    }
  });
});
