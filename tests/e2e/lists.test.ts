// Lists of ideas in Chromium (issue 21): create a list, add companies by hand, shortlist with the
// star and with 'all selected', open the idea drawer, complete the list with its confirmation
// totals, and find the companies in the companies table. Real server, PostgreSQL, Chromium.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signedInPage } from '../support/session';

const ADMIN = { email: 'riley@lists.example', password: 'Lists1234' };

describe('lists of ideas, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-lists-${name}.png`) });

  beforeAll(async () => {
    server = await startServer({ DEALSCOUT_ADMIN_EMAIL: ADMIN.email, DEALSCOUT_ADMIN_PASSWORD: ADMIN.password, DEALSCOUT_ORG_NAME: 'Lists Capital' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
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

    for (const [name, website] of [['Fjord Freight', 'fjordfreight.example.com'], ['Polar Parcel', 'https://www.polarparcel.example.com'], ['Aurora Haulage', 'aurorahaulage.example.com']]) {
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
    await page.getByTestId('upload-csv-file').setInputFiles({ name: 'ideas.csv', mimeType: 'text/csv', buffer: Buffer.from('\uFEFFCompany Name;URL;Country\nSkagen Shipping;skagenshipping.example.com;DK\nFjord Freight AS;fjordfreight.example.com;NO\nNo Site;;SE\n') });
    await expect.poll(() => page.getByTestId('upload-csv-name').textContent()).toContain('Company Name');
    expect(await page.getByTestId('upload-csv-website').textContent()).toContain('URL');
    await shot(page, '01b-upload-mapping');
    await page.getByTestId('upload-csv-submit').click();
    await expect.poll(() => page.getByTestId('upload-csv-result').textContent()).toContain('1 idea added, 1 already in the list, 1 row rejected');
    await page.getByTestId('upload-csv-rejected').waitFor();
    await shot(page, '01c-upload-result');
    await page.getByTestId('upload-csv-dialog').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('4 ideas · 0 shortlisted · 2 sources');
    // The uploaded idea goes again, so the rest of the journey works on the three added by hand.
    await page.getByTestId('record-table-row').filter({ hasText: 'Skagen Shipping' }).getByTestId('record-table-select-row').click();
    await page.getByTestId('bulk-delete').click();
    await page.getByTestId('bulk-delete-dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('3 ideas · 0 shortlisted · 2 sources');

    // The star shortlists one idea; the bulk bar shortlists the page's selection.
    const firstRow = page.getByTestId('record-table-row').first();
    await firstRow.locator('[data-testid^="idea-shortlist-"]').click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('3 ideas · 1 shortlisted · 2 sources');
    await page.getByTestId('record-table-select-page').click();
    await page.getByTestId('bulk-action-bar').waitFor();
    await page.getByTestId('bulk-shortlist').click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('3 ideas · 3 shortlisted · 2 sources');
    // And one comes off the shortlist again from the drawer.
    await page.getByTestId('record-table-row').filter({ hasText: 'Aurora Haulage' }).locator('[data-key="name"]').click();
    await page.getByTestId('idea-drawer').waitFor();
    expect(await page.getByTestId('idea-drawer-name').textContent()).toBe('Aurora Haulage');
    await page.getByTestId('idea-drawer-shortlist').click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toBe('3 ideas · 2 shortlisted · 2 sources');
    await shot(page, '02-drawer');

    // Completion: the confirmation shows its totals, then the shortlisted ideas are in Dealscout.
    await page.getByTestId('list-complete').click();
    await expect.poll(() => page.getByTestId('complete-total').textContent()).toBe('2');
    expect(await page.getByTestId('complete-existing').textContent()).toBe('0');
    expect(await page.getByTestId('complete-candidate').textContent()).toBe('2');
    await shot(page, '03-complete-confirmation');
    await page.getByTestId('complete-dialog').getByRole('button', { name: 'Complete' }).click();
    await expect.poll(() => page.getByTestId('idea-status').allTextContents()).toEqual(['Idea', 'In Dealscout', 'In Dealscout']);
    await shot(page, '04-completed');

    await page.getByTestId('nav-companies').click();
    await page.getByTestId('companies-page').waitFor();
    await expect.poll(async () => (await page.getByTestId('record-table-row').locator('[data-key="name"]').allTextContents()).sort()).toEqual(['Fjord Freight', 'Polar Parcel']);
    await shot(page, '05-companies');

    await page.getByTestId('nav-lists').click();
    await expect.poll(() => page.getByTestId('record-table-row').count()).toBe(1);
    await shot(page, '06-lists');
    await ctx.close();
  });
});
