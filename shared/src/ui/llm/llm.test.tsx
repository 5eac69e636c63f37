// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../client';
import type { IntegrationDto, OrganizationAiDto } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { AiProviderCard, AI_PROVIDER_TEXT } from './AiProviderCard';
import { LlmSettingsCard, LLM_SETTINGS_TEXT, creditsText } from './LlmSettingsCard';

afterEach(cleanup);

const ORG_ID = '11111111-1111-4111-8111-111111111111';

function orgAi(over: Partial<OrganizationAiDto['llmProvider']> = {}, useSystem = true): OrganizationAiDto & { id: string } {
  return {
    id: ORG_ID,
    credits: { ai: { remaining: 70, total: 100, expiresAt: null } },
    settings: {
      llm: [
        { isDefault: true, llmModel: { id: 'gpt-a', name: 'gpt-a' } },
        { isDefault: false, llmModel: { id: 'gpt-b', name: 'gpt-b' } },
      ],
      llmSettings: { id: ORG_ID, useSystemLlmSetting: useSystem },
    },
    llmModels: [
      { id: 'gpt-a', name: 'gpt-a' },
      { id: 'gpt-b', name: 'gpt-b' },
    ],
    llmProvider: {
      source: useSystem ? 'system' : 'organization',
      configured: true,
      systemAvailable: true,
      organizationIntegrationId: null,
      ...over,
    },
  };
}

const INTEGRATION: IntegrationDto = {
  id: '22222222-2222-4222-8222-222222222222',
  provider: 'openai',
  type: 'llm',
  scope: 'organization',
  data: {
    name: 'Team key',
    createdById: 'u1',
    createdBy: { id: 'u1', firstName: 'Ada', lastName: 'Admin' },
    createdAt: '2026-03-04T10:00:00.000Z',
    expiresAt: null,
    active: true,
    metadata: { name: 'Team key', baseUrl: null, models: [], keyHint: 'abcd' },
  },
};

const organizationGet = (org: OrganizationAiDto & { id: string }) =>
  vi.fn(async () => ({ success: true as const, organization: org as never }));

describe('AiProviderCard', () => {
  it('connected: shows API key name, created by, created at, expires at and Connected', async () => {
    const api = fakeApi({
      llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: [INTEGRATION] })) },
      organization: { get: organizationGet(orgAi({ organizationIntegrationId: INTEGRATION.id }, false)) },
    });
    renderWithApi(<AiProviderCard isAdmin={false} />, api);
    expect(await screen.findByTestId('ai-provider-connected')).toBeTruthy();
    expect(screen.getByTestId('ai-provider-connected').textContent).toBe(AI_PROVIDER_TEXT.connected);
    expect(screen.getByTestId('ai-provider-key-name').textContent).toBe('Team key (…abcd)');
    expect(screen.getByTestId('ai-provider-created-by').textContent).toBe('Ada Admin');
    expect(screen.getByTestId('ai-provider-created-at').textContent).toBe('Mar 4, 2026');
    expect(screen.getByTestId('ai-provider-expires-at').textContent).toBe(AI_PROVIDER_TEXT.never);
    // A User cannot disconnect.
    expect(screen.queryByTestId('ai-provider-disconnect')).toBeNull();
  });

  it('not connected, User: says the system provider is used and to ask the Admin; no Connect button', async () => {
    const api = fakeApi({
      llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: [] })) },
      organization: { get: organizationGet(orgAi()) },
    });
    renderWithApi(<AiProviderCard isAdmin={false} />, api);
    await waitFor(() => expect(screen.getByTestId('ai-provider-status').textContent).toContain(AI_PROVIDER_TEXT.usingSystem));
    expect(screen.getByTestId('ai-provider-status').textContent).toContain(AI_PROVIDER_TEXT.askAdmin);
    expect(screen.queryByTestId('ai-provider-connect')).toBeNull();
  });

  it('says which provider is in use only once the organization has answered too, never "no provider" meanwhile', async () => {
    let answer: (org: OrganizationAiDto & { id: string }) => void = () => {};
    const later = new Promise<OrganizationAiDto & { id: string }>((resolve) => (answer = resolve));
    const api = fakeApi({
      llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: [] })) },
      organization: { get: vi.fn(async () => ({ success: true as const, organization: (await later) as never })) },
    });
    renderWithApi(<AiProviderCard isAdmin />, api);
    expect(await screen.findByTestId('ai-provider-connect')).toBeTruthy();
    expect(screen.queryByTestId('ai-provider-status')).toBeNull();
    expect(screen.getByText('Loading…')).toBeTruthy();
    answer(orgAi());
    await waitFor(() => expect(screen.getByTestId('ai-provider-status').textContent).toContain(AI_PROVIDER_TEXT.usingSystem));
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('admin connects: required fields first, then the body sent, the server message on failure', async () => {
    const user = userEvent.setup();
    let list: IntegrationDto[] = [];
    const connect = vi.fn(async () => {
      if (connect.mock.calls.length === 1)
        throw new ApiError(400, 'bad', { success: false, message: 'The provider refused this API key. Check the key and try again.' });
      list = [INTEGRATION];
      return { success: true as const, message: 'AI provider connected', integration: INTEGRATION };
    });
    const api = fakeApi({
      llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: list })), connect },
      organization: { get: organizationGet(orgAi({ systemAvailable: false, configured: false })) },
    });
    renderWithApi(<AiProviderCard isAdmin />, api);
    await waitFor(() => expect(screen.getByTestId('ai-provider-status').textContent).toContain(AI_PROVIDER_TEXT.noProvider));
    await user.click(screen.getByTestId('ai-provider-connect'));
    await user.click(screen.getByTestId('ai-provider-submit'));
    expect(screen.getByText('API key name is required')).toBeTruthy();
    expect(screen.getByText('API key is required')).toBeTruthy();
    expect(connect).not.toHaveBeenCalled();

    await user.type(screen.getByTestId('ai-provider-name'), 'Team key');
    await user.type(screen.getByTestId('ai-provider-key'), 'sk-secret');
    await user.type(screen.getByTestId('ai-provider-models'), 'gpt-a, gpt-b');
    await user.click(screen.getByTestId('ai-provider-submit'));
    expect(await screen.findByTestId('ai-provider-error')).toBeTruthy();
    expect(screen.getByTestId('ai-provider-error').textContent).toBe('The provider refused this API key. Check the key and try again.');
    expect(connect).toHaveBeenLastCalledWith({
      provider: 'openai',
      name: 'Team key',
      apiKey: 'sk-secret',
      baseUrl: null,
      models: ['gpt-a', 'gpt-b'],
    });

    await user.click(screen.getByTestId('ai-provider-submit'));
    expect(await screen.findByTestId('ai-provider-connected')).toBeTruthy();
    expect(screen.queryByTestId('ai-provider-form')).toBeNull();
  });

  it('admin disconnects through the confirmation dialog', async () => {
    const user = userEvent.setup();
    let list: IntegrationDto[] = [INTEGRATION];
    const removeIntegration = vi.fn(async () => {
      list = [];
      return { success: true as const, message: 'Integration removed' };
    });
    const api = fakeApi({
      llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: list })), removeIntegration },
      organization: { get: organizationGet(orgAi({ organizationIntegrationId: INTEGRATION.id }, false)) },
    });
    renderWithApi(<AiProviderCard isAdmin />, api);
    await user.click(await screen.findByTestId('ai-provider-disconnect'));
    expect(await screen.findByText('Disconnect AI provider?')).toBeTruthy();
    await user.click(screen.getByText('Yes, Disconnect'));
    expect(removeIntegration).toHaveBeenCalledWith(INTEGRATION.id);
    await waitFor(() => expect(screen.queryByTestId('ai-provider-connected')).toBeNull());
    expect(await screen.findByTestId('ai-provider-connect')).toBeTruthy();
  });
});

describe('LlmSettingsCard', () => {
  it('shows the toggle, the default model and the credits; saves a new default', async () => {
    const user = userEvent.setup();
    const setSettings = vi.fn(async () => ({ success: true as const, message: LLM_SETTINGS_TEXT.saved, ai: orgAi() }));
    const api = fakeApi({ organization: { get: organizationGet(orgAi()) }, llm: { setSettings } });
    renderWithApi(<LlmSettingsCard />, api);
    const select = (await screen.findByTestId('llm-default-model')) as HTMLSelectElement;
    expect(select.value).toBe('gpt-a');
    expect(screen.getByTestId('llm-credits').textContent).toBe('AI credits: 70 of 100 left');
    const toggle = screen.getByTestId('llm-use-system') as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    // Switching off needs the organization's own key first.
    expect(toggle.disabled).toBe(true);
    expect(screen.getByText(LLM_SETTINGS_TEXT.noOwnKey)).toBeTruthy();
    expect((screen.getByTestId('llm-save') as HTMLButtonElement).disabled).toBe(true);
    await user.selectOptions(select, 'gpt-b');
    await user.click(screen.getByTestId('llm-save'));
    expect(setSettings).toHaveBeenCalledWith({
      settings: {
        llm: [
          { llmModelId: 'gpt-a', isDefault: false },
          { llmModelId: 'gpt-b', isDefault: true },
        ],
      },
    });
    expect(await screen.findByText(LLM_SETTINGS_TEXT.saved)).toBeTruthy();
  });

  it('with an organization key the toggle switches providers; errors show the server message', async () => {
    const user = userEvent.setup();
    const useSystemSetting = vi.fn(async () => {
      throw new ApiError(400, 'x', { success: false, message: 'The system AI provider is not configured on this server.' });
    });
    const api = fakeApi({ organization: { get: organizationGet(orgAi({ organizationIntegrationId: 'i1' })) }, llm: { useSystemSetting } });
    renderWithApi(<LlmSettingsCard />, api);
    const toggle = (await screen.findByTestId('llm-use-system')) as HTMLInputElement;
    expect(toggle.disabled).toBe(false);
    await user.click(toggle);
    expect(useSystemSetting).toHaveBeenCalledWith({ id: ORG_ID, status: false });
    expect(await screen.findByText('The system AI provider is not configured on this server.')).toBeTruthy();
  });

  it('warns when no provider is configured', async () => {
    const api = fakeApi({ organization: { get: organizationGet(orgAi({ configured: false, systemAvailable: false })) } });
    renderWithApi(<LlmSettingsCard />, api);
    expect((await screen.findByTestId('llm-settings-not-configured')).textContent).toBe(LLM_SETTINGS_TEXT.notConfigured);
  });

  it('credits text: unlimited, and the expiry date', () => {
    expect(creditsText({ remaining: null, total: null, expiresAt: null })).toBe('Unlimited');
    expect(creditsText({ remaining: 0, total: 5, expiresAt: '2030-01-02T12:00:00.000Z' })).toBe('0 of 5 left · expire Jan 2, 2030');
  });
});
