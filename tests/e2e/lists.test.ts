// Lists of ideas in Chromium: create a list, add companies by hand, shortlist with the
// star and with 'all selected', open the idea drawer, run an idea enrichment on the shortlisted
// ideas (its column's cells fill live), reuse a company enrichment on the list, complete the list with its confirmation totals, and find
// the companies in the companies table. Real server, PostgreSQL, Chromium, the fake OpenAI server.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { dialogClosed } from '../support/dialogs';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { expectNoAxeFindings } from '../support/axe';
import { startServer, type RunningServer } from '../support/server';
import { signedInPage } from '../support/session';
import { xlsxWorkbook } from '../../shared/src/ui/lists/xlsx-fixture';
import { FakeOpenAiServer, AnswerGate, allText } from '../../server/test/fakes/openai-server';

const ADMIN = { email: 'riley@lists.example', password: 'Lists1234' };

describe('lists of ideas, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let fake: FakeOpenAiServer;
  const shipAnswers = new AnswerGate();
  // Every screen the admin's loop passes here (CSV upload, enrich, complete) is checked with axe-core as it is photographed.
  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: path.join(ARTIFACTS, `e2e-lists-${name}.png`) });
    await expectNoAxeFindings(page, `the lists journey, ${name}`);
  };

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-e2e'], models: ['gpt-e2e'] });
    // The idea enrichment's answers, by idea (one JSON, one plain text: both complete), given once the
    // test has seen both cells processing.
    fake.when(
      (r) => allText(r).includes('Fjord Freight') && allText(r).includes('ship'),
      shipAnswers.reply({ json: { answer: 'Sea freight' } }),
    );
    fake.when((r) => allText(r).includes('Polar Parcel') && allText(r).includes('ship'), shipAnswers.reply({ content: 'Parcels by air' }));
    // The company enrichment reused on the list.
    fake.when((r) => allText(r).includes('How many people work there'), { json: { employees: 1625 }, latencyMs: 500 });
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Lists Capital',
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

  it('create a list, add and shortlist ideas, open the drawer, complete the list, find the companies', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedInPage(ctx, server.url, ADMIN);
    // The home page no longer marks Lists 'Coming soon'.
    expect(await page.getByTestId('home-card-lists').getByTestId('home-coming-soon').count()).toBe(0);

    await page.getByTestId('nav-lists').click();
    await page.getByTestId('lists-table').waitFor();
    await page.getByTestId('lists-new').click();
    await page.getByTestId('list-name-input').fill('Nordic logistics');
    await page.getByTestId('list-name-save').click();
    await page.getByTestId('list-page').waitFor();
    await expect.poll(() => page.getByTestId('list-name').textContent()).toBe('Nordic logistics');

    for (const [name, website] of [
      ['Fjord Freight', 'fjordfreight.example.com'],
      ['Polar Parcel', 'https://www.polarparcel.example.com'],
      ['Aurora Haulage', 'aurorahaulage.example.com'],
    ]) {
      await page.getByTestId('list-add-idea').click();
      await page.getByTestId('add-idea-name').fill(name);
      await page.getByTestId('add-idea-website').fill(website);
      await page.getByTestId('add-idea-save').click();
      await page.getByTestId('add-idea-dialog').waitFor({ state: 'detached' });
    }
    // A domain already in the list is refused with its message, in the dialog.
    await page.getByTestId('list-add-idea').click();
    await page.getByTestId('add-idea-name').fill('Fjord again');
    await page.getByTestId('add-idea-website').fill('http://fjordfreight.example.com/about');
    await page.getByTestId('add-idea-save').click();
    await expect.poll(() => page.getByTestId('add-idea-error').textContent()).toBe('Idea with same domain already exists in this list');
    await page.getByTestId('add-idea-dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('add-idea-dialog').waitFor({ state: 'detached' });

    await expect.poll(() => page.getByTestId('record-table-row').count()).toBe(3);
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('3 ideas · 0 shortlisted · 1 source');
    // Newest first.
    expect(await page.getByTestId('record-table-row').first().locator('[data-key="name"]').textContent()).toBe('Aurora Haulage');
    await shot(page, '01-list');

    // A CSV upload: the columns are guessed from the header (semicolons), one row is rejected, one domain is already in the list.
    await page.getByTestId('list-upload-csv').click();
    await page.getByTestId('upload-csv-file').setInputFiles({
      name: 'ideas.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        '\uFEFFCompany Name;URL;Country\nSkagen Shipping;skagenshipping.example.com;DK\nFjord Freight AS;fjordfreight.example.com;NO\nNo Site;;SE\n',
      ),
    });
    await expect.poll(() => page.getByTestId('upload-csv-name').textContent()).toContain('Company Name');
    expect(await page.getByTestId('upload-csv-website').textContent()).toContain('URL');
    await shot(page, '01b-upload-mapping');
    await page.getByTestId('upload-csv-submit').click();
    await expect
      .poll(() => page.getByTestId('upload-csv-result').textContent())
      .toContain('1 idea added, 1 already in the list, 1 row rejected');
    await page.getByTestId('upload-csv-rejected').waitFor();
    await shot(page, '01c-upload-result');
    await page.getByTestId('upload-csv-dialog').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('4 ideas · 0 shortlisted · 2 sources');

    // An Excel workbook: its first sheet is read in the browser and goes the CSV's way (a blank row
    // above the header, a date column; one company is already in the list).
    await page.getByTestId('list-upload-csv').click();
    const workbook = xlsxWorkbook([
      [null],
      ['Company', 'Web site', 'Founded'],
      ['Skagen Shipping', 'https://skagenshipping.example.com', new Date(Date.UTC(1998, 4, 1))],
      ['Baltic Barges', 'balticbarges.example.com', new Date(Date.UTC(2011, 9, 12))],
    ]);
    await page.getByTestId('upload-csv-file').setInputFiles({
      name: 'More ideas.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(workbook),
    });
    await expect.poll(() => page.getByTestId('upload-csv-name').textContent()).toContain('Company');
    expect(await page.getByTestId('upload-csv-website').textContent()).toContain('Web site');
    await page.getByTestId('upload-csv-submit').click();
    await expect.poll(() => page.getByTestId('upload-csv-result').textContent()).toContain('1 idea added, 1 already in the list');
    await shot(page, '01d-upload-xlsx-result');
    await page.getByTestId('upload-csv-dialog').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('5 ideas · 0 shortlisted · 3 sources');
    expect(await page.getByTestId('record-table-row').filter({ hasText: 'Baltic Barges' }).textContent()).toContain('Oct 12, 2011');

    // The uploaded ideas go again, so the rest of the journey works on the three added by hand.
    for (const name of ['Skagen Shipping', 'Baltic Barges'])
      await page.getByTestId('record-table-row').filter({ hasText: name }).getByTestId('record-table-select-row').click();
    await page.getByTestId('bulk-delete').click();
    await page.getByTestId('bulk-delete-dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('3 ideas · 0 shortlisted · 3 sources');

    // The star shortlists one idea; the bulk bar shortlists the page's selection.
    const firstRow = page.getByTestId('record-table-row').first();
    await firstRow.locator('[data-testid^="idea-shortlist-"]').click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('3 ideas · 1 shortlisted · 3 sources');
    await page.getByTestId('record-table-select-page').click();
    await page.getByTestId('bulk-action-bar').waitFor();
    await page.getByTestId('bulk-shortlist').click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('3 ideas · 3 shortlisted · 3 sources');
    // And one comes off the shortlist again from the drawer.
    await page.getByTestId('record-table-row').filter({ hasText: 'Aurora Haulage' }).locator('[data-key="name"]').click();
    await page.getByTestId('idea-drawer').waitFor();
    expect(await page.getByTestId('idea-drawer-name').textContent()).toBe('Aurora Haulage');
    await page.getByTestId('idea-drawer-shortlist').click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('3 ideas · 2 shortlisted · 3 sources');
    await shot(page, '02-drawer');

    // An idea enrichment on the shortlisted ideas: a new LLM prompt from the bulk bar; its column's
    // cells show processing, then the answers arrive over realtime (no reload).
    await page.getByTestId('ideas-shortlist-filter').click();
    await page.getByRole('option', { name: 'Shortlisted', exact: true }).click();
    await expect.poll(() => page.getByTestId('record-table-row').count()).toBe(2);
    await page.getByTestId('record-table-select-page').click();
    await page.getByTestId('bulk-enrich').click();
    await page.getByTestId('enrich-ideas-dialog').waitFor();
    await page.getByTestId('enrich-ideas-name').fill('What they ship');
    await page.getByTestId('enrich-ideas-prompt').fill('What does the company ship?');
    await page.getByTestId('enrich-ideas-run').click();
    await dialogClosed(page, 'enrich-ideas-dialog');
    const cells = page.getByTestId('idea-enrichment-cell');
    await expect.poll(() => cells.count()).toBe(2);
    expect(await page.getByRole('columnheader', { name: 'What they ship' }).count()).toBe(1);
    await expect
      .poll(async () =>
        (await cells.evaluateAll((els) => els.map((e) => e.getAttribute('data-cell-status')))).every((x) => x === 'processing'),
      )
      .toBe(true);
    await shot(page, '02b-enrichment-processing');
    shipAnswers.open();
    await expect.poll(async () => (await cells.allTextContents()).sort(), { timeout: 20_000 }).toEqual(['Parcels by air', 'Sea freight']);
    expect(
      await page.getByTestId('record-table-row').filter({ hasText: 'Fjord Freight' }).getByTestId('idea-enrichment-cell').textContent(),
    ).toBe('Sea freight');
    await shot(page, '02c-enrichment-done');
    // The column, sized from its content (not the spec's bare 70 px), widened by dragging keeps its
    // width: saved on the enrichment (PUT /enrichment/column).
    const handle = page.locator('[data-testid="column-resize-handle"][data-key^="enrichment:"]');
    const headerWidth = async () => (await handle.locator('xpath=..').boundingBox())?.width ?? 0;
    const initial = Math.round(await headerWidth());
    expect(initial).toBeGreaterThanOrEqual(130);
    const hb = (await handle.boundingBox())!;
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/v1/enrichment/column') && r.request().method() === 'PUT');
    await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
    await page.mouse.down();
    await page.mouse.move(hb.x + 60, hb.y + hb.height / 2, { steps: 5 });
    await page.mouse.move(hb.x + 110, hb.y + hb.height / 2, { steps: 5 });
    await page.mouse.up();
    expect((await saved).status()).toBe(200);
    // After a reload (all ideas again): the width stays, the answers come with the ideas, the third idea has none.
    await page.reload();
    await page.getByTestId('list-page').waitFor();
    await expect.poll(() => page.getByTestId('record-table-row').count()).toBe(3);
    await expect.poll(async () => Math.round(await headerWidth())).toBeGreaterThan(initial + 100);
    await expect.poll(async () => (await cells.allTextContents()).sort()).toEqual(['-', 'Parcels by air', 'Sea freight']);
    await shot(page, '02d-enrichment-column-widened');

    // A company enrichment made on the Enrichments page runs on the list's ideas too: the Enrich
    // dialog offers it under 'Company enrichments', and its column joins the list.
    const made = await page.evaluate(async () => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))!
          .slice(8),
      );
      const configs = (await (await fetch('/api/v1/enrichment/configs')).json()) as {
        configs: { id: string; entityType: string; enrichmentType: string }[];
      };
      const res = await fetch('/api/v1/enrichment', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({
          configId: configs.configs.find((c) => c.entityType === 'company' && c.enrichmentType === 'llm')!.id,
          entityType: 'company',
          name: 'Company headcount',
          prompt: 'How many people work there?',
          schema: [{ name: 'employees', type: 'number', description: 'Employees', required: true }],
        }),
      });
      return { status: res.status, id: ((await res.json()) as { id: string }).id };
    });
    expect(made.status).toBe(201);
    await page.getByTestId('record-table-select-page').click();
    await page.getByTestId('bulk-enrich').click();
    await page.getByTestId('enrich-ideas-dialog').waitFor();
    await page.getByTestId('enrich-ideas-existing').click();
    await page.getByTestId('enrich-ideas-pick').click();
    await page.getByRole('option', { name: 'Company headcount' }).waitFor();
    await shot(page, '02e-enrich-company-enrichment');
    await page.getByRole('option', { name: 'Company headcount' }).click();
    await page.getByTestId('enrich-ideas-run').click();
    await dialogClosed(page, 'enrich-ideas-dialog');
    await page.getByRole('columnheader', { name: 'Company headcount' }).waitFor();
    const headcount = page.locator(`[data-testid="idea-enrichment-cell"][data-enrichment-id="${made.id}"]`);
    await expect.poll(async () => await headcount.allTextContents(), { timeout: 20_000 }).toEqual(['1,625', '1,625', '1,625']);
    await shot(page, '02f-company-enrichment-column');

    // Completion: the confirmation shows its totals, then the shortlisted ideas are in Dealscout.
    await page.getByTestId('list-complete').click();
    await expect.poll(() => page.getByTestId('complete-total').textContent()).toBe('2');
    expect(await page.getByTestId('complete-existing').textContent()).toBe('0');
    expect(await page.getByTestId('complete-candidate').textContent()).toBe('2');
    await shot(page, '03-complete-confirmation');
    await page.getByTestId('complete-dialog').getByRole('button', { name: 'Complete' }).click();
    await expect.poll(() => page.getByTestId('idea-status').allTextContents()).toEqual(['Idea', 'In Dealscout', 'In Dealscout']);
    // (axe looks once the dialog has gone: while it closes, the page behind it is aria-hidden.)
    await page.getByTestId('complete-dialog').waitFor({ state: 'detached' });
    await shot(page, '04-completed');

    await page.getByTestId('nav-companies').click();
    await page.getByTestId('companies-page').waitFor();
    await expect
      .poll(async () => (await page.getByTestId('record-table-row').locator('[data-key="name"]').allTextContents()).sort())
      .toEqual(['Fjord Freight', 'Polar Parcel']);
    await shot(page, '05-companies');

    await page.getByTestId('nav-lists').click();
    await expect.poll(() => page.getByTestId('record-table-row').count()).toBe(1);
    await shot(page, '06-lists');
    await ctx.close();
  });
});
