// Scoring in Chromium: on a list of twelve ideas with source columns, build a score model
// with three fields in the editor, 'Save and run for first 10 row', see the scores of the first ten
// ideas arrive (the page reloads when the run completes), and open one idea's breakdown. Real
// server (API and worker), PostgreSQL, Chromium.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signedInPage } from '../support/session';
import { axeFindings } from '../support/axe';

const ADMIN = { email: 'sam@scoring.example', password: 'Scoring1234' };

describe('scoring ideas, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  // Every screen of the admin's score step is checked with axe-core as it is photographed (the editor,
  // the score menu, the breakdown dialog open): serious or critical findings are gathered and fail the
  // journey at its end, all of them named.
  const found: string[] = [];
  const axe = async (page: Page, where: string) => {
    for (const f of await axeFindings(page)) found.push(`${where}: ${f.impact} ${f.id} (${f.help}) at ${f.nodes.join(', ')}`);
  };
  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: path.join(ARTIFACTS, `e2e-scoring-${name}.png`) });
    await axe(page, name);
  };

  beforeAll(async () => {
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Scoring Capital',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('build a model with three fields, save and run for the first 10 rows, open a breakdown', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedInPage(ctx, server.url, ADMIN);

    await page.getByTestId('nav-lists').click();
    await page.getByTestId('lists-table').waitFor();
    await page.getByTestId('lists-new').click();
    await page.getByTestId('list-name-input').fill('Nordic SaaS');
    await page.getByTestId('list-name-save').click();
    await page.getByTestId('list-page').waitFor();
    // Twelve ideas through the API (the add dialog is covered by the lists journey).
    const listId = new URL(page.url()).pathname.split('/').pop()!;
    await page.evaluate(async (id) => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))!
          .slice(8),
      );
      for (let i = 1; i <= 12; i++) {
        const res = await fetch('/api/v1/list-company/idea', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify({ id, companyName: `Nordic ${String(i).padStart(2, '0')}`, website: `nordic${i}.example.se` }),
        });
        if (!res.ok) throw new Error(await res.text());
      }
    }, listId);
    await page.reload();
    await expect.poll(() => page.getByTestId('record-table-row').count(), { timeout: 15_000 }).toBe(10);

    // The editor: title, default name, no fields yet.
    await page.getByTestId('score-menu').click();
    await page.getByTestId('score-new').waitFor();
    await shot(page, '00-score-menu');
    await page.getByTestId('score-new').click();
    const editor = page.getByTestId('score-model-editor');
    await editor.waitFor();
    expect(await editor.getByText('New Score model').count()).toBe(1);
    expect(await page.getByTestId('score-model-name').inputValue()).toBe('Nordic SaaS_score');
    expect(await editor.getByText('No fields added yet.').count()).toBe(1);

    const addField = async (label: string) => {
      await page.getByRole('combobox', { name: '+ Add field' }).click();
      await page.getByRole('combobox', { name: '+ Add field' }).fill(label.slice(0, 4));
      await page.getByRole('option', { name: new RegExp(`^${label}`) }).click();
    };
    // Name contains 'nordic 0' → 10 (Nordic 01–09), Website ends with '.se' → 8 (weight 60), Shortlisted equals false → 6 (weight 40).
    await addField('Name');
    let card = page.getByTestId('score-field-card').nth(0);
    await card.getByLabel('Operator').selectOption('contain');
    await card.getByLabel('Value', { exact: true }).fill('nordic 0');
    await card.getByLabel('Score', { exact: true }).selectOption('10');
    await addField('Website');
    card = page.getByTestId('score-field-card').nth(1);
    await card.getByLabel('Operator').selectOption('ends_with');
    await card.getByLabel('Value', { exact: true }).fill('.se');
    await card.getByLabel('Score', { exact: true }).selectOption('8');
    await card.getByTestId('score-field-weight').selectOption('60');
    await addField('Shortlisted');
    card = page.getByTestId('score-field-card').nth(2);
    await card.getByLabel('Value', { exact: true }).fill('false');
    await card.getByLabel('Score', { exact: true }).selectOption('6');
    await card.getByTestId('score-field-weight').selectOption('40');
    await expect
      .poll(() => page.getByTestId('weight-legend-item').allTextContents(), { timeout: 10_000 })
      .toEqual(['Name 50%', 'Website 30%', 'Shortlisted 20%']);
    // The rule rows of a text, a URL and a boolean field line up: operator, value and score at the same x and width.
    const columnsOf = () =>
      page.getByTestId('score-rule').evaluateAll((rows) =>
        rows.map((r) =>
          ['Operator', 'Value', 'Score'].map((name) => {
            const box = r.querySelector(`[aria-label="${name}"]`)!.getBoundingClientRect();
            return [Math.round(box.left), Math.round(box.width)];
          }),
        ),
      );
    const columns = await columnsOf();
    expect(columns).toHaveLength(3);
    expect(columns[1]).toEqual(columns[0]);
    expect(columns[2]).toEqual(columns[0]);
    // The collapse control is an icon button named for its field.
    expect(await page.getByRole('button', { name: 'Collapse Website' }).locator('svg').count()).toBe(1);
    await shot(page, '01-editor');

    await page.getByTestId('score-model-save').click();
    await page.getByRole('menuitem', { name: 'Save and run for first 10 row' }).waitFor();
    await axe(page, 'the save menu');
    // The outcome's toast lives 3 s: watched for from the click on, not after the editor has gone.
    const started = page.getByText('Score execution started.').first().waitFor();
    await page.getByRole('menuitem', { name: 'Save and run for first 10 row' }).click();
    await editor.waitFor({ state: 'detached' });
    await started;

    // The first ten rows get a score when the run completes; the other two pages' ideas do not.
    await expect.poll(() => page.locator('[data-testid^="score-cell-"]').count(), { timeout: 30_000 }).toBe(10);
    const cells = await page.locator('[data-testid^="score-cell-"]').allTextContents();
    // Newest first: Nordic 12, 11, 10 (no '0' after 'nordic ') then 09 … 03.
    // (100 × 10 + 60 × 8 + 40 × 6) / 200 = 8.60; without the name rule (60 × 8 + 40 × 6) / 200 = 3.60.
    expect(cells).toEqual(['3.60', '3.60', '3.60', '8.60', '8.60', '8.60', '8.60', '8.60', '8.60', '8.60']);
    await shot(page, '02-scores');

    await page.locator('[data-testid^="score-cell-"]').nth(3).click();
    const dialog = page.getByTestId('score-breakdown-dialog');
    await dialog.waitFor();
    expect(await dialog.getByText('Why Nordic 09 scored 8.60').count()).toBe(1);
    const rows = await dialog
      .getByTestId('score-breakdown-row')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows[0]).toEqual(['Name', 'Nordic 09', 'Contains nordic 0: score 10', '10', '100', '5.00']);
    expect(rows[1]![1]).toContain('nordic9.example.se');
    expect(rows[1]!.slice(2)).toEqual(['Ends with .se: score 8', '8', '60', '2.40']);
    expect(rows[2]).toEqual(['Shortlisted', 'false', 'Equals false: score 6', '6', '40', '1.20']);
    await page.waitForTimeout(600); // the dialog's enter animation
    await shot(page, '03-breakdown');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // A saved model runs again from the toolbar on the current page: page 2 holds Nordic 02 and 01,
    // 'Run first row' scores only the first of them (Nordic 02: 8.60).
    await page.getByTestId('pagination-next').click();
    await expect.poll(() => page.getByTestId('record-table-row').count(), { timeout: 15_000 }).toBe(2);
    expect(await page.locator('[data-testid^="score-cell-"]').count()).toBe(0);
    await page.getByTestId('score-menu').click();
    await page.getByRole('menuitem', { name: 'Run Nordic SaaS_score' }).click();
    expect(
      await page
        .getByRole('menuitem')
        .filter({ hasText: /^Run (first|on)/ })
        .allTextContents(),
    ).toEqual(['Run first 10 row', 'Run first row', 'Run on all ideas']);
    await shot(page, '04-run-menu');
    const again = page.getByText('Score execution started.').first().waitFor();
    await page.getByRole('menuitem', { name: 'Run first row' }).click();
    await again;
    await expect.poll(() => page.locator('[data-testid^="score-cell-"]').allTextContents(), { timeout: 30_000 }).toEqual(['8.60']);
    await shot(page, '05-second-page-scored');
    await ctx.close();
    expect(found, 'axe-core (WCAG 2.1 A/AA) serious or critical findings').toEqual([]);
  });
});
