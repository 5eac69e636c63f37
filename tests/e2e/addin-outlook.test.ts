// The Outlook add-in journey: the built task pane, served by the real server at /addin/, in
// headless Chromium with a scripted Office.js double (tests/support/fake-office.js) served in place
// of office.js. Sign-in with a bearer token; read mode shows the sender's contact drawer in plugin
// mode; a pinned pane follows the selection to an unknown sender, who becomes a contact and company
// in one step; a contact created elsewhere shows up live; compose mode shows the recipients'
// contacts; sign-out revokes the token. Screenshots at 450 px and 320 px.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

const ADMIN = { email: 'morgan@northbridge.example', password: 'North1234' };
const FAKE_OFFICE = fs.readFileSync(path.resolve('tests/support/fake-office.js'), 'utf8');

const JANE = { displayName: 'Jane Doe', email: 'jane.doe@acme-e2e.example' };
const BOB = { displayName: 'Bob Stone', email: 'bob@globex-e2e.example' };
const NINA = { displayName: 'Nina Park', email: 'nina.park@northwind-e2e.co.uk' };
const ME = { displayName: 'Morgan', email: ADMIN.email };

describe('Outlook add-in in Chromium with a scripted Office.js', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-addin-${name}.png`) });

  async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await fetch(`${server.url}${url}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  beforeAll(async () => {
    if (!fs.existsSync(path.resolve('addin-outlook/dist/index.html'))) throw new Error('Build the add-in first: npm run build -w addin-outlook');
    server = await startServer({ DEALSCOUT_ADMIN_EMAIL: ADMIN.email, DEALSCOUT_ADMIN_PASSWORD: ADMIN.password, DEALSCOUT_ORG_NAME: 'Northbridge Partners' });
    browser = await launchBrowser();
    const res = await fetch(`${server.url}/api/v1/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...ADMIN, label: 'e2e seed' }) });
    token = ((await res.json()) as { token: string }).token;
    await api('POST', '/api/v1/entity/company', { company: { name: 'Acme Industrial', website: 'https://acme-e2e.example' }, contact: { firstName: 'Jane', lastName: 'Doe', email: JANE.email } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openPane(width: number, item: unknown): Promise<Page> {
    const ctx = await browser.newContext({ viewport: { width, height: 820 } });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    (page as Page & { errors?: string[] }).errors = errors;
    await page.addInitScript((init) => { (window as unknown as { __fakeOutlookInit: unknown }).__fakeOutlookInit = init; }, { userEmail: ME.email, item });
    await page.route('**/addin/office-js/office.js', (route) => route.fulfill({ contentType: 'text/javascript', body: FAKE_OFFICE }));
    await page.goto(`${server.url}/addin/`);
    return page;
  }

  async function signIn(page: Page) {
    await page.getByTestId('addin-sign-in').waitFor();
    expect(await page.getByTestId('sign-in-server').inputValue()).toBe(server.url);
    await page.getByTestId('sign-in-email').fill(ADMIN.email);
    await page.getByTestId('sign-in-password').fill(ADMIN.password);
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('addin-pane').waitFor();
  }

  it('read mode, a pinned pane, the one-step create, live updates, compose mode and sign-out', async () => {
    const page = await openPane(450, { mode: 'read', subject: 'Q3 numbers for Acme', from: JANE, to: [ME, BOB] });

    // Sign-in: a wrong password says so and stays on the form.
    await page.getByTestId('addin-sign-in').waitFor();
    await shot(page, '01-sign-in-450');
    await page.getByTestId('sign-in-email').fill(ADMIN.email);
    await page.getByTestId('sign-in-password').fill('Wrong12345');
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('sign-in-error').waitFor();
    await page.getByTestId('sign-in-password').fill('');
    await signIn(page);
    const [session] = await server.query<{ kind: string; label: string | null }>(`select kind, label from session where label = 'Outlook add-in'`);
    expect(session).toMatchObject({ label: 'Outlook add-in' });

    // Read mode: the sender first (a contact: her drawer in plugin mode, no close button), then Bob (unknown); not the rep.
    expect(await page.getByTestId('addin-pane').getAttribute('data-mode')).toBe('read');
    expect(await page.getByTestId('pane-mode').innerText()).toBe('Q3 numbers for Acme');
    const drawer = page.locator('[data-testid="record-drawer"][data-entity-type="contact"]');
    await drawer.waitFor();
    await expect.poll(() => page.getByTestId('drawer-title').innerText(), { timeout: 15_000 }).toBe('Jane Doe');
    expect(await page.getByTestId('drawer-subtitle').innerText()).toBe(JANE.email);
    expect(await page.getByTestId('drawer-close').count()).toBe(0);
    expect(await page.getByTestId('drawer-collapse').count()).toBe(0);
    const people = page.getByTestId('pane-person');
    expect(await people.evaluateAll((els) => els.map((e) => [e.getAttribute('data-email'), e.getAttribute('data-known')]))).toEqual([[JANE.email, 'true'], [BOB.email, 'false']]);
    await page.getByTestId('drawer-tab-details').click();
    await page.getByTestId('drawer-details').waitFor();
    await page.getByText('Acme Industrial').first().waitFor();
    await expect.poll(() => page.locator('[data-testid="realtime-status"]').getAttribute('data-status'), { timeout: 15_000 }).toBe('open');
    await shot(page, '02-read-drawer-450');

    // Log Activity from the Activities tab: the mini drawer takes the pane's full width.
    await page.getByTestId('drawer-tab-activities').click();
    await page.getByTestId('activities-log').click();
    const mini = page.getByTestId('mini-drawer');
    await mini.waitFor();
    const box = await mini.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(449);
    await shot(page, '03-log-activity-450');
    await page.getByTestId('mini-drawer-close').click();
    await page.getByTestId('pane-run-play').click();
    await page.locator('[data-testid="mini-drawer"][data-tab="Run Play"]').waitFor();
    await page.getByTestId('mini-drawer-close').click();

    // Bob is unknown: a colleague adds him from their own pane, and this pane sees it live.
    await api('POST', '/api/v1/contact/from-email', { contact: { firstName: 'Bob', lastName: 'Stone', email: BOB.email } });
    await page.locator(`[data-testid="pane-person"][data-email="${BOB.email}"][data-known="true"]`).waitFor();

    // A pinned pane follows the selection: an unknown sender gets the one-step create, prefilled.
    await page.evaluate((nina) => (window as unknown as { __fakeOutlook: { select(s: unknown): void } }).__fakeOutlook.select({ mode: 'read', subject: 'Intro', from: nina, to: [{ email: 'morgan@northbridge.example' }] }), NINA);
    const card = page.getByTestId('new-contact-from-email');
    await card.waitFor();
    expect(await page.getByTestId('pane-mode').innerText()).toBe('Intro');
    expect(await page.getByTestId('new-contact-first-name').inputValue()).toBe('Nina');
    expect(await page.getByTestId('new-contact-last-name').inputValue()).toBe('Park');
    expect(await page.getByTestId('new-contact-company').inputValue()).toBe('Northwind E2e');
    await page.getByTestId('new-contact-company').fill('Northwind Traders');
    await shot(page, '04-unknown-sender-450');
    await page.getByTestId('new-contact-create').click();
    await page.getByTestId('toast-success').filter({ hasText: 'Contact and company Northwind Traders created' }).waitFor();
    await expect.poll(() => page.getByTestId('drawer-title').innerText(), { timeout: 15_000 }).toBe('Nina Park');
    const rows = await server.query<{ name: string; domain: string; is_key: boolean; is_primary: boolean }>(
      `select co.name, co.domain, m.is_key, m.is_primary from contact c join company_contact m on m.contact_id = c.id join company co on co.id = m.company_id where c.email = $1`, [NINA.email]);
    expect(rows).toEqual([{ name: 'Northwind Traders', domain: 'northwind-e2e.co.uk', is_key: true, is_primary: true }]);
    await page.locator(`[data-testid="pane-person"][data-email="${NINA.email}"][data-known="true"]`).waitFor();
    await shot(page, '05-created-450');

    // Compose mode: the recipients' contacts; drafting with a play is marked Coming soon.
    await page.evaluate((jane) => (window as unknown as { __fakeOutlook: { select(s: unknown): void } }).__fakeOutlook.select({ mode: 'compose', subject: 'Following up', to: [jane] }), JANE);
    await expect.poll(() => page.getByTestId('addin-pane').getAttribute('data-mode'), { timeout: 15_000 }).toBe('compose');
    expect(await page.getByTestId('pane-mode').innerText()).toBe('Writing: Following up');
    await page.getByTestId('compose-draft-soon').waitFor();
    expect(await page.getByTestId('compose-draft-soon').innerText()).toContain('Coming soon');
    await expect.poll(() => page.getByTestId('drawer-title').innerText(), { timeout: 15_000 }).toBe('Jane Doe');
    await shot(page, '06-compose-450');

    // Sign-out revokes the token on the server and returns to the form.
    await page.getByTestId('pane-user-menu').click();
    await page.getByTestId('pane-sign-out').click();
    await page.getByTestId('addin-sign-in').waitFor();
    const [revoked] = await server.query<{ n: number }>(`select count(*)::int as n from session where label = 'Outlook add-in' and revoked_at is not null`);
    expect(revoked.n).toBe(1);
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
    await page.context().close();
  });

  it('fits a 320 px pane, and keeps the session across a reload', async () => {
    const page = await openPane(320, { mode: 'read', subject: 'A long subject line that will not fit in a narrow pane', from: JANE, to: [ME] });
    await signIn(page);
    await expect.poll(() => page.getByTestId('drawer-title').innerText(), { timeout: 15_000 }).toBe('Jane Doe');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await shot(page, '07-read-drawer-320');
    await page.reload();
    await page.getByTestId('addin-pane').waitFor();
    await expect.poll(() => page.getByTestId('drawer-title').innerText(), { timeout: 15_000 }).toBe('Jane Doe');
    await page.context().close();
  });

  it('loads the real office.js from the package outside Outlook without errors', async () => {
    const ctx = await browser.newContext({ viewport: { width: 450, height: 700 } });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const office = page.waitForResponse((r) => r.url().endsWith('/addin/office-js/office.js'));
    await page.goto(`${server.url}/addin/`);
    expect((await office).status()).toBe(200);
    await page.getByTestId('addin-sign-in').waitFor();
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
