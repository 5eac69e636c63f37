// @vitest-environment happy-dom
import './test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { INVITE_MESSAGES } from '../domain';
import { InviteUsersModal, type InviteUsersModalProps } from './InviteUsersModal';
import { serverMessage } from './server-message';
import { ConfirmDialog } from './ConfirmDialog';
import { PluginModeProvider, modalWidth } from './PluginMode';

afterEach(cleanup);

const ROLES = [
  { id: 'User', name: 'User' },
  { id: 'Admin', name: 'Admin' },
];

function renderModal(overrides: Partial<InviteUsersModalProps> = {}) {
  const props: InviteUsersModalProps = {
    open: true,
    onOpenChange: vi.fn(),
    seats: 5,
    roles: ROLES,
    existingEmails: ['ada@acme.test', 'pending@acme.test'],
    onInvite: vi.fn(async (emails: string[]) => ({ message: `Invitation sent to ${emails.length} user(s).`, invitedUsers: emails })),
    onInvited: vi.fn(),
    ...overrides,
  };
  render(
    <FluentProvider theme={webLightTheme}>
      <InviteUsersModal {...props} />
    </FluentProvider>,
  );
  return props;
}

async function typeEmails(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.click(screen.getByTestId('tags-input-field'));
  await user.type(screen.getByTestId('tags-input-field'), text);
}

const errorText = () => screen.getByTestId('invite-error').textContent;

describe('InviteUsersModal', { timeout: 20_000 }, () => {
  it('is titled Add Users by Email and counts the seats left', async () => {
    const user = userEvent.setup();
    renderModal();
    expect(screen.getByText('Add Users by Email')).toBeTruthy();
    expect(screen.getByTestId('invite-seat-counter').textContent).toBe('5 of 5 seats available');
    await typeEmails(user, 'bob@acme.test ');
    expect(screen.getByTestId('invite-seat-counter').textContent).toBe('4 of 5 seats available');
  });

  it('counts only valid addresses against the seats', async () => {
    const user = userEvent.setup();
    renderModal();
    await typeEmails(user, 'bob@acme.test nope ');
    expect(screen.getByTestId('invite-seat-counter').textContent).toBe('4 of 5 seats available');
  });

  it('shows every problem at once: a missing role and invalid addresses', async () => {
    const user = userEvent.setup();
    const props = renderModal();
    await typeEmails(user, 'bob@acme.test nope ');
    await user.click(screen.getByTestId('invite-send'));
    expect(screen.getAllByTestId('invite-error-message').map((e) => e.textContent)).toEqual([
      INVITE_MESSAGES.roleRequired,
      'Some email addresses are not valid: nope',
    ]);
    expect(props.onInvite).not.toHaveBeenCalled();
  });

  it('requires a role first, then an email', async () => {
    const user = userEvent.setup();
    const props = renderModal();
    await user.click(screen.getByTestId('invite-send'));
    expect(screen.getAllByTestId('invite-error-message').map((e) => e.textContent)).toEqual([
      INVITE_MESSAGES.roleRequired,
      INVITE_MESSAGES.emailEmpty,
    ]);
    await user.selectOptions(screen.getByTestId('invite-role'), 'User');
    await user.click(screen.getByTestId('invite-send'));
    expect(errorText()).toBe(INVITE_MESSAGES.emailEmpty);
    expect(props.onInvite).not.toHaveBeenCalled();
  });

  it('shows the spec messages for invalid, duplicated and existing addresses', async () => {
    const user = userEvent.setup();
    const props = renderModal();
    await user.selectOptions(screen.getByTestId('invite-role'), 'User');
    await typeEmails(user, 'bob@acme.test nope ');
    await user.click(screen.getByTestId('invite-send'));
    expect(errorText()).toBe('Some email addresses are not valid: nope');

    await user.click(screen.getByTestId('tags-input-field'));
    await user.keyboard('{Backspace}');
    await user.clear(screen.getByTestId('tags-input-field'));
    await user.type(screen.getByTestId('tags-input-field'), 'BOB@acme.test ');
    await user.click(screen.getByTestId('invite-send'));
    expect(errorText()).toBe(INVITE_MESSAGES.duplicated);

    await user.click(screen.getByTestId('tags-input-field'));
    await user.keyboard('{Backspace}');
    await user.clear(screen.getByTestId('tags-input-field'));
    await user.type(screen.getByTestId('tags-input-field'), 'Ada@Acme.test ');
    await user.click(screen.getByTestId('invite-send'));
    expect(errorText()).toBe('The following email addresses are already invited or members of your organization: ada@acme.test');
    expect(props.onInvite).not.toHaveBeenCalled();
  });

  it('sends lowercased emails (pending text included) with the role, then closes', async () => {
    const user = userEvent.setup();
    const props = renderModal();
    await user.selectOptions(screen.getByTestId('invite-role'), 'Admin');
    await typeEmails(user, 'Bob@Acme.test,carol@acme.test');
    // 'carol@acme.test' is still in the input: Send Invite takes it too.
    await user.click(screen.getByTestId('invite-send'));
    await waitFor(() => expect(props.onInvite).toHaveBeenCalledWith(['bob@acme.test', 'carol@acme.test'], 'Admin'));
    await waitFor(() => expect(props.onOpenChange).toHaveBeenCalledWith(false));
    expect(props.onInvited).toHaveBeenCalledWith({
      message: 'Invitation sent to 2 user(s).',
      invitedUsers: ['bob@acme.test', 'carol@acme.test'],
    });
  });

  it("shows the server's message on failure, or the spec's fallback", async () => {
    const user = userEvent.setup();
    const failing = vi
      .fn()
      .mockRejectedValueOnce(Object.assign(new Error('x'), { body: { success: false, message: 'Seat limit reached' } }))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderModal({ onInvite: failing });
    await user.selectOptions(screen.getByTestId('invite-role'), 'User');
    await typeEmails(user, 'bob@acme.test ');
    await user.click(screen.getByTestId('invite-send'));
    await waitFor(() => expect(errorText()).toBe('Seat limit reached'));
    await user.click(screen.getByTestId('invite-send'));
    await waitFor(() => expect(errorText()).toBe(INVITE_MESSAGES.failed));
  });

  it('disables the email input when no seat is left', () => {
    renderModal({ seats: 0 });
    expect((screen.getByTestId('tags-input-field') as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId('invite-seat-counter').textContent).toBe(INVITE_MESSAGES.noSeats);
  });

  it('shows the roles failure message', () => {
    renderModal({ roles: [], rolesError: 'Could not get user roles' });
    expect(screen.getByText('Could not get user roles')).toBeTruthy();
  });
});

describe('serverMessage', () => {
  it('reads the message of an API error body only', () => {
    expect(serverMessage({ body: { message: 'No' } })).toBe('No');
    expect(serverMessage({ body: { message: '  ' } })).toBeNull();
    expect(serverMessage(new Error('Request failed (500)'))).toBeNull();
    expect(serverMessage(null)).toBeNull();
  });
});

describe('ConfirmDialog', () => {
  it('confirms, and closes on Esc and Cancel', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <FluentProvider theme={webLightTheme}>
        <ConfirmDialog open type="delete" title="Delete user" message="Sure?" onConfirm={onConfirm} onCancel={onCancel} />
      </FluentProvider>,
    );
    expect(screen.getByTestId('confirm-dialog').getAttribute('data-confirm-type')).toBe('delete');
    expect(screen.getByTestId('confirm-dialog-confirm').textContent).toBe('Delete');
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    expect(onCancel).toHaveBeenCalledTimes(2);
  });

  it("shows a failed action's message and stays open", async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    render(
      <FluentProvider theme={webLightTheme}>
        <ConfirmDialog
          open
          type="warning"
          title="Disable user"
          message="Sure?"
          onConfirm={() => Promise.reject(new Error('You cannot do that'))}
          onCancel={onCancel}
        />
      </FluentProvider>,
    );
    expect(screen.getByTestId('confirm-dialog-confirm').textContent).toBe('Continue');
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(screen.getByText('You cannot do that')).toBeTruthy());
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('is 400 px wide, full width in plugin mode', () => {
    expect(modalWidth(false)).toBe('400px');
    expect(modalWidth(true)).toBe('100%');
    render(
      <FluentProvider theme={webLightTheme}>
        <PluginModeProvider value>
          <ConfirmDialog open type="regenerate" title="Regenerate" message="Sure?" onConfirm={() => {}} onCancel={() => {}} />
        </PluginModeProvider>
      </FluentProvider>,
    );
    expect(screen.getByTestId('confirm-dialog').style.width).toBe('100%');
    expect(screen.getByTestId('confirm-dialog-confirm').textContent).toBe('Regenerate');
  });
});
