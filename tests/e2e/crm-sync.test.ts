// CRM sync journey in Chromium: an admin connects Salesforce through the fake's consent
// page, tries the header's sync icon before any mapping (the invalid-settings toast), maps Account
// and Contact fields in the Salesforce settings, syncs from the header (progress, then completed —
// toasts that stay until dismissed), finds the companies in the table, reads the sync history in
// a company's drawer, then edits a mapped field there, syncs again and finds the change in the fake. Real server (web +
// worker), PostgreSQL, the loopback fake of Salesforce.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { FakeSalesforce } from '../../server/test/fakes/salesforce-server';
import { signIn } from '../support/session';

const ADMIN = { email: 'sana@harbor.example', password: 'Harbor12345678' };

describe('CRM sync in Chromium', () => {
  let server: RunningServer;
  let sf: FakeSalesforce;
  let browser: Browser;
  let acme: { Id: string };
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-crm-sync-${name}.png`), fullPage: true });

  beforeAll(async () => {
    sf = await FakeSalesforce.start({ clientId: 'e2e-client', clientSecret: 'e2e-secret', username: ADMIN.email });
    acme = sf.addRecord('Account', { Name: 'Acme Robotics', Website: 'https://acme-robotics.example', Industry: 'Manufacturing' });
    sf.addRecord('Account', { Name: 'Bluefin Analytics', Website: 'bluefin.example', Industry: 'Software' });
    sf.addRecord('Account', { Name: 'Cobalt Freight', Website: 'https://www.cobalt-freight.example', Industry: 'Logistics' });
    sf.addRecord('Contact', { FirstName: 'Ada', LastName: 'Acme', Email: 'ada@acme-robotics.example', AccountId: acme.Id });
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Harbor Capital',
      SALESFORCE_CLIENT_ID: 'e2e-client',
      SALESFORCE_CLIENT_SECRET: 'e2e-secret',
      SALESFORCE_LOGIN_URL: sf.url,
      OUTBOUND_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sf?.close();
  });

  it('maps fields, syncs from the header and shows the companies and their sync history', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await signIn(page, server.url, ADMIN);

    // Connect Salesforce (production) through the consent page.
    await page.goto(`${server.url}/organization/settings`);
    const sfCard = page.getByTestId('salesforce-card');
    await sfCard.getByTestId('salesforce-connect').click();
    await page.getByTestId('salesforce-submit').click();
    await page.waitForURL((u) => u.origin === sf.url && u.pathname === '/services/oauth2/authorize');
    await page.locator('#oaapprove').click();
    await page.waitForURL((u) => u.pathname === '/organization/settings');
    await sfCard.getByTestId('salesforce-connected').waitFor();

    // The header icon before any mapping: the spec's invalid-settings toast, which stays.
    const syncButton = page.getByTestId('crm-sync-button');
    await expect.poll(async () => syncButton.getAttribute('aria-disabled')).not.toBe('true');
    await syncButton.hover();
    await page.getByText('Click to fetch your data from Salesforce').waitFor();
    await syncButton.click();
    const toast = (intent: string, text: string) => page.getByTestId(`toast-${intent}`).filter({ hasText: text });
    await toast('error', 'Invalid settings, please ensure you added Account and Contact mappings.').waitFor();
    await shot(page, 'invalid');
    await page.waitForTimeout(3_500);
    expect(await toast('error', 'Invalid settings, please ensure you added Account and Contact mappings.').count()).toBe(1);

    // Salesforce settings → Field mapping and sync.
    await sfCard.getByTestId('salesforce-settings').click();
    await page.getByTestId('salesforce-settings-dialog').waitFor();
    await page.getByTestId('salesforce-mapping').click();
    const dialog = page.getByTestId('salesforce-mapping-dialog');
    await dialog.getByTestId('sync-settings').waitFor();
    await dialog.getByTestId('account-add-mapping').click();
    await dialog.getByTestId('account-crm-field').nth(0).selectOption('Name');
    await dialog.getByTestId('account-add-mapping').click();
    expect(await dialog.getByTestId('account-crm-field').nth(1).inputValue()).toBe('Website');
    await dialog.getByTestId('account-reconciliation').nth(1).selectOption('keep_existing');
    await dialog.getByTestId('contact-add-mapping').click();
    expect(await dialog.getByTestId('contact-crm-field').nth(0).inputValue()).toBe('Email');
    await dialog.getByTestId('contact-add-mapping').click();
    await dialog.getByTestId('contact-crm-field').nth(1).selectOption('FirstName');
    await page.waitForTimeout(300);
    // One action bar with one primary action (Back · Cancel · Save mappings).
    const primaries = await dialog
      .getByRole('button')
      .evaluateAll((bs) => bs.filter((b) => getComputedStyle(b).backgroundColor === 'rgb(15, 108, 189)').map((b) => b.textContent));
    expect(primaries).toEqual(['Save mappings']);
    await shot(page, 'mapping');
    await dialog.getByTestId('sync-settings-save').click();
    await toast('success', 'Sync settings saved').waitFor();
    const [settings] = await server.query<{
      account_mappings: { crmField: string; reconciliation: string }[];
      contact_mappings: { crmField: string }[];
    }>(`select account_mappings, contact_mappings from crm_sync_settings`);
    expect(settings.account_mappings.map((m) => [m.crmField, m.reconciliation])).toEqual([
      ['Name', 'use_latest'],
      ['Website', 'keep_existing'],
    ]);
    expect(settings.contact_mappings.map((m) => m.crmField)).toEqual(['Email', 'FirstName']);
    // Saving closes the dialog.
    await dialog.waitFor({ state: 'hidden' });

    // Sync from the header: progress, then completed (both stay until dismissed).
    await page.getByTestId('nav-companies').click();
    await page.getByTestId('companies-page').waitFor();
    await syncButton.click();
    await toast('success', 'Sync completed successfully!').waitFor({ timeout: 60_000 });
    expect(await toast('info', 'Sync in progress, please wait..').count()).toBe(0);
    // The table reloaded on completion: the accounts are companies.
    const rows = page.locator('[data-testid="record-table-row"]');
    await rows.filter({ hasText: 'Acme Robotics' }).waitFor();
    await rows.filter({ hasText: 'Cobalt Freight' }).waitFor();
    await shot(page, 'companies');
    const companies = await server.query<{ name: string; domain: string }>(`select name, domain from company order by name`);
    expect(companies).toEqual([
      { name: 'Acme Robotics', domain: 'acme-robotics.example' },
      { name: 'Bluefin Analytics', domain: 'bluefin.example' },
      { name: 'Cobalt Freight', domain: 'cobalt-freight.example' },
    ]);

    // The drawer's sync history.
    await rows.filter({ hasText: 'Acme Robotics' }).click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
    await page.getByTestId('drawer-tab-details').click();
    await page.getByTestId('drawer-section-toggle-crmSync').click();
    await page.getByTestId('sync-history-row').first().waitFor();
    expect(await page.getByTestId('sync-history').innerText()).toContain('Created in Dealscout from Salesforce');
    await page.getByTestId('drawer-section-crmSync').scrollIntoViewIfNeeded();
    await shot(page, 'drawer-history');

    // Edit a mapped field here, sync back, find the change in Salesforce. A custom 'Industry' field,
    // mapped (keep_existing: Dealscout's value is kept and written back) through the API.
    const fieldKey = await page.evaluate(async () => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))!
          .slice(8),
      );
      const h = { 'content-type': 'application/json', 'x-csrf-token': csrf };
      const made = await fetch('/api/v1/entity/field', {
        method: 'POST',
        headers: h,
        body: JSON.stringify({ entityType: 'company', label: 'Industry', dataType: 'string' }),
      });
      if (!made.ok) throw new Error(`field: ${made.status} ${await made.text()}`);
      const field = (await made.json()).field as { id: string; key: string };
      const current = (await (await fetch('/api/v1/crm/sync-settings')).json()).settings;
      const saved = await fetch('/api/v1/crm/sync-settings', {
        method: 'PUT',
        headers: h,
        body: JSON.stringify({
          syncAccounts: current.syncAccounts,
          syncContacts: current.syncContacts,
          contactMappings: current.contactMappings,
          accountMappings: [...current.accountMappings, { crmField: 'Industry', fieldId: field.id, reconciliation: 'keep_existing' }],
        }),
      });
      if (!saved.ok) throw new Error(`sync settings: ${saved.status} ${await saved.text()}`);
      return field.key;
    });
    await page.reload();
    await rows.filter({ hasText: 'Acme Robotics' }).click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
    await page.getByTestId('drawer-tab-details').click();
    const fieldRow = page.locator(`[data-testid="drawer-field-row"][data-field-key="${fieldKey}"]`);
    await fieldRow.waitFor();
    await fieldRow.getByTestId('drawer-field-edit').click();
    await fieldRow.getByTestId('drawer-field-input').fill('Industrial robots');
    await fieldRow.getByTestId('drawer-field-save').click();
    await expect
      .poll(async () => (await server.query<{ v: string }>(`select value_text as v from field_value`))[0]?.v, { timeout: 20_000 })
      .toBe('Industrial robots');
    await expect.poll(() => fieldRow.getByTestId('drawer-field-value').innerText(), { timeout: 20_000 }).toContain('Industrial robots');
    await syncButton.click();
    await expect.poll(() => sf.find('Account', { Id: acme.Id })[0]?.Industry, { timeout: 60_000 }).toBe('Industrial robots');
    await toast('success', 'Sync completed successfully!').last().waitFor({ timeout: 60_000 });
    const [acmeRow] = await server.query<{ id: string }>(`select id from company where name = 'Acme Robotics'`);
    expect(sf.find('Account', { Id: acme.Id })[0]).toMatchObject({ Name: 'Acme Robotics', Dealscout_Id__c: acmeRow.id });
    // Updated, not duplicated; the drawer's history says what went to Salesforce.
    expect(sf.find('Account', { Name: 'Acme Robotics' })).toHaveLength(1);
    await page.getByTestId('drawer-section-toggle-crmSync').click();
    await page.getByTestId('sync-history').filter({ hasText: 'Industry updated in Salesforce: (empty) → Industrial robots' }).waitFor();
    await page.getByTestId('drawer-section-crmSync').scrollIntoViewIfNeeded();
    await shot(page, 'synced-back');

    // The Salesforce card shows the last sync's line: records synced of the total Salesforce gave.
    await page.goto(`${server.url}/organization/settings`);
    const syncLine = sfCard.getByTestId('salesforce-sync-progress').getByTestId('run-progress');
    await syncLine.waitFor();
    await expect.poll(() => syncLine.getAttribute('data-status')).toBe('completed');
    expect(await syncLine.getAttribute('data-type')).toBe('crmsync');
    expect(await syncLine.innerText()).toMatch(/Syncing with Salesforce[\s\S]*Done: \d+ \/ \d+/);
    await sfCard.scrollIntoViewIfNeeded();
    await shot(page, 'card-sync-line');
    await ctx.close();
  }, 180_000);
});
