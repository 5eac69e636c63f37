// CRM connect journey in Chromium: an admin connects Salesforce from the organization settings
// through the fake Salesforce's consent page (OAuth web-server flow with PKCE, sandbox login), sees
// the account on the card and the Affinity card disabled; disconnects; then connects Affinity with an
// API key (a wrong key first). Real server, PostgreSQL, the loopback fakes of Salesforce and Affinity.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signedInPage } from '../support/session';
import { FakeSalesforce } from '../../server/test/fakes/salesforce-server';
import { FakeAffinity } from '../../server/test/fakes/affinity-server';

const ADMIN = { email: 'mara@northgate.example', password: 'Northgate1234' };
const AFF_KEY = 'affinity-e2e-key-0123456789-SECRET';

describe('CRM connect in Chromium', () => {
  let server: RunningServer;
  let prod: FakeSalesforce;
  let sandbox: FakeSalesforce;
  let aff: FakeAffinity;
  let browser: Browser;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-crm-${name}.png`), fullPage: true });

  beforeAll(async () => {
    prod = await FakeSalesforce.start({ clientId: 'e2e-client', clientSecret: 'e2e-secret' });
    sandbox = await FakeSalesforce.start({
      clientId: 'e2e-client',
      clientSecret: 'e2e-secret',
      username: 'mara@northgate.example.sandbox',
    });
    aff = await FakeAffinity.start({ apiKeys: [AFF_KEY] });
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Northgate Partners',
      SALESFORCE_CLIENT_ID: 'e2e-client',
      SALESFORCE_CLIENT_SECRET: 'e2e-secret',
      SALESFORCE_LOGIN_URL: prod.url,
      SALESFORCE_SANDBOX_LOGIN_URL: sandbox.url,
      AFFINITY_BASE_URL: aff.url,
      OUTBOUND_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await prod?.close();
    await sandbox?.close();
    await aff?.close();
  });

  it('connects Salesforce through the consent page, then switches to Affinity', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signedInPage(ctx, server.url, ADMIN);

    await page.goto(`${server.url}/organization/settings`);
    const sfCard = page.getByTestId('salesforce-card');
    const affCard = page.getByTestId('affinity-card');
    await sfCard.getByTestId('salesforce-status').waitFor();
    await sfCard.scrollIntoViewIfNeeded();
    await shot(page, 'cards-before');
    // A first try declined on Salesforce's page: the card keeps why and what to do next (no toast
    // that is gone in three seconds), also after a reload, until the admin tries again.
    await sfCard.getByTestId('salesforce-connect').click();
    await page.getByTestId('salesforce-form').waitFor();
    await page.getByTestId('salesforce-submit').click();
    await page.waitForURL((u) => u.pathname === '/services/oauth2/authorize');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((u) => u.pathname === '/organization/settings' && !u.search.includes('crmError'));
    const failure = sfCard.getByTestId('salesforce-connect-failure');
    await failure.waitFor();
    expect(await failure.getByTestId('salesforce-connect-failure-reason').textContent()).toBe('The Salesforce connection was cancelled.');
    expect(await failure.getByTestId('salesforce-connect-failure-next').textContent()).toBe(
      "Connect again and choose Allow on Salesforce's page.",
    );
    await page.waitForTimeout(3_500);
    await page.reload();
    await failure.waitFor();
    await sfCard.scrollIntoViewIfNeeded();
    await shot(page, 'salesforce-connect-failure');
    await failure.getByTestId('salesforce-connect-failure-retry').click();
    await page.getByTestId('salesforce-form').waitFor();
    expect(await failure.count()).toBe(0);
    await page.getByLabel(/Sandbox/).check();
    await shot(page, 'salesforce-environment');
    await page.getByTestId('salesforce-submit').click();
    // The fake Salesforce's consent page, on the sandbox login host.
    await page.waitForURL((u) => u.origin === sandbox.url && u.pathname === '/services/oauth2/authorize');
    await page.getByText('Allow Access?').waitFor();
    await shot(page, 'salesforce-consent');
    await page.locator('#oaapprove').click();
    await page.waitForURL((u) => u.pathname === '/organization/settings');
    await page.getByText('Salesforce connected').first().waitFor();
    await sfCard.getByTestId('salesforce-connected').waitFor();
    expect(await sfCard.getByTestId('salesforce-account').textContent()).toBe('mara@northgate.example.sandbox');
    expect(await sfCard.getByTestId('salesforce-created-by').textContent()).not.toBe('—');
    expect(page.url()).not.toContain('crm=');
    expect(await affCard.getByTestId('affinity-connect').isDisabled()).toBe(true);
    expect(await affCard.getByTestId('affinity-blocked').textContent()).toContain('Salesforce is the active CRM');
    await sfCard.scrollIntoViewIfNeeded();
    await shot(page, 'salesforce-connected');
    const [row] = await server.query<{ t: string; active: boolean }>(
      `select row_to_json(i)::text as t, active from integration i where provider = 'salesforce'`,
    );
    expect(row.active).toBe(true);
    expect(row.t).not.toMatch(/5Aep|00D!/);

    // Profile → CRM settings: link the CRM username (checked against Salesforce's users), permanently.
    sandbox.addUser('rep@northgate.example.sandbox', 'Rory Rep');
    await page.goto(`${server.url}/account/profile`);
    await page.getByTestId('crm-username-connect').click();
    const input = page.getByTestId('crm-username-input');
    await input.fill('rory');
    await page.getByText("That doesn't appear to be a valid crm username").waitFor();
    expect(await page.getByTestId('crm-username-save').isDisabled()).toBe(true);
    await input.fill('nobody@northgate.example.sandbox');
    await page.getByText("That doesn't appear to be a valid crm username").waitFor();
    await input.fill('mara@northgate.example.sandbox');
    await page.getByText('Username is available').waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'username-available');
    await page.getByTestId('crm-username-save').click();
    await page.getByTestId('crm-username-confirm').getByText('Once linked, the link cannot be changed.', { exact: false }).waitFor();
    await page.getByTestId('confirm-dialog-confirm').click();
    await page.getByTestId('crm-username-linked').waitFor();
    expect(await page.getByTestId('crm-username-value').textContent()).toBe('mara@northgate.example.sandbox');
    await page.getByTestId('profile-crm-settings').scrollIntoViewIfNeeded();
    await shot(page, 'username-linked');
    const [link] = await server.query<{ crm_user_id: string }>(`select crm_user_id from crm_user_link`);
    expect(link.crm_user_id).toBe(sandbox.userId);

    // Profile → Calendar: time zone, meeting length (30 by default), weekly hours.
    const cal = page.getByTestId('profile-calendar');
    expect(await cal.getByTestId('calendar-meeting-length').inputValue()).toBe('30');
    await cal.getByTestId('calendar-timezone').selectOption('America/New_York');
    await cal.getByTestId('calendar-meeting-length').selectOption('45');
    await cal.getByTestId('calendar-friday-end').fill('13:00');
    await cal.getByTestId('calendar-friday-start').fill('14:00');
    await cal.getByText('Each period must start before it ends').waitFor();
    expect(await cal.getByTestId('calendar-save').isDisabled()).toBe(true);
    await cal.getByTestId('calendar-friday-start').fill('08:30');
    await cal.getByTestId('calendar-saturday').check();
    await cal.getByTestId('calendar-save').click();
    await page.getByText('Calendar settings saved').first().waitFor();
    await cal.scrollIntoViewIfNeeded();
    await shot(page, 'calendar');
    await page.reload();
    await page.getByTestId('profile-calendar').waitFor();
    expect(await page.getByTestId('calendar-meeting-length').inputValue()).toBe('45');
    // Profile → Email settings: the signature and the organization's summary (admin).
    const email = page.getByTestId('email-settings');
    await email.getByTestId('email-signature').fill('Best regards,\nMara — Northgate Partners');
    await email.getByTestId('email-signature-save').click();
    await page.getByText('Email signature saved').first().waitFor();
    await email.getByTestId('ai-summary').fill('Northgate Partners advises founders of industrial SMEs on selling their companies.');
    await email.getByTestId('ai-summary-save').click();
    await page.getByText('Organization summary saved').first().waitFor();
    await email.scrollIntoViewIfNeeded();
    await shot(page, 'email-settings');
    const [orgRow] = await server.query<{ ai_summary: string }>(`select ai_summary from organization`);
    expect(orgRow.ai_summary).toMatch(/^Northgate Partners advises/);
    const [me] = await server.query<{ calendar: { timezone: string; weeklyHours: Record<string, unknown> } }>(
      `select calendar from app_user`,
    );
    expect((await server.query<{ email_signature: string }>(`select email_signature from app_user`))[0].email_signature).toBe(
      'Best regards,\nMara — Northgate Partners',
    );
    expect(me.calendar.timezone).toBe('America/New_York');
    expect(me.calendar.weeklyHours.friday).toEqual([{ start: '08:30', end: '13:00' }]);
    expect(me.calendar.weeklyHours.saturday).toEqual([{ start: '09:00', end: '17:00' }]);

    // Settings → Disconnect (confirm), which revokes the token at Salesforce.
    await page.goto(`${server.url}/organization/settings`);
    await sfCard.getByTestId('salesforce-settings').click();
    await page.getByTestId('salesforce-settings-dialog').waitFor();
    expect(await page.getByTestId('salesforce-environment-value').textContent()).toBe('Sandbox');
    await page.waitForTimeout(400); // the dialog's fade-in
    await shot(page, 'salesforce-settings');
    await page.getByTestId('salesforce-disconnect').click();
    await page.getByTestId('confirm-dialog-confirm').click();
    await sfCard.getByTestId('salesforce-status').waitFor();
    expect(sandbox.requests.some((r) => r.path === '/services/oauth2/revoke')).toBe(true);

    await affCard.getByTestId('affinity-connect').click();
    await page.getByTestId('affinity-key').fill('not-the-key');
    await page.getByTestId('affinity-submit').click();
    expect(await page.getByTestId('affinity-error').textContent()).toBe('Affinity refused this API key. Check the key and try again.');
    await page.getByTestId('affinity-key').fill(AFF_KEY);
    await page.getByTestId('affinity-submit').click();
    await affCard.getByTestId('affinity-connected').waitFor();
    expect(await affCard.getByTestId('affinity-account').textContent()).toBe('Acme Capital');
    expect(await sfCard.getByTestId('salesforce-connect').isDisabled()).toBe(true);
    await affCard.scrollIntoViewIfNeeded();
    // The key dialog closes with a transition: the picture is taken once it has gone.
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await shot(page, 'affinity-connected');
    const rows = await server.query<{ t: string }>(`select row_to_json(i)::text as t from integration i`);
    expect(rows.map((r) => r.t).join()).not.toContain('SECRET');
    await ctx.close();
  });
});
