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
    await page
      .getByTestId('drawer')
      .first()
      .waitFor()
      .catch(() => undefined);
    await check('companies + drawer');
    await shot(page, 'companies-drawer');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'New' }).first().click();
    await check('New menu');
    await page.keyboard.press('Escape');
    await page
      .getByRole('button', { name: /Add Filter/ })
      .first()
      .click()
      .catch(() => undefined);
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

    // Every action on screen (header, navigation, toolbar, table, pagination), tagged to be found again.
    const actions = await page.evaluate(() => {
      const selector =
        'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="checkbox"], [role="link"], [role="tab"], [role="combobox"], [tabindex="0"]';
      const out: { id: string; name: string }[] = [];
      let n = 0;
      for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
        const r = el.getBoundingClientRect();
        const cs = getComputedStyle(el);
        if (r.width === 0 || r.height === 0 || cs.visibility === 'hidden' || cs.display === 'none') continue;
        // Visually hidden native inputs (a Fluent checkbox's input is under its indicator) count as the control.
        if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') continue;
        if (el.closest('[aria-hidden="true"], [inert], [data-tabster-dummy]')) continue;
        if (el.tabIndex < 0) continue;
        const id = `k${n++}`;
        el.setAttribute('data-kbd', id);
        out.push({
          id,
          name: (el.getAttribute('aria-label') ?? el.textContent ?? el.getAttribute('data-testid') ?? el.tagName).trim().slice(0, 40),
        });
      }
      return out;
    });
    expect(actions.length).toBeGreaterThan(15);

    // What shows focus: the element's outline, shadow, border or text decoration, and the focus
    // rings drawn by pseudo-elements on it or on its close ancestors (Fluent draws some on a wrapper).
    const focusLook = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const look = (node: Element, pseudo?: string) => {
          const cs = getComputedStyle(node, pseudo);
          return [
            cs.outlineStyle,
            cs.outlineWidth,
            cs.outlineColor,
            cs.boxShadow,
            cs.borderTopColor,
            cs.borderBottomColor,
            cs.borderBottomWidth,
            cs.textDecorationLine,
            cs.transform,
            cs.opacity,
            cs.content,
          ].join('|');
        };
        const parts: string[] = [look(el), look(el, '::after'), look(el, '::before')];
        for (let a = el.parentElement, d = 0; a && d < 3; a = a.parentElement, d++)
          parts.push(look(a, '::after'), look(a, '::before'), look(a));
        const focused = parts.join('#');
        // The same element without focus (focus comes back at once: the walk goes on from it).
        el.blur();
        const unfocusedParts: string[] = [look(el), look(el, '::after'), look(el, '::before')];
        for (let a = el.parentElement, d = 0; a && d < 3; a = a.parentElement, d++)
          unfocusedParts.push(look(a, '::after'), look(a, '::before'), look(a));
        el.focus({ preventScroll: true });
        return {
          kbd: el.closest('[data-kbd]')?.getAttribute('data-kbd') ?? null,
          name: (el.getAttribute('aria-label') ?? el.textContent ?? el.tagName).trim().slice(0, 40),
          visible: focused !== unfocusedParts.join('#'),
        };
      });

    const reached = new Set<string>();
    const withoutIndicator: string[] = [];
    let first: string | null = null;
    for (let i = 0; i < 250; i++) {
      await page.keyboard.press('Tab');
      const f = await focusLook();
      if (!f) continue;
      const key = f.kbd ?? `?${f.name}`;
      if (first === key && i > 3) break; // back at the start: the whole page was walked
      first ??= key;
      if (f.kbd) reached.add(f.kbd);
      if (!f.visible && !withoutIndicator.includes(f.name)) withoutIndicator.push(f.name);
    }
    expect(withoutIndicator, 'focused without a visible focus indicator').toEqual([]);
    expect(
      actions.filter((a) => !reached.has(a.id)).map((a) => a.name),
      'actions Tab never reached',
    ).toEqual([]);

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
});
