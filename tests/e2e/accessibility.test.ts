// Accessibility of the web workspace: every page, and the drawer, a dialog, a menu and a popover
// open on it, has no serious or critical axe-core finding (WCAG 2.1 A and AA rules), and the shell's
// actions are reached by keyboard with a visible focus. Real server, PostgreSQL, Chromium.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signIn, pageApi as api } from '../support/session';
import { axeFindings, type AxeFinding } from '../support/axe';
import { keyboardWalk } from '../support/keyboard';

const ADMIN = { email: 'ari@a11y.example', password: 'Access1234' };

describe('accessibility of the web workspace, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-a11y-${name}.png`) });

  beforeAll(async () => {
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Access Partners',
      MIXRANK_API_KEY: '',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('every page with its drawer, dialogs, menus and popovers open: no serious or critical finding', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signIn(page, server.url, ADMIN);
    const company = await api(page, 'POST', '/api/v1/entity', {
      company: { name: 'Aurora Haulage', website: 'aurorahaulage.example.com' },
      contact: { firstName: 'Ann', lastName: 'Buyer', email: 'ann@aurorahaulage.example.com' },
    });
    expect(company.status, JSON.stringify(company.json)).toBeLessThan(300);
    const list = await api(page, 'POST', '/api/v1/list-company', { name: 'Nordic logistics' });
    expect(list.status, JSON.stringify(list.json)).toBeLessThan(300);
    const listId = list.json.list.id as string;

    const found: Record<string, AxeFinding[]> = {};
    const check = async (where: string) => {
      await page.waitForTimeout(300);
      const f = await axeFindings(page);
      if (f.length) found[where] = f;
    };

    for (const [where, url, ready] of [
      ['companies', '/companies', 'record-table'],
      ['contacts', '/contacts', 'record-table'],
      ['lists', '/list-company', null],
      ['a list', `/list-company/${listId}`, null],
      ['enrichments', '/enrichments', null],
      ['playbook', '/playbooks', null],
      ['new play', '/playbooks/new', null],
      ['profile', '/account/profile', 'email-service-card'],
      ['organization', '/organization/settings', 'salesforce-card'],
    ] as const) {
      await page.goto(`${server.url}${url}`);
      if (ready) await page.getByTestId(ready).first().waitFor();
      else await page.waitForLoadState('networkidle');
      await check(where);
    }

    // The companies page with the drawer, the New menu, a filter popover and the add dialog open.
    await page.goto(`${server.url}/companies`);
    await page.getByTestId('record-table-row').first().locator('[data-key="name"]').click();
    await page.locator('[data-testid="record-drawer"][data-visibility="Visible"]').waitFor();
    await check('companies + drawer');
    await shot(page, 'companies-drawer');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'New' }).first().click();
    await check('New menu');
    await page.keyboard.press('Escape');
    await page
      .getByRole('button', { name: /Add Filter/ })
      .first()
      .click();
    await check('filter popover');
    await page.keyboard.press('Escape');

    const report = Object.entries(found).map(
      ([where, f]) => `${where}: ${f.map((x) => `${x.impact} ${x.id} ${x.nodes.join(' ')}`).join(' | ')}`,
    );
    expect(report).toEqual([]);
  });
  it('keyboard: Tab alone reaches every action of the companies page, each with a visible focus indicator; Enter and Space activate', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    await signIn(page, server.url, ADMIN);
    const company = await api(page, 'POST', '/api/v1/entity', {
      company: { name: 'Keyline Freight', website: 'keylinefreight.example.com' },
      contact: { firstName: 'Kim', lastName: 'Keys', email: 'kim@keylinefreight.example.com' },
    });
    expect(company.status, JSON.stringify(company.json)).toBeLessThan(300);
    await page.goto(`${server.url}/companies`);
    await page.getByTestId('record-table-row').first().waitFor();
    await page.waitForLoadState('networkidle');

    // Every action on screen (header, navigation, toolbar, table, pagination) is reached by Tab, each
    // with a visible focus indicator.
    const walk = await keyboardWalk(page);
    expect(walk.actions).toBeGreaterThan(15);
    expect(walk.withoutIndicator, 'focused without a visible focus indicator').toEqual([]);
    expect(walk.unreached, 'actions Tab never reached').toEqual([]);

    // Enter on a primary action (the header's New) opens its menu; Escape closes it and focus stays.
    const newButton = page.getByRole('button', { name: 'New' }).first();
    await newButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu').first().waitFor();
    await shot(page, 'keyboard-new-menu');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').first().waitFor({ state: 'detached' });
    // Space on a row's checkbox selects it: the bulk bar appears.
    await page.getByTestId('record-table-select-row').first().focus();
    await page.keyboard.press('Space');
    await page.getByTestId('bulk-action-bar').waitFor();
    await shot(page, 'keyboard-selected');
    await ctx.close();
  });
  it(
    "keyboard: a list's ideas table, the playbook and the profile page — Tab reaches every action with a visible " +
      'focus indicator; Enter and Space act',
    async () => {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await ctx.newPage();
      await signIn(page, server.url, ADMIN);
      const list = await api(page, 'POST', '/api/v1/list-company', { name: 'Keyboard targets' });
      expect(list.status, JSON.stringify(list.json)).toBeLessThan(300);
      const listId = list.json.list.id as string;
      for (const [companyName, website] of [
        ['Tabby Transport', 'tabbytransport.example.com'],
        ['Enter Logistics', 'enterlogistics.example.com'],
      ]) {
        const idea = await api(page, 'POST', '/api/v1/list-company/idea', { id: listId, companyName, website });
        expect(idea.status, JSON.stringify(idea.json)).toBeLessThan(300);
      }
      const problems: Record<string, { unreached: string[]; withoutIndicator: string[] }> = {};
      const walkOf = async (where: string, least: number) => {
        await page.waitForLoadState('networkidle');
        const walk = await keyboardWalk(page);
        expect(walk.actions, `actions on ${where}`).toBeGreaterThan(least);
        if (walk.unreached.length || walk.withoutIndicator.length)
          problems[where] = { unreached: walk.unreached, withoutIndicator: walk.withoutIndicator };
      };

      // The list's ideas table: toolbar, table (star, row checkboxes), pagination.
      await page.goto(`${server.url}/list-company/${listId}`);
      await page.getByTestId('record-table-row').first().waitFor();
      await walkOf('the ideas table', 10);
      // Space on a row's checkbox selects it (the bulk bar); Enter on the add button opens its dialog.
      await page.getByTestId('record-table-select-row').first().focus();
      await page.keyboard.press('Space');
      await page.getByTestId('bulk-action-bar').waitFor();
      await shot(page, 'keyboard-ideas-selected');
      await page.getByTestId('list-add-idea').focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('add-idea-dialog').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('add-idea-dialog').waitFor({ state: 'detached' });

      // The playbook: New play, the table's rows and their actions.
      await page.goto(`${server.url}/playbooks`);
      await page.getByTestId('play-row').first().waitFor();
      await walkOf('the playbook', 5);
      await page.getByTestId('playbooks-new-play').focus();
      await shot(page, 'keyboard-playbook-focus');
      await page.keyboard.press('Enter');
      await page.getByTestId('play-editor').waitFor();

      // The profile page: its fields, Save, the Email service card.
      await page.goto(`${server.url}/account/profile`);
      await page.getByTestId('email-service-card').waitFor();
      await walkOf('the profile page', 3);
      await shot(page, 'keyboard-profile');

      expect(problems).toEqual({});
      await ctx.close();
    },
    300_000,
  );
});
