// What a new user trips over: the drawer only on record pages (its state back on return),
// toasts that cover nothing and leave on time, another session's new company appearing live in an
// open table, a currency field shown with its currency, the toolbar on one line with the drawer open,
// another session's new field as a live column, a LinkedIn enrichment run from the Enrich popover
// whose failure the drawer explains, the currency settings, the header band of an empty table.
// Real server, PostgreSQL, Chromium.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signIn, pageApi as api } from '../support/session';

const ADMIN = { email: 'casey@firstday.example', password: 'First1234' };

describe('first day in the workspace, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-first-day-${name}.png`) });

  beforeAll(async () => {
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'First Day Partners',
      MIXRANK_API_KEY: '',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('drawer, toasts, live table, currency, toolbar', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signIn(page, server.url, ADMIN);

    // A currency field in euros (before the table opens: fields are not live).
    const field = await api(page, 'POST', '/api/v1/entity/field', {
      label: 'Deal Size',
      dataType: 'currency',
      entityType: 'company',
      config: { currency: 'EUR' },
    });
    expect(field.status).toBe(201);
    expect(field.json.field.currency).toBe('EUR');

    await page.getByTestId('nav-companies').click();
    await page.getByTestId('companies-page').waitFor();
    await page.getByTestId('record-table').waitFor();
    await shot(page, '01-empty-table');
    // The empty table's header band reaches the right edge of the table's box.
    const band = async () => {
      const box = (await page.getByTestId('record-table-scroll').boundingBox())!;
      const last = (await page.getByTestId('record-table-header-filler').boundingBox())!;
      const first = (await page.locator('[data-testid="record-table"] thead th').first().boundingBox())!;
      return { left: first.x - box.x, right: box.x + box.width - (last.x + last.width) };
    };
    await page.getByTestId('record-table-empty').waitFor();
    const empty = await band();
    expect(Math.abs(empty.left)).toBeLessThan(2);
    expect(Math.abs(empty.right)).toBeLessThan(2);

    // A company with a value, created while the table is open.
    const created = await api(page, 'POST', '/api/v1/entity/company', {
      company: { name: 'Aurora Robotics', website: 'https://aurora-robotics.example' },
    });
    expect(created.status).toBe(201);
    const companyId = created.json.company.id as string;
    expect(
      (await api(page, 'PUT', '/api/v1/entity/company/field', { entityId: companyId, fieldId: field.json.field.id, value: 1250000 }))
        .status,
    ).toBe(200);

    // The open table follows: the new company and its value appear without a reload.
    const aurora = page.locator('[data-testid="record-table-row"]').filter({ hasText: 'Aurora Robotics' });
    await aurora.waitFor({ timeout: 5000 });
    await expect
      .poll(() => aurora.locator('[data-testid="record-table-cell"][data-key="deal_size"]').innerText(), { timeout: 5000 })
      .toBe('€1,250,000.00');

    // The drawer shows the same text; the toolbar stays on one line with the drawer open.
    await aurora.click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
    await page.getByTestId('drawer-tab-details').click();
    const row = page.locator('[data-testid="drawer-field-row"][data-field-key="deal_size"]');
    await expect.poll(() => row.getByTestId('drawer-field-value').innerText()).toBe('€1,250,000.00');
    const search = await page.getByTestId('table-search').boundingBox();
    const newButton = await page.getByTestId('table-new-company').boundingBox();
    expect(Math.abs(search!.y - newButton!.y)).toBeLessThan(12);
    // …and 'Add Filter' keeps its label on one line beside the search box.
    const addFilter = (await page.getByTestId('filter-add').boundingBox())!;
    expect(addFilter.height).toBeLessThan(34);
    expect(Math.abs(addFilter.y + addFilter.height / 2 - (search!.y + search!.height / 2))).toBeLessThan(6);

    // The copy toast is on screen for 0.5 s (spec 000 §8), not 0.5 s plus Fluent's 600 ms motions each way.
    const toast = page.getByTestId('toast-success');
    // Measured in the page: from the click to the toast's appearance, and from there until it is gone.
    const timing = await page.evaluate(async () => {
      (
        document.querySelector(
          '[data-testid="drawer-field-row"][data-field-key="deal_size"] [data-testid="drawer-field-copy"]',
        ) as HTMLElement
      ).click();
      const clicked = performance.now();
      let t0 = -1;
      const find = () => document.querySelector('[data-testid="toast-success"]');
      for (;;) {
        await new Promise((r) => setTimeout(r, 10));
        const el = find();
        const visible = !!el && Number(getComputedStyle(el.closest('[data-fui-focusable-group]') ?? el).opacity) > 0.05;
        if (visible && t0 < 0) t0 = performance.now();
        if (performance.now() - clicked > 5000) return { appearedAfter: -1, shown: -1 };
        if (t0 >= 0 && !visible) return { appearedAfter: t0 - clicked, shown: performance.now() - t0 };
      }
    });
    console.log(`copy toast: visible ${Math.round(timing.appearedAfter)} ms after the click, on screen ${Math.round(timing.shown)} ms`);
    expect(timing.appearedAfter).toBeGreaterThanOrEqual(0);
    // Bounds with room for a loaded machine (CI runs two test workers on two cores) that still tell
    // 0.5 s from the ~1.7 s that Fluent's motions made of it.
    expect(timing.appearedAfter).toBeLessThan(1000);
    expect(timing.shown).toBeGreaterThan(300);
    expect(timing.shown).toBeLessThan(1100);
    await toast.waitFor({ state: 'detached', timeout: 3000 });
    // …and covers neither the drawer's title nor its buttons.
    // (The three boxes are read in the page in one go the moment the toast shows: it is on screen for
    // 0.5 s, less than a round trip per box takes on a busy machine.)
    await row.getByTestId('drawer-field-copy').click();
    const boxes = await page.evaluate(async () => {
      const box = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect().toJSON() as DOMRect | undefined;
      for (let i = 0; i < 300 && !box('toast-success'); i++) await new Promise((r) => setTimeout(r, 10));
      return { toast: box('toast-success'), title: box('drawer-title'), newCompany: box('table-new-company') };
    });
    await shot(page, '02-drawer-currency-toast');
    expect(boxes.toast && boxes.title && boxes.newCompany).toBeTruthy();
    const overlaps = (a: DOMRect, b: DOMRect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlaps(boxes.toast!, boxes.title!)).toBe(false);
    expect(overlaps(boxes.toast!, boxes.newCompany!)).toBe(false);

    // Another session creates a company: it appears in this open table within 5 s, page and drawer kept.
    const other = await (await browser.newContext()).newPage();
    await signIn(other, server.url, ADMIN);
    expect(
      (await api(other, 'POST', '/api/v1/entity/company', { company: { name: 'Borealis Biotech', website: 'https://borealis.example' } }))
        .status,
    ).toBe(201);
    await page.locator('[data-testid="record-table-row"]').filter({ hasText: 'Borealis Biotech' }).waitFor({ timeout: 5000 });
    expect(await page.getByTestId('drawer-title').innerText()).toContain('Aurora Robotics');
    await shot(page, '03-live-row');

    // Another session adds a field: its column appears in the open table without a reload.
    expect(
      (await api(other, 'POST', '/api/v1/entity/field', { label: 'Board Seats', dataType: 'int', entityType: 'company' })).status,
    ).toBe(201);
    await page.locator('[data-testid="record-table-header"][data-key="board_seats"]').waitFor({ timeout: 5000 });

    // A LinkedIn enrichment (its dialog has a name only: it fills no field) is created and run from
    // the table's Enrich popover; without a MixRank key it fails, and the drawer says why at once.
    await aurora.getByTestId('record-table-select-row').click();
    await page.getByTestId('enrich-button').click();
    await page.getByTestId('enrich-popover').waitFor();
    await page.getByTestId('enrich-new-enrichment').click();
    await page.locator('[data-testid="enrichment-type-option"][data-type="mixrankCompanyDetails"]').click();
    // The dialog suggests the next free name (asked of the server as it opens); typed over once it shows.
    // Filled before it arrives, the suggestion's late answer put the caret after it and the name was appended.
    const name = page.getByTestId('linkedin-enrichment-name');
    await expect.poll(() => name.inputValue()).toMatch(/^Linkedin \d+$/);
    await name.fill('Company profile');
    await page.getByTestId('linkedin-enrichment-save').click();
    await page.getByTestId('enrich-popover').waitFor();
    await expect.poll(() => page.getByTestId('enrich-field').inputValue()).toBe('__unassigned__');
    expect(await page.getByTestId('enrich-enrichment').locator('option:checked').innerText()).toBe('Company profile');
    await shot(page, '03b-enrich-unassigned');
    await page.getByTestId('enrich-run').click();
    const profileRow = page.locator('[data-testid="drawer-enrichment-row"]').filter({ hasText: 'Company profile' });
    const reason = profileRow.getByTestId('enrichment-error-message');
    await reason.waitFor({ timeout: 20_000 });
    expect(await reason.innerText()).toMatch(/MIXRANK_API_KEY/);
    expect(await profileRow.getByTestId('enrichment-result').innerText()).toMatch(/^Error/);
    await shot(page, '03c-drawer-enrichment-error');

    // The drawer belongs to the record pages: gone on Organization (all user actions visible)…
    await page.getByTestId('nav-organization').click();
    await page.getByTestId('organization-page').waitFor();
    expect(await page.getByTestId('record-drawer').count()).toBe(0);
    await shot(page, '04-organization-no-drawer');
    // The currency settings: the organization's default becomes pounds and Deal Size follows it.
    const currencies = page.getByTestId('currency-settings');
    await currencies.getByTestId('currency-default').selectOption('GBP');
    await currencies.getByTestId('currency-default-save').click();
    await page.getByTestId('toast-success').filter({ hasText: 'Default currency saved' }).waitFor();
    const dealSize = currencies.locator('[data-testid="currency-field"]').filter({ hasText: 'Deal Size' });
    expect(await dealSize.getByTestId('currency-field-select').inputValue()).toBe('EUR');
    await dealSize.getByTestId('currency-field-select').selectOption('');
    await page.getByTestId('toast-success').filter({ hasText: 'Field updated' }).waitFor();
    await expect
      .poll(() => dealSize.getByTestId('currency-field-select').locator('option:checked').innerText())
      .toBe('Organization default (GBP)');
    await currencies.scrollIntoViewIfNeeded();
    await shot(page, '04b-currency-settings');
    // …and back, with the same record, on return; its value now in pounds, in the drawer and the table.
    await page.getByTestId('nav-companies').click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
    expect(await page.getByTestId('drawer-title').innerText()).toContain('Aurora Robotics');
    await expect.poll(() => row.getByTestId('drawer-field-value').innerText()).toBe('£1,250,000.00');
    await expect.poll(() => aurora.locator('[data-testid="record-table-cell"][data-key="deal_size"]').innerText()).toBe('£1,250,000.00');

    // Another session deletes the record shown: the row goes and the drawer closes.
    expect((await api(other, 'DELETE', `/api/v1/company/delete/${companyId}`)).status).toBe(200);
    await aurora.waitFor({ state: 'detached', timeout: 5000 });
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor({ state: 'detached', timeout: 5000 });
    await shot(page, '05-deleted-live');
    await ctx.close();
  });
});
