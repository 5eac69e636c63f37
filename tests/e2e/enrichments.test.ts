// Enrichments journey: create a field and an LLM Prompt enrichment whose prompt holds a field box
// (the '/' menu), the schema generated from the prompt, assigned as the field's primary; run it from
// the companies table on two selected rows, watch the cells go to 'Processing...' and then to the
// values without a reload; open the drawer and copy the value. Real server (API + worker),
// PostgreSQL, Chromium, and the fake OpenAI-compatible server as the language model.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signedInPage } from '../support/session';
import { FakeOpenAiServer, AnswerGate, allText } from '../../server/test/fakes/openai-server';

const ADMIN = { email: 'dana@eastgate.example', password: 'East12345' };

describe('enrichments journey in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let fake: FakeOpenAiServer;
  // The runs' answers wait until the test has seen their rows processing (then it opens the gate).
  const ceoAnswers = new AnswerGate();
  const foundedAnswers = new AnswerGate();
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-enrichments-${name}.png`) });

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-e2e'], models: ['gpt-e2e'] });
    // The editor's schema generation (generate-prompt) and the two runs, answered by content.
    fake.when((r) => r.body.response_format?.json_schema?.name === 'enrichment_prompt', {
      json: {
        enrichmentName: 'CEO Finder',
        keyName: 'ceo',
        keyDescription: "The full name of the company's chief executive.",
        keyDataType: 'string',
        keyOptions: [],
      },
    });
    const run = (r: Parameters<typeof allText>[0], ...words: string[]) =>
      r.body.response_format?.json_schema?.name !== 'enrichment_prompt' && words.every((w) => allText(r).includes(w));
    fake.when((r) => run(r, 'chief executive', 'Aurora Robotics'), ceoAnswers.reply({ json: { ceo: 'Jane Aurora' } }));
    fake.when((r) => run(r, 'chief executive', 'Borealis Labs'), ceoAnswers.reply({ json: { ceo: 'Ben Borealis' } }));
    fake.when((r) => run(r, 'founded', 'Aurora Robotics'), foundedAnswers.reply({ json: { answer: '2011' } }));
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Eastgate Capital',
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

  it('creates an LLM enrichment with a field box, runs it on selected companies and shows the results live', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await signedInPage(ctx, server.url, ADMIN);

    // Three companies and a 'CEO' field through the API (the calls the dialogs make).
    await page.evaluate(async () => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))!
          .slice(8),
      );
      const h = { 'content-type': 'application/json', 'x-csrf-token': csrf };
      for (const [name, website] of [
        ['Aurora Robotics', 'https://aurora.example'],
        ['Borealis Labs', 'https://borealis.example'],
        ['Cirrus Foods', 'https://cirrus.example'],
      ]) {
        const res = await fetch('/api/v1/entity/company', {
          method: 'POST',
          headers: h,
          body: JSON.stringify({ company: { name, website } }),
        });
        if (res.status !== 201) throw new Error(await res.text());
      }
      const f = await fetch('/api/v1/entity/field', {
        method: 'POST',
        headers: h,
        body: JSON.stringify({ label: 'CEO', dataType: 'string', entityType: 'company' }),
      });
      if (!f.ok) throw new Error(await f.text());
    });

    // New Enrichment → Company → LLM Prompt.
    await page.getByTestId('nav-enrichments').click();
    await page.getByTestId('enrichments-page').waitFor();
    await page.getByTestId('enrichment-table-empty').waitFor();
    await page.getByTestId('enrichment-new').click();
    await page.getByTestId('enrichment-type-selector').waitFor();
    await page.getByTestId('enrichment-tab-company').click();
    await shot(page, '01-type-selector');
    await page.locator('[data-testid="enrichment-type-option"][data-type="llm"]').click();
    const editor = page.getByTestId('enrichment-editor');
    await editor.waitFor();
    await expect.poll(() => page.getByTestId('enrichment-name').inputValue()).toBe('LLM Prompt 1');
    expect(await page.getByTestId('schema-placeholder').innerText()).toBe(
      'Your schema will automatically appear here after you type your prompt.',
    );
    expect(await page.getByTestId('enrichment-save').isDisabled()).toBe(true);

    // The objective, with a field box from the '/' menu.
    await page.getByTestId('prompt-editor').click();
    await page.keyboard.type('Who is the chief executive of /');
    await page.getByTestId('prompt-menu').waitFor();
    await page.keyboard.type('nam');
    await shot(page, '02-slash-menu');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="prompt-editor"] [data-testid="field-box"]').waitFor();
    expect(await page.locator('[data-testid="prompt-editor"] [data-testid="field-box"]').innerText()).toBe('Name');
    await page.keyboard.type('? Answer with the full name.');

    // The schema arrives from generate-prompt after the pause; the name follows it.
    await page.locator('[data-testid="schema-item"][data-name="ceo"]').waitFor();
    await expect.poll(() => page.getByTestId('enrichment-name').inputValue()).toBe('CEO Finder');
    await page.getByTestId('enrichment-field').selectOption({ label: 'CEO' });
    expect(await page.getByTestId('enrichment-primary').isChecked()).toBe(true);
    await page.locator('[data-testid="color-swatch"][data-color="teal"]').click();
    await shot(page, '03-editor');
    await expect.poll(() => page.getByTestId('enrichment-save').isDisabled()).toBe(false);
    await page.getByTestId('enrichment-save').click();
    await editor.waitFor({ state: 'hidden' });

    const row = page.getByTestId('enrichment-row').first();
    await row.waitFor();
    expect(await row.innerText()).toContain('CEO Finder');
    expect(await row.innerText()).toContain('CEO');
    expect(await row.getByTestId('enrichment-is-primary').innerText()).toBe('Yes');
    await shot(page, '04-enrichment-table');
    const [stored] = await server.query<{ prompt: unknown; schema: { name: string }[] }>(
      `select data->'prompt' as prompt, data->'schema' as schema from enrichment`,
    );
    expect(JSON.stringify(stored.prompt)).toContain('"type":"field-box"');
    expect(stored.schema.map((s) => s.name)).toEqual(['ceo']);

    // Run it on two selected companies from the table.
    await page.getByTestId('nav-companies').click();
    await page.getByTestId('companies-page').waitFor();
    const rowOf = (name: string) => page.locator('[data-testid="record-table-row"]').filter({ hasText: name });
    await rowOf('Aurora Robotics').waitFor();
    await rowOf('Aurora Robotics').getByTestId('record-table-select-row').check();
    await rowOf('Borealis Labs').getByTestId('record-table-select-row').check();
    await page.getByTestId('enrich-button').click();
    await page.getByTestId('enrich-popover').waitFor();
    await page.getByTestId('enrich-field').selectOption({ label: 'CEO' });
    await expect.poll(() => page.getByTestId('enrich-enrichment').locator('option:checked').innerText()).toContain('CEO Finder');
    await shot(page, '05-enrich-popover');
    await page.getByTestId('enrich-run').click();
    await page.getByText('2 enrichment execution(s) started').first().waitFor();

    const cell = (name: string) => rowOf(name).locator('[data-testid="record-table-cell"][data-key="ceo"]');
    await expect.poll(() => cell('Aurora Robotics').innerText()).toContain('Processing...');
    await shot(page, '06-processing');
    ceoAnswers.open();
    await expect.poll(() => cell('Aurora Robotics').innerText(), { timeout: 30_000 }).toBe('Jane Aurora');
    await expect.poll(() => cell('Borealis Labs').innerText(), { timeout: 30_000 }).toBe('Ben Borealis');
    expect(await cell('Cirrus Foods').innerText()).toBe('');
    await shot(page, '07-values');
    const values = await server.query<{ name: string; value: unknown }>(
      `select c.name, v.value from field_value v join company c on c.id = v.entity_id join field_definition f on f.id = v.field_id where
        f.key = 'ceo' order by c.name`,
    );
    expect(values).toEqual([
      { name: 'Aurora Robotics', value: 'Jane Aurora' },
      { name: 'Borealis Labs', value: 'Ben Borealis' },
    ]);

    // The drawer shows the value; copy puts it on the clipboard.
    await rowOf('Aurora Robotics').locator('[data-testid="record-table-cell"][data-key="name"]').click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
    await page.getByTestId('drawer-tab-details').click();
    const fieldRow = page.locator('[data-testid="drawer-field-row"][data-field-key="ceo"]');
    await fieldRow.waitFor();
    expect(await fieldRow.getByTestId('drawer-field-value').innerText()).toBe('Jane Aurora');
    expect(await fieldRow.getByTestId('drawer-field-run').count()).toBe(1);
    await fieldRow.getByTestId('drawer-field-copy').click();
    await page.getByText('Value copied to clipboard').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Jane Aurora');
    await shot(page, '08-drawer');

    // An enrichment tied to no field is listed under Unassigned Enrichments and runs from there.
    await page.evaluate(async () => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))!
          .slice(8),
      );
      const h = { 'content-type': 'application/json', 'x-csrf-token': csrf };
      const configs = (await (await fetch('/api/v1/enrichment/configs')).json()).configs as {
        id: string;
        entityType: string;
        enrichmentType: string;
      }[];
      const configId = configs.find((c) => c.entityType === 'company' && c.enrichmentType === 'llm')!.id;
      const res = await fetch('/api/v1/enrichment', {
        method: 'POST',
        headers: h,
        body: JSON.stringify({
          configId,
          entityType: 'company',
          name: 'Founding year',
          prompt: 'In which year was this company founded?',
          schema: [{ name: 'answer', type: 'string', description: 'The year', required: true }],
        }),
      });
      if (res.status !== 201) throw new Error(await res.text());
    });
    await page.getByTestId('drawer-tab-activities').click();
    await page.getByTestId('drawer-tab-details').click();
    const unassigned = page.locator('[data-testid="drawer-enrichment-row"]').filter({ hasText: 'Founding year' });
    await unassigned.waitFor({ timeout: 40_000 });
    expect(await unassigned.getByTestId('enrichment-result').innerText()).toBe('Not executed yet');
    await unassigned.getByTestId('drawer-enrichment-run').click();
    await page.getByText('1 enrichment execution(s) started').first().waitFor();
    await expect.poll(() => unassigned.getByTestId('enrichment-result').getAttribute('data-status')).toMatch(/preprocessing|processing/);
    foundedAnswers.open();
    await expect.poll(() => unassigned.getByTestId('enrichment-result').innerText(), { timeout: 30_000 }).toBe('2011');
    await unassigned.getByTestId('drawer-enrichment-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('2011');
    await shot(page, '09-drawer-unassigned');

    // Back in the enrichment table: filter, edit (the stored prompt renders its box and is not
    // regenerated), delete with confirmation.
    const promptCalls = fake.requests.filter((r) => r.body.response_format?.json_schema?.name === 'enrichment_prompt').length;
    await page.getByTestId('nav-enrichments').click();
    await expect.poll(() => page.getByTestId('enrichment-row').count()).toBe(2);
    await page.getByTestId('enrichment-filter-provider').click();
    await page.locator('[data-testid="enrichment-filter-provider-option"]').filter({ hasText: 'MixRank' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('enrichment-table-empty').waitFor();
    await page.getByTestId('enrichment-clear-filters').click();
    await expect.poll(() => page.getByTestId('enrichment-row').count()).toBe(2);
    const ceoRow = page.getByTestId('enrichment-row').filter({ hasText: 'CEO Finder' });
    await ceoRow.getByTestId('enrichment-edit').click();
    await editor.waitFor();
    await expect.poll(() => page.getByTestId('enrichment-name').inputValue()).toBe('CEO Finder');
    await expect.poll(() => page.locator('[data-testid="prompt-editor"] [data-testid="field-box"]').innerText()).toBe('Name');
    expect(await page.getByTestId('enrichment-field').locator('option:checked').innerText()).toBe('CEO');
    await expect.poll(() => page.getByTestId('enrichment-save').isDisabled()).toBe(false);
    await shot(page, '10-edit');
    await page.getByTestId('enrichment-cancel').click();
    await editor.waitFor({ state: 'hidden' });
    expect(fake.requests.filter((r) => r.body.response_format?.json_schema?.name === 'enrichment_prompt').length).toBe(promptCalls);
    await page.getByTestId('enrichment-row').filter({ hasText: 'Founding year' }).getByTestId('enrichment-delete').click();
    await page.getByTestId('enrichment-delete-dialog').waitFor();
    await page.getByTestId('confirm-dialog-confirm').click();
    await expect.poll(() => page.getByTestId('enrichment-row').count()).toBe(1);
    expect(await server.query(`select name from enrichment where name = 'Founding year'`)).toEqual([]);
    await ctx.close();
  });
});
