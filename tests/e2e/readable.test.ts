// Readable values and runs, in the web app: enrichment results and field values read from their
// response schema everywhere (table cells, the drawer's Unassigned Enrichments, the full view with
// 'Show raw', the CSV export) — never as JSON; and a play run over companies, some of which lack
// what an email needs: the toast keeps the spec's sentence, names who was skipped and what they
// lack, and its link opens the record to fix; fixed, the next run takes it. Real server (API +
// worker), PostgreSQL, the fake OpenAI-compatible model and Chromium.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { FakeOpenAiServer, allText } from '../../server/test/fakes/openai-server';
import { pageApi, signIn } from '../support/session';

const ADMIN = { email: 'val@readable.example', password: 'Readable123' };
const PROFILE = { industry: 'Industrial robots', website: 'https://acme-robotics.example', segments: ['Warehousing', 'Logistics'] };

describe('readable values and skipped targets in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let fake: FakeOpenAiServer;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-readable-${name}.png`) });

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-e2e'], models: ['gpt-e2e'] });
    fake.when((r) => allText(r).includes('How many employees') && allText(r).includes('Acme Robotics'), {
      json: { employees: 1250 },
      latencyMs: 300,
    });
    fake.when((r) => allText(r).includes('Describe the company') && allText(r).includes('Acme Robotics'), {
      json: PROFILE,
      latencyMs: 300,
    });
    fake.when((r) => r.body.response_format?.json_schema?.name === 'email', {
      json: { subject: 'A note', body: 'Dear owner,\n\nA short note.\n\nBest regards' },
      latencyMs: 200,
    });
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Readable Partners',
      OPENAI_API_KEY: 'sk-e2e',
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODELS: 'gpt-e2e',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  it('shows results and field values by their type: numbers, links, chips, labelled fields; raw JSON only on request; the export reads the same', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signIn(await ctx.newPage(), server.url, ADMIN);
    const api = (method: string, url: string, body?: unknown) =>
      pageApi(page, method, url, body).then((r) => {
        if (r.status >= 300) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.json)}`);
        return r.json;
      });
    const company = (
      await api('POST', '/api/v1/entity/company', { company: { name: 'Acme Robotics', website: 'https://acme-robotics.example' } })
    ).company;
    // Field values of several types (as a CRM sync or an enrichment writes them).
    const field = async (label: string, dataType: string) =>
      (await api('POST', '/api/v1/entity/field', { label, dataType, entityType: 'company' })).field;
    const facts = await field('Facts', 'object');
    const linkedin = await field('LinkedIn', 'url');
    const markets = await field('Markets', 'object');
    await api('PUT', '/api/v1/entity/company/field', {
      entityId: company.id,
      fieldId: facts.id,
      value: { employees: 1250, founded: 2011 },
    });
    await api('PUT', '/api/v1/entity/company/field', {
      entityId: company.id,
      fieldId: linkedin.id,
      value: 'linkedin.com/company/acme-robotics',
    });
    await api('PUT', '/api/v1/entity/company/field', { entityId: company.id, fieldId: markets.id, value: ['Europe', 'North America'] });
    // Two unassigned enrichments: one field (a number) and several (labelled).
    const configs = (await api('GET', '/api/v1/enrichment/configs')).configs as {
      id: string;
      entityType: string;
      enrichmentType: string;
    }[];
    const configId = configs.find((c) => c.entityType === 'company' && c.enrichmentType === 'llm')!.id;
    await api('POST', '/api/v1/enrichment', {
      configId,
      entityType: 'company',
      name: 'Employees',
      prompt: 'How many employees does this company have?',
      schema: [{ name: 'employees', type: 'number', description: 'Head count', required: true }],
    });
    await api('POST', '/api/v1/enrichment', {
      configId,
      entityType: 'company',
      name: 'Company profile',
      prompt: 'Describe the company: industry, website and segments.',
      schema: [
        { name: 'industry', type: 'string', description: 'Industry', required: true },
        { name: 'website', type: 'string', description: 'Website', required: true },
        { name: 'segments', type: 'array', description: 'Segments', required: true },
      ],
    });

    // The table: labelled fields, a link, chips — no JSON.
    await page.goto(`${server.url}/companies`);
    const row = page.locator('[data-testid="record-table-row"]').filter({ hasText: 'Acme Robotics' });
    await row.waitFor();
    const cell = (key: string) => row.locator(`[data-testid="record-table-cell"][data-key="${key}"]`);
    // (A field's object keeps jsonb's key order: it has no schema to order it by.)
    await expect.poll(() => cell(facts.key).innerText()).toContain('Employees: 1,250');
    expect(await cell(facts.key).innerText()).toContain('Founded: 2011');
    expect(await cell(linkedin.key).locator('a').getAttribute('href')).toBe('https://linkedin.com/company/acme-robotics');
    expect(await cell(markets.key).getByTestId('value-chip').allInnerTexts()).toEqual(['Europe', 'North America']);
    expect(await row.innerText()).not.toContain('{');
    await shot(page, '01-table-values');

    // The drawer: run both unassigned enrichments; one number, one set of labelled fields.
    await cell('name').click();
    await page.getByTestId('drawer-tab-details').click();
    const employees = page.locator('[data-testid="drawer-enrichment-row"]').filter({ hasText: 'Employees' });
    const profile = page.locator('[data-testid="drawer-enrichment-row"]').filter({ hasText: 'Company profile' });
    await employees.getByTestId('drawer-enrichment-run').click();
    await profile.getByTestId('drawer-enrichment-run').click();
    await expect.poll(() => employees.getByTestId('enrichment-result').innerText(), { timeout: 30_000 }).toBe('1,250');
    await expect.poll(() => profile.getByTestId('enrichment-result').getAttribute('data-status'), { timeout: 30_000 }).toBe('value');
    expect(await profile.getByTestId('enrichment-result').getAttribute('title')).toBe(
      'Industry: Industrial robots; Website: https://acme-robotics.example; Segments: Warehousing, Logistics',
    );
    await shot(page, '02-drawer-values');
    // The full view: one labelled field per line, the URL a link, the segments chips; raw JSON only on request.
    await profile.getByTestId('enrichment-result').click();
    expect(await profile.getByTestId('value-field-label').allInnerTexts()).toEqual(['Industry', 'Website', 'Segments']);
    expect(await profile.getByTestId('value-link').getAttribute('href')).toBe(PROFILE.website);
    expect(await profile.getByTestId('value-chip').allInnerTexts()).toEqual(PROFILE.segments);
    expect(await profile.getByTestId('enrichment-raw').count()).toBe(0);
    await profile.getByTestId('enrichment-show-raw').click();
    expect(JSON.parse(await profile.getByTestId('enrichment-raw').innerText())).toEqual(PROFILE);
    await shot(page, '03-drawer-full-and-raw');

    // The export writes the same rules (numbers plain, several fields labelled, lists joined).
    const csv = await page.evaluate(async () => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))!
          .slice(8),
      );
      const res = await fetch('/api/v1/company/export', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ selection: { allSelected: true } }),
      });
      return res.text();
    });
    const [header, first] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const cols = header.split(',');
    const values = first.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((v) => v.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"'));
    expect(values[cols.indexOf('Facts')].split('; ').sort()).toEqual(['Employees: 1250', 'Founded: 2011']);
    expect(values[cols.indexOf('Markets')]).toBe('Europe, North America');
    expect(values[cols.indexOf('LinkedIn')]).toBe('linkedin.com/company/acme-robotics');
    await ctx.close();
  });

  it('a play run names who was skipped and what they lack, with a link to fix each; fixed, the next run takes it', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signIn(await ctx.newPage(), server.url, ADMIN);
    const api = (method: string, url: string, body?: unknown) =>
      pageApi(page, method, url, body).then((r) => {
        if (r.status >= 300) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.json)}`);
        return r.json;
      });
    // Ada Works is ready; Lonely Inc has no key contact; Mute Holdings' key contact has no email (an import left it out).
    for (const n of ['Ada', 'Mute']) {
      const co = (
        await api('POST', '/api/v1/entity/company', {
          company: { name: n === 'Ada' ? 'Ada Works' : 'Mute Holdings', website: `https://${n.toLowerCase()}.example` },
        })
      ).company.id;
      const ct = (
        await api('POST', '/api/v1/entity/contact', {
          contact: { firstName: n, lastName: 'Owner', email: `${n.toLowerCase()}@${n.toLowerCase()}.example` },
        })
      ).contact.id;
      await api('POST', '/api/v1/company/create-mapping', { companyId: co, contactId: ct });
    }
    await api('POST', '/api/v1/entity/company', { company: { name: 'Lonely Inc', website: 'https://lonely.example' } });
    await server.query(`update contact set email = '' where email = 'mute@mute.example'`);

    await page.goto(`${server.url}/companies`);
    for (const name of ['Ada Works', 'Lonely Inc', 'Mute Holdings']) {
      const r = page.locator('[data-testid="record-table-row"]').filter({ hasText: name });
      await r.waitFor();
      await r.getByTestId('record-table-select-row').click();
    }
    const run = async () => {
      await page.getByTestId('run-play-button').click();
      await page.getByTestId('run-play-search').fill('founder');
      await page.getByTestId('run-play-option').first().click();
      await page.getByTestId('run-play-run').click();
    };
    await run();
    const toast = page.getByTestId('toast-warning');
    await toast.waitFor();
    expect(await toast.innerText()).toContain('2 entities have missing information and could not be processed.');
    const items = toast.getByTestId('play-skipped-item');
    await expect.poll(() => items.count()).toBe(2);
    const read = async (i: number) => [
      await items.nth(i).getByTestId('play-skipped-name').innerText(),
      await items.nth(i).getByTestId('play-skipped-missing').innerText(),
      await items.nth(i).getByTestId('play-skipped-fix').innerText(),
    ];
    expect([await read(0), await read(1)]).toEqual([
      ['Lonely Inc', 'Missing key contact', 'Set a key contact'],
      ['Mute Holdings', "Missing key contact's email", 'Edit the key contact'],
    ]);
    await shot(page, '04-play-skipped-toast');
    // It stays past the usual 3 s: its links are there to be used.
    await page.waitForTimeout(3500);
    expect(await toast.count()).toBe(1);

    // Lonely Inc's fix opens its drawer (where a contact is added or linked).
    await items.nth(0).getByTestId('play-skipped-fix').click();
    await expect.poll(() => page.getByTestId('drawer-title').innerText()).toBe('Lonely Inc');
    // Mute Holdings' fix opens the key contact with its edit dialog: the email is added there.
    await items.nth(1).getByTestId('play-skipped-fix').click();
    const dialog = page.getByTestId('contact-dialog');
    await dialog.waitFor();
    await expect.poll(() => page.getByTestId('drawer-title').innerText()).toBe('Mute Owner');
    await shot(page, '05-fix-edit-dialog');
    await dialog.getByTestId('contact-email').fill('mute@mute.example');
    await page.getByTestId('contact-dialog-save').click();
    await dialog.waitFor({ state: 'hidden' });
    await toast.getByTestId('toast-dismiss').click();
    await expect.poll(() => page.getByTestId('toast-warning').count()).toBe(0);

    // The next run takes Mute Holdings; only Lonely Inc is left out.
    await run();
    await toast.waitFor();
    expect(await toast.innerText()).toContain('1 entities have missing information and could not be processed.');
    expect(await toast.getByTestId('play-skipped-name').allInnerTexts()).toEqual(['Lonely Inc']);
    await ctx.close();
  });
});
