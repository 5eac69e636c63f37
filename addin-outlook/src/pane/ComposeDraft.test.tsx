// @vitest-environment happy-dom
// Compose mode's drafting over a scripted Outlook host and a fake Api at the component boundary:
// pick a play, generate for the recipient (the play's email verified as it arrives), insert the
// subject and body (at the cursor, or replacing the body; a reply keeps its subject), the activity
// and the closed Dealscout draft; in read mode, opening it as Outlook's reply form; handing it to Send Now instead; connecting Office 365 through an
// Office dialog; the rules of compose.ts.
import '../../../shared/src/ui/test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Api } from '@dealscout/shared/client';
import type { EmailDraftDto, MatchedContact, PlayDto } from '@dealscout/shared/contracts';
import { fakeApi, renderWithApi } from '../../../shared/src/ui/test-render';
import type { OutlookHost } from '../office/outlook';
import { ComposeDraft, COMPOSE_TEXT } from './ComposeDraft';
import { INSERTED_ACTIVITY_MAX, INSERTED_ACTIVITY_TITLE, insertedDraftActivity, subjectForInsert } from './compose';

afterEach(cleanup);

const CONTACT = '22222222-2222-4222-8222-222222222222';
const COMPANY = '11111111-1111-4111-8111-111111111111';
const PLAY = '33333333-3333-4333-8333-333333333333';
const EXEC = '44444444-4444-4444-8444-444444444444';
const D1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const jane: MatchedContact = {
  id: CONTACT,
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@acme.example',
  primaryCompany: { id: COMPANY, name: 'Acme', website: 'acme.example', domain: 'acme.example' },
};
const ok = <T,>(v: T) => ({ success: true as const, ...v });

function play(): PlayDto {
  return {
    id: PLAY,
    name: 'Founder note',
    description: '',
    template: '',
    instructions: [],
    subject: '',
    subjectPrompt: '',
    playType: 'openai',
    llmModelId: 'default',
    status: 'published',
    useCount: 0,
    version: 3,
    enrichmentsIncluded: [],
    isProvidedByProduct: false,
    createdBy: null,
    createdAt: '2026-11-26T10:00:00.000Z',
    updatedAt: '2026-11-26T10:00:00.000Z',
    templates: [],
  };
}

function draft(over: Partial<EmailDraftDto> = {}): EmailDraftDto {
  return {
    channelEmailId: D1,
    title: 'Jane Doe',
    from: 'me@corp.example',
    to: 'jane@acme.example',
    cc: [],
    subject: '',
    emailBody: '',
    contact: { id: CONTACT, firstName: 'Jane', lastName: 'Doe', email: 'jane@acme.example' },
    companyId: COMPANY,
    play: null,
    executionId: null,
    isAiEmailGenerated: false,
    status: 'draft',
    statusMessage: null,
    showToFromCC: false,
    provenance: null,
    createdAt: '2026-11-26T10:00:00.000Z',
    updatedAt: '2026-11-26T10:00:00.000Z',
    ...over,
  };
}

const GENERATED = { subject: 'A note for Jane', emailBody: '<p>Dear Jane,</p><p>We follow Acme closely.</p>' };

function host(): OutlookHost {
  return {
    ready: async () => ({ host: 'Outlook', platform: 'OfficeOnline' }),
    inOutlook: () => true,
    userEmail: () => 'me@corp.example',
    currentItem: async () => null,
    onItemChanged: async () => () => {},
    setSubject: vi.fn(async () => {}),
    setBody: vi.fn(async () => {}),
    insertBody: vi.fn(async () => {}),
    openDialog: vi.fn(async () => 'connected'),
    displayReplyForm: vi.fn(),
    graphId: (id: string) => `graph-${id}`,
    settings: { get: () => null, set: async () => {} },
  };
}

function apiFor(opts: { mailbox?: boolean } = {}) {
  let list: EmailDraftDto[] = [];
  let connected = opts.mailbox ?? false;
  const set = (d: EmailDraftDto) => {
    list = [...list.filter((x) => x.channelEmailId !== d.channelEmailId), d];
    return d;
  };
  let clock = 0;
  const stamp = () => new Date(Date.UTC(2027, 0, 1) + ++clock * 1000).toISOString();
  const calls = {
    create: vi.fn(async (body: { contactId?: string | null }) =>
      ok({ message: 'Draft created.', email: set(draft({ contact: body.contactId ? draft().contact : null })) }),
    ),
    generate: vi.fn(async (body: { channelEmailId: string; playId: string }) =>
      ok({
        message: 'Generating email.',
        email: set(
          draft({
            channelEmailId: body.channelEmailId,
            status: 'processing',
            executionId: EXEC,
            play: { id: body.playId, name: 'Founder note', version: 3 },
            updatedAt: stamp(),
          }),
        ),
      }),
    ),
    checkAiGenerated: vi.fn(async () =>
      ok({
        message: 'Email verified.',
        email: set(
          draft({
            ...GENERATED,
            status: 'draft',
            executionId: EXEC,
            isAiEmailGenerated: true,
            play: { id: PLAY, name: 'Founder note', version: 3 },
            updatedAt: stamp(),
          }),
        ),
      }),
    ),
    updateStatus: vi.fn(async (body: { id: string; status: string }) => {
      const d = set({
        ...list.find((x) => x.channelEmailId === body.id)!,
        status: body.status as EmailDraftDto['status'],
        updatedAt: stamp(),
      });
      return ok({
        message: 'Email status updated.',
        id: d.channelEmailId,
        companyId: d.companyId,
        cc: d.cc,
        subject: d.subject,
        body: d.emailBody,
        executionId: d.executionId,
        status: d.status,
      });
    }),
    activity: vi.fn(async (body: Record<string, unknown>) =>
      ok({ message: 'Activity saved successfully.', activity: { id: 'a1', ...body } }),
    ),
    send: vi.fn(async (body: { id: string; status: string }) =>
      ok({
        message: 'Email sent successfully.',
        email: set({ ...list.find((x) => x.channelEmailId === body.id)!, status: 'sent', updatedAt: stamp() }),
      }),
    ),
    connect: vi.fn(async () => {
      connected = true;
      return ok({ authorizeUrl: 'https://login.example/authorize?x=1' });
    }),
  };
  const api = fakeApi({
    emails: {
      pending: vi.fn(async () => ok({ emails: list.filter((d) => !['cancelled', 'sent', 'scheduled'].includes(d.status)) })),
      create: calls.create,
      generate: calls.generate,
      checkAiGenerated: calls.checkAiGenerated,
      updateStatus: calls.updateStatus,
      save: async (id: string, body: Record<string, unknown>) => {
        const cur = list.find((x) => x.channelEmailId === id)!;
        return ok({
          message: 'Draft saved.',
          email: set({
            ...cur,
            subject: (body.subject as string) ?? cur.subject,
            emailBody: (body.body as string) ?? cur.emailBody,
            updatedAt: stamp(),
          }),
        });
      },
    },
    plays: { published: async () => ok({ plays: [play()] }) },
    activities: { create: calls.activity } as unknown as Partial<Api['activities']>,
    emailService: {
      status: async () =>
        ok({
          configured: true,
          integration: connected ? { id: 'i1', account: 'me@corp.example', expiresAt: '2027-02-01T00:00:00.000Z', active: true } : null,
          banner: connected ? null : { level: 'error' as const, message: 'Office 365 integration not found.' },
          workingHours: { daysOfWeek: ['monday'], startTime: '08:00', endTime: '17:00', timeZone: 'UTC' },
          workingHoursSource: 'default' as const,
          queued: 0,
        }),
      send: calls.send as unknown as Api['emailService']['send'],
      connect: calls.connect,
    },
  });
  return { api, calls };
}

async function generated(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(await screen.findByTestId('compose-play'), PLAY);
  await user.click(screen.getByTestId('compose-generate'));
  const panel = await screen.findByTestId('draft-panel');
  await waitFor(() => expect(panel.getAttribute('data-status')).toBe('draft'), { timeout: 8000 });
  await waitFor(() => expect((within(panel).getByTestId('draft-subject') as HTMLInputElement).value).toBe('A note for Jane'));
  return panel;
}

describe('compose mode: drafting with a play', { timeout: 30_000 }, () => {
  it('generates for the recipient and inserts the subject and body at the cursor; logs it and closes the Dealscout draft', async () => {
    const { api, calls } = apiFor();
    const h = host();
    renderWithApi(
      <ComposeDraft host={h} recipient={{ email: jane.email }} contact={jane} currentSubject="Following up" userId="u1" />,
      api,
      { pluginMode: true },
    );
    const user = userEvent.setup();
    expect(screen.getByTestId('compose-draft').textContent).toContain(`${COMPOSE_TEXT.pick}: Jane Doe`);
    expect(((await screen.findByTestId('compose-generate')) as HTMLButtonElement).disabled).toBe(true);
    const panel = await generated(user);
    expect(calls.create).toHaveBeenCalledWith({ contactId: CONTACT, companyId: null });
    expect(calls.generate).toHaveBeenCalledWith({ channelEmailId: D1, playId: PLAY });
    expect(calls.checkAiGenerated).toHaveBeenCalledWith({ executionId: EXEC, channelEmailId: D1, contactId: CONTACT });
    // Embedded in the pane, full width; the mailbox is not connected: the spec's message and the way to connect.
    expect(panel.getAttribute('data-expanded')).toBe('true');
    await within(panel).findByText('Office 365 integration not found.');
    expect((within(panel).getByTestId('draft-send-now') as HTMLButtonElement).disabled).toBe(true);
    expect(within(panel).getByTestId('compose-connect').textContent).toBe(COMPOSE_TEXT.connect);

    await user.click(within(panel).getByTestId('compose-insert'));
    await screen.findByTestId('compose-done');
    expect(h.setSubject).toHaveBeenCalledWith('A note for Jane');
    expect(h.insertBody).toHaveBeenCalledWith(GENERATED.emailBody);
    expect(h.setBody).not.toHaveBeenCalled();
    expect(calls.activity).toHaveBeenCalledWith(
      expect.objectContaining({
        type: 'other',
        contactId: CONTACT,
        companyId: COMPANY,
        title: INSERTED_ACTIVITY_TITLE,
        subject: 'A note for Jane',
        to: 'jane@acme.example',
        content: expect.stringContaining('Written with the play "Founder note" and inserted into an email being written in Outlook'),
      }),
    );
    expect(calls.updateStatus).toHaveBeenCalledWith({ id: D1, status: 'cancelled' });
    expect(screen.getByTestId('compose-done').getAttribute('data-kind')).toBe('inserted');
    expect(screen.getByTestId('compose-done').textContent).toContain(COMPOSE_TEXT.insertedLogged('Jane Doe'));
    await user.click(screen.getByTestId('compose-another'));
    expect(screen.getByTestId('compose-draft').getAttribute('data-state')).toBe('pick');
  });

  it("read mode: the draft opens as Outlook's reply form (the adapter's displayReplyForm); logged, the Dealscout draft closed", async () => {
    const { api, calls } = apiFor();
    const h = host();
    renderWithApi(
      <ComposeDraft reply host={h} recipient={{ email: jane.email }} contact={jane} currentSubject="Q3 numbers" userId="u1" />,
      api,
      { pluginMode: true },
    );
    const user = userEvent.setup();
    expect(screen.getByTestId('compose-draft').textContent).toContain(COMPOSE_TEXT.replyTitle);
    const panel = await generated(user);
    expect(within(panel).queryByTestId('compose-insert')).toBeNull();
    await user.click(within(panel).getByTestId('compose-reply'));
    await screen.findByTestId('compose-done');
    expect(h.displayReplyForm).toHaveBeenCalledWith(GENERATED.emailBody);
    expect(h.setSubject).not.toHaveBeenCalled();
    expect(h.insertBody).not.toHaveBeenCalled();
    expect(calls.activity).toHaveBeenCalledWith(
      expect.objectContaining({
        type: 'other',
        contactId: CONTACT,
        companyId: COMPANY,
        title: INSERTED_ACTIVITY_TITLE,
        content: expect.stringContaining('Written with the play "Founder note" and opened as a reply in Outlook'),
      }),
    );
    expect(calls.updateStatus).toHaveBeenCalledWith({ id: D1, status: 'cancelled' });
    expect(screen.getByTestId('compose-done').getAttribute('data-kind')).toBe('replied');
    expect(screen.getByTestId('compose-done').textContent).toContain(COMPOSE_TEXT.replied);
  });

  it('read mode: a reply form Outlook refuses says so and keeps the draft', async () => {
    const { api, calls } = apiFor();
    const h = host();
    (h.displayReplyForm as ReturnType<typeof vi.fn>).mockImplementationOnce(() => {
      throw new Error('No email is selected');
    });
    renderWithApi(<ComposeDraft reply host={h} recipient={{ email: jane.email }} contact={jane} currentSubject="" userId="u1" />, api, {
      pluginMode: true,
    });
    const user = userEvent.setup();
    const panel = await generated(user);
    await user.click(within(panel).getByTestId('compose-reply'));
    await screen.findByText(`${COMPOSE_TEXT.replyFailed} No email is selected`);
    expect(calls.activity).not.toHaveBeenCalled();
    expect(calls.updateStatus).not.toHaveBeenCalled();
  });

  it('a reply keeps its subject; "Replace the whole body" replaces it', async () => {
    const { api } = apiFor();
    const h = host();
    renderWithApi(
      <ComposeDraft host={h} recipient={{ email: jane.email }} contact={jane} currentSubject="RE: Q3 numbers" userId="u1" />,
      api,
      { pluginMode: true },
    );
    const user = userEvent.setup();
    const panel = await generated(user);
    await user.click(within(panel).getByRole('button', { name: 'More ways to insert' }));
    await user.click(await screen.findByTestId('compose-replace'));
    await screen.findByTestId('compose-done');
    expect(h.setSubject).not.toHaveBeenCalled();
    expect(h.setBody).toHaveBeenCalledWith(GENERATED.emailBody);
    expect(h.insertBody).not.toHaveBeenCalled();
  });

  it('an Outlook call that fails says so and keeps the draft', async () => {
    const { api, calls } = apiFor();
    const h = host();
    (h.insertBody as ReturnType<typeof vi.fn>).mockRejectedValueOnce(new Error('The item was closed'));
    renderWithApi(<ComposeDraft host={h} recipient={{ email: jane.email }} contact={jane} currentSubject="" userId="u1" />, api, {
      pluginMode: true,
    });
    const user = userEvent.setup();
    const panel = await generated(user);
    await user.click(within(panel).getByTestId('compose-insert'));
    await screen.findByText(`${COMPOSE_TEXT.insertFailed} The item was closed`);
    expect(calls.activity).not.toHaveBeenCalled();
    expect(calls.updateStatus).not.toHaveBeenCalled();
    expect(screen.getByTestId('draft-panel')).toBeTruthy();
  });

  it('connects Office 365 through an Office dialog, then hands the draft to Send Now (the send logs the email activity)', async () => {
    const { api, calls } = apiFor();
    const h = host();
    renderWithApi(<ComposeDraft host={h} recipient={{ email: jane.email }} contact={jane} currentSubject="" userId="u1" />, api, {
      pluginMode: true,
    });
    const user = userEvent.setup();
    const panel = await generated(user);
    await user.click(await within(panel).findByTestId('compose-connect'));
    expect(calls.connect).toHaveBeenCalledWith({ returnTo: '/addin/connected.html' });
    expect(h.openDialog).toHaveBeenCalledWith('https://login.example/authorize?x=1', { width: 40, height: 70 });
    await screen.findByText(COMPOSE_TEXT.connected);
    await waitFor(() => expect(within(panel).queryByTestId('compose-connect')).toBeNull());
    await waitFor(() => expect((within(panel).getByTestId('draft-send-now') as HTMLButtonElement).disabled).toBe(false));
    await user.click(within(panel).getByTestId('draft-send-now'));
    await waitFor(() => expect(screen.getByTestId('compose-done').getAttribute('data-kind')).toBe('sent'));
    expect(calls.send).toHaveBeenCalledWith(
      expect.objectContaining({ id: D1, status: 'sent', subject: 'A note for Jane', contactId: CONTACT }),
    );
    expect(calls.send.mock.calls[0]![0]).not.toHaveProperty('replyToMessageId');
    expect(calls.activity).not.toHaveBeenCalled();
  });

  it('read mode: Send Now answers the email being read in its thread (its Graph id goes with the send)', async () => {
    const { api, calls } = apiFor();
    const h = host();
    renderWithApi(
      <ComposeDraft
        reply
        replyToMessageId="AAMk_rest_1"
        host={h}
        recipient={{ email: jane.email }}
        contact={jane}
        currentSubject="Q3 numbers"
        userId="u1"
      />,
      api,
      { pluginMode: true },
    );
    const user = userEvent.setup();
    const panel = await generated(user);
    await user.click(await within(panel).findByTestId('compose-connect'));
    await screen.findByText(COMPOSE_TEXT.connected);
    await waitFor(() => expect((within(panel).getByTestId('draft-send-now') as HTMLButtonElement).disabled).toBe(false));
    await user.click(within(panel).getByTestId('draft-send-now'));
    await waitFor(() => expect(screen.getByTestId('compose-done').getAttribute('data-kind')).toBe('sent'));
    expect(calls.send).toHaveBeenCalledWith(expect.objectContaining({ id: D1, status: 'sent', replyToMessageId: 'AAMk_rest_1' }));
    expect(h.displayReplyForm).not.toHaveBeenCalled();
    // The draft was made as a reply: the server gives it 'Re: <subject>' and remembers the message it answers.
    expect(calls.create).toHaveBeenCalledWith({
      contactId: CONTACT,
      companyId: null,
      replyTo: { subject: 'Q3 numbers', messageId: 'AAMk_rest_1' },
    });
  });
});

describe('compose rules', () => {
  it('the subject: the draft’s, except for a reply or forward or an empty draft subject', () => {
    expect(subjectForInsert('', 'Hello')).toBe('Hello');
    expect(subjectForInsert('Following up', 'Hello')).toBe('Hello');
    expect(subjectForInsert('RE: Q3', 'Hello')).toBeNull();
    expect(subjectForInsert('  Fwd: deck', 'Hello')).toBeNull();
    expect(subjectForInsert('AW: Angebot', 'Hello')).toBeNull();
    expect(subjectForInsert('Reply needed', 'Hello')).toBe('Hello');
    expect(subjectForInsert('', '  ')).toBeNull();
  });

  it('the activity: needs a contact and a company; the body’s text, cut to the limit', () => {
    const d = draft({ play: { id: PLAY, name: 'Founder note', version: 3 } });
    const long = `<p>${'x'.repeat(INSERTED_ACTIVITY_MAX * 2)}</p>`;
    const a = insertedDraftActivity(d, { subject: 'Hi', body: long }, { companyId: null, today: '2026-11-26', timezone: 'Europe/Berlin' })!;
    expect(a).toMatchObject({ type: 'other', contactId: CONTACT, companyId: COMPANY, date: '2026-11-26', timezone: 'Europe/Berlin' });
    expect(a.content!.length).toBeLessThanOrEqual(INSERTED_ACTIVITY_MAX);
    expect(a.content!.endsWith('…')).toBe(true);
    expect(
      insertedDraftActivity(draft({ companyId: null }), { subject: '', body: '' }, { companyId: null, today: '2026-11-26' }),
    ).toBeNull();
    expect(
      insertedDraftActivity(draft({ companyId: null }), { subject: '', body: '<p>Hi</p>' }, { companyId: COMPANY, today: '2026-11-26' }),
    ).toMatchObject({
      companyId: COMPANY,
      subject: null,
      content: 'Inserted into an email being written in Outlook (sent from Outlook, not by Dealscout).\n\nHi',
    });
    expect(
      insertedDraftActivity(
        draft({ companyId: null }),
        { subject: '', body: '<p>Hi</p>' },
        { companyId: COMPANY, today: '2026-11-26', via: 'reply' },
      ),
    ).toMatchObject({ content: 'Opened as a reply in Outlook (sent from Outlook, not by Dealscout).\n\nHi' });
    expect(
      insertedDraftActivity(draft({ contact: null }), { subject: '', body: '' }, { companyId: COMPANY, today: '2026-11-26' }),
    ).toBeNull();
  });
});
