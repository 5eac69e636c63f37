// First-run setup → sign in → shell and navigation (collapse persists) → invite a user and accept
// in a second browser context → the invited User does not see Organization → logout lands on
// /login. Real server process, real PostgreSQL, headless Chromium.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

const ADMIN = { org: 'Harbor Point Capital', first: 'Alex', last: 'Admin', email: 'alex@harborpoint.example', password: 'Harbor123' };
const INVITEE = { email: 'Jamie.Rep@HarborPoint.example', first: 'Jamie', last: 'Rep', password: 'Jamie1234' };

describe('foundation journey in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-foundation-${name}.png`), fullPage: true });

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sets up, signs in, navigates, invites, accepts and logs out', async () => {
    const adminCtx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await adminCtx.newPage();

    // First run: the setup screen creates the organization and its admin.
    await page.goto(server.url);
    await page.getByTestId('setup-page').waitFor();
    await shot(page, '01-setup');
    await page.getByTestId('setup-organization').fill(ADMIN.org);
    await page.getByTestId('setup-first-name').fill(ADMIN.first);
    await page.getByTestId('setup-last-name').fill(ADMIN.last);
    await page.getByTestId('setup-email').fill(ADMIN.email);
    await page.getByTestId('setup-password').fill(ADMIN.password);
    await page.getByTestId('setup-submit').click();
    await page.getByTestId('app-shell').waitFor();

    // Sign out and back in through the login form.
    await page.getByTestId('profile-menu-button').click();
    await page.getByTestId('profile-menu-logout').click();
    await page.waitForURL('**/login');
    await page.getByTestId('login-email').fill('not-an-email');
    await page.getByTestId('login-password').fill('abc');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByText('Please type a valid email').count()).toBeGreaterThan(0);
    await page.getByTestId('login-email').fill(ADMIN.email);
    await page.getByTestId('login-password').fill('Wrong9999');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('login-error').waitFor();
    expect(await page.getByTestId('login-error').innerText()).toContain('Invalid email or password');
    await shot(page, '02-login-failed');
    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('app-shell').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    // Shell: navigation order, active item by route prefix, admin sees Organization.
    const navText = await page.getByTestId('app-nav').innerText();
    const order = ['Lists', 'Companies', 'Contacts', 'Enrichments', 'Playbook', 'Profile', 'Organization'].map((l) => navText.indexOf(l));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    await page.getByTestId('nav-companies').click();
    await page.waitForURL('**/companies');
    await expect.poll(() => page.getByTestId('nav-companies').getAttribute('aria-current')).toBe('page');
    await page.getByTestId('nav-enrichments').click();
    await page.waitForURL('**/enrichments');
    await expect.poll(() => page.getByTestId('nav-companies').getAttribute('aria-current')).toBeNull();
    await expect.poll(() => page.getByTestId('nav-enrichments').getAttribute('aria-current')).toBe('page');
    await shot(page, '03-shell');

    // Collapse persists across a reload (saved in the user's config on the server).
    expect(await page.getByTestId('app-nav').getAttribute('data-expanded')).toBe('true');
    await page.getByTestId('nav-toggle').click();
    await expect.poll(() => page.getByTestId('app-nav').getAttribute('data-expanded')).toBe('false');
    await expect
      .poll(
        async () =>
          (
            await server.query<{ v: boolean }>(`select (settings->>'navigationExpanded')::boolean as v from app_user where email = $1`, [
              ADMIN.email,
            ])
          )[0]?.v,
      )
      .toBe(false);
    await page.reload();
    await page.getByTestId('app-shell').waitFor();
    expect(await page.getByTestId('app-nav').getAttribute('data-expanded')).toBe('false');
    await shot(page, '04-collapsed-after-reload');
    await page.getByTestId('nav-toggle').click();
    await expect.poll(() => page.getByTestId('app-nav').getAttribute('data-expanded')).toBe('true');

    // Notifications: empty state.
    await page.getByTestId('notifications-bell').click();
    await page.getByTestId('notifications-empty').waitFor();
    expect(await page.getByTestId('notifications-empty').innerText()).toContain("You're all set. Nice work!");
    await page.keyboard.press('Escape');

    // Invite a user from Organization settings.
    await page.getByTestId('nav-organization').click();
    await page.waitForURL('**/organization/settings');
    await page.getByTestId('organization-page').waitFor();
    await page.getByTestId('invite-users-button').click();
    await page.getByTestId('invite-modal').waitFor();
    const field = page.getByTestId('tags-input-field');
    // A wrong role and a wrong address: both messages at once; the invalid address takes no seat.
    const seatsBefore = await page.getByTestId('invite-seat-counter').innerText();
    await field.fill('not-an-address');
    await field.press('Enter');
    expect(await page.getByTestId('invite-seat-counter').innerText()).toBe(seatsBefore);
    await page.getByTestId('invite-send').click();
    await page.getByTestId('invite-error').waitFor();
    expect(await page.getByTestId('invite-error-message').allInnerTexts()).toEqual([
      'Role must be selected',
      'Some email addresses are not valid: not-an-address',
    ]);
    await shot(page, '04b-invite-all-messages');
    await field.press('Backspace');
    await field.fill(INVITEE.email);
    await field.press('Enter');
    await page.getByTestId('invite-role').selectOption('User');
    await shot(page, '05-invite-modal');
    await page.getByTestId('invite-send').click();
    await page.getByTestId('invite-modal').waitFor({ state: 'hidden' });
    await page.locator(`[data-testid="org-invite-row"][data-email="${INVITEE.email.toLowerCase()}"]`).waitFor();
    await shot(page, '06-invited');

    // The invitation mail is in the outbox (no SMTP configured): read its link.
    const mails = await server.query<{ text: string }>(`select text from system_mail where "to" = $1 and kind = 'invitation'`, [
      INVITEE.email.toLowerCase(),
    ]);
    expect(mails).toHaveLength(1);
    const link = /(http:\/\/\S+\/invite\/\S+)/.exec(mails[0].text)![1];
    expect(link.startsWith(server.url)).toBe(true);

    // Accept in a second, separate browser context.
    const inviteeCtx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const p2 = await inviteeCtx.newPage();
    // A signed-out page is not an error: no console error (the browser logs every 401), and no
    // request fails after accepting (the used token's info was fetched again: 404).
    const consoleErrors: string[] = [];
    const failed: string[] = [];
    p2.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    p2.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    await p2.goto(link);
    await p2.getByTestId('invite-accept').waitFor();
    await expect.poll(() => p2.getByTestId('invite-accept-email').inputValue()).toBe(INVITEE.email.toLowerCase());
    await p2.getByTestId('invite-accept-first-name').fill(INVITEE.first);
    await p2.getByTestId('invite-accept-last-name').fill(INVITEE.last);
    await p2.getByTestId('invite-accept-password').fill(INVITEE.password);
    await shot(p2, '07-invite-accept');
    await p2.getByTestId('invite-accept-submit').click();
    await p2.getByTestId('app-shell').waitFor();
    await p2.waitForLoadState('networkidle');
    expect(failed).toEqual([]);
    expect(consoleErrors).toEqual([]);

    // The invited User does not see Organization (navigation or profile menu).
    expect(await p2.getByTestId('nav-organization').count()).toBe(0);
    expect(await p2.getByTestId('nav-companies').count()).toBe(1);
    await p2.getByTestId('profile-menu-button').click();
    await p2.getByTestId('profile-menu-user').waitFor();
    expect(await p2.getByTestId('profile-menu-user').innerText()).toContain(INVITEE.email.toLowerCase());
    expect(await p2.getByTestId('profile-menu-organization').count()).toBe(0);
    await shot(p2, '08-user-profile-menu');

    // Logout ends the session on the server and lands on /login.
    await p2.getByTestId('profile-menu-logout').click();
    await p2.waitForURL('**/login');
    await p2.goto(`${server.url}/companies`);
    await p2.waitForURL('**/login');
    await p2.getByTestId('login-email').waitFor();
    expect(consoleErrors).toEqual([]);
    const sessions = await server.query<{ n: string }>(
      `select count(*) as n from session s join app_user u on u.id = s.user_id where u.email = $1 and s.revoked_at is null`,
      [INVITEE.email.toLowerCase()],
    );
    expect(Number(sessions[0].n)).toBe(0);
    await shot(p2, '09-after-logout');

    // The admin sees the new member in the users table.
    await page.reload();
    await page.locator(`[data-testid="org-user-row"][data-email="${INVITEE.email.toLowerCase()}"]`).waitFor();
    await shot(page, '10-org-with-member');
    // Change role opens with the member's current role selected; every action of the row is visible.
    const memberRow = page.locator(`[data-testid="org-user-row"][data-email="${INVITEE.email.toLowerCase()}"]`);
    await memberRow.getByTestId('user-change-role').click();
    await page.getByTestId('change-role-dialog').waitFor();
    expect(await page.getByTestId('change-role-select').inputValue()).toBe('User');
    await shot(page, '11-change-role');
    await page.keyboard.press('Escape');

    await inviteeCtx.close();
    await adminCtx.close();
  });
});
