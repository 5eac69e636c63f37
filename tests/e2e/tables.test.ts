// Tables and the draft dock at 1440 px, in Chromium: the minimised draft panels never cover the
// table's pagination ('Go to page'); a closed panel stays closed across pages and a reload until
// its draft is opened again from its record. Real server (API and worker), PostgreSQL, Chromium.
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
    server = await startServer({ DEALSCOUT_ADMIN_EMAIL: ADMIN.email, DEALSCOUT_ADMIN_PASSWORD: ADMIN.password, DEALSCOUT_ORG_NAME: 'Tables Capital' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
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
    await server.query(`update channel_email set status = 'error', status_message = 'The mailbox refused the message.' where id = $1`, [ids[1]]);

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
