// The admin's loop in one journey, as a new user walks it: a list from a CSV upload, an enrichment of
// every idea, a score model run on them, two shortlisted and the list completed, the mailbox
// connected, a play run on the new companies, and one of its drafts sent from its panel's Send Now.
// Every screen on the way is checked with axe-core (WCAG 2.1 A/AA) and photographed
// (tests/artifacts/e2e-admin-loop-*.png). Real server (API + worker), PostgreSQL, Chromium, the
// loopback fakes of the model and of Office 365.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { dialogClosed } from '../support/dialogs';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signedInPage, pageApi as api } from '../support/session';
import { axeFindings } from '../support/axe';
import { FakeOpenAiServer } from '../../server/test/fakes/openai-server';
import { FakeGraphServer } from '../../server/test/fakes/graph-server';
import { ALL_WEEK_HOURS } from '../../server/test/mailbox';

const ADMIN = { email: 'lea@keystone.example', password: 'Keystone1234' };
const IDEAS = [
  ['Atlas Robotics', 'atlasrobotics.example.com'],
  ['Boreal Robotics', 'borealrobotics.example.com'],
  ['Cobalt Foods', 'cobaltfoods.example.com'],
];

describe("the admin's loop in Chromium: CSV → enrich → score → complete → play → send", () => {
  let server: RunningServer;
  let browser: Browser;
  let llm: FakeOpenAiServer;
  let graph: FakeGraphServer;
  const found: string[] = [];
  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: path.join(ARTIFACTS, `e2e-admin-loop-${name}.png`) });
    for (const f of await axeFindings(page)) found.push(`${name}: ${f.impact} ${f.id} (${f.help}) at ${f.nodes.join(', ')}`);
  };

  beforeAll(async () => {
    llm = await FakeOpenAiServer.start({ apiKeys: ['sk-e2e'], models: ['gpt-e2e'] });
    llm.when((r) => r.body.response_format?.json_schema?.name === 'email', {
      json: {
        subject: 'Automation at your plant',
        body: 'Dear Owner,\n\nWe invest in robotics makers and would like to talk.\n\nBest regards',
      },
    });
    llm.otherwise({ json: { answer: 'Industrial robot arms' } });
    graph = await FakeGraphServer.start();
    graph.addUser({ mail: ADMIN.email, displayName: 'Lea Admin', timeZone: 'UTC', workingHours: ALL_WEEK_HOURS });
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Keystone Capital',
      OPENAI_API_KEY: 'sk-e2e',
      OPENAI_BASE_URL: llm.url,
      OPENAI_MODELS: 'gpt-e2e',
      O365_CLIENT_ID: graph.clientId,
      O365_CLIENT_SECRET: graph.clientSecret,
      O365_AUTHORITY_URL: graph.url,
      GRAPH_BASE_URL: `${graph.url}/v1.0`,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await llm?.close();
    await graph?.close();
  });

  it('walks the loop end to end with no serious or critical axe finding on the way', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedInPage(ctx, server.url, ADMIN);

    // A list from a CSV.
    await page.getByTestId('nav-lists').click();
    await page.getByTestId('lists-table').waitFor();
    await page.getByTestId('lists-new').click();
    await page.getByTestId('list-name-input').fill('Robotics makers');
    await page.getByTestId('list-name-save').click();
    await page.getByTestId('list-page').waitFor();
    const csv = ['Company,Website', ...IDEAS.map(([n, w]) => `${n},${w}`)].join('\n');
    await page.getByTestId('list-upload-csv').click();
    await page.getByTestId('upload-csv-file').setInputFiles({ name: 'robotics.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByTestId('upload-csv-name').textContent()).toContain('Company');
    await page.getByTestId('upload-csv-submit').click();
    await expect.poll(() => page.getByTestId('upload-csv-result').textContent(), { timeout: 20_000 }).toContain('3 ideas added');
    await shot(page, '01-upload');
    await page.getByTestId('upload-csv-dialog').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('record-table-row').count()).toBe(3);

    // Enrich every idea: a new enrichment from the bulk bar, its column fills live.
    await page.getByTestId('record-table-select-page').click();
    await page.getByTestId('bulk-enrich').click();
    await page.getByTestId('enrich-ideas-dialog').waitFor();
    await page.getByTestId('enrich-ideas-new').click();
    await page.getByTestId('enrich-ideas-name').fill('What they make');
    await page.getByTestId('enrich-ideas-prompt').fill('What does the company make?');
    await shot(page, '02-enrich-dialog');
    await page.getByTestId('enrich-ideas-run').click();
    await dialogClosed(page, 'enrich-ideas-dialog');
    const cells = page.getByTestId('idea-enrichment-cell');
    await expect.poll(() => cells.allTextContents(), { timeout: 30_000 }).toEqual(Array(3).fill('Industrial robot arms'));
    await shot(page, '03-enriched');

    // Score: Name contains 'robotics' → 10; saved and run for the first rows.
    await page.getByTestId('score-menu').click();
    await page.getByTestId('score-new').click();
    const editor = page.getByTestId('score-model-editor');
    await editor.waitFor();
    await page.getByRole('combobox', { name: '+ Add field' }).click();
    await page.getByRole('combobox', { name: '+ Add field' }).fill('Name');
    await page.getByRole('option', { name: /^Name/ }).click();
    const card = page.getByTestId('score-field-card').first();
    await card.getByLabel('Operator').selectOption('contain');
    await card.getByLabel('Value', { exact: true }).fill('robotics');
    await card.getByLabel('Score', { exact: true }).selectOption('10');
    await shot(page, '04-score-editor');
    await page.getByTestId('score-model-save').click();
    await page.getByRole('menuitem', { name: 'Save and run for first 10 row' }).click();
    await editor.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('[data-testid^="score-cell-"]').count(), { timeout: 30_000 }).toBe(3);
    const scoreOf = (name: string) =>
      page.getByTestId('record-table-row').filter({ hasText: name }).locator('[data-testid^="score-cell-"]').textContent();
    expect(await scoreOf('Atlas Robotics')).toBe('10.00');
    expect(await scoreOf('Cobalt Foods')).toBe('0.00');
    await shot(page, '05-scored');

    // Shortlist the two that scored, complete the list: they become companies.
    for (const name of ['Atlas Robotics', 'Boreal Robotics'])
      await page.getByTestId('record-table-row').filter({ hasText: name }).locator('[data-testid^="idea-shortlist-"]').click();
    await expect.poll(() => page.getByTestId('list-totals').textContent()).toContain('2 shortlisted');
    await page.getByTestId('list-complete').click();
    await expect.poll(() => page.getByTestId('complete-total').textContent()).toBe('2');
    await shot(page, '06-complete');
    await page.getByTestId('complete-dialog').getByRole('button', { name: 'Complete' }).click();
    await expect
      .poll(async () => (await page.getByTestId('idea-status').allTextContents()).filter((s) => s === 'In Dealscout').length)
      .toBe(2);

    // Their owners as key contacts (the contact dialog has its own journey).
    const companies = await server.query<{ id: string; name: string }>(`select id, name from company order by name`);
    expect(companies.map((c) => c.name)).toEqual(['Atlas Robotics', 'Boreal Robotics']);
    for (const c of companies) {
      const first = c.name.split(' ')[0];
      const contact = await api(page, 'POST', '/api/v1/entity/contact', {
        contact: { firstName: first, lastName: 'Owner', email: `owner@${first.toLowerCase()}robotics.example.com` },
      });
      expect(contact.status, JSON.stringify(contact.json)).toBe(201);
      expect(
        (await api(page, 'POST', '/api/v1/company/create-mapping', { companyId: c.id, contactId: contact.json.contact.id })).status,
      ).toBe(201);
    }

    // The mailbox: Profile's Email service card, Microsoft's consent page (the fake's; not ours, not checked).
    await page.getByTestId('nav-profile').click();
    const mailCard = page.getByTestId('email-service-card');
    await mailCard.getByTestId('email-service-connect').click();
    await page.waitForURL(/\/oauth2\/v2\.0\/authorize/);
    await page.getByRole('button', { name: 'Accept' }).click();
    await mailCard.getByTestId('email-service-connected').waitFor({ timeout: 30_000 });
    await shot(page, '07-mailbox-connected');

    // A provided play on the two new companies; its drafts arrive in panels.
    await page.getByTestId('nav-companies').click();
    await page.getByTestId('companies-page').waitFor();
    await expect.poll(() => page.getByTestId('record-table-row').count()).toBe(2);
    await page.getByTestId('record-table-select-page').click();
    await page.getByTestId('run-play-button').click();
    await page.getByTestId('run-play-search').fill('first note');
    await expect.poll(() => page.getByTestId('run-play-option').count()).toBe(1);
    await page.getByTestId('run-play-option').click();
    await page.getByTestId('run-play-estimate').waitFor();
    await shot(page, '08-run-play');
    await page.getByTestId('run-play-run').click();
    await page.getByTestId('run-play').waitFor({ state: 'hidden' });
    await expect.poll(() => page.locator('[data-testid="draft-panel"][data-status="draft"]').count(), { timeout: 60_000 }).toBe(2);
    await shot(page, '09-drafts');

    // One draft sent from its panel.
    await page.getByTestId('draft-panel').filter({ hasText: 'Atlas Owner' }).getByTestId('draft-panel-header').click();
    const panel = page.locator('[data-testid="draft-panel"][data-expanded="true"]');
    await expect.poll(() => panel.getByTestId('draft-subject').inputValue()).toBe('Automation at your plant');
    await expect.poll(() => panel.getByTestId('draft-send-now').isDisabled()).toBe(false);
    await shot(page, '10-draft-open');
    await panel.getByTestId('draft-send-now').click();
    await page.getByTestId('toast-success').filter({ hasText: 'Email sent successfully.' }).first().waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('draft-panel').count()).toBe(1);
    const sent = graph.sent(ADMIN.email);
    expect(sent.map((m) => m.toRecipients.map((r) => r.emailAddress.address))).toEqual([['owner@atlasrobotics.example.com']]);
    expect(sent[0].body.content).toContain('We invest in robotics makers');
    await shot(page, '11-sent');
    await ctx.close();
    expect(found, 'axe-core (WCAG 2.1 A/AA) serious or critical findings').toEqual([]);
  }, 300_000);
});
