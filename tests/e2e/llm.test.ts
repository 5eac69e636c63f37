// AI provider journey: an admin sees the system provider in use on the integrations page, connects
// the organization's own OpenAI-compatible key (checked against the fake provider, stored
// encrypted), then picks the default model in the organization's LLM settings. Real server (API +
// worker), PostgreSQL, Chromium, and the fake OpenAI-compatible server on loopback.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, ARTIFACTS } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { signedInPage } from '../support/session';
import { FakeOpenAiServer } from '../../server/test/fakes/openai-server';

const ADMIN = { email: 'lena@keystone.example', password: 'Keystone1234' };
const ORG_KEY = 'sk-org-e2e-0123456789-TOPSECRET';

describe('AI provider settings in Chromium', () => {
  let server: RunningServer;
  let fake: FakeOpenAiServer;
  let browser: Browser;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `e2e-llm-${name}.png`), fullPage: true });

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-system', ORG_KEY] });
    server = await startServer({
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'Keystone Capital',
      OPENAI_API_KEY: 'sk-system',
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODELS: 'gpt-4o-mini,gpt-4o',
      LLM_ALLOW_HTTP_BASE_URL: 'true',
      // The organization's own key points at the loopback fake too: the operator allows that host.
      OUTBOUND_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  it('connects the organization key on the profile page and sets the default model on the organization page', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signedInPage(ctx, server.url, ADMIN);

    await page.goto(`${server.url}/account/profile`);
    const card = page.getByTestId('ai-provider-card');
    await card.getByTestId('ai-provider-status').waitFor();
    expect(await card.getByTestId('ai-provider-status').textContent()).toContain('system provider');
    await card.scrollIntoViewIfNeeded();
    await card.getByTestId('ai-provider-connect').click();
    await card.getByTestId('ai-provider-name').fill('Keystone OpenAI key');
    await card.getByTestId('ai-provider-key').fill(ORG_KEY);
    await card.getByTestId('ai-provider-base-url').fill(fake.url);
    await card.getByTestId('ai-provider-models').fill('team-model-large, team-model-small');
    await shot(page, 'profile-connect-form');
    await card.getByTestId('ai-provider-submit').click();
    await card.getByTestId('ai-provider-connected').waitFor();
    expect(await card.getByTestId('ai-provider-key-name').textContent()).toBe('Keystone OpenAI key (…CRET)');
    expect(await card.getByTestId('ai-provider-expires-at').textContent()).toBe('Never');
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'profile-connected');
    expect(fake.requests.some((r) => r.path.endsWith('/models') && r.authorization === `Bearer ${ORG_KEY}`)).toBe(true);
    const rows = await server.query<{ t: string }>(`select row_to_json(i)::text as t from integration i`);
    expect(rows).toHaveLength(1);
    expect(rows[0].t).not.toContain('TOPSECRET');

    await page.goto(`${server.url}/organization/settings`);
    const settings = page.getByTestId('llm-settings');
    await settings.waitFor();
    expect(await settings.getByTestId('llm-use-system').isChecked()).toBe(false);
    expect(await settings.getByTestId('llm-default-model').inputValue()).toBe('team-model-large');
    await settings.getByTestId('llm-default-model').selectOption('team-model-small');
    await settings.getByTestId('llm-save').click();
    await page.getByText('LLM settings updated').first().waitFor();
    await settings.scrollIntoViewIfNeeded();
    await shot(page, 'organization-llm-settings');
    const [org] = await server.query<{ settings: { llm: Array<{ llmModelId: string; isDefault: boolean }> } }>(
      `select settings from organization`,
    );
    expect(org.settings.llm.find((m) => m.isDefault)?.llmModelId).toBe('team-model-small');
    await ctx.close();
  });
});
