// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationDto } from '../../contracts';
import { INTEGRATION_SETTINGS_HREF, NOTIFICATION_MESSAGES } from '../../domain';
import { fakeApi, renderWithApi } from '../test-render';
import { applyNotification } from '../realtime/cache';
import { NotificationBell } from './NotificationBell';

afterEach(cleanup);

function notification(over: Partial<NotificationDto> = {}): NotificationDto {
  return {
    id: crypto.randomUUID(),
    level: 'info',
    uniqueKey: null,
    read: false,
    href: null,
    message: 'Hello',
    createdAt: new Date().toISOString(),
    ...over,
  };
}

function bellApi(list: NotificationDto[]) {
  const state = { list };
  const listFn = vi.fn(async () => ({
    success: true as const,
    notifications: state.list,
    unreadCount: state.list.filter((n) => !n.read).length,
  }));
  const markAllRead = vi.fn(async () => {
    const count = state.list.filter((n) => !n.read).length;
    state.list = state.list.map((n) => ({ ...n, read: true }));
    return { success: true as const, message: NOTIFICATION_MESSAGES.allRead, count };
  });
  return { api: fakeApi({ notifications: { list: listFn, markAllRead } }), listFn, markAllRead, state };
}

const badge = () => screen.getByTestId('notifications-bell').getAttribute('data-unread-count');

describe('NotificationBell', () => {
  it('empty state: "You\'re all set. Nice work!", no badge and no read-all call', async () => {
    const user = userEvent.setup();
    const { api, markAllRead } = bellApi([]);
    renderWithApi(<NotificationBell onNavigate={vi.fn()} />, api);
    await waitFor(() => expect(badge()).toBe('0'));
    await user.click(screen.getByTestId('notifications-bell'));
    expect((await screen.findByTestId('notifications-empty')).textContent).toBe("You're all set. Nice work!");
    expect(markAllRead).not.toHaveBeenCalled();
  });

  it('shows the unread count; opening lists them by level, marks all read and clears the badge', async () => {
    const user = userEvent.setup();
    const { api, markAllRead } = bellApi([
      notification({
        level: 'error',
        message: 'Your Salesforce integration has expired. Please renew your subscription to regain access.',
        href: INTEGRATION_SETTINGS_HREF,
        uniqueKey: 'integration-expiry:1',
      }),
      notification({ level: 'warning', message: 'Your Office 365 integration will expire in 2 days.', href: INTEGRATION_SETTINGS_HREF }),
      notification({ level: 'info', message: 'Old news', read: true }),
    ]);
    const onNavigate = vi.fn();
    renderWithApi(<NotificationBell onNavigate={onNavigate} />, api);
    await waitFor(() => expect(badge()).toBe('2'));
    expect(screen.getByTestId('notifications-badge').textContent).toBe('2');
    expect(screen.getByTestId('notifications-bell').getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await user.click(screen.getByTestId('notifications-bell'));
    const items = await screen.findAllByTestId('notification-item');
    expect(items.map((i) => i.getAttribute('data-level'))).toEqual(['error', 'warning', 'info']);
    expect(items.map((i) => i.getAttribute('data-unread') ?? null)).toEqual(['true', 'true', null]);
    expect(within(items[1]).getByText('Your Office 365 integration will expire in 2 days.')).toBeTruthy();
    await waitFor(() => expect(markAllRead).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(badge()).toBe('0'));
    // Still highlighted while the list is open.
    expect(screen.getAllByTestId('notification-item')[0].getAttribute('data-unread')).toBe('true');
    await user.click(screen.getAllByTestId('notification-item')[0]);
    expect(onNavigate).toHaveBeenCalledWith('/account/profile');
    await waitFor(() => expect(screen.queryByTestId('notifications-popover')).toBeNull());
  });

  it('a notice pushed live raises the badge', async () => {
    const { api, state } = bellApi([]);
    const { queryClient } = renderWithApi(<NotificationBell onNavigate={vi.fn()} />, api);
    await waitFor(() => expect(badge()).toBe('0'));
    // The server stored it and pushed it (the realtime provider calls applyNotification).
    const n = notification({ level: 'warning', message: 'Your Office 365 integration expires today.' });
    state.list = [n, ...state.list];
    await act(async () => {
      await applyNotification(queryClient, n);
    });
    await waitFor(() => expect(badge()).toBe('1'));
  });
});
