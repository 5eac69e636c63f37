// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../client';
import { CRM_MESSAGES, type IntegrationDto } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { SalesforceCard } from './SalesforceCard';
import { AffinityCard, AFFINITY_TEXT } from './AffinityCard';
import { crmCardState } from './state';
import { CRM_CARD_TEXT, crmConnectFailureKey } from './CrmCardFrame';
import { connectNextStep, keepFailure } from '../FailureNotice';

afterEach(cleanup);

function crm(provider: 'salesforce' | 'affinity', active: boolean, over: Partial<IntegrationDto['data']['metadata']> = {}): IntegrationDto {
  return {
    id: provider === 'salesforce' ? '33333333-3333-4333-8333-333333333333' : '44444444-4444-4444-8444-444444444444',
    provider,
    type: 'crm',
    scope: 'organization',
    data: {
      name: provider === 'salesforce' ? 'Salesforce' : 'Acme Capital',
      createdById: 'u1',
      createdBy: { id: 'u1', firstName: 'Ada', lastName: 'Admin' },
      createdAt: '2026-03-04T10:00:00.000Z',
      expiresAt: '2027-01-02T10:00:00.000Z',
      active,
      metadata: {
        name: provider === 'salesforce' ? 'ada@acme.example.com' : 'Acme Capital',
        username: provider === 'salesforce' ? 'ada@acme.example.com' : 'alex@acme.example.com',
        environment: 'production',
        instanceUrl: 'https://acme.my.salesforce.com',
        ...over,
      },
    },
  };
}
const listed = (items: IntegrationDto[]) => ({
  llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: items })) },
  // A connected card reads the organization's last sync for its progress line: never synced here.
  crm: {
    syncStatus: vi.fn(async () => ({
      success: true as const,
      status: null,
      message: null,
      executionId: null,
      processed: null,
      total: null,
      result: null,
      completedAt: null,
    })),
  },
});

describe('crmCardState (001 §4)', () => {
  it('absent → Connect; inactive → Connect; active → Settings; blocked while the other CRM is active', () => {
    expect(crmCardState([], 'salesforce')).toEqual({ integration: null, action: 'connect', blockedBy: null });
    expect(crmCardState([crm('salesforce', false)], 'salesforce').action).toBe('connect');
    expect(crmCardState([crm('salesforce', true)], 'salesforce').action).toBe('settings');
    expect(crmCardState([crm('salesforce', true)], 'affinity').blockedBy).toBe('Salesforce');
    expect(crmCardState([crm('salesforce', false)], 'affinity').blockedBy).toBeNull();
  });
});

describe('SalesforceCard', () => {
  it('active: Settings, with account, created by, created and expires', async () => {
    renderWithApi(<SalesforceCard isAdmin onAuthorize={() => {}} />, fakeApi(listed([crm('salesforce', true)])));
    expect(await screen.findByTestId('salesforce-settings')).toBeTruthy();
    expect(screen.getByTestId('salesforce-account').textContent).toBe('ada@acme.example.com');
    expect(screen.getByTestId('salesforce-created-by').textContent).toBe('Ada Admin');
    expect(screen.getByTestId('salesforce-created-at').textContent).toBe('Mar 4, 2026');
    expect(screen.getByTestId('salesforce-expires-at').textContent).toBe('Jan 2, 2027');
    expect(screen.queryByTestId('salesforce-connect')).toBeNull();
  });

  it('Connect with the sandbox login sends the browser to the authorization URL', async () => {
    const user = userEvent.setup();
    const connect = vi.fn(async () => ({
      success: true as const,
      message: 'ok',
      integration: crm('salesforce', false),
      authorizationUrl: 'https://test.salesforce.com/services/oauth2/authorize?x=1',
    }));
    const onAuthorize = vi.fn();
    renderWithApi(<SalesforceCard isAdmin onAuthorize={onAuthorize} />, fakeApi({ ...listed([]), crm: { connect } }));
    await user.click(await screen.findByTestId('salesforce-connect'));
    await user.click(screen.getByLabelText(/Sandbox/));
    await user.click(screen.getByTestId('salesforce-submit'));
    await waitFor(() => expect(onAuthorize).toHaveBeenCalledWith('https://test.salesforce.com/services/oauth2/authorize?x=1'));
    expect(connect).toHaveBeenCalledWith({ provider: 'salesforce', environment: 'sandbox' });
  });

  it('disabled while Affinity is active, saying so; a User is told to ask the Admin', async () => {
    renderWithApi(<SalesforceCard isAdmin onAuthorize={() => {}} />, fakeApi(listed([crm('affinity', true)])));
    expect((await screen.findByTestId('salesforce-blocked')).textContent).toBe(CRM_CARD_TEXT.blocked('Affinity'));
    expect(screen.getByTestId('salesforce-connect').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('salesforce-blocked').textContent).toBe(CRM_CARD_TEXT.blocked('Affinity'));
    cleanup();
    renderWithApi(<SalesforceCard isAdmin={false} onAuthorize={() => {}} />, fakeApi(listed([])));
    expect((await screen.findByTestId('salesforce-status')).textContent).toBe(CRM_CARD_TEXT.notConnected);
    expect(screen.getByTestId('salesforce-connect').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('salesforce-ask-admin').textContent).toBe('Please ask your organization Admin to connect a CRM.');
  });
});

describe('AffinityCard', () => {
  it('connect: the key is required, the server message shows on failure, success refreshes the card', async () => {
    const user = userEvent.setup();
    let items: IntegrationDto[] = [];
    const connect = vi.fn(async () => {
      if (connect.mock.calls.length === 1) throw new ApiError(400, 'bad', { success: false, message: CRM_MESSAGES.affinityKeyRefused });
      items = [crm('affinity', true)];
      return { success: true as const, message: 'Affinity connected', integration: items[0] };
    });
    renderWithApi(
      <AffinityCard isAdmin />,
      fakeApi({ llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: items })) }, crm: { connect } }),
    );
    await user.click(await screen.findByTestId('affinity-connect'));
    await user.click(screen.getByTestId('affinity-submit'));
    expect(await screen.findByText(AFFINITY_TEXT.required)).toBeTruthy();
    expect(connect).not.toHaveBeenCalled();
    await user.type(screen.getByTestId('affinity-key'), 'bad-key');
    await user.click(screen.getByTestId('affinity-submit'));
    expect((await screen.findByTestId('affinity-error')).textContent).toBe(CRM_MESSAGES.affinityKeyRefused);
    await user.clear(screen.getByTestId('affinity-key'));
    await user.type(screen.getByTestId('affinity-key'), 'good-key');
    await user.click(screen.getByTestId('affinity-submit'));
    expect(await screen.findByTestId('affinity-settings')).toBeTruthy();
    expect(connect).toHaveBeenLastCalledWith({ provider: 'affinity', apiKey: 'good-key' });
    expect(screen.getByTestId('affinity-account').textContent).toBe('Acme Capital');
  });

  it('Settings → Disconnect asks first, then removes', async () => {
    const user = userEvent.setup();
    let items: IntegrationDto[] = [crm('affinity', true)];
    const remove = vi.fn(async () => {
      items = [];
      return { success: true as const, message: 'Integration removed' };
    });
    renderWithApi(
      <AffinityCard isAdmin />,
      fakeApi({ llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: items })) }, crm: { remove } }),
    );
    await user.click(await screen.findByTestId('affinity-settings'));
    await user.click(await screen.findByTestId('affinity-disconnect'));
    expect(await screen.findByText('Disconnect Affinity ?')).toBeTruthy();
    const confirm = await screen.findByTestId('confirm-dialog-confirm');
    expect(confirm.textContent).toBe('Yes, Disconnect');
    await user.click(confirm);
    await waitFor(() => expect(remove).toHaveBeenCalledWith('44444444-4444-4444-8444-444444444444'));
    expect(await screen.findByTestId('affinity-connect')).toBeTruthy();
  });
});

describe('a failed Salesforce connect stays on the card', () => {
  afterEach(() => localStorage.clear());

  it('the reason and what to do next stay (across a new render, as after a reload) until Dismiss', async () => {
    const user = userEvent.setup();
    keepFailure(crmConnectFailureKey('salesforce'), CRM_MESSAGES.authorizationDenied, '2026-11-29T04:00:00.000Z');
    const first = renderWithApi(<SalesforceCard isAdmin onAuthorize={() => {}} />, fakeApi(listed([])));
    const notice = await screen.findByTestId('salesforce-connect-failure');
    expect(notice.getAttribute('role')).toBe('alert');
    expect(screen.getByTestId('salesforce-connect-failure-reason').textContent).toBe(CRM_MESSAGES.authorizationDenied);
    expect(screen.getByTestId('salesforce-connect-failure-next').textContent).toBe("Connect again and choose Allow on Salesforce's page.");
    expect((await screen.findByTestId('salesforce-status')).textContent).toBe(CRM_CARD_TEXT.notConnected);
    first.unmount();
    renderWithApi(<SalesforceCard isAdmin onAuthorize={() => {}} />, fakeApi(listed([])));
    await screen.findByTestId('salesforce-connect-failure');
    await user.click(screen.getByTestId('salesforce-connect-failure-dismiss'));
    await waitFor(() => expect(screen.queryByTestId('salesforce-connect-failure')).toBeNull());
    expect(localStorage.getItem('dealscout.failure.salesforce-connect')).toBeNull();
  });

  it('Try again opens the connect form; a connection made after the failure clears it', async () => {
    const user = userEvent.setup();
    keepFailure(crmConnectFailureKey('salesforce'), CRM_MESSAGES.unreachable('Salesforce'), '2026-01-01T00:00:00.000Z');
    const first = renderWithApi(<SalesforceCard isAdmin onAuthorize={() => {}} />, fakeApi(listed([])));
    expect((await screen.findByTestId('salesforce-connect-failure-next')).textContent).toMatch(/Salesforce did not answer/);
    await user.click(screen.getByTestId('salesforce-connect-failure-retry'));
    expect(await screen.findByTestId('salesforce-form')).toBeTruthy();
    expect(screen.queryByTestId('salesforce-connect-failure')).toBeNull();
    first.unmount();
    keepFailure(crmConnectFailureKey('salesforce'), CRM_MESSAGES.authorizationFailed, '2026-01-01T00:00:00.000Z');
    renderWithApi(<SalesforceCard isAdmin onAuthorize={() => {}} />, fakeApi(listed([crm('salesforce', true)])));
    await screen.findByTestId('salesforce-settings');
    await waitFor(() => expect(localStorage.getItem('dealscout.failure.salesforce-connect')).toBeNull());
    expect(screen.queryByTestId('salesforce-connect-failure')).toBeNull();
  });

  it('a member sees the failure without Try again', async () => {
    keepFailure(crmConnectFailureKey('salesforce'), CRM_MESSAGES.authorizationFailed);
    renderWithApi(<SalesforceCard isAdmin={false} onAuthorize={() => {}} />, fakeApi(listed([])));
    await screen.findByTestId('salesforce-connect-failure');
    expect(screen.queryByTestId('salesforce-connect-failure-retry')).toBeNull();
  });
});

describe('connectNextStep', () => {
  it.each([
    [CRM_MESSAGES.authorizationDenied, /choose Allow/],
    [CRM_MESSAGES.authorizationExpired, /fifteen minutes/],
    [CRM_MESSAGES.salesforceNotConfigured, /connected app/],
    [CRM_MESSAGES.otherCrmActive('Affinity'), /Disconnect the other CRM/],
    [CRM_MESSAGES.unreachable('Salesforce'), /did not answer/],
    ['Salesforce answered an instance URL that cannot be used: x', /My Domain/],
    [CRM_MESSAGES.authorizationFailed, /allowed to use connected apps/],
  ])('%s', (message, next) => {
    expect(connectNextStep('Salesforce', message)).toMatch(next);
  });
});
