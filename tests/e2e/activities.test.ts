// Activities and notifications journey: two browser contexts signed in to one organization, each
// with Aurora Robotics open in its drawer. An activity logged from the mini drawer in one appears in
// the other's drawer without a reload; an edit and a delete from either side follow it live. Then an
// integration expiry notice raised by the server's own notice code reaches the bell live; opening
// the bell clears the badge in both contexts and the notice links to /account/profile.
// Real server (API + worker), PostgreSQL, Chromium.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signedInPage } from '../support/session';
import { ormConfig } from '../../server/src/orm-config';
import { applyIntegrationExpiryNotices } from '../../server/src/modules/notifications/integration-expiry.job';

const ADMIN = { email: 'morgan@northbridge.example', password: 'North1234' };

describe('activities and notifications journey in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-activities-${name}.png`) });

  beforeAll(async () => {
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Northbridge Partners',
      // Needed by the server once stored API keys are encrypted (harmless before).
      SECRETS_KEY: 'e2e-secrets-key-0123456789abcdef0123456789',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signIn = (ctx: BrowserContext): Promise<Page> => signedInPage(ctx, server.url, ADMIN);

  async function openAuroraActivities(page: Page) {
    await page.getByTestId('nav-companies').click();
    await page.getByTestId('companies-page').waitFor();
    const row = page.locator('[data-testid="record-table-row"]').filter({ hasText: 'Aurora Robotics' });
    await row.waitFor();
    await row.click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
    await page.getByTestId('drawer-tab-activities').click();
    await page.getByTestId('activities-tab').waitFor();
  }

  it('logs an activity in one context and sees it live in another; the bell shows and clears its badge', async () => {
    const ctxA = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const ctxB = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const a = await signIn(ctxA);
    const b = await signIn(ctxB);

    // A company with its key contact, and a second company to search past.
    await a.evaluate(async () => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))!
          .slice(8),
      );
      const post = async (body: unknown) => {
        const res = await fetch('/api/v1/entity/company', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify(body),
        });
        if (res.status !== 201) throw new Error(await res.text());
      };
      await post({
        company: { name: 'Aurora Robotics', website: 'https://aurora-robotics.example' },
        contact: { firstName: 'Riya', lastName: 'Shah', email: 'riya@aurora-robotics.example' },
      });
      await post({ company: { name: 'Boreal Capital', website: 'https://boreal.example' } });
    });

    await openAuroraActivities(a);
    await openAuroraActivities(b);
    await a.getByTestId('activities-empty').waitFor();
    await b.getByTestId('activities-empty').waitFor();
    expect(await b.getByTestId('activities-draft-email').innerText()).toBe('Draft Email to Riya Shah');
    await shot(b, '01-empty');

    // A: the header button opens the mini drawer on Log Activity; Save with nothing names what is missing.
    await a.getByTestId('mini-drawer-button').click();
    await a.getByTestId('mini-drawer').waitFor();
    expect(await a.getByTestId('mini-drawer').getAttribute('data-tab')).toBe('Log Activity');
    await a.getByTestId('mini-drawer-save').click();
    await expect
      .poll(() => a.getByTestId('log-activity-problem').innerText())
      .toBe('Please provide valid activity, company, contact, value');
    // Run Play: the published plays (the four provided by the product) on the drawer's record, Search Plays and no Save.
    await a.getByTestId('mini-drawer-tab-run-play').click();
    await a.getByTestId('run-play-tab').waitFor();
    await expect.poll(() => a.getByTestId('run-play-option').count()).toBe(4);
    expect(await a.getByTestId('mini-drawer-save').count()).toBe(0);
    await shot(a, '02a-run-play');
    await a.getByTestId('mini-drawer-tab-log-activity').click();

    // Fill it in: type, company and contact by search, today's date (preset), the notes.
    await a.getByTestId('log-activity-type').selectOption('call');
    await a.getByTestId('log-activity-company-input').click();
    await a.getByTestId('log-activity-company-input').fill('auro');
    await a.locator('[data-testid="log-activity-company-option"]').filter({ hasText: 'Aurora Robotics' }).click();
    await a.getByTestId('log-activity-contact-input').click();
    await a.getByTestId('log-activity-contact-input').fill('riya');
    await a.locator('[data-testid="log-activity-contact-option"]').filter({ hasText: 'Riya Shah' }).click();
    const notes =
      'Intro call with Riya about the Series B: they want a buyer for the warehouse robotics unit by Q3, and a follow-up with the CFO next week.';
    await a.getByTestId('log-activity-content').fill(notes);
    await shot(a, '02-log-activity');
    await a.getByTestId('mini-drawer-save').click();
    await expect.poll(() => a.getByTestId('toast-success').allInnerTexts()).toContain('Activity saved successfully.');
    await a.getByTestId('mini-drawer').waitFor({ state: 'hidden' });
    const rows = await server.query<{ type: string; source: string; content: string }>(`select type, source, content from activity`);
    expect(rows).toEqual([{ type: 'call', source: 'manual', content: notes }]);

    // B: the activity arrives without a reload, in 'Recent' with '1 Activity' and a 70-character preview.
    const rowB = b.getByTestId('activity-row');
    await rowB.waitFor();
    expect(await b.locator('[data-testid="activity-group"]').getAttribute('data-label')).toBe('Recent');
    expect(await b.getByTestId('activity-group-count').innerText()).toBe('1 Activity');
    expect(await rowB.getByTestId('activity-type').innerText()).toBe('Phone');
    expect(await rowB.getByTestId('activity-preview').innerText()).toBe(`${notes.slice(0, 70)}…`);
    expect(await rowB.getByTestId('activity-date').innerText()).toMatch(
      /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), [A-Z][a-z]{2} \d{1,2} \d{2}:\d{2} (am|pm)$/,
    );
    await shot(b, '03-live-in-other-context');

    // B edits it (the same form, filled from the server); A sees the new text live.
    await rowB.getByTestId('activity-edit').click();
    await b.getByTestId('mini-drawer').waitFor();
    await expect.poll(() => b.getByTestId('log-activity-content').inputValue()).toBe(notes);
    expect(await b.getByTestId('log-activity-company-input').inputValue()).toBe('Aurora Robotics');
    expect(await b.getByTestId('log-activity-type').inputValue()).toBe('call');
    await b.getByTestId('log-activity-content').fill('Call moved: Riya will send the data room invite.');
    await b.getByTestId('mini-drawer-save').click();
    await expect.poll(() => b.getByTestId('toast-success').allInnerTexts()).toContain('Activity updated successfully.');
    await expect.poll(() => a.getByTestId('activity-preview').innerText()).toBe('Call moved: Riya will send the data room invite.');

    // Filters: Phone shows it; Email alone finds nothing.
    await a.getByTestId('activity-filters-button').click();
    await a.getByTestId('activity-filter-email').click();
    await expect.poll(() => a.getByTestId('activities-none-matching').count()).toBe(1);
    expect(await a.getByTestId('activities-none-matching').innerText()).toBe('No activities found matching the selected filters.');
    await a.getByTestId('activity-filter-call').click();
    await a.getByTestId('activity-filter-f2f').click();
    await a.keyboard.press('Escape');
    expect(await a.getByTestId('activity-filter-label').innerText()).toBe('Email, F2F +1 more');
    await a.getByTestId('activity-row').waitFor();
    await shot(a, '04-filtered');
    await a.getByTestId('activity-filter-clear').click();
    await expect.poll(() => a.getByTestId('activity-filter-label').count()).toBe(0);

    // A deletes it after confirming; B's drawer is empty again.
    await a.getByTestId('activity-delete').click();
    await a.getByTestId('activity-delete-dialog').waitFor();
    await a.getByTestId('confirm-dialog-confirm').click();
    await expect.poll(() => a.getByTestId('toast-success').allInnerTexts()).toContain('Participants deleted successfully.');
    await b.getByTestId('activities-empty').waitFor();
    expect(await server.query(`select id from activity`)).toEqual([]);

    // Notifications: nothing yet.
    expect(await a.getByTestId('notifications-bell').getAttribute('data-unread-count')).toBe('0');

    // The server raises an Office 365 expiry notice for the admin (the expiry job's own code).
    const [{ id: userId, organization_id: orgId }] = await server.query<{ id: string; organization_id: string }>(
      `select id, organization_id from app_user where email = $1`,
      [ADMIN.email],
    );
    const orm = await MikroORM.init(ormConfig(server.dbUrl, { logger: () => {}, pool: { min: 0, max: 2 } }));
    try {
      const changed = await applyIntegrationExpiryNotices(orm.em.fork(), [
        {
          organizationId: orgId,
          integrationId: '9b2f4c1e-0000-4000-8000-000000000001',
          provider: 'Office 365',
          expiresAt: new Date(Date.now() + 3 * 86_400_000 + 3_600_000),
          userIds: [userId],
        },
      ]);
      expect(changed).toBe(1);
    } finally {
      await orm.close();
    }

    // Both badges show it live.
    await expect.poll(() => a.getByTestId('notifications-bell').getAttribute('data-unread-count')).toBe('1');
    await expect.poll(() => b.getByTestId('notifications-bell').getAttribute('data-unread-count')).toBe('1');
    await shot(a, '05-bell-badge');

    // A opens the bell: the notice is listed (warning) and everything is marked read, in B too.
    await a.getByTestId('notifications-bell').click();
    const item = a.getByTestId('notification-item');
    await item.waitFor();
    expect(await item.innerText()).toContain('Your Office 365 integration will expire in 3 days.');
    expect(await item.getAttribute('data-level')).toBe('warning');
    expect(await item.getAttribute('data-href')).toBe('/account/profile');
    // Let the popover's opening animation finish before the picture.
    await a.waitForTimeout(500);
    await shot(a, '06-bell-open');
    await expect.poll(() => a.getByTestId('notifications-bell').getAttribute('data-unread-count')).toBe('0');
    await expect.poll(() => b.getByTestId('notifications-bell').getAttribute('data-unread-count')).toBe('0');
    await expect
      .poll(async () => (await server.query<{ read: boolean }>(`select read from notification`)).map((r) => r.read))
      .toEqual([true]);

    // The notice links to the profile page.
    await item.click();
    await a.waitForURL(/\/account\/profile$/);

    await ctxA.close();
    await ctxB.close();
  });
});
