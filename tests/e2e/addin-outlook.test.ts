// The Outlook add-in journey: the built task pane, served by the real server at /addin/, in
// headless Chromium with a scripted Office.js double (tests/support/fake-office.js) served in place
// of office.js. Sign-in with a bearer token; read mode shows the sender's contact drawer in plugin
// mode; a pinned pane follows the selection to an unknown sender, who becomes a contact and company
// in one step; a contact created elsewhere shows up live; compose mode shows the recipients'
// contacts; sign-out revokes the token. Read mode opens a generated reply as Outlook's reply form.
// Compose mode inserts a generated body: a play provided by
// the product, the fake OpenAI-compatible server as the model, the subject and body written into
// the scripted compose item, the Dealscout draft closed and an activity logged. Screenshots at
// 450 px and 320 px.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { expectNoAxeFindings } from '../support/axe';
import { startServer, type RunningServer } from '../support/server';
import { FakeOpenAiServer, allText } from '../../server/test/fakes/openai-server';
import { FakeGraphServer } from '../../server/test/fakes/graph-server';

const ADMIN = { email: 'morgan@northbridge.example', password: 'North1234' };
const FAKE_OFFICE = fs.readFileSync(path.resolve('tests/support/fake-office.js'), 'utf8');

const JANE = { displayName: 'Jane Doe', email: 'jane.doe@acme-e2e.example' };
const BOB = { displayName: 'Bob Stone', email: 'bob@globex-e2e.example' };
const NINA = { displayName: 'Nina Park', email: 'nina.park@northwind-e2e.co.uk' };
const ME = { displayName: 'Morgan', email: ADMIN.email };

describe('Outlook add-in in Chromium with a scripted Office.js', () => {
  let server: RunningServer;
  let browser: Browser;
  let fake: FakeOpenAiServer;
  let graph: FakeGraphServer;
  let token: string;
  // Every screen the journey shows also passes axe-core (WCAG 2.1 A/AA: no serious or critical finding).
  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: path.join(ARTIFACTS, `e2e-addin-${name}.png`) });
    await expectNoAxeFindings(page, `the Outlook pane, ${name}`);
  };

  async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await fetch(`${server.url}${url}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  beforeAll(async () => {
    if (!fs.existsSync(path.resolve('addin-outlook/dist/index.html')))
      throw new Error('Build the add-in first: npm run build -w addin-outlook');
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-e2e'], models: ['gpt-e2e'] });
    fake.when((r) => r.body.response_format?.json_schema?.name === 'email' && allText(r).includes('Jane'), {
      json: { subject: 'A note for Jane', body: 'Dear Jane,\n\nWe follow Acme Industrial closely and would like to talk.\n\nBest regards' },
      latencyMs: 200,
    });
    graph = await FakeGraphServer.start();
    graph.addUser({
      mail: ADMIN.email,
      displayName: 'Morgan',
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
      DEALSCOUT_ORG_NAME: 'Northbridge Partners',
      OPENAI_API_KEY: 'sk-e2e',
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODELS: 'gpt-e2e',
      O365_CLIENT_ID: graph.clientId,
      O365_CLIENT_SECRET: graph.clientSecret,
      O365_AUTHORITY_URL: graph.url,
      GRAPH_BASE_URL: `${graph.url}/v1.0`,
    });
    browser = await launchBrowser();
    const res = await fetch(`${server.url}/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...ADMIN, label: 'e2e seed' }),
    });
    token = ((await res.json()) as { token: string }).token;
    await api('POST', '/api/v1/entity/company', {
      company: { name: 'Acme Industrial', website: 'https://acme-e2e.example' },
      contact: { firstName: 'Jane', lastName: 'Doe', email: JANE.email },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
    await graph?.close();
  });

  async function openPane(width: number, item: unknown): Promise<Page> {
    const ctx = await browser.newContext({ viewport: { width, height: 820 } });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    (page as Page & { errors?: string[] }).errors = errors;
    await page.addInitScript(
      (init) => {
        (window as unknown as { __fakeOutlookInit: unknown }).__fakeOutlookInit = init;
      },
      { userEmail: ME.email, item },
    );
    // For the pane and for the pages its dialogs open (connected.html loads office.js too).
    await ctx.route('**/addin/office-js/office.js', (route) => route.fulfill({ contentType: 'text/javascript', body: FAKE_OFFICE }));
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
    const [session] = await server.query<{ kind: string; label: string | null }>(
      `select kind, label from session where label = 'Outlook add-in'`,
    );
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
    expect(await people.evaluateAll((els) => els.map((e) => [e.getAttribute('data-email'), e.getAttribute('data-known')]))).toEqual([
      [JANE.email, 'true'],
      [BOB.email, 'false'],
    ]);
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
    await page.evaluate(
      (nina) =>
        (window as unknown as { __fakeOutlook: { select(s: unknown): void } }).__fakeOutlook.select({
          mode: 'read',
          subject: 'Intro',
          from: nina,
          to: [{ email: 'morgan@northbridge.example' }],
        }),
      NINA,
    );
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
      `select co.name, co.domain, m.is_key, m.is_primary from contact c join company_contact m on m.contact_id = c.id join company co on
        co.id = m.company_id where c.email = $1`,
      [NINA.email],
    );
    expect(rows).toEqual([{ name: 'Northwind Traders', domain: 'northwind-e2e.co.uk', is_key: true, is_primary: true }]);
    await page.locator(`[data-testid="pane-person"][data-email="${NINA.email}"][data-known="true"]`).waitFor();
    await shot(page, '05-created-450');

    // Compose mode: the recipients' contacts, and drafting with a play (no 'Coming soon' left).
    await page.evaluate(
      (jane) =>
        (window as unknown as { __fakeOutlook: { select(s: unknown): void } }).__fakeOutlook.select({
          mode: 'compose',
          subject: 'Following up',
          to: [jane],
        }),
      JANE,
    );
    await expect.poll(() => page.getByTestId('addin-pane').getAttribute('data-mode'), { timeout: 15_000 }).toBe('compose');
    expect(await page.getByTestId('pane-mode').innerText()).toBe('Writing: Following up');
    await page.locator('[data-testid="compose-draft"][data-state="pick"]').waitFor();
    expect(await page.getByText('Coming soon').count()).toBe(0);
    await expect.poll(() => page.getByTestId('drawer-title').innerText(), { timeout: 15_000 }).toBe('Jane Doe');
    await shot(page, '06-compose-450');

    // Sign-out revokes the token on the server and returns to the form.
    await page.getByTestId('pane-user-menu').click();
    await page.getByTestId('pane-sign-out').click();
    await page.getByTestId('addin-sign-in').waitFor();
    const [revoked] = await server.query<{ n: number }>(
      `select count(*)::int as n from session where label = 'Outlook add-in' and revoked_at is not null`,
    );
    expect(revoked.n).toBe(1);
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
    await page.context().close();
  });

  type Compose = { subject: string; body: string };
  const composeState = (page: Page) =>
    page.evaluate(() => (window as unknown as { __fakeOutlook: { compose(): Compose } }).__fakeOutlook.compose());

  async function generateFor(page: Page, subject = 'A note for Jane') {
    await page.locator('[data-testid="compose-draft"][data-state="pick"]').waitFor({ timeout: 15_000 });
    await page.getByTestId('compose-play').selectOption({ label: 'First note to a founder or owner' });
    await page.getByTestId('compose-generate').click();
    const panel = page.locator('[data-testid="compose-draft"] [data-testid="draft-panel"]');
    await panel.waitFor();
    await expect.poll(() => panel.getByTestId('draft-subject').inputValue(), { timeout: 30_000 }).toBe(subject);
    await expect.poll(() => panel.getAttribute('data-status'), { timeout: 30_000 }).toBe('draft');
    await panel.getByTestId('draft-body-input').getByText('We follow Acme Industrial closely').waitFor();
    return panel;
  }

  it('compose mode inserts a generated body', async () => {
    const page = await openPane(450, { mode: 'compose', subject: '', body: '<p>— Morgan</p>', to: [JANE] });
    await signIn(page);
    expect(await page.getByTestId('addin-pane').getAttribute('data-mode')).toBe('compose');
    await expect.poll(() => page.getByTestId('drawer-title').innerText(), { timeout: 15_000 }).toBe('Jane Doe');
    await page.locator('[data-testid="compose-draft"][data-state="pick"]').waitFor({ timeout: 15_000 });
    await shot(page, '08-compose-pick-450');

    // Pick a play provided by the product; the model (the fake) writes Jane's email into the panel.
    const panel = await generateFor(page);
    // No mailbox connected: the spec's message, sending disabled, and the way to connect it.
    await panel.getByText('Office 365 integration not found.').waitFor();
    expect(await panel.getByTestId('draft-send-now').isDisabled()).toBe(true);
    expect(await panel.getByTestId('compose-connect').innerText()).toBe('Connect Office 365');
    await shot(page, '09-compose-draft-450');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);

    // Insert: the subject and the body go into the message being written (at the cursor).
    await panel.getByTestId('compose-insert').click();
    await page.locator('[data-testid="compose-done"][data-kind="inserted"]').waitFor({ timeout: 15_000 });
    const state = await composeState(page);
    expect(state.subject).toBe('A note for Jane');
    expect(state.body).toContain('— Morgan');
    expect(state.body).toContain('We follow Acme Industrial closely and would like to talk.');
    expect(state.body).toMatch(/<p>Dear Jane,<\/p>/);
    // Dealscout's copy is closed (it cannot leave a second time) and the contact has the activity.
    const emails = await server.query<{ status: string; subject: string; is_ai_email_generated: boolean }>(
      `select e.status, e.subject, e.is_ai_email_generated from channel_email e join contact c on c.id = e.contact_id where c.email = $1`,
      [JANE.email],
    );
    expect(emails).toEqual([{ status: 'cancelled', subject: 'A note for Jane', is_ai_email_generated: true }]);
    const activities = await server.query<{ type: string; title: string; source: string; content: string; company: string }>(
      `select a.type, a.title, a.source, a.content, co.name as company from activity a join contact c on c.id = a.contact_id join
        company co on co.id = a.company_id where c.email = $1`,
      [JANE.email],
    );
    expect(activities).toEqual([
      expect.objectContaining({ type: 'other', title: 'Email drafted in Outlook', source: 'manual', company: 'Acme Industrial' }),
    ]);
    expect(activities[0].content).toContain(
      'Written with the play "First note to a founder or owner" and inserted into an email being written in Outlook',
    );
    // The drawer's Activities tab shows it live.
    await page.getByTestId('drawer-tab-activities').click();
    await page
      .locator('[data-testid="activity-row"][data-type="other"]')
      .filter({ hasText: 'A note for Jane' })
      .waitFor({ timeout: 15_000 });
    await shot(page, '10-compose-inserted-450');
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
    await page.context().close();
  });

  it('compose mode at 320 px: a reply keeps its subject; Office 365 connected through the dialog; handed to Send Now', async () => {
    const page = await openPane(320, { mode: 'compose', subject: 'RE: Q3 numbers for Acme', to: [JANE] });
    await signIn(page);
    await page.locator('[data-testid="compose-draft"][data-state="pick"]').waitFor({ timeout: 15_000 });
    await shot(page, '11-compose-pick-320');
    const panel = await generateFor(page);
    await panel.getByText('Office 365 integration not found.').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await shot(page, '12-compose-draft-320');

    // Connect: Microsoft's consent page (the fake) in an Office dialog; the dialog's last page tells the pane.
    const popup = page.context().waitForEvent('page');
    await panel.getByTestId('compose-connect').click();
    const dialog = await popup;
    const dialogErrors: string[] = [];
    dialog.on('pageerror', (e) => dialogErrors.push(String(e)));
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await dialog.waitForURL(/\/addin\/connected\.html\?o365=connected/);
    await page.getByTestId('toast-success').filter({ hasText: 'Office 365 connected.' }).waitFor({ timeout: 15_000 });
    const opened = await page.evaluate(
      () => (window as unknown as { __fakeOutlook: { dialog: { url: string; options: unknown; closed: boolean } } }).__fakeOutlook.dialog,
    );
    expect(opened.url).toContain('/oauth2/v2.0/authorize');
    expect(opened).toMatchObject({ options: { width: 40, height: 70, displayInIframe: false }, closed: true });
    expect(dialogErrors).toEqual([]);
    await expect.poll(() => panel.getByTestId('compose-connect').count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => panel.getByTestId('draft-send-now').isDisabled(), { timeout: 15_000 }).toBe(false);

    // Handed to Dealscout's sending: sent from the rep's mailbox, an email activity, nothing put into Outlook.
    await panel.getByTestId('draft-send-now').click();
    await page.locator('[data-testid="compose-done"][data-kind="sent"]').waitFor({ timeout: 30_000 });
    await shot(page, '13-compose-sent-320');
    const [sent] = await server.query<{ status: string }>(
      `select e.status from channel_email e join contact c on c.id = e.contact_id where c.email = $1 order by e.created_at desc limit 1`,
      [JANE.email],
    );
    expect(sent.status).toBe('sent');
    await expect
      .poll(
        async () =>
          (
            await server.query(
              `select a.type from activity a join contact c on c.id = a.contact_id where c.email = $1 and a.type = 'email'`,
              [JANE.email],
            )
          ).length,
        { timeout: 15_000 },
      )
      .toBe(1);
    const state = await composeState(page);
    expect(state.subject).toBe('RE: Q3 numbers for Acme');
    expect(state.body).toBe('');
    await page.context().close();
  });

  it(
    "read mode: 'Reply with a play' keeps 'Re: <subject>', opens as Outlook's reply form, Send Now answers in the " +
      'thread through Graph, and another reply is scheduled',
    async () => {
      // The email being read is in the rep's mailbox (the Graph fake): a reply to it keeps its subject and thread.
      const incoming = graph.receive(ME.email, {
        from: JANE.email,
        subject: 'Re: Quick question about Acme',
        html: '<p>Can you send the numbers?</p>',
      });
      const page = await openPane(450, { mode: 'read', subject: incoming.subject, from: JANE, to: [ME], id: incoming.id });
      await signIn(page);
      await expect.poll(() => page.getByTestId('drawer-title').innerText(), { timeout: 15_000 }).toBe('Jane Doe');
      await page.getByTestId('pane-reply').click();
      // The play writes the body; the subject stays the reply's (not the play's 'A note for Jane', not doubled).
      const panel = await generateFor(page, 'Re: Quick question about Acme');
      await shot(page, '14-read-reply-subject-450');
      await panel.getByTestId('compose-reply').click();
      await page.locator('[data-testid="compose-done"][data-kind="replied"]').waitFor({ timeout: 15_000 });
      await shot(page, '14-read-reply-450');
      const form = await page.evaluate(
        () => (window as unknown as { __fakeOutlook: { replyForm?: { htmlBody?: string } } }).__fakeOutlook.replyForm,
      );
      expect(form?.htmlBody).toContain('We follow Acme Industrial closely and would like to talk.');
      const activities = await server.query<{ content: string }>(
        `select a.content from activity a join contact c on c.id = a.contact_id where c.email = $1 and a.type = 'other' order by a.created_at`,
        [JANE.email],
      );
      expect(activities.at(-1)?.content).toContain('and opened as a reply in Outlook');

      // Another reply, sent through Dealscout (the mailbox was connected above): Graph's createReply on
      // the message being read, with the reply's subject, in its conversation.
      await page.getByTestId('compose-another').click();
      const again = await generateFor(page, 'Re: Quick question about Acme');
      await expect.poll(() => again.getByTestId('draft-send-now').isDisabled(), { timeout: 15_000 }).toBe(false);
      await again.getByTestId('draft-send-now').click();
      await page.locator('[data-testid="compose-done"][data-kind="sent"]').waitFor({ timeout: 30_000 });
      await shot(page, '15-read-reply-sent-450');
      const threaded = graph.sent(ME.email).filter((m) => m.replyToId === incoming.id);
      expect(threaded).toHaveLength(1);
      expect(threaded[0]).toMatchObject({ subject: 'Re: Quick question about Acme', conversationId: incoming.conversationId });
      expect(threaded[0].body.content).toContain('We follow Acme Industrial closely');
      expect(graph.requests.some((q) => q.method === 'POST' && q.path.endsWith(`/${incoming.id}/createReply`))).toBe(true);

      // The rep's loop ends with a reply scheduled for tomorrow morning (the schedule field open: axe checks it too).
      await page.getByTestId('compose-another').click();
      const later = await generateFor(page, 'Re: Quick question about Acme');
      await expect.poll(() => later.getByTestId('draft-schedule').isDisabled(), { timeout: 15_000 }).toBe(false);
      await later.getByTestId('draft-schedule').click();
      const tomorrow = new Date(Date.now() + 24 * 3_600_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      await later.getByLabel('Send at').fill(`${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T10:00`);
      await shot(page, '16-read-reply-schedule-450');
      await later.getByTestId('draft-schedule-confirm').click();
      await page.locator('[data-testid="compose-done"][data-kind="scheduled"]').waitFor({ timeout: 30_000 });
      await shot(page, '17-read-reply-scheduled-450');
      const [queued] = await server.query<{ status: string }>(
        `select status from channel_email where subject = $1 and status = 'scheduled' order by created_at desc limit 1`,
        ['Re: Quick question about Acme'],
      );
      expect(queued?.status).toBe('scheduled');
      expect((page as Page & { errors?: string[] }).errors).toEqual([]);
      await page.context().close();
    },
  );

  it('fits a 320 px pane, and keeps the session across a reload', async () => {
    const page = await openPane(320, {
      mode: 'read',
      subject: 'A long subject line that will not fit in a narrow pane',
      from: JANE,
      to: [ME],
    });
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
