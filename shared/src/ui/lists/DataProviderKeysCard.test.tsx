// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../client';
import type { IntegrationDto } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { DataProviderKeysCard } from './DataProviderKeysCard';

afterEach(cleanup);

const OCEAN: IntegrationDto = {
  id: '33333333-3333-4333-8333-333333333333',
  provider: 'ocean',
  type: 'dataProvider',
  scope: 'organization',
  data: {
    name: 'Ocean.io',
    createdById: 'u1',
    createdBy: { id: 'u1', firstName: 'Ada', lastName: 'Admin' },
    createdAt: '2026-03-04T10:00:00.000Z',
    expiresAt: null,
    active: true,
    metadata: { name: 'Ocean.io', baseUrl: null, models: [], keyHint: 'wxyz' },
  },
} as IntegrationDto;

describe('DataProviderKeysCard (the organization keys of the list sources)', () => {
  it('an admin connects a key (sent once, trimmed), sees it connected with its hint, then removes it', async () => {
    let stored: IntegrationDto[] = [];
    const connect = vi.fn(async (body: { provider: string; apiKey: string }) => {
      stored = [{ ...OCEAN, provider: body.provider } as IntegrationDto];
      return { success: true as const, message: 'Integration connected.', integration: stored[0] };
    });
    const removeIntegration = vi.fn(async () => {
      stored = [];
      return { success: true as const, message: 'Integration removed.' };
    });
    const api = fakeApi({
      llm: {
        integrations: vi.fn(async () => ({ success: true as const, integrations: stored })),
        connect: connect as never,
        removeIntegration: removeIntegration as never,
      },
    });
    const user = userEvent.setup();
    renderWithApi(<DataProviderKeysCard isAdmin />, api);

    const row = await screen.findByTestId('data-provider-ocean');
    expect(within(row).getByText('Not connected')).toBeTruthy();
    const button = within(row).getByTestId('data-provider-ocean-connect') as HTMLButtonElement;
    expect(button.disabled).toBe(true); // nothing typed yet
    await user.type(within(row).getByTestId('data-provider-ocean-key'), '  oc-secret-wxyz  ');
    expect(button.disabled).toBe(false);
    await user.click(button);
    expect(connect).toHaveBeenCalledWith({ provider: 'ocean', apiKey: 'oc-secret-wxyz' });
    expect(await screen.findByText('Integration connected.')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('data-provider-ocean')).getByText('Connected · …wxyz')).toBeTruthy());
    // The key is never shown again: no input for a connected provider, the other two still offer one.
    expect(within(screen.getByTestId('data-provider-ocean')).queryByTestId('data-provider-ocean-key')).toBeNull();
    expect(screen.getByTestId('data-provider-sourceScrub-key')).toBeTruthy();
    expect(screen.getByTestId('data-provider-googleMaps-key')).toBeTruthy();

    await user.click(screen.getByTestId('data-provider-ocean-remove'));
    expect(removeIntegration).toHaveBeenCalledWith(OCEAN.id);
    await waitFor(() => expect(within(screen.getByTestId('data-provider-ocean')).getByText('Not connected')).toBeTruthy());
  });

  it("a refused key shows the server's message and keeps what was typed", async () => {
    const connect = vi.fn(async () => {
      throw new ApiError(400, 'The key is too long.', { success: false, message: 'The key is too long.' });
    });
    const api = fakeApi({
      llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: [] })), connect: connect as never },
    });
    const user = userEvent.setup();
    renderWithApi(<DataProviderKeysCard isAdmin />, api);
    const input = await screen.findByTestId('data-provider-sourceScrub-key');
    await user.type(input, 'no-colon');
    await user.click(screen.getByTestId('data-provider-sourceScrub-connect'));
    expect(await screen.findByText('The key is too long.')).toBeTruthy();
    expect((input as HTMLInputElement).value).toBe('no-colon');
  });

  it('a user sees which providers are connected, without keys or buttons', async () => {
    const api = fakeApi({ llm: { integrations: vi.fn(async () => ({ success: true as const, integrations: [OCEAN] })) } });
    renderWithApi(<DataProviderKeysCard isAdmin={false} />, api);
    await waitFor(() => expect(within(screen.getByTestId('data-provider-ocean')).getByText('Connected · …wxyz')).toBeTruthy());
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.queryByTestId('data-provider-googleMaps-key')).toBeNull();
  });
});
