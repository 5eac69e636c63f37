// Sending from the rep's own Office 365 mailbox in Chromium: connect through the fake
// identity platform's consent page, then send now, schedule, Cancel Send & Edit from the Activities
// tab, and Try Again after an injected failure — real server (API + worker), PostgreSQL, and the
// loopback fake of the identity platform and Microsoft Graph. Screenshots: tests/artifacts/e2e-email-*.png.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { FakeGraphServer } from '../../server/test/fakes/graph-server';
import { signIn } from '../support/session';
import { axeFindings } from '../support/axe';

const ADMIN = { email: 'rita@northwind.example', password: 'Northwind1234' };

describe('Office 365 sending in Chromium', () => {
  let server: RunningServer;
  let fake: FakeGraphServer;
  let browser: Browser;
  // Every screen of the admin's send step is checked with axe-core as it is photographed (Profile's
  // Email service card, the drawer's Activities tab, its confirmation dialogs open): serious or critical
  // findings are gathered and fail the journey at its end, all of them named. Microsoft's consent page
  // (the loopback fake's) is not ours and is not checked.
  const found: string[] = [];
  const axe = async (page: Page, where: string) => {
    for (const f of await axeFindings(page)) found.push(`${where}: ${f.impact} ${f.id} (${f.help}) at ${f.nodes.join(', ')}`);
  };
  const shot = async (page: Page, name: string, opts: { axe?: boolean } = {}) => {
    await page.screenshot({ path: path.join(ARTIFACTS, `e2e-email-${name}.png`), fullPage: true });
    if (opts.axe !== false) await axe(page, name);
  };

  beforeAll(async () => {
    fake = await FakeGraphServer.start();
    fake.addUser({
      mail: ADMIN.email,
      displayName: 'Rita Rep',
      timeZone: 'UTC',
      workingHours: {
        daysOfWeek: ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'],
        startTime: '00:00:00.0000000',
        endTime: '23:59:00.0000000',
        timeZone: { name: 'UTC' },
      },
    });
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Northwind Partners',
      O365_CLIENT_ID: fake.clientId,
      O365_CLIENT_SECRET: fake.clientSecret,
      O365_AUTHORITY_URL: fake.url,
      GRAPH_BASE_URL: `${fake.url}/v1.0`,
      EMAIL_SEND_RETRY_DELAY_SECONDS: '1',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  const api = (page: Page, method: string, url: string, body?: unknown) =>
    page.evaluate(
      async ({ method, url, body }) => {
        const csrf = decodeURIComponent(
          document.cookie
            .split('; ')
            .find((c) => c.startsWith('ds_csrf='))!
            .slice(8),
        );
        const res = await fetch(url, {
          method,
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, json: (await res.json()) as Record<string, unknown> & { email?: { channelEmailId: string } } };
      },
      { method, url, body },
    );

  it('connects the mailbox through the consent page, sends, schedules, cancels and tries again', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signIn(page, server.url, ADMIN);

    // The integrations card: not connected, then Microsoft's consent page, then back, connected.
    await page.goto(`${server.url}/account/profile`);
    const card = page.getByTestId('email-service-card');
    await card.getByTestId('email-service-status').waitFor();
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: path.join(ARTIFACTS, 'e2e-email-01-card-not-connected.png') });
    await axe(page, 'profile, not connected');
    await card.getByTestId('email-service-connect').click();
    await page.waitForURL(/\/oauth2\/v2\.0\/authorize/);
    await shot(page, '02-consent', { axe: false });
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(/\/account\/profile\?o365=connected/, { waitUntil: 'commit' });
    // The outcome's toast lives 3 s: watch for it from the start, not after the checks below.
    const said = page.getByText('Office 365 connected.').first().waitFor();
    await card.getByTestId('email-service-connected').waitFor();
    // Back on Profile at the Email service card, not at the top: it is in view and has the focus,
    // the outcome is said once and leaves the address.
    await expect.poll(() => card.evaluate((el) => document.activeElement === el), { timeout: 10_000 }).toBe(true);
    const landed = (await card.boundingBox())!;
    expect(landed.y).toBeGreaterThanOrEqual(0);
    expect(landed.y).toBeLessThan(900 / 2);
    await said;
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await shot(page, '02b-landed-on-card');
    expect(await card.getByTestId('email-service-account').innerText()).toBe(ADMIN.email);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: path.join(ARTIFACTS, 'e2e-email-03-card-connected.png') });
    await axe(page, 'profile, connected');

    // A company with its key contact, and drafts to it.
    const created = await api(page, 'POST', '/api/v1/entity/company', {
      company: { name: 'Aurora Robotics', website: 'https://aurora-robotics.example' },
      contact: { firstName: 'Riya', lastName: 'Shah', email: 'riya@aurora-robotics.example' },
    });
    expect(created.status).toBe(201);
    const companyId = (created.json as { company: { id: string } }).company.id;
    const draft = async (subject: string) => {
      const d = await api(page, 'POST', '/api/v1/email/draft', { companyId });
      expect(d.status).toBe(201);
      const id = d.json.email!.channelEmailId;
      return {
        id,
        send: (extra: Record<string, unknown> = {}) =>
          api(page, 'POST', '/api/v1/email/send-to-email', {
            id,
            to: 'riya@aurora-robotics.example',
            cc: [],
            subject,
            body: `<p>${subject}</p>`,
            ...extra,
          }),
      };
    };

    // Send now, as a user does: 'Draft Email to Riya Shah' in the drawer's Activities tab, the panel
    // written by hand, its Send Now.
    await page.getByTestId('nav-companies').click();
    const auroraRow = page.locator('[data-testid="record-table-row"]').filter({ hasText: 'Aurora Robotics' });
    await auroraRow.click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
    await page.getByTestId('drawer-tab-activities').click();
    expect(await page.getByTestId('activities-draft-email').innerText()).toBe('Draft Email to Riya Shah');
    await page.getByTestId('activities-draft-email').click();
    const panel = page.locator('[data-testid="draft-panel"][data-expanded="true"]');
    await expect.poll(() => panel.getByTestId('draft-to').inputValue()).toBe('riya@aurora-robotics.example');
    await panel.getByTestId('draft-subject').fill('Intro from Northwind');
    await panel.getByTestId('draft-body-input').click();
    await page.keyboard.type('Intro from Northwind');
    await expect.poll(() => panel.getByTestId('draft-save-state').innerText(), { timeout: 10_000 }).toBe('Saved');
    await expect.poll(() => panel.getByTestId('draft-send-now').isDisabled()).toBe(false);
    await shot(page, '03b-draft-panel');
    await panel.getByTestId('draft-send-now').click();
    await page.getByTestId('toast-success').filter({ hasText: 'Email sent successfully.' }).first().waitFor({ timeout: 30_000 });
    await shot(page, '03c-sent-from-panel');
    const intro = fake.sent(ADMIN.email).filter((m) => m.subject === 'Intro from Northwind');
    expect(intro).toHaveLength(1);
    expect(intro[0].body.content).toContain('Intro from Northwind');
    // The panel leaves with the sent draft.
    await expect.poll(() => page.locator('[data-testid="draft-panel"]').count()).toBe(0);
    await page.getByTestId('drawer-close').click();

    // Schedule for tomorrow: 'Sending in …' and Cancel Send & Edit in the drawer's Activities tab.
    const later = await draft('Follow-up next week');
    const scheduled = await later.send({ scheduledAt: new Date(Date.now() + 26 * 3_600_000).toISOString() });
    expect(scheduled.json.message).toBe('Email scheduled successfully.');
    await page.getByTestId('nav-companies').click();
    const row = page.locator('[data-testid="record-table-row"]').filter({ hasText: 'Aurora Robotics' });
    await row.click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
    await page.getByTestId('drawer-tab-activities').click();
    await page.getByTestId('activity-sending').waitFor();
    expect(await page.getByTestId('activity-sending').innerText()).toMatch(/^Sending (in|Tomorrow)/);
    await shot(page, '04-scheduled');
    await page.getByTestId('activity-cancel-send').click();
    await page.getByTestId('activity-email-confirm').waitFor();
    await shot(page, '04b-cancel-send-dialog');
    await page.getByTestId('activity-email-confirm').getByTestId('confirm-dialog-confirm').click();
    await page.getByTestId('activity-sending').waitFor({ state: 'detached' });
    const pending = await api(page, 'GET', '/api/v1/email/pending');
    expect(
      (pending.json as { emails: { channelEmailId: string; status: string }[] }).emails.find((e) => e.channelEmailId === later.id)?.status,
    ).toBe('draft');

    // A send the mailbox refuses: the error activity with Try Again; after it the worker sends it once.
    fake.fault(/POST \/v1\.0\/me\/messages\/[^/]+\/send$/, { kind: 'status', status: 400, code: 'ErrorInvalidRecipients' });
    const failing = await draft('Meeting next Tuesday?');
    const failed = await failing.send();
    expect([failed.status, failed.json.message]).toEqual([502, 'Something went wrong to sending email.']);
    await page.getByTestId('activity-try-again').waitFor();
    await shot(page, '05-error');
    await page.getByTestId('activity-try-again').click();
    await page.getByTestId('activity-email-confirm').waitFor();
    await shot(page, '05b-try-again-dialog');
    await page.getByTestId('activity-email-confirm').getByTestId('confirm-dialog-confirm').click();
    await expect
      .poll(() => fake.sent(ADMIN.email).filter((m) => m.subject === 'Meeting next Tuesday?').length, { timeout: 60_000 })
      .toBe(1);
    await page.getByTestId('activity-try-again').waitFor({ state: 'detached', timeout: 30_000 });
    await shot(page, '06-sent');
    expect(fake.sent(ADMIN.email).filter((m) => m.subject === 'Meeting next Tuesday?')).toHaveLength(1);
    await ctx.close();
    expect(found, 'axe-core (WCAG 2.1 A/AA) serious or critical findings').toEqual([]);
  }, 240_000);
});
