// Plays journey: the playbook table with the provided plays, a new Ai play with a field box in the
// instructions, previewed against a contact (the fake OpenAI-compatible server as the model),
// published; then run over three companies with key contacts: the toast, three draft panels that
// fill live, one edited (auto-save survives a reload), one discarded. Then a draft opened from a
// fourth company's Activities tab ('Draft Email to {name}'), generated with the play, edited and
// auto-saved. Real server (API + worker), PostgreSQL and Chromium.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { FakeOpenAiServer, allText } from '../../server/test/fakes/openai-server';
import { signIn } from '../support/session';
import { axeFindings } from '../support/axe';

const ADMIN = { email: 'pia@northgate.example', password: 'North12345' };

describe('plays journey in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let fake: FakeOpenAiServer;
  // Every screen of the admin's play step is checked with axe-core as it is photographed (the editor
  // with its field-box menu, the Run Play popover, the draft panels, the discard dialog, the drawer):
  // serious or critical findings are gathered and fail the journey at its end, all of them named.
  const found: string[] = [];
  const axe = async (page: Page, where: string) => {
    for (const f of await axeFindings(page)) found.push(`${where}: ${f.impact} ${f.id} (${f.help}) at ${f.nodes.join(', ')}`);
  };
  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: path.join(ARTIFACTS, `e2e-plays-${name}.png`) });
    await axe(page, name);
  };

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-e2e'], models: ['gpt-e2e'] });
    for (const n of ['Ada', 'Ben', 'Cy', 'Dee']) {
      fake.when((r) => r.body.response_format?.json_schema?.name === 'email' && allText(r).includes(`${n} Owner`), {
        json: { subject: `A note for ${n}`, body: `Dear ${n},\n\nWe follow ${n} Works closely and would like to talk.\n\nBest regards` },
        latencyMs: 300,
      });
    }
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Northgate Partners',
      OPENAI_API_KEY: 'sk-e2e',
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODELS: 'gpt-e2e',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  it('creates an Ai play with a field box, previews it against a contact, publishes it and runs it on three companies', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signIn(page, server.url, ADMIN);

    // Three companies, each with a key contact (the first link), through the API.
    await page.evaluate(async () => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))!
          .slice(8),
      );
      const h = { 'content-type': 'application/json', 'x-csrf-token': csrf };
      const post = async (url: string, body: unknown) => {
        const res = await fetch(url, { method: 'POST', headers: h, body: JSON.stringify(body) });
        if (!res.ok) throw new Error(`${url} ${res.status} ${await res.text()}`);
        return res.json();
      };
      const ids: string[] = [];
      for (const n of ['Ada', 'Ben', 'Cy', 'Dee']) {
        const co = (
          await post('/api/v1/entity/company', { company: { name: `${n} Works`, website: `https://${n.toLowerCase()}works.example` } })
        ).company.id;
        const ct = (
          await post('/api/v1/entity/contact', {
            contact: { firstName: n, lastName: 'Owner', email: `${n.toLowerCase()}@${n.toLowerCase()}works.example` },
          })
        ).contact.id;
        await post('/api/v1/company/create-mapping', { companyId: co, contactId: ct });
        ids.push(co);
      }
      return ids;
    });

    // The playbook: the four plays provided by the product, Modify and Remove disabled. Its first load
    // asks for the table's first page and the Created By users with the user's own request, before
    // that answer is in, and once each: the page renders from what was asked.
    const seen: string[] = [];
    const onRequest = (r: { url(): string }) => seen.push(`ask ${new URL(r.url()).pathname}`);
    const onResponse = (r: { url(): string }) => seen.push(`got ${new URL(r.url()).pathname}`);
    page.on('request', onRequest);
    page.on('response', onResponse);
    await page.goto(`${server.url}/playbooks`);
    await page.getByTestId('playbooks-page').waitFor();
    await expect.poll(() => page.getByTestId('play-row').count()).toBe(4);
    page.off('request', onRequest);
    page.off('response', onResponse);
    const userAnswered = seen.indexOf('got /api/v1/user');
    expect(userAnswered).toBeGreaterThan(0);
    for (const path of ['/api/v1/play/playbook', '/api/v1/play/playbook-users']) {
      expect(seen.filter((e) => e === `ask ${path}`)).toHaveLength(1);
      expect(seen.indexOf(`ask ${path}`)).toBeLessThan(userAnswered);
    }
    expect(await page.getByTestId('play-modify').first().isDisabled()).toBe(true);
    expect(await page.getByTestId('play-remove').first().isDisabled()).toBe(true);
    const height = await page
      .locator('[data-testid="play-table"]')
      .evaluate((t) => (t.parentElement as HTMLElement).getBoundingClientRect().height);
    expect(height).toBe(500);
    await shot(page, '01-playbook');

    // New play: name, instructions with a field box, then preview against Ada Owner.
    await page.getByTestId('playbooks-new-play').click();
    await page.getByTestId('play-editor').waitFor();
    await page.getByTestId('play-publish').click();
    expect(await page.getByTestId('play-problem').innerText()).toBe('Instructions are required');
    await page.getByTestId('play-name').fill('Founder outreach');
    await page.getByTestId('prompt-editor').click();
    await page.keyboard.type('Write a warm first note to the contact named /');
    await page.getByTestId('prompt-menu').waitFor();
    await page.keyboard.type('first');
    await axe(page, 'the field-box menu');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="prompt-editor"] [data-testid="field-box"]').waitFor();
    await page.keyboard.type(' about a partnership.');
    await page.getByTestId('play-preview').click();
    expect(await page.getByText('Please select a contact first').count()).toBeGreaterThan(0);
    await page.getByTestId('play-target').click();
    await page.getByTestId('play-target').fill('Ada');
    await page.getByRole('option', { name: /Ada Owner/ }).click();
    await page.getByTestId('play-preview').click();
    await page.getByTestId('play-preview-output').getByText('A note for Ada').waitFor();
    expect(await page.getByTestId('play-preview-output').innerText()).toContain('We follow Ada Works closely');
    await shot(page, '02-editor-preview');
    await page.getByTestId('play-publish').click();
    await page.getByTestId('playbooks-page').waitFor();
    await page.locator('[data-testid="play-row"]', { hasText: 'Founder outreach' }).waitFor();
    await shot(page, '03-published');

    // Run it from the companies table on the three companies (the Run Play popover), then wait for the drafts.
    await page.getByTestId('nav-companies').click();
    await page.getByTestId('companies-page').waitFor();
    const rowOf = (name: string) => page.locator('[data-testid="record-table-row"]').filter({ hasText: name });
    for (const n of ['Ada', 'Ben', 'Cy']) await rowOf(`${n} Works`).getByTestId('record-table-select-row').check();
    await page.getByTestId('run-play-button').click();
    await page.getByTestId('run-play-search').fill('founder out');
    await expect.poll(() => page.getByTestId('run-play-option').count()).toBe(1);
    await page.getByTestId('run-play-option').click();
    await page.getByTestId('run-play-estimate').waitFor();
    expect(await page.getByTestId('run-play-estimate').innerText()).toContain('3 companies: 3 model call(s)');
    await shot(page, '04-run-play');
    await page.getByTestId('run-play-run').click();
    await page.getByTestId('run-play').waitFor({ state: 'hidden' });
    // The success toast shows (it used to be swallowed).
    await page.getByTestId('toast-success').filter({ hasText: 'Play execution started.' }).waitFor({ timeout: 3000 });
    await shot(page, '04b-run-started');

    // Three draft panels arrive live (minimised tabs), each verified into a draft.
    const panels = page.getByTestId('draft-panel');
    await expect.poll(() => panels.count(), { timeout: 60_000 }).toBe(3);
    await expect.poll(() => page.locator('[data-testid="draft-panel"][data-status="draft"]').count(), { timeout: 30_000 }).toBe(3);
    const drafts = await page.evaluate(async () => (await (await fetch('/api/v1/email/pending')).json()).emails);
    expect(drafts.map((d: { subject: string }) => d.subject).sort()).toEqual(['A note for Ada', 'A note for Ben', 'A note for Cy']);
    expect(drafts[0].provenance.renderedPrompt).toMatch(
      /^Write a warm first note to the contact named (Ada|Ben|Cy) +about a partnership\.$/,
    );
    await shot(page, '05-panels-arrived');

    // Expand Ada's: 600 × 610 at the bottom right, the generated subject and body, 'Why this email'.
    const panelOf = (name: string) => page.locator('[data-testid="draft-panel"]').filter({ hasText: `${name} Owner` });
    await panelOf('Ada').getByTestId('draft-panel-header').click();
    const ada = page.locator('[data-testid="draft-panel"][data-expanded="true"]');
    await ada.getByTestId('draft-subject').waitFor();
    const box = (await ada.boundingBox())!;
    expect([Math.round(box.width), Math.round(box.height)]).toEqual([600, 610]);
    expect(await ada.getByTestId('draft-subject').inputValue()).toBe('A note for Ada');
    await ada.getByTestId('draft-body-input').getByText('We follow Ada Works closely').waitFor();
    expect(await ada.getByTestId('draft-generate').innerText()).toBe('Regenerate');
    await ada.getByTestId('draft-why-toggle').click();
    expect(await ada.getByTestId('draft-why-prompt').innerText()).toContain('Write a warm first note to the contact named Ada');
    expect(await ada.getByTestId('draft-why-values').innerText()).toContain('Ada');
    await shot(page, '06-why-this-email');
    await ada.getByTestId('draft-why-toggle').click();

    // Edit subject and body (with a font): saved 500 ms later, and still there after a reload.
    await ada.getByTestId('draft-subject').fill('A note for Ada, edited');
    await ada.getByTestId('draft-body-input').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await ada.getByTestId('draft-body-font').selectOption('Garamond');
    await page.keyboard.type('PS: see you at the fair.');
    await expect.poll(() => ada.getByTestId('draft-save-state').innerText(), { timeout: 5000 }).toBe('Saved');
    await shot(page, '07-edited');
    await page.reload();
    await page.getByTestId('app-shell').waitFor();
    await expect.poll(() => panels.count(), { timeout: 15_000 }).toBe(3);
    await panelOf('Ada').getByTestId('draft-panel-header').click();
    const ada2 = page.locator('[data-testid="draft-panel"][data-expanded="true"]');
    expect(await ada2.getByTestId('draft-subject').inputValue()).toBe('A note for Ada, edited');
    await ada2.getByTestId('draft-body-input').getByText('PS: see you at the fair.').waitFor();
    expect(await ada2.getByTestId('draft-body-input').innerHTML()).toContain('font-family: Garamond');
    await ada2.getByTestId('draft-panel-toggle').click();

    // Discard Ben's: after confirming, its panel goes and the draft is cancelled.
    await panelOf('Ben').getByTestId('draft-panel-header').click();
    await page.locator('[data-testid="draft-panel"][data-expanded="true"]').getByTestId('draft-discard').click();
    await page.getByTestId('draft-discard-dialog').waitFor();
    await shot(page, '07b-discard-dialog');
    await page.getByTestId('draft-discard-dialog').getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => panels.count()).toBe(2);
    const statuses = await server.query(
      `select c.first_name, e.status from channel_email e join contact c on c.id = e.contact_id order by c.first_name`,
    );
    expect(statuses).toEqual([
      { first_name: 'Ada', status: 'draft' },
      { first_name: 'Ben', status: 'cancelled' },
      { first_name: 'Cy', status: 'draft' },
    ]);

    // Dee Works has no activity: 'Draft Email to Dee Owner' opens an empty panel; Generate with the play fills it.
    await page.getByTestId('nav-companies').click();
    await page.getByTestId('companies-page').waitFor();
    await rowOf('Dee Works').click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
    await page.getByTestId('drawer-tab-activities').click();
    await page.getByTestId('activities-empty').waitFor();
    expect(await page.getByTestId('activities-draft-email').innerText()).toBe('Draft Email to Dee Owner');
    await page.getByTestId('activities-draft-email').click();
    const dee = page.locator('[data-testid="draft-panel"][data-expanded="true"]');
    await dee.filter({ hasText: 'Dee Owner' }).waitFor();
    // Shifted left of the open drawer (400 px) with the 10 px gap.
    const deeBox = (await dee.boundingBox())!;
    expect(Math.round(1440 - (deeBox.x + deeBox.width))).toBe(410);
    expect(await dee.getByTestId('draft-to').inputValue()).toBe('dee@deeworks.example');
    expect(await dee.getByTestId('draft-generate').innerText()).toBe('Generate');
    expect(await dee.getByTestId('draft-generate').isDisabled()).toBe(true);
    await dee.getByTestId('draft-play').selectOption({ label: 'Founder outreach' });
    await dee.getByTestId('draft-generate').click();
    await expect.poll(() => dee.getByTestId('draft-subject').inputValue(), { timeout: 30_000 }).toBe('A note for Dee');
    await expect.poll(() => dee.getAttribute('data-status'), { timeout: 30_000 }).toBe('draft');
    await dee.getByTestId('draft-body-input').getByText('We follow Dee Works closely').waitFor();
    // The drawer's Activities tab lists the open draft; a click brings its panel up.
    await page.getByTestId('activity-draft').filter({ hasText: 'A note for Dee' }).waitFor();
    await dee.getByTestId('draft-body-input').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Looking forward.');
    await expect.poll(() => dee.getByTestId('draft-save-state').innerText(), { timeout: 5000 }).toBe('Saved');
    await shot(page, '08-generated-from-activities');
    const [row] = await server.query(
      `select e.body, e.status from channel_email e join contact c on c.id = e.contact_id where c.first_name = 'Dee'`,
    );
    expect(row.status).toBe('draft');
    expect(row.body).toContain('Looking forward.');

    await page.goto(`${server.url}/playbooks`);
    await page.locator('[data-testid="play-row"]', { hasText: 'Founder outreach' }).waitFor();
    await shot(page, '09-use-count');
    await ctx.close();
    expect(found, 'axe-core (WCAG 2.1 A/AA) serious or critical findings').toEqual([]);
  }, 240_000);
});
