// @vitest-environment happy-dom
// The header's CRM sync icon (tooltips and sticky toasts of 001 §8) and the mapping editor.
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CRM_SYNC_MESSAGES, type CrmSyncResponse, type FieldDto } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { CrmSyncButton, syncTooltip } from './CrmSyncButton';
import { CrmSyncSettings, mappableFields } from './CrmSyncSettings';
import { SalesforceCard } from './SalesforceCard';
import { syncChangeText } from './SyncHistorySection';

afterEach(cleanup);

const settings = (provider: 'salesforce' | 'affinity' | null, crmUserId: string | null = null) => ({
  userSettings: vi.fn(async () => ({
    success: true as const,
    settings: { provider, crmName: provider ? 'Salesforce' : null, crmUserId, crmUsername: null, linkedAt: null },
  })),
});
const answer = (over: Partial<CrmSyncResponse>): CrmSyncResponse => ({
  success: true,
  status: null,
  message: null,
  executionId: null,
  processed: null,
  total: null,
  result: null,
  completedAt: null,
  ...over,
});

describe('syncTooltip (001 §8 Sync tooltips)', () => {
  it('not enabled, the username hint for a User, otherwise the fetch hint', () => {
    expect(syncTooltip({ provider: null, crmUserId: null }, true)).toEqual({
      text: 'CRM integration is not enabled. Please configure CRM integration for the organization.',
      enabled: false,
    });
    expect(syncTooltip({ provider: 'salesforce', crmUserId: null }, false)).toEqual({
      text: 'To enable user based sync, please add your Salesforce username in the profile settings page',
      enabled: false,
    });
    expect(syncTooltip({ provider: 'affinity', crmUserId: '7' }, false)).toEqual({
      text: 'Click to fetch your data from Affinity',
      enabled: true,
    });
    expect(syncTooltip({ provider: 'salesforce', crmUserId: null }, true).text).toBe('Click to fetch your data from Salesforce');
  });
});

describe("syncChangeText (the drawer's sync history)", () => {
  it('says which side changed, and where a record was created from', () => {
    const c = {
      id: '1',
      provider: 'salesforce' as const,
      crmId: '001A',
      changedAt: '2026-11-26T10:00:00Z',
      fieldLabel: null,
      oldValue: null,
      newValue: null,
    };
    expect(syncChangeText({ ...c, side: 'dealscout', action: 'created' })).toBe('Created in Dealscout from Salesforce (001A)');
    expect(syncChangeText({ ...c, side: 'crm', action: 'created' })).toBe('Created in Salesforce from Dealscout (001A)');
    expect(syncChangeText({ ...c, side: 'crm', action: 'updated', fieldLabel: 'Name', oldValue: 'Hooli', newValue: 'Hooli XYZ' })).toBe(
      'Name updated in Salesforce: Hooli → Hooli XYZ',
    );
  });
});

describe('CrmSyncButton', () => {
  it('invalid settings: the server message as a toast that stays', async () => {
    const user = userEvent.setup();
    const sync = vi.fn(async () => answer({ status: 'invalid', message: CRM_SYNC_MESSAGES.invalidSettings }));
    renderWithApi(
      <CrmSyncButton isAdmin />,
      fakeApi({ crm: { ...settings('salesforce'), sync, syncStatus: vi.fn(async () => answer({})) } }),
    );
    const button = await screen.findByTestId('crm-sync-button');
    await waitFor(() => expect(button.getAttribute('aria-disabled')).not.toBe('true'));
    await user.click(button);
    expect(await screen.findByText(CRM_SYNC_MESSAGES.invalidSettings)).toBeTruthy();
  });

  it('progress, then completed with failures; then an error with its server message', async () => {
    const user = userEvent.setup();
    let state = answer({ status: 'progress', message: CRM_SYNC_MESSAGES.progress, executionId: 'e1' });
    const syncStatus = vi.fn(async () => state);
    const sync = vi.fn(async () => state);
    renderWithApi(<CrmSyncButton isAdmin />, fakeApi({ crm: { ...settings('salesforce'), sync, syncStatus } }));
    const button = await screen.findByTestId('crm-sync-button');
    await waitFor(() => expect(button.getAttribute('aria-disabled')).not.toBe('true'));
    await user.click(button);
    // (The tooltip says so too while it runs: the toast is the info one.)
    expect((await screen.findByTestId('toast-info')).textContent).toBe(CRM_SYNC_MESSAGES.progress);
    state = answer({ status: 'completed', message: CRM_SYNC_MESSAGES.failures, executionId: 'e1' });
    expect((await screen.findByTestId('toast-warning', undefined, { timeout: 5_000 })).textContent).toBe(CRM_SYNC_MESSAGES.failures);
    await waitFor(() => expect(screen.queryByTestId('toast-info')).toBeNull());
    state = answer({ status: 'progress', message: CRM_SYNC_MESSAGES.progress, executionId: 'e2' });
    await user.click(button);
    state = answer({
      status: 'failed',
      message: 'Salesforce is limiting requests right now. Please try again in a minute.',
      executionId: 'e2',
    });
    expect((await screen.findByTestId('toast-error', undefined, { timeout: 5_000 })).textContent).toBe(
      'Salesforce is limiting requests right now. Please try again in a minute.',
    );
  }, 15_000);
});

const field = (over: Partial<FieldDto>): FieldDto =>
  ({ id: 'f', key: 'k', label: 'L', dataType: 'string', entityType: 'company', isMandatory: false, isPseudo: false, ...over }) as FieldDto;

describe('CrmSyncSettings', () => {
  it('offers the mappable Dealscout fields only', () => {
    const fs = [
      field({ id: '1', key: 'id', dataType: 'id', isMandatory: true }),
      field({ id: '2', key: 'name', label: 'Name', isMandatory: true }),
      field({ id: '3', key: 'domain', isPseudo: true, isMandatory: true }),
      field({ id: '4', key: 'owner', dataType: 'reference', isMandatory: true }),
      field({ id: '5', key: 'industry', label: 'Industry' }),
      field({ id: '6', key: 'created_at', dataType: 'date', isMandatory: true }),
    ];
    expect(mappableFields(fs, 'company').map((f) => f.id)).toEqual(['5', '2']);
  });

  it('adds mappings from the CRM list and saves them', async () => {
    const user = userEvent.setup();
    const company = [
      field({ id: 'c-name', key: 'name', label: 'Name', isMandatory: true }),
      field({ id: 'c-web', key: 'website', label: 'Website', isMandatory: true }),
    ];
    const contact = [field({ id: 'p-mail', key: 'email', label: 'Email', entityType: 'contact', isMandatory: true })];
    const saveSyncSettings = vi.fn(async (body: unknown) => ({
      success: true as const,
      message: CRM_SYNC_MESSAGES.settingsSaved,
      settings: { ...(body as object), provider: 'salesforce' as const, updatedAt: null } as never,
    }));
    renderWithApi(
      <CrmSyncSettings isAdmin />,
      fakeApi({
        crm: {
          syncSettings: vi.fn(async () => ({
            success: true as const,
            settings: {
              provider: 'salesforce' as const,
              syncAccounts: true,
              syncContacts: true,
              accountMappings: [],
              contactMappings: [],
              updatedAt: null,
            },
          })),
          fields: vi.fn(async () => ({
            success: true as const,
            provider: 'salesforce' as const,
            account: [
              { name: 'Name', label: 'Account Name', type: 'string', custom: false },
              { name: 'Website', label: 'Website', type: 'url', custom: false },
            ],
            contact: [{ name: 'Email', label: 'Email', type: 'email', custom: false }],
          })),
          saveSyncSettings,
        },
        fields: { list: vi.fn(async (t?: string) => ({ success: true as const, fields: t === 'company' ? company : contact })) },
      }),
    );
    expect(await screen.findByText(CRM_SYNC_MESSAGES.invalidSettings)).toBeTruthy();
    await user.click(screen.getByTestId('account-add-mapping'));
    await user.click(screen.getByTestId('account-add-mapping'));
    await user.click(screen.getByTestId('contact-add-mapping'));
    await user.selectOptions(screen.getAllByTestId('account-reconciliation')[1], 'keep_existing');
    await user.click(screen.getByTestId('sync-settings-save'));
    await waitFor(() => expect(saveSyncSettings).toHaveBeenCalled());
    expect(saveSyncSettings.mock.calls[0][0]).toEqual({
      syncAccounts: true,
      syncContacts: true,
      accountMappings: [
        { crmField: 'Name', crmLabel: 'Account Name', fieldId: 'c-name', reconciliation: 'use_latest' },
        { crmField: 'Website', crmLabel: 'Website', fieldId: 'c-web', reconciliation: 'keep_existing' },
      ],
      contactMappings: [{ crmField: 'Email', crmLabel: 'Email', fieldId: 'p-mail', reconciliation: 'use_latest' }],
    });
    expect(await screen.findByText(CRM_SYNC_MESSAGES.settingsSaved)).toBeTruthy();
  });
});

describe('the Salesforce mapping dialog', () => {
  const sfIntegration = {
    id: '33333333-3333-4333-8333-333333333333',
    provider: 'salesforce' as const,
    type: 'crm' as const,
    scope: 'organization' as const,
    data: {
      name: 'Salesforce',
      createdById: 'u1',
      createdBy: { id: 'u1', firstName: 'Ada', lastName: 'Admin' },
      createdAt: '2026-03-04T10:00:00.000Z',
      expiresAt: '2027-01-02T10:00:00.000Z',
      active: true,
      metadata: {
        name: 'ada@acme.example.com',
        username: 'ada@acme.example.com',
        environment: 'production',
        instanceUrl: 'https://acme.my.salesforce.com',
      },
    },
  };
  const company = [field({ id: 'c-name', key: 'name', label: 'Name', isMandatory: true })];
  const contact = [field({ id: 'p-mail', key: 'email', label: 'Email', entityType: 'contact', isMandatory: true })];
  const apis = (saveSyncSettings = vi.fn()) =>
    fakeApi({
      llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: [sfIntegration] })) },
      crm: {
        syncSettings: vi.fn(async () => ({
          success: true as const,
          settings: {
            provider: 'salesforce' as const,
            syncAccounts: true,
            syncContacts: true,
            accountMappings: [],
            contactMappings: [],
            updatedAt: null,
          },
        })),
        fields: vi.fn(async () => ({
          success: true as const,
          provider: 'salesforce' as const,
          account: [{ name: 'Name', label: 'Account Name', type: 'string', custom: false }],
          contact: [{ name: 'Email', label: 'Email', type: 'email', custom: false }],
        })),
        saveSyncSettings,
      },
      fields: { list: vi.fn(async (t?: string) => ({ success: true as const, fields: t === 'company' ? company : contact })) },
    });
  const actionBar = (dialog: HTMLElement) => [...dialog.querySelectorAll('.fui-DialogActions button')].map((b) => b.textContent);

  it('has one action bar: Back, then Cancel and the one primary action, Save mappings, which saves and closes', async () => {
    const user = userEvent.setup();
    const saveSyncSettings = vi.fn(async (body: unknown) => ({
      success: true as const,
      message: CRM_SYNC_MESSAGES.settingsSaved,
      settings: { ...(body as object), provider: 'salesforce' as const, updatedAt: null } as never,
    }));
    renderWithApi(<SalesforceCard isAdmin onAuthorize={() => {}} />, apis(saveSyncSettings));
    await user.click(await screen.findByTestId('salesforce-settings'));
    await user.click(await screen.findByTestId('salesforce-mapping'));
    const dialog = await screen.findByTestId('salesforce-mapping-dialog');
    await screen.findByTestId('sync-settings');
    expect(actionBar(dialog)).toEqual(['Back', 'Cancel', 'Save mappings']);
    // Nothing else to press in the content: the save button is the action bar's, not the form's.
    expect(dialog.querySelector('.fui-DialogContent [data-testid="sync-settings-save"]')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    await user.click(screen.getByTestId('account-add-mapping'));
    await user.click(screen.getByTestId('sync-settings-save'));
    await waitFor(() => expect(saveSyncSettings).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByTestId('salesforce-mapping-dialog')).toBeNull());
  });

  it('Back returns to the settings; a user who cannot edit gets Close only', async () => {
    const user = userEvent.setup();
    renderWithApi(<SalesforceCard isAdmin onAuthorize={() => {}} />, apis());
    await user.click(await screen.findByTestId('salesforce-settings'));
    await user.click(await screen.findByTestId('salesforce-mapping'));
    await screen.findByTestId('sync-settings');
    await user.click(screen.getByTestId('sync-settings-back'));
    expect(await screen.findByTestId('salesforce-settings-dialog')).toBeTruthy();
    cleanup();
    renderWithApi(<CrmSyncSettings isAdmin={false} dialog={{ onClose: () => {} }} />, apis());
    await screen.findByTestId('sync-settings');
    expect([...document.querySelectorAll('.fui-DialogActions button')].map((b) => b.textContent)).toEqual(['Close']);
  });
});
