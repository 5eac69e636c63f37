// Tables and the draft dock at 1440 px, in Chromium. The ideas table with a source's number column,
// an idea enrichment and a score model: every header reads in full, numbers are grouped, the
// selection and name columns stay in place (and aligned with the header) when it scrolls sideways,
// and widths set by drag or by keyboard come back after a reload. The minimised draft panels never
// cover the table's pagination ('Go to page'); a closed panel stays closed across pages and a
// reload until its draft is opened again from its record. Real server, PostgreSQL, Chromium.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { pageApi, signedInPage } from '../support/session';

const ADMIN = { email: 'tess@tables.example', password: 'Tables1234' };

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const boxOf = async (l: Locator) => (await l.boundingBox())!;

describe('tables and the draft dock, in Chromium at 1440 px', () => {
  let server: RunningServer;
  let browser: Browser;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-tables-${name}.png`) });

  beforeAll(async () => {
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Tables Capital',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the ideas table: readable columns, sticky selection and name, widths kept per list', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedInPage(ctx, server.url, ADMIN);
    const list = await pageApi(page, 'POST', '/api/v1/list-company', { name: 'Q3 Industrial targets' });
    const listId = list.json.list.id as string;
    await page.goto(`${server.url}/list-company/${listId}`);
    await page.getByTestId('list-page').waitFor();
    const csv = ['Company Name,Website,Employees,Country,Founded'];
    for (let i = 1; i <= 12; i++) csv.push(`Target ${i} Holding,target${i}.example.com,${1000 + i * 50},DE,${1990 + i}`);
    await page.getByTestId('list-upload-csv').click();
    await page
      .getByTestId('upload-csv-file')
      .setInputFiles({ name: 'ideas.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.join('\n')) });
    await expect.poll(() => page.getByTestId('upload-csv-name').textContent()).toContain('Company Name');
    await page.getByTestId('upload-csv-submit').click();
    await page.getByTestId('upload-csv-result').waitFor();
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    // An idea enrichment and a score model with the names users give them.
    const configs = await pageApi(page, 'GET', '/api/v1/enrichment/idea/configs');
    const llm = configs.json.configs.find((c: { enrichmentType: string }) => c.enrichmentType === 'llm');
    const enrichment = await pageApi(page, 'POST', '/api/v1/enrichment', {
      configId: llm.id,
      entityType: 'idea',
      listId,
      name: 'What industry are they in',
      prompt: 'What industry is the company in?',
      schema: [{ name: 'answer', type: 'string', description: "Your answer to the user's request.", required: true, createColumn: false }],
    });
    expect(enrichment.status, JSON.stringify(enrichment.json)).toBeLessThan(300);
    const model = await pageApi(page, 'POST', '/api/v1/scoring-model', {
      name: 'Q3 Industry fit',
      description: '',
      listCompanyId: listId,
      ruleSets: [
        {
          id: 'f1',
          label: 'Name',
          weight: 100,
          defaultScore: 5,
          fieldData: { id: 'name', sourceType: 'mandatory', fieldType: 'string', fieldPath: 'name' },
          rules: [{ id: 'r1', operator: 'contain', value: { primary: 'Target', secondary: null }, score: 8 }],
        },
      ],
    });
    expect(model.status, JSON.stringify(model.json)).toBeLessThan(300);
    await page.reload();
    await expect.poll(() => page.getByTestId('record-table-row').count(), { timeout: 20_000 }).toBe(10);
    const header = (key: string) => page.locator(`[data-testid="record-table-header"][data-key="${key}"]`);
    const enrichmentKey = (await page.locator('[data-testid="record-table-header"][data-key^="enrichment:"]').getAttribute('data-key'))!;
    const scoreKey = (await page.locator('[data-testid="record-table-header"][data-key^="score."]').getAttribute('data-key'))!;
    // Every header reads in full (no ellipsis): the enrichment's, the score model's, the source's.
    for (const key of [enrichmentKey, scoreKey, 'data.Employees', 'data.Founded', 'createdAt']) {
      const cut = await header(key).evaluate((th) => {
        const l = th.querySelector('span')!;
        return l.scrollWidth > l.clientWidth + 1;
      });
      expect(cut, key).toBe(false);
    }
    // Numbers grouped like the companies table; a year stays as written.
    const cell = (key: string) =>
      page.getByTestId('record-table-row').first().locator(`[data-testid="record-table-cell"][data-key="${key}"]`);
    expect(await cell('data.Employees').innerText()).toBe('1,600');
    expect(await cell('data.Founded').innerText()).toBe('2002');
    // The full name on hover.
    await header(enrichmentKey).locator('span').first().hover();
    await page.getByRole('tooltip', { name: 'What industry are they in' }).waitFor();
    await shot(page, '04-ideas-readable');

    // Scrolled sideways to the end: 'Added' is reachable, and the selection and name columns stay put,
    // the header's checkbox above the rows' checkboxes.
    const scroller = page.getByTestId('record-table-scroll');
    const xOf = async (l: Locator) => Math.round((await boxOf(l)).x);
    const before = { name: await xOf(header('name')), check: await xOf(page.getByTestId('record-table-select-page')) };
    await scroller.evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await page.waitForTimeout(300);
    expect(await scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    const tableBox = await boxOf(scroller);
    const added = await boxOf(header('createdAt'));
    expect(added.x + added.width).toBeLessThanOrEqual(tableBox.x + tableBox.width + 1);
    expect(await xOf(header('name'))).toBe(before.name);
    expect(await xOf(page.getByTestId('record-table-select-page'))).toBe(before.check);
    const rowChecks = await page
      .getByTestId('record-table-select-row')
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().x)));
    expect(new Set(rowChecks)).toEqual(new Set([before.check]));
    const nameCells = await page
      .locator('[data-testid="record-table-cell"][data-key="name"]')
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().x)));
    expect(new Set(nameCells)).toEqual(new Set([before.name]));
    await shot(page, '05-ideas-scrolled-sideways');
    await scroller.evaluate((el) => {
      el.scrollLeft = 0;
    });

    // Widths: the name by keyboard (focus its edge, arrows), the score column by drag; both come back after a reload.
    const handle = (key: string) => page.locator(`[data-testid="column-resize-handle"][data-key="${key}"]`);
    const widthOf = async (key: string) => Math.round((await boxOf(header(key))).width);
    const nameWidth = await widthOf('name');
    await handle('name').focus();
    const savedName = page.waitForResponse((r) => r.url().endsWith('/api/v1/user/settings') && r.request().method() === 'PUT');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect((await savedName).status()).toBe(200);
    expect(await widthOf('name')).toBe(nameWidth + 60);
    const scoreWidth = await widthOf(scoreKey);
    // The score column is at the right end: scroll there first, so its edge is on screen.
    await scroller.evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await page.waitForTimeout(300);
    const hb = await boxOf(handle(scoreKey));
    const savedScore = page.waitForResponse((r) => r.url().endsWith('/api/v1/user/settings') && r.request().method() === 'PUT');
    await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
    await page.mouse.down();
    await page.mouse.move(hb.x + 40, hb.y + hb.height / 2, { steps: 4 });
    await page.mouse.move(hb.x + 80, hb.y + hb.height / 2, { steps: 4 });
    await page.mouse.up();
    expect((await savedScore).status()).toBe(200);
    const dragged = await widthOf(scoreKey);
    expect(dragged).toBeGreaterThan(scoreWidth + 60);
    await page.reload();
    await expect.poll(() => page.getByTestId('record-table-row').count(), { timeout: 20_000 }).toBe(10);
    expect(await widthOf('name')).toBe(nameWidth + 60);
    expect(await widthOf(scoreKey)).toBe(dragged);
    await shot(page, '06-ideas-widths-kept');
    await ctx.close();
  });

  it('the companies table: the selection and name columns stay in place, aligned with the header', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedInPage(ctx, server.url, ADMIN);
    for (const label of ['Annual revenue (USD)', 'Headquarters address', 'Number of employees', 'Ownership structure']) {
      const f = await pageApi(page, 'POST', '/api/v1/entity/field', {
        label,
        dataType: label.startsWith('Number') ? 'int' : 'string',
        entityType: 'company',
      });
      expect(f.status, JSON.stringify(f.json)).toBeLessThan(300);
    }
    await pageApi(page, 'POST', '/api/v1/entity/company', { company: { name: 'Borealis Labs', website: 'https://borealis.example' } });
    await page.goto(`${server.url}/companies`);
    await page.getByTestId('record-table-row').first().waitFor();
    await page.locator('[data-testid="record-table-header"][data-key]').last().waitFor();
    const scroller = page.getByTestId('record-table-scroll');
    await expect.poll(() => scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    const xOf = async (l: Locator) => Math.round((await boxOf(l)).x);
    const name = page.locator('[data-testid="record-table-header"][data-key="name"]');
    const before = { name: await xOf(name), check: await xOf(page.getByTestId('record-table-select-page')) };
    await scroller.evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await page.waitForTimeout(300);
    expect(await xOf(name)).toBe(before.name);
    expect(await xOf(page.getByTestId('record-table-select-page'))).toBe(before.check);
    expect(await xOf(page.getByTestId('record-table-select-row').first())).toBe(before.check);
    expect(await xOf(page.locator('[data-testid="record-table-cell"][data-key="name"]').first())).toBe(before.name);
    await shot(page, '07-companies-scrolled-sideways');
    await ctx.close();
  });

  it('docked drafts leave the pagination free; a closed draft stays closed until opened again', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedInPage(ctx, server.url, ADMIN);
    // A company with its key contact, and two drafts to it (one refused by the mailbox, as in the demo).
    const created = await pageApi(page, 'POST', '/api/v1/entity/company', {
      company: { name: 'Aurora Robotics', website: 'https://aurora-robotics.example' },
      contact: { firstName: 'Riya', lastName: 'Shah', email: 'riya@aurora-robotics.example' },
    });
    expect(created.status).toBe(201);
    const companyId = created.json.company.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const d = await pageApi(page, 'POST', '/api/v1/email/draft', { companyId });
      expect(d.status).toBe(201);
      ids.push(d.json.email.channelEmailId);
    }
    await server.query(`update channel_email set status = 'error', status_message = 'The mailbox refused the message.' where id = $1`, [
      ids[1],
    ]);

    // The drafts are read when the app loads.
    await page.goto(`${server.url}/companies`);
    await page.getByTestId('record-table-row').first().waitFor();
    const panels = page.getByTestId('draft-panel');
    await expect.poll(() => panels.count()).toBe(2);
    // The minimised panels sit in a band of their own below the table: 'Go to page' and the rest of
    // the pagination bar are never under them.
    const bar = await boxOf(page.getByTestId('pagination-bar'));
    const goto = await boxOf(page.getByTestId('pagination-goto'));
    for (const panel of await panels.all()) {
      const p = await boxOf(panel);
      expect(overlaps(p, goto)).toBe(false);
      expect(overlaps(p, bar)).toBe(false);
    }
    await shot(page, '01-dock-below-pagination');

    // Close the refused draft's panel: gone from the dock, on other pages and after a reload.
    const refused = page.locator(`[data-testid="draft-panel"][data-id="${ids[1]}"]`);
    await refused.getByTestId('draft-panel-close').click();
    await expect.poll(() => panels.count()).toBe(1);
    await page.getByTestId('nav-contacts').click();
    await page.getByTestId('record-table-row').first().waitFor();
    await page.reload();
    await page.getByTestId('record-table-row').first().waitFor();
    await expect.poll(() => panels.count()).toBe(1);
    expect(await refused.count()).toBe(0);
    // The other one closed too: no dock, and the page takes its full height again.
    await page.locator(`[data-testid="draft-panel"][data-id="${ids[0]}"]`).getByTestId('draft-panel-close').click();
    await expect.poll(() => panels.count()).toBe(0);
    await page.getByTestId('nav-companies').click();
    await page.getByTestId('record-table-row').first().waitFor();
    await page.waitForTimeout(1000);
    expect(await panels.count()).toBe(0);
    await shot(page, '02-dock-closed');

    // Opened again from its company's Activities tab: back in the dock, expanded.
    await page.getByTestId('record-table-row').filter({ hasText: 'Aurora Robotics' }).click();
    await page.getByTestId('drawer-tab-activities').click();
    await page.locator(`[data-testid="activity-draft"][data-id="${ids[1]}"]`).click();
    await expect.poll(() => refused.getAttribute('data-expanded')).toBe('true');
    await page.reload();
    await page.getByTestId('record-table-row').first().waitFor();
    await expect.poll(() => refused.count()).toBe(1);
    await shot(page, '03-reopened');
    await ctx.close();
  });
});
