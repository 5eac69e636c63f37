// Progress of a long run, in Chromium: a list of 60 ideas (a CSV upload), an enrichment of all of
// them from the bulk bar; one progress line above the table shows done / total (advancing), the
// rate and the time left; the rows on screen (the table's first page) are done first; the bell
// shows the same line; Cancel stops the rest and the line reads cancelled. The upload itself has its
// line (rows imported, no Cancel). The companies table's Enrich over every company shows its line
// above the table and runs in the table's sort.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { dialogClosed } from '../support/dialogs';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signedInPage, pageApi as api } from '../support/session';
import { expectNoAxeFindings } from '../support/axe';
import { FakeOpenAiServer, AnswerGate } from '../../server/test/fakes/openai-server';

const ADMIN = { email: 'progress.admin@example.com', password: 'Progress-Admin-Pass-1' };
const ROWS = 60;
const COMPANIES = 40;
/** The companies' LLM enrichment type (server/src/modules/enrichments/configs.ts). */
const COMPANY_LLM = '00000000-0000-4000-8000-000000000011';
const ANSWER = { json: { answer: 'Freight' }, latencyMs: 100 } as const;

describe('progress of a long run, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let fake: FakeOpenAiServer;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-progress-${name}.png`) });

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-e2e'], models: ['gpt-e2e'] });
    // Two calls at a time; each test lets a number of answers through (an AnswerGate) and holds the
    // rest, so its run is under way for as long as the test watches it, then lets them all go.
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Progress Capital',
      OPENAI_API_KEY: 'sk-e2e',
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODELS: 'gpt-e2e',
      LLM_ORG_CONCURRENCY: '2',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  it('a list enrichment of 60 ideas: one live progress line (done / total advancing, rate, time left), rows on screen first, in the bell, Cancel', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedInPage(ctx, server.url, ADMIN);
    await page.getByTestId('nav-lists').click();
    await page.getByTestId('lists-table').waitFor();
    await page.getByTestId('lists-new').click();
    await page.getByTestId('list-name-input').fill('Freight prospects');
    await page.getByTestId('list-name-save').click();
    await page.getByTestId('list-page').waitFor();

    const csv = [
      'Company,Website',
      ...Array.from({ length: ROWS }, (_, i) => `Carrier ${String(i + 1).padStart(2, '0')},carrier${i + 1}.example.com`),
    ].join('\n');
    await page.getByTestId('list-upload-csv').click();
    await page.getByTestId('upload-csv-file').setInputFiles({ name: 'carriers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByTestId('upload-csv-name').textContent()).toContain('Company');
    await page.getByTestId('upload-csv-submit').click();
    await expect.poll(() => page.getByTestId('upload-csv-result').textContent(), { timeout: 20_000 }).toContain(`${ROWS} ideas added`);
    // The upload's own line in the dialog: rows imported, done; no Cancel (an upload is added whole or not at all).
    const uploadLine = page.getByTestId('upload-csv-dialog').getByTestId('run-progress');
    await uploadLine.waitFor();
    await expect.poll(() => uploadLine.getAttribute('data-status')).toBe('completed');
    expect(await uploadLine.getAttribute('data-type')).toBe('list');
    expect(await uploadLine.getAttribute('data-done')).toBe(String(ROWS));
    expect(await uploadLine.getByTestId('run-progress-text').textContent()).toBe(`Done: ${ROWS} / ${ROWS}`);
    expect(await uploadLine.getByTestId('run-progress-cancel').count()).toBe(0);
    await shot(page, '00-upload');
    await expectNoAxeFindings(page, 'the upload dialog with its progress line');
    await page.getByTestId('upload-csv-dialog').getByRole('button', { name: 'Close' }).click();
    // The list's sources: the upload's line above the table too.
    await page.getByTestId('list-page').locator('[data-testid="run-progress"][data-type="list"]').waitFor();
    await expect.poll(() => page.getByTestId('record-table-row').count()).toBe(10);

    // All 60 selected, a new enrichment from the bulk bar.
    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).click();
    await page.getByTestId('bulk-select-all-across').click();
    await page.getByTestId('bulk-enrich').click();
    await page.getByTestId('enrich-ideas-dialog').waitFor();
    await page.getByTestId('enrich-ideas-new').click();
    await page.getByTestId('enrich-ideas-name').fill('What they carry');
    await page.getByTestId('enrich-ideas-prompt').fill('What does the company carry?');
    const gate = new AnswerGate(12);
    fake.otherwise(gate.reply(ANSWER));
    await page.getByTestId('enrich-ideas-run').click();
    await dialogClosed(page, 'enrich-ideas-dialog');

    // One line, where it was started: done / total, advancing.
    const line = page.getByTestId('list-page').locator('[data-testid="run-progress"][data-type="enrichment"]');
    await line.waitFor();
    expect(await line.getAttribute('data-total')).toBe(String(ROWS));
    await expect.poll(async () => Number(await line.getAttribute('data-done')), { timeout: 60_000 }).toBeGreaterThanOrEqual(12);
    const first = Number(await line.getAttribute('data-done'));
    expect(first).toBeLessThan(ROWS);
    const text = (await line.getByTestId('run-progress-text').textContent()) ?? '';
    expect(text).toMatch(new RegExp(`^\\d+ / ${ROWS} done`));
    expect(text).toMatch(/rows\/(s|min)/);
    expect(text).toMatch(/left|almost done/);
    // The rows on screen (the table's first page, newest first) are the run's first rows: each job's
    // priority is its place in the table (server/src/modules/enrichments/run-order.test.ts checks the
    // order); they are all done while the run is still under way. While some on screen are not, the
    // model answers two more (as it would while the test waits).
    const cells = page.getByTestId('list-page').getByTestId('idea-enrichment-cell');
    await expect
      .poll(
        async () => {
          const statuses = await cells.evaluateAll((els) => els.map((e) => e.getAttribute('data-cell-status')));
          const processing = statuses.filter((s) => s === 'processing').length;
          if (processing > 0) gate.allow(2);
          return processing;
        },
        { timeout: 60_000 },
      )
      .toBe(0);
    expect(Number(await line.getAttribute('data-done'))).toBeLessThan(ROWS);
    await shot(page, '01-running');
    gate.allow(2);
    await expect.poll(async () => Number(await line.getAttribute('data-done')), { timeout: 60_000 }).toBeGreaterThan(first);

    // The same run in the notifications.
    await page.getByTestId('notifications-bell').click();
    const inBell = page.getByTestId('notifications-popover').locator('[data-testid="run-progress"][data-type="enrichment"]');
    await inBell.waitFor();
    expect(await inBell.getAttribute('data-total')).toBe(String(ROWS));
    await shot(page, '02-bell');
    await page.keyboard.press('Escape');
    await page.getByTestId('notifications-popover').waitFor({ state: 'detached' });

    // Cancel: the rest do not run, the line says so. The jobs waiting for a model slot see the cancel
    // (every 250 ms) while the two calls in flight are held; then every answer goes through at once.
    await line.getByTestId('run-progress-cancel').click();
    await expect.poll(() => line.getAttribute('data-status')).toBe('cancelled');
    const doneAtCancel = Number(await line.getAttribute('data-done'));
    expect(doneAtCancel).toBeLessThan(ROWS);
    expect(await line.getByTestId('run-progress-text').textContent()).toMatch(new RegExp(`^Cancelled: \\d+ / ${ROWS} done`));
    const calls = fake.chatRequests.length;
    await page.waitForTimeout(1_000);
    gate.open();
    await page.waitForTimeout(1_000);
    expect(fake.chatRequests.length).toBeLessThanOrEqual(calls + 2);
    await shot(page, '03-cancelled');
    await ctx.close();
  });

  it("the companies table's Enrich over every company: the line above the table, in the table's sort (Z→A: the rows on screen first), Cancel", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedInPage(ctx, server.url, ADMIN);
    const field = await api(page, 'POST', '/api/v1/entity/field', { label: 'Cargo', dataType: 'string', entityType: 'company' });
    expect(field.status, JSON.stringify(field.json)).toBe(201);
    for (let i = 1; i <= COMPANIES; i++) {
      const res = await api(page, 'POST', '/api/v1/entity/company', {
        company: { name: `Hauler ${String(i).padStart(2, '0')}`, website: `hauler${i}.example.com` },
      });
      expect(res.status, JSON.stringify(res.json)).toBeLessThan(300);
    }
    const enrichment = await api(page, 'POST', '/api/v1/enrichment', {
      configId: COMPANY_LLM,
      entityType: 'company',
      name: 'Cargo finder',
      prompt: 'What does the company carry?',
      schema: [{ name: 'answer', type: 'string', description: 'What it carries.', required: true }],
      fieldIdToAssign: field.json.field.id,
      isFieldPrimary: true,
    });
    expect(enrichment.status, JSON.stringify(enrichment.json)).toBe(201);

    await page.getByTestId('nav-companies').click();
    await page.getByTestId('companies-page').waitFor();
    await expect.poll(() => page.getByTestId('record-table-row').count()).toBe(10);
    // Sorted by name Z→A: Hauler 40 … 31 on screen.
    const nameHeader = page.locator('[data-testid="record-table-header"][data-key="name"]');
    for (let i = 0; i < 3 && (await nameHeader.getAttribute('data-sort')) !== 'desc'; i++) {
      await nameHeader.getByTestId('record-table-sort').click();
      await page.waitForTimeout(300);
    }
    await expect.poll(() => page.getByTestId('record-table-row').first().innerText()).toContain(`Hauler ${COMPANIES}`);
    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).click();
    await page.getByTestId('bulk-select-all-across').click();
    await page.getByTestId('enrich-button').click();
    await page.getByTestId('enrich-popover').waitFor();
    await page.getByTestId('enrich-field').selectOption({ label: 'Cargo' });
    await expect.poll(() => page.getByTestId('enrich-enrichment').locator('option:checked').innerText()).toContain('Cargo finder');
    await page.getByTestId('enrich-option-all').check();
    const calls = fake.chatRequests.length;
    const gate = new AnswerGate(10);
    fake.otherwise(gate.reply(ANSWER));
    await page.getByTestId('enrich-run').click();

    const line = page.getByTestId('companies-page').locator('[data-testid="run-progress"][data-type="enrichment"]');
    await line.waitFor();
    expect(await line.getAttribute('data-total')).toBe(String(COMPANIES));
    await expect.poll(async () => Number(await line.getAttribute('data-done')), { timeout: 60_000 }).toBeGreaterThanOrEqual(10);
    expect(Number(await line.getAttribute('data-done'))).toBeLessThan(COMPANIES);
    expect(await line.getByTestId('run-progress-text').textContent()).toMatch(new RegExp(`^\\d+ / ${COMPANIES} done`));
    // The table's order (Z→A): a run is queued in chunks in the table's order, the first chunk (25 rows:
    // Hauler 40 … 16) before the rest, so the first model calls are all about rows of the first chunk,
    // the ten on screen among them (unsorted, the first chunk would be Hauler 01 … 25).
    const firstTen = fake.chatRequests.slice(calls, calls + 10).map((r) => Number(/Hauler (\d\d)/.exec(JSON.stringify(r))?.[1]));
    expect(firstTen.filter((n) => !(n > COMPANIES - 25))).toEqual([]);
    await shot(page, '04-companies-running');
    await expectNoAxeFindings(page, 'the companies page with a running enrichment');
    await line.getByTestId('run-progress-cancel').click();
    await expect.poll(() => line.getAttribute('data-status')).toBe('cancelled');
    gate.open();
    await shot(page, '05-companies-cancelled');
    await ctx.close();
  });
});
