// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { CRM_USERNAME_MESSAGES, type CrmUserSettingsDto, type CrmUsernameStatus } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { CrmUsernameSettings } from './CrmUsernameSection';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const NONE: CrmUserSettingsDto = { provider: 'salesforce', crmName: 'Salesforce', crmUserId: null, crmUsername: null, linkedAt: null };

describe('CrmUsernameSettings (001 §5)', () => {
  it('no active CRM: the spec text, and a User is told to ask the Admin', async () => {
    renderWithApi(
      <CrmUsernameSettings isAdmin={false} />,
      fakeApi({
        crm: { userSettings: vi.fn(async () => ({ success: true as const, settings: { ...NONE, provider: null, crmName: null } })) },
      }),
    );
    const box = await screen.findByTestId('crm-username-disabled');
    expect(box.textContent).toContain(CRM_USERNAME_MESSAGES.notEnabled);
    expect(box.textContent).toContain('Please ask your organization Admin to connect a CRM.');
  });

  it('linked: read-only, says it cannot be changed', async () => {
    renderWithApi(
      <CrmUsernameSettings isAdmin />,
      fakeApi({
        crm: {
          userSettings: vi.fn(async () => ({
            success: true as const,
            settings: { ...NONE, crmUserId: '005x', crmUsername: 'rep@acme.com', linkedAt: '2026-03-04T10:00:00.000Z' },
          })),
        },
      }),
    );
    expect((await screen.findByTestId('crm-username-value')).textContent).toBe('rep@acme.com');
    expect(screen.getByTestId('crm-username-linked').textContent).toContain('cannot be changed');
    expect(screen.queryByTestId('crm-username-connect')).toBeNull();
  });

  it('checks after 250 ms of quiet (once per pause), shows each status message, Save only when available, confirm before linking', async () => {
    const answers: Record<string, CrmUsernameStatus> = {
      'taken@acme.com': 'USER_UNAVAILABLE',
      'rep@acme.com': 'USER_AVAILABLE',
      'nobody@acme.com': 'USER_INVALID',
    };
    const checkUsername = vi.fn(async (u: string) => ({
      success: true as const,
      status: answers[u],
      message:
        answers[u] === 'USER_UNAVAILABLE'
          ? CRM_USERNAME_MESSAGES.unavailable
          : answers[u] === 'USER_INVALID'
            ? CRM_USERNAME_MESSAGES.invalid
            : null,
    }));
    let settings = NONE;
    const linkUsername = vi.fn(async (u: string) => {
      settings = { ...NONE, crmUserId: '005x', crmUsername: u, linkedAt: new Date().toISOString() };
      return { success: true as const, settings };
    });
    renderWithApi(
      <CrmUsernameSettings isAdmin />,
      fakeApi({ crm: { userSettings: vi.fn(async () => ({ success: true as const, settings })), checkUsername, linkUsername } }),
    );
    fireEvent.click(await screen.findByTestId('crm-username-connect'));
    expect((await screen.findByTestId('crm-username-modal')).textContent).toContain(CRM_USERNAME_MESSAGES.title);
    const input = screen.getByTestId('crm-username-input');
    const save = () => screen.getByTestId('crm-username-save');

    vi.useFakeTimers({ shouldAdvanceTime: false });
    // Typing quickly: no check until 250 ms pass after the last key.
    for (const v of ['t', 'ta', 'taken@acme.com']) {
      fireEvent.change(input, { target: { value: v } });
      await act(async () => {
        vi.advanceTimersByTime(100);
      });
    }
    expect(checkUsername).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(150);
    });
    expect(checkUsername).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
    expect(await screen.findByText(CRM_USERNAME_MESSAGES.unavailable)).toBeTruthy();
    expect(save().hasAttribute('disabled')).toBe(true);

    fireEvent.change(input, { target: { value: 'not-an-email' } });
    expect(await screen.findByText(CRM_USERNAME_MESSAGES.invalid)).toBeTruthy();
    expect(checkUsername).toHaveBeenCalledTimes(1); // the pattern is checked here first

    fireEvent.change(input, { target: { value: 'rep@acme.com' } });
    await waitFor(() => expect(save().hasAttribute('disabled')).toBe(false));
    fireEvent.click(save());
    expect((await screen.findByTestId('crm-username-confirm')).textContent).toContain('Once linked, the link cannot be changed.');
    fireEvent.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(linkUsername).toHaveBeenCalledWith('rep@acme.com'));
    expect((await screen.findByTestId('crm-username-value')).textContent).toBe('rep@acme.com');
  });
});
