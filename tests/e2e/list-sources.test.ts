// Data-provider sources in Chromium: without a key the preview says which key is
// missing; with the organization's Ocean.io key (stored through the integrations API) the add-source
// dialog previews the lookalikes of seed domains, adds the source, and its list execution fills the
// list with ideas while the page follows it; 'Companies matching filters' adds the workspace's own
// companies picked with the companies table's filter builder. Real server and worker, PostgreSQL, Chromium, and
// loopback fakes of Ocean.io and Google Places.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signedInPage } from '../support/session';
import { expectNoAxeFindings } from '../support/axe';
import { startFakeOcean, type FakeOceanServer } from '../../server/test/fakes/ocean-server';
import { startFakeGooglePlaces, type FakeGooglePlacesServer } from '../../server/test/fakes/google-places-server';

const ADMIN = { email: 'sam@sources.example', password: 'Sources1234' };

describe('list sources from data providers, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let ocean: FakeOceanServer;
  let maps: FakeGooglePlacesServer;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-list-sources-${name}.png`) });

  beforeAll(async () => {
    ocean = await startFakeOcean({ apiToken: 'ocean-e2e-token-4242' });
    const names = [
      'Nordlys Robotics',
      'Fjell Automation',
      'Havn Logistics Tech',
      'Skog Sensors',
      'Elv Motion',
      'Isbre Vision',
      'Tind Controls',
      'Dal Drives',
    ];
    names.forEach((name, i) =>
      ocean.companies.push({
        domain: `${name.toLowerCase().replace(/\s+/g, '')}.example.com`,
        name,
        primaryCountry: i % 2 ? 'no' : 'se',
        companySize: '51-200',
      }),
    );
    maps = await startFakeGooglePlaces({ apiKey: 'maps-e2e-key' });
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Sources Capital',
      OCEAN_BASE_URL: ocean.url,
      GOOGLE_PLACES_BASE_URL: maps.url,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await ocean?.close();
    await maps?.close();
  });

  it('a missing key is named; with the key, a preview of lookalikes, then the source fills the list', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signedInPage(ctx, server.url, ADMIN);

    await page.getByTestId('nav-lists').click();
    await page.getByTestId('lists-table').waitFor();
    await page.getByTestId('lists-new').click();
    await page.getByTestId('list-name-input').fill('Nordic automation');
    await page.getByTestId('list-name-save').click();
    await page.getByTestId('list-page').waitFor();

    // Google Maps without a key: the preview says which key is missing and where to add it.
    await page.getByTestId('list-add-source').click();
    await page.getByTestId('list-add-source-googleMaps').click();
    await page.getByTestId('source-query').fill('robotics Oslo');
    await page.getByTestId('source-preview-button').click();
    await expect
      .poll(() => page.getByTestId('source-error').textContent(), { timeout: 20_000 })
      .toBe('No Google Maps API key is connected for your organization. An admin can add it under Profile → Integrations.');
    await shot(page, '01-missing-key');
    await page.getByTestId('add-source-dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('add-source-dialog').waitFor({ state: 'detached' });

    // The admin connects the organization's Ocean.io key (stored encrypted; never answered back).
    const connected = await page.evaluate(async () => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))
          ?.slice(8) ?? '',
      );
      const res = await fetch('/api/v1/organization/integration', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ provider: 'ocean', apiKey: 'ocean-e2e-token-4242' }),
      });
      return { status: res.status, body: await res.text() };
    });
    expect(connected.status, connected.body).toBe(201);
    expect(connected.body).not.toContain('ocean-e2e-token-4242');

    await page.getByTestId('list-add-source').click();
    await page.getByTestId('list-add-source-ocean').click();
    await page.getByTestId('source-domains').fill('https://www.seedrobotics.example.com, seedmotion.example.com');
    await page.getByTestId('source-preview-button').click();
    await expect.poll(() => page.getByTestId('source-preview-row').count(), { timeout: 20_000 }).toBe(8);
    expect(await page.getByTestId('source-preview').textContent()).toContain('Preview: 8 of 8 companies');
    expect(ocean.requests.at(-1)!.body).toMatchObject({
      companiesFilters: { lookalikeDomains: ['seedrobotics.example.com', 'seedmotion.example.com'] },
    });
    expect(ocean.requests.at(-1)!.headers['x-api-token']).toBe('ocean-e2e-token-4242');
    await expect.poll(() => page.getByTestId('source-add').isEnabled(), { timeout: 20_000 }).toBe(true);
    await shot(page, '02-ocean-preview');

    await page.getByTestId('source-add').click();
    await page.getByTestId('add-source-dialog').waitFor({ state: 'detached' });
    // The list execution runs on the worker; the page reloads on its realtime events.
    await expect.poll(() => page.getByTestId('list-totals').textContent(), { timeout: 30_000 }).toBe('8 ideas · 0 shortlisted · 1 source');
    await expect.poll(() => page.getByTestId('list-source').getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
    expect(await page.getByTestId('list-source').textContent()).toContain('8 ideas added, 0 already in the list');
    await expect.poll(() => page.getByTestId('record-table-row').count(), { timeout: 20_000 }).toBe(8);
    await shot(page, '03-ideas-from-ocean');

    // Companies already in the workspace: two robotics companies, one of them already an idea.
    const made = await page.evaluate(async () => {
      const csrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('ds_csrf='))
          ?.slice(8) ?? '',
      );
      const out: number[] = [];
      for (const company of [
        { name: 'Nordlys Robotics', website: 'https://nordlysrobotics.example.com' },
        { name: 'Kyst Robotics', website: 'https://kystrobotics.example.com' },
        { name: 'Fjord Bakery', website: 'https://fjordbakery.example.com' },
      ]) {
        out.push(
          (
            await fetch('/api/v1/company/create', {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
              body: JSON.stringify({ company }),
            })
          ).status,
        );
      }
      return out;
    });
    expect(made).toEqual([201, 201, 201]);
    // Add source → 'Companies matching filters': the companies table's filter builder and a live count.
    await page.getByTestId('list-add-source').click();
    await page.getByTestId('list-add-source-filter').click();
    await expect.poll(() => page.getByTestId('filter-source-count').textContent(), { timeout: 20_000 }).toBe('3 companies match');
    await page.getByTestId('filter-add').click();
    await page.getByTestId('filter-field-option').and(page.locator('[data-key="name"]')).click();
    await page.getByTestId('filter-condition-select').selectOption({ label: 'contains' });
    await page.getByTestId('filter-value').fill('robotics');
    await page.getByTestId('filter-editor-save').click();
    await expect.poll(() => page.getByTestId('filter-source-count').textContent(), { timeout: 20_000 }).toBe('2 companies match');
    await shot(page, '04-companies-matching-filters');
    await expectNoAxeFindings(page, "the 'Companies matching filters' dialog");
    await page.getByTestId('filter-source-add').click();
    await page.getByTestId('filter-source-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('list-totals').textContent(), { timeout: 20_000 }).toBe('9 ideas · 0 shortlisted · 2 sources');
    expect(await page.getByTestId('list-source').filter({ hasText: 'Companies matching filters' }).textContent()).toContain(
      '1 idea added, 1 already in the list, 0 without a domain skipped',
    );
    await shot(page, '05-ideas-from-filters');
    await ctx.close();
  });
});
