// Companies journey: create a company with a new linked contact, add a custom field, set its value
// in the drawer, filter the table by it, sort, page, select all across pages and export; reload
// and find the drawer state and the column layout restored. Real server, PostgreSQL, Chromium.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signedInPage } from '../support/session';

const ADMIN = { email: 'morgan@northbridge.example', password: 'North1234' };

describe('companies journey in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-records-${name}.png`) });

  beforeAll(async () => {
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Northbridge Partners',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('creates, enriches by hand, filters, sorts, pages, exports, and restores layout and drawer', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const page = await signedInPage(ctx, server.url, ADMIN);

    // 24 companies through the API (the same calls the dialogs make), so there are pages to walk.
    await page.evaluate(async () => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))!
          .slice(8),
      );
      for (let i = 0; i < 24; i++) {
        const res = await fetch('/api/v1/entity/company', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify({
            company: { name: `Portfolio ${String(i).padStart(2, '0')} Group`, website: `https://portfolio${i}.example.com` },
          }),
        });
        if (res.status !== 201) throw new Error(await res.text());
      }
    });

    // New Company with a new linked contact, from the table toolbar.
    await page.getByTestId('nav-companies').click();
    await page.getByTestId('companies-page').waitFor();
    await page.getByTestId('table-new-company').click();
    await page.getByTestId('company-dialog').waitFor();
    await page.getByTestId('company-dialog-save').click();
    await expect.poll(() => page.getByText('Company name is required').count()).toBeGreaterThan(0);
    await page.getByTestId('company-name').fill('Aurora Robotics');
    await page.getByTestId('company-website').fill('https://www.aurora-robotics.example/about');
    await page.getByTestId('company-contact-link-new').check();
    await page.getByTestId('company-contact-first-name').fill('Riya');
    await page.getByTestId('company-contact-last-name').fill('Shah');
    await page.getByTestId('company-contact-email').fill('riya@aurora-robotics.example');
    await shot(page, '01-new-company');
    await page.getByTestId('company-dialog-save').click();
    await page.getByTestId('company-dialog').waitFor({ state: 'hidden' });
    const rows = await server.query<{ domain: string; email: string; is_key: boolean }>(
      `select c.domain, k.email, m.is_key from company c join company_contact m on m.company_id = c.id join contact k on k.id =
        m.contact_id where c.name = 'Aurora Robotics'`,
    );
    expect(rows).toEqual([{ domain: 'aurora-robotics.example', email: 'riya@aurora-robotics.example', is_key: true }]);

    // A custom field from the header New menu.
    await page.getByTestId('new-menu-button').click();
    await page.getByTestId('new-field').click();
    await page.getByTestId('new-field-dialog').waitFor();
    await page.getByTestId('new-field-label').fill('ARR (USD m)');
    await page.getByTestId('new-field-type').selectOption('double');
    await page.getByTestId('new-field-entity').selectOption('company');
    await page.getByTestId('new-field-save').click();
    await page.getByTestId('new-field-dialog').waitFor({ state: 'hidden' });
    const fieldKey = 'arr__usd_m_';
    expect(await server.query(`select key, entity_type, data_type from field_definition where built_in_column is null`)).toEqual([
      { key: fieldKey, entity_type: 'company', data_type: 'double' },
    ]);

    // Set its value in the drawer of Aurora Robotics.
    await page.getByTestId('table-search').fill('aurora');
    const auroraRow = page.locator('[data-testid="record-table-row"]').filter({ hasText: 'Aurora Robotics' });
    await auroraRow.waitFor();
    await auroraRow.click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
    expect(await page.getByTestId('drawer-title').innerText()).toContain('Aurora Robotics');
    await page.getByTestId('drawer-tab-details').click();
    await page.getByTestId('drawer-panel-details').waitFor();
    const fieldRow = page.locator(`[data-testid="drawer-field-row"][data-field-key="${fieldKey}"]`);
    await fieldRow.waitFor();
    expect(await fieldRow.getByTestId('drawer-field-value').innerText()).toContain('Not executed yet');
    await fieldRow.getByTestId('drawer-field-edit').click();
    await fieldRow.getByTestId('drawer-field-input').fill('42.5');
    await fieldRow.getByTestId('drawer-field-save').click();
    await expect.poll(() => fieldRow.getByTestId('drawer-field-value').innerText()).toContain('42.5');
    await shot(page, '02-drawer-field');
    await expect.poll(async () => (await server.query<{ v: number }>(`select value_num as v from field_value`))[0]?.v).toBe(42.5);

    // Two more values through the API, then filter the table: ARR > 10.
    await page.evaluate(async (key) => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))!
          .slice(8),
      );
      const h = { 'content-type': 'application/json', 'x-csrf-token': csrf };
      const fields = (await (await fetch('/api/v1/entity/fields?entityType=company')).json()).fields as { id: string; key: string }[];
      const fieldId = fields.find((f) => f.key === key)!.id;
      const page = await (
        await fetch('/api/v1/company/get-companies', {
          method: 'POST',
          headers: h,
          body: JSON.stringify({ text: 'portfolio 0', pageSize: 100 }),
        })
      ).json();
      const values = [5, 15, 25];
      for (let i = 0; i < 3; i++) {
        await fetch('/api/v1/entity/company/field', {
          method: 'PUT',
          headers: h,
          body: JSON.stringify({ entityId: page.rows[i].id, fieldId, value: values[i] }),
        });
      }
    }, fieldKey);
    await page.getByTestId('table-search').fill('');
    await page.getByTestId('filter-add').click();
    await page.locator(`[data-testid="filter-field-option"][data-key="${fieldKey}"]`).click();
    await page.getByTestId('filter-editor').waitFor();
    await page.getByTestId('filter-condition-select').first().selectOption('greater_than');
    await page.getByTestId('filter-value').first().fill('10');
    await page.getByTestId('filter-editor-save').click();
    await expect.poll(() => page.getByTestId('record-table').getAttribute('data-row-count')).toBe('3');
    const names = async () => page.locator('[data-testid="record-table-cell"][data-key="name"]').allInnerTexts();
    expect((await names()).sort()).toEqual(['Aurora Robotics', 'Portfolio 01 Group', 'Portfolio 02 Group']);
    await shot(page, '03-filtered');

    // Sort by the custom field, descending first (the sort cycle starts there).
    await page.locator(`[data-testid="record-table-sort"][data-key="${fieldKey}"]`).click();
    await expect.poll(names).toEqual(['Aurora Robotics', 'Portfolio 02 Group', 'Portfolio 01 Group']);

    // Clear the filter: 25 companies, 3 pages of 10; walk to page 3.
    await page.getByTestId('filter-chip-remove').click();
    await expect.poll(() => page.getByTestId('pagination-label').innerText()).toBe('Page 1 of 3');
    await page.locator(`[data-testid="record-table-sort"][data-key="name"]`).click();
    await page.getByTestId('pagination-last').click();
    await expect.poll(() => page.getByTestId('pagination-label').innerText()).toBe('Page 3 of 3');
    await expect.poll(() => page.getByTestId('record-table').getAttribute('data-row-count')).toBe('5');
    await page.getByTestId('pagination-first').click();
    await expect.poll(() => page.getByTestId('pagination-label').innerText()).toBe('Page 1 of 3');

    // Sort by owner: two companies lose their owner and come last in either direction; the
    // owner's companies come first, in name order (the sort cycle starts descending).
    await server.query(`update company set owner_id = (select id from app_user where email = $1)`, [ADMIN.email]);
    await server.query(`update company set owner_id = null where name in ('Portfolio 00 Group', 'Portfolio 01 Group')`);
    await page.locator('[data-testid="record-table-sort"][data-key="owner"]').click();
    const portfolio = (...ns: number[]) => ns.map((n) => `Portfolio ${String(n).padStart(2, '0')} Group`);
    await expect.poll(names).toEqual(portfolio(23, 22, 21, 20, 19, 18, 17, 16, 15, 14));
    await page.getByTestId('pagination-last').click();
    await expect.poll(names).toEqual([...portfolio(3, 2), 'Aurora Robotics', ...portfolio(1, 0)]);
    await shot(page, '03b-sorted-by-owner');
    // Ascending: Aurora Robotics, Portfolio 02 … 23, then the two without an owner.
    await page.locator('[data-testid="record-table-sort"][data-key="owner"]').click();
    await page.getByTestId('pagination-last').click();
    await expect.poll(names).toEqual(portfolio(21, 22, 23, 0, 1));
    // A new sort starts again at page 1.
    await page.locator(`[data-testid="record-table-sort"][data-key="name"]`).click();
    await expect.poll(() => page.getByTestId('pagination-label').innerText()).toBe('Page 1 of 3');

    // Select all on the page, then across pages, and export the CSV.
    await page.getByTestId('record-table-select-page').check();
    await page.getByTestId('bulk-select-all-across').click();
    await expect.poll(() => page.getByTestId('bulk-action-bar').getAttribute('data-all-selected')).toBe('true');
    await shot(page, '04-all-selected');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('bulk-export').click()]);
    const file = path.join(ARTIFACTS, 'e2e-records-export.csv');
    await download.saveAs(file);
    const lines = fs
      .readFileSync(file, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toContain('Name');
    expect(lines[0]).toContain('ARR (USD m)');
    expect(lines).toHaveLength(26);
    expect(lines.some((l) => l.startsWith('Aurora Robotics,') && l.includes('42.5'))).toBe(true);

    // Hide the Website column and collapse the drawer; both survive a reload.
    await page.getByTestId('bulk-clear').click();
    await page.getByTestId('columns-menu-button').click();
    await page.locator('[data-testid="columns-menu-item"][data-key="website"]').getByTestId('columns-menu-visible').uncheck();
    await expect.poll(async () => (await server.query<{ n: string }>(`select count(*) as n from table_layout`))[0].n).toBe('1');
    await page.keyboard.press('Escape');
    await page.getByTestId('drawer-collapse').click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Collapsed"]').waitFor();
    await expect
      .poll(
        async () =>
          (
            await server.query<{ v: string }>(`select settings->'drawer'->>'visibility' as v from app_user where email = $1`, [ADMIN.email])
          )[0].v,
      )
      .toBe('Collapsed');
    await page.reload();
    await page.getByTestId('companies-page').waitFor();
    await page.locator('[data-testid="record-drawer"][data-visibility="Collapsed"]').waitFor();
    await expect.poll(() => page.locator('[data-testid="record-table-header"][data-key="website"]').count()).toBe(0);
    expect(await page.locator('[data-testid="record-table-header"][data-key="name"]').count()).toBe(1);
    await shot(page, '05-restored');
    await ctx.close();
  });
});
