// @vitest-environment happy-dom
// The email service in the clients: the integrations card's states (spec 001 §2, §4),
// the draft send controls (spec 000 §2 'Floating draft-email panels', §4 'Sending'), and the
// scheduled / errored email activity (spec 000 §2 'Activities tab', §4 'Cancel Send & Edit', 'Try Again').
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../client';
import type { ActivityDto, EmailDraftDto, EmailServiceStatusResponse } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { EmailServiceCard, emailServiceState } from './EmailServiceCard';
import { DraftSendControls, draftSendProblem } from './DraftSendControls';
import { ScheduledEmailActions } from './ScheduledEmailActions';

afterEach(cleanup);
const DAY = 86_400_000;
const inDays = (n: number) => new Date(Date.now() + n * DAY + 3_600_000).toISOString();

function serviceStatus(over: Partial<EmailServiceStatusResponse> = {}): EmailServiceStatusResponse {
  return {
    success: true,
    configured: true,
    banner: null,
    queued: 0,
    workingHoursSource: 'mailbox',
    workingHours: {
      daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
      startTime: '08:00:00.0000000',
      endTime: '17:00:00.0000000',
      timeZone: 'Pacific Standard Time',
    },
    integration: { id: 'i-1', account: 'rita@contoso.com', expiresAt: inDays(60), active: true },
    ...over,
  };
}
const draft = (over: Partial<EmailDraftDto> = {}): EmailDraftDto => ({
  channelEmailId: '00000000-0000-4000-8000-000000000001',
  title: 'Ann Buyer',
  from: 'rita@contoso.com',
  to: 'ann@buyer.com',
  cc: [],
  subject: 'Quick question',
  emailBody: '<p>Hello Ann</p>',
  contact: { id: '00000000-0000-4000-8000-0000000000c1', firstName: 'Ann', lastName: 'Buyer', email: 'ann@buyer.com' },
  companyId: '00000000-0000-4000-8000-0000000000b1',
  play: null,
  executionId: null,
  isAiEmailGenerated: false,
  status: 'draft',
  statusMessage: null,
  provenance: null,
  showToFromCC: false,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  ...over,
});

describe('EmailServiceCard', () => {
  it("states: 'Expires at' a date, 'Expires soon' at 5 days or fewer, 'Expired' at zero or less or when refused", () => {
    const now = Date.now();
    expect(emailServiceState(new Date(now + 30 * DAY).toISOString(), true, now)).toBe('active');
    expect(emailServiceState(new Date(now + 5 * DAY + 1000).toISOString(), true, now)).toBe('expiresSoon');
    expect(emailServiceState(new Date(now + 6 * DAY + 1000).toISOString(), true, now)).toBe('active');
    expect(emailServiceState(new Date(now + 1000).toISOString(), true, now)).toBe('expired');
    expect(emailServiceState(new Date(now - DAY).toISOString(), true, now)).toBe('expired');
    expect(emailServiceState(new Date(now + 30 * DAY).toISOString(), false, now)).toBe('expired');
  });

  it('not connected: Connect asks the server for the consent page and goes there', async () => {
    const user = userEvent.setup();
    const connect = vi.fn(async () => ({ success: true as const, authorizeUrl: 'https://login.example/authorize?x=1' }));
    const openConsent = vi.fn();
    renderWithApi(
      <EmailServiceCard openConsent={openConsent} />,
      fakeApi({ emailService: { status: async () => serviceStatus({ integration: null }), connect } }),
    );
    expect((await screen.findByTestId('email-service-status')).textContent).toContain('Not connected');
    await user.click(screen.getByTestId('email-service-connect'));
    await waitFor(() => expect(openConsent).toHaveBeenCalledWith('https://login.example/authorize?x=1'));
    expect(connect).toHaveBeenCalledWith({ returnTo: '/account/profile' });
  });

  it('a mailbox zone the server cannot read: the card says which zone the send window follows instead', async () => {
    const zoneNotice =
      "Your mailbox's time zone (Mars Standard Time) is not one we know: scheduled emails follow UTC until you set your own send window.";
    const status = async () => serviceStatus({ zoneNotice, workingHours: { ...serviceStatus().workingHours, timeZone: 'UTC' } });
    renderWithApi(<EmailServiceCard />, fakeApi({ emailService: { status } }));
    expect((await screen.findByTestId('email-service-zone-notice')).textContent).toBe(zoneNotice);
  });

  it('back from the consent page: once loaded, the card scrolls into view, takes the focus and says how it went', async () => {
    const scrolled = vi.fn();
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = scrolled;
    try {
      const handled = vi.fn();
      renderWithApi(
        <EmailServiceCard returnedWith="connected" onReturnHandled={handled} />,
        fakeApi({ emailService: { status: async () => serviceStatus() } }),
      );
      const card = screen.getByTestId('email-service-card');
      expect(document.activeElement).not.toBe(card);
      await screen.findByTestId('email-service-connected');
      await waitFor(() => expect(document.activeElement).toBe(card));
      expect(scrolled).toHaveBeenCalledTimes(1);
      expect(scrolled.mock.contexts[0]).toBe(card);
      expect((await screen.findByTestId('toast-success')).textContent).toBe('Office 365 connected.');
      expect(handled).toHaveBeenCalledTimes(1);
      cleanup();
      // A failure stays on the card with its reason and what to do next (no toast that vanishes),
      // also after a reload (a new render without the callback's outcome), until dismissed.
      renderWithApi(
        <EmailServiceCard returnedWith="error" returnedReason="denied" />,
        fakeApi({ emailService: { status: async () => serviceStatus({ integration: null }) } }),
      );
      await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('email-service-card')));
      expect((await screen.findByTestId('email-service-connect-failure-reason')).textContent).toBe(
        "The Office 365 connection was cancelled on Microsoft's page.",
      );
      expect(screen.getByTestId('email-service-connect-failure-next').textContent).toMatch(/accept the permissions Microsoft asks for/);
      expect(screen.queryByTestId('toast-error')).toBeNull();
      cleanup();
      renderWithApi(<EmailServiceCard />, fakeApi({ emailService: { status: async () => serviceStatus({ integration: null }) } }));
      await screen.findByTestId('email-service-connect-failure');
      await userEvent.setup().click(screen.getByTestId('email-service-connect-failure-dismiss'));
      await waitFor(() => expect(screen.queryByTestId('email-service-connect-failure')).toBeNull());
      cleanup();
      renderWithApi(
        <EmailServiceCard returnedWith="error" returnedReason="something-new" />,
        fakeApi({ emailService: { status: async () => serviceStatus({ integration: null }) } }),
      );
      expect((await screen.findByTestId('email-service-connect-failure-reason')).textContent).toBe(
        'Office 365 was not connected. Please try again.',
      );
      localStorage.clear();
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });

  it('connected: the account, Expires at, the send window; Disconnect goes through the confirmation modal', async () => {
    const user = userEvent.setup();
    const disconnect = vi.fn(async () => ({ success: true as const, message: 'Office 365 disconnected.' }));
    renderWithApi(<EmailServiceCard />, fakeApi({ emailService: { status: async () => serviceStatus(), disconnect } }));
    expect((await screen.findByTestId('email-service-connected')).textContent).toBe('Connected');
    expect(screen.getByTestId('email-service-account').textContent).toBe('rita@contoso.com');
    expect(screen.getByTestId('email-service-expires-at').textContent).toMatch(/\d{4}/);
    expect(screen.getByTestId('email-service-window').textContent).toContain('08:00–17:00 (Pacific Standard Time)');
    expect(screen.queryByTestId('email-service-reauth')).toBeNull();
    await user.click(screen.getByTestId('email-service-disconnect'));
    const dialog = await screen.findByTestId('email-service-disconnect-dialog');
    expect(dialog.textContent).toContain('Disconnect Office365 Email Service ?');
    expect(within(dialog).getByTestId('confirm-dialog-cancel').textContent).toBe('Cancel');
    expect(within(dialog).getByTestId('confirm-dialog-confirm').textContent).toBe('Yes, Disconnect');
    await user.click(within(dialog).getByTestId('confirm-dialog-cancel'));
    expect(disconnect).not.toHaveBeenCalled();
    await user.click(screen.getByTestId('email-service-disconnect'));
    await user.click(within(await screen.findByTestId('email-service-disconnect-dialog')).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(disconnect).toHaveBeenCalledWith('i-1'));
    expect((await screen.findByTestId('toast-success')).textContent).toBe('Office 365 disconnected.');
  });

  it("Change the send window: saves the user's own hours", async () => {
    const user = userEvent.setup();
    const setSendWindow = vi.fn(async () => ({ success: true as const, message: 'Send window saved.' }));
    renderWithApi(<EmailServiceCard />, fakeApi({ emailService: { status: async () => serviceStatus(), setSendWindow } }));
    await user.click(await screen.findByTestId('email-service-window-edit'));
    const zone = screen.getByTestId('email-service-window-zone').querySelector('input') ?? screen.getByTestId('email-service-window-zone');
    await user.clear(zone as HTMLInputElement);
    await user.type(zone as HTMLInputElement, 'Europe/Berlin');
    await user.click(screen.getByTestId('email-service-window-save'));
    await waitFor(() =>
      expect(setSendWindow).toHaveBeenCalledWith({
        window: {
          daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
          startTime: '08:00',
          endTime: '17:00',
          timeZone: 'Europe/Berlin',
        },
      }),
    );
    expect((await screen.findByTestId('toast-success')).textContent).toBe('Send window saved.');
  });

  it("'Expires soon' and 'Expired' offer Re Authenticate", async () => {
    renderWithApi(
      <EmailServiceCard />,
      fakeApi({
        emailService: {
          status: async () => serviceStatus({ integration: { id: 'i', account: 'a@b.c', expiresAt: inDays(3), active: true } }),
        },
      }),
    );
    expect((await screen.findByTestId('email-service-expires-soon')).textContent).toBe('Expires soon');
    expect(screen.getByTestId('email-service-reauth').textContent).toBe('Re Authenticate');
    cleanup();
    renderWithApi(
      <EmailServiceCard />,
      fakeApi({
        emailService: {
          status: async () => serviceStatus({ integration: { id: 'i', account: 'a@b.c', expiresAt: inDays(30), active: false } }),
        },
      }),
    );
    expect((await screen.findByTestId('email-service-expired')).textContent).toBe('Expired');
    expect(screen.getByTestId('email-service-refused')).toBeTruthy();
    expect(screen.getByTestId('email-service-reauth')).toBeTruthy();
  });
});

describe('DraftSendControls', () => {
  it("'{label} is required.' for the first missing field", () => {
    expect(draftSendProblem({ to: '', subject: 's', emailBody: 'b' })).toBe('To is required.');
    expect(draftSendProblem({ to: 'a@b.c', subject: ' ', emailBody: 'b' })).toBe('Subject is required.');
    expect(draftSendProblem({ to: 'a@b.c', subject: 's', emailBody: '<p>&nbsp;</p>' })).toBe('Body is required.');
    expect(draftSendProblem({ to: 'a@b.c', subject: 's', emailBody: '<p>x</p>' })).toBeNull();
  });

  it("Send Now: the server's message as a toast, and the sent draft handed back", async () => {
    const user = userEvent.setup();
    const send = vi.fn(async () => ({
      success: true as const,
      message: 'Email sent successfully.',
      email: draft({ status: 'sent' }),
      sendAt: new Date().toISOString(),
      sent: true,
    }));
    const onChange = vi.fn();
    renderWithApi(
      <DraftSendControls draft={draft()} onChange={onChange} />,
      fakeApi({ emailService: { status: async () => serviceStatus(), send } }),
    );
    await user.click(await screen.findByTestId('draft-send-now'));
    expect((await screen.findByTestId('toast-success')).textContent).toBe('Email sent successfully.');
    expect(send).toHaveBeenCalledWith(
      expect.objectContaining({
        id: draft().channelEmailId,
        to: 'ann@buyer.com',
        subject: 'Quick question',
        body: '<p>Hello Ann</p>',
        scheduledAt: undefined,
      }),
    );
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ status: 'sent' }));
  });

  it('a missing field is refused before any call; a failed send shows the Send Error banner', async () => {
    const user = userEvent.setup();
    const send = vi.fn(async () => {
      throw new ApiError(502, 'Something went wrong to sending email.', {
        success: false,
        message: 'Something went wrong to sending email.',
      });
    });
    renderWithApi(
      <DraftSendControls draft={draft({ subject: '' })} />,
      fakeApi({ emailService: { status: async () => serviceStatus(), send } }),
    );
    await user.click(await screen.findByTestId('draft-send-now'));
    expect((await screen.findByTestId('toast-error')).textContent).toBe('Subject is required.');
    expect(send).not.toHaveBeenCalled();
    cleanup();
    renderWithApi(<DraftSendControls draft={draft()} />, fakeApi({ emailService: { status: async () => serviceStatus(), send } }));
    await user.click(await screen.findByTestId('draft-send-now'));
    expect((await screen.findByTestId('draft-banner-send-error')).textContent).toBe('Send ErrorSomething went wrong to sending email.');
  });

  it('schedule: shows when the email will actually leave, then sends with scheduledAt', async () => {
    const user = userEvent.setup();
    const leaves = new Date(Date.now() + 2 * DAY).toISOString();
    const sendTime = vi.fn(async () => ({ success: true as const, sendAt: leaves, moved: true }));
    const send = vi.fn(async () => ({
      success: true as const,
      message: 'Email scheduled successfully.',
      email: draft({ status: 'scheduled' }),
      sendAt: leaves,
      sent: false,
    }));
    renderWithApi(
      <DraftSendControls draft={draft()} />,
      fakeApi({ emailService: { status: async () => serviceStatus(), sendTime, send } }),
    );
    await user.click(await screen.findByTestId('draft-schedule'));
    expect((await screen.findByTestId('draft-leaves-at')).textContent).toContain('inside your working hours');
    await user.click(screen.getByTestId('draft-schedule-confirm'));
    expect((await screen.findByTestId('toast-success')).textContent).toBe('Email scheduled successfully.');
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ status: 'scheduled', scheduledAt: expect.stringMatching(/Z$/) }));
  });

  it("schedule: when the mailbox's waiting emails push it back (30 a minute), the panel says so", async () => {
    const user = userEvent.setup();
    const leaves = new Date(Date.now() + DAY + 60_000).toISOString();
    const sendTime = vi.fn(async () => ({ success: true as const, sendAt: leaves, moved: false, queued: true }));
    renderWithApi(<DraftSendControls draft={draft()} />, fakeApi({ emailService: { status: async () => serviceStatus(), sendTime } }));
    await user.click(await screen.findByTestId('draft-schedule'));
    const text = (await screen.findByTestId('draft-leaves-at')).textContent;
    expect(text).toContain('after the emails already waiting in your mailbox');
    expect(text).not.toContain('inside your working hours');
  });

  it("the mailbox status: an error banner ('Office 365 integration not found.') blocks sending; a warning does not", async () => {
    renderWithApi(
      <DraftSendControls draft={draft()} />,
      fakeApi({
        emailService: {
          status: async () =>
            serviceStatus({ integration: null, banner: { level: 'error', message: 'Office 365 integration not found.' } }),
        },
      }),
    );
    expect((await screen.findByTestId('draft-banner-error')).textContent).toBe('ErrorOffice 365 integration not found.');
    expect((screen.getByTestId('draft-send-now') as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    renderWithApi(
      <DraftSendControls draft={draft()} />,
      fakeApi({
        emailService: {
          status: async () =>
            serviceStatus({ banner: { level: 'warning', message: 'Your Office 365 integration will expire in 3 days.' } }),
        },
      }),
    );
    expect((await screen.findByTestId('draft-banner-warning')).textContent).toBe(
      'WarningYour Office 365 integration will expire in 3 days.',
    );
    expect((screen.getByTestId('draft-send-now') as HTMLButtonElement).disabled).toBe(false);
  });

  it('send test to self', async () => {
    const user = userEvent.setup();
    const sendToMyself = vi.fn(async () => ({ success: true as const, message: 'Email sent successfully.' }));
    renderWithApi(<DraftSendControls draft={draft()} />, fakeApi({ emailService: { status: async () => serviceStatus(), sendToMyself } }));
    await user.click(await screen.findByTestId('draft-send-self'));
    expect((await screen.findByTestId('toast-success')).textContent).toBe('Email sent successfully.');
    expect(sendToMyself).toHaveBeenCalledWith({ id: draft().channelEmailId, subject: 'Quick question', body: '<p>Hello Ann</p>' });
  });
});

describe('ScheduledEmailActions', () => {
  const act = (over: Partial<ActivityDto> = {}): ActivityDto => ({
    id: 'a-1',
    type: 'email',
    group: 'Upcoming',
    title: 'Quick question',
    date: '2031-01-01',
    dueDate: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    status: 'scheduled',
    source: 'email',
    sourceId: '00000000-0000-4000-8000-000000000001',
    content: 'Hello',
    subject: 'Quick question',
    to: 'ann@buyer.com',
    others: [],
    by: null,
    followUp: false,
    errorMessage: null,
    companyId: null,
    contactId: null,
    createdById: null,
    editable: false,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    ...over,
  });

  it("scheduled: 'Sending {relative time}'; Cancel Send & Edit asks, then puts the email back to draft", async () => {
    const user = userEvent.setup();
    const updateStatus = vi.fn(async () => ({
      success: true as const,
      message: 'ok',
      id: 'x',
      companyId: null,
      cc: [],
      subject: 's',
      body: 'b',
      executionId: null,
      status: 'draft' as const,
    }));
    const onEditDraft = vi.fn();
    renderWithApi(<ScheduledEmailActions activity={act()} onEditDraft={onEditDraft} />, fakeApi({ emails: { updateStatus } }));
    expect(screen.getByTestId('activity-sending').textContent).toMatch(/^Sending in /);
    await user.click(screen.getByTestId('activity-cancel-send'));
    await user.click(within(await screen.findByTestId('activity-email-confirm')).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(onEditDraft).toHaveBeenCalledWith(act().sourceId));
    expect(updateStatus).toHaveBeenCalledWith({ id: act().sourceId, status: 'draft' });
  });

  it("a refused cancel says 'Failed to cancel draft'; Try Again schedules an errored email again", async () => {
    const user = userEvent.setup();
    const updateStatus = vi.fn(async () => {
      throw new ApiError(400, 'Failed to cancel draft', { success: false, message: 'Failed to cancel draft' });
    });
    renderWithApi(<ScheduledEmailActions activity={act()} />, fakeApi({ emails: { updateStatus } }));
    await user.click(screen.getByTestId('activity-cancel-send'));
    await user.click(within(await screen.findByTestId('activity-email-confirm')).getByTestId('confirm-dialog-confirm'));
    expect((await screen.findByTestId('toast-error')).textContent).toBe('Failed to cancel draft');
    cleanup();
    const retry = vi.fn(async () => ({
      success: true as const,
      message: 'ok',
      id: 'x',
      companyId: null,
      cc: [],
      subject: 's',
      body: 'b',
      executionId: null,
      status: 'scheduled' as const,
    }));
    const onRetried = vi.fn();
    renderWithApi(
      <ScheduledEmailActions activity={act({ status: 'error', errorMessage: 'x' })} onRetried={onRetried} />,
      fakeApi({ emails: { updateStatus: retry } }),
    );
    expect(screen.queryByTestId('activity-sending')).toBeNull();
    await user.click(screen.getByTestId('activity-try-again'));
    await user.click(within(await screen.findByTestId('activity-email-confirm')).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(onRetried).toHaveBeenCalled());
    expect(retry).toHaveBeenCalledWith({ id: act().sourceId, status: 'scheduled' });
  });
});
