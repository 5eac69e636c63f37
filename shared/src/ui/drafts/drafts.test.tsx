// @vitest-environment happy-dom
// The floating draft panels: the stack from GET /email/pending, minimise / expand, auto-save 500 ms
// after a change (only the changed fields), Generate / Regenerate rules, the spinner while
// processing, AI emails verified into drafts, banners, discard; 'Draft Email to {name}' and the
// drafts of a record in the Activities tab. The Api is faked at the component boundary.
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError, type Api } from '../../client';
import type { ContactDetails, EmailDraftDto, PlayDto } from '../../contracts';
import {
  DRAFT_PANEL,
  EMAIL_MESSAGES,
  INTEGRATION_MESSAGES,
  PLAY_MESSAGES,
  draftBanners,
  draftChanges,
  generateAction,
  htmlText,
  layoutPanels,
} from '../../domain';
import { fakeApi, renderWithApi } from '../test-render';
import { MiniDrawerProvider } from '../activities/MiniDrawerContext';
import { ActivitiesTab } from '../activities/ActivitiesTab';
import { DraftsProvider } from './DraftsContext';
import { DraftPanels } from './DraftPanels';
import { useDraftDockReserve } from './DraftsContext';
import { DraftItems } from './DraftItems';
import { dismissedDraftsKey } from './DraftsContext';
import { DRAFT_DEFAULT_ERROR } from '../../domain/drafts';

afterEach(cleanup);

const D1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const D2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const CONTACT = '22222222-2222-4222-8222-222222222222';
const COMPANY = '11111111-1111-4111-8111-111111111111';
const PLAY = '33333333-3333-4333-8333-333333333333';
const EXEC = '44444444-4444-4444-8444-444444444444';

function draft(over: Partial<EmailDraftDto> = {}): EmailDraftDto {
  return {
    channelEmailId: D1,
    title: 'Grace Hopper',
    from: 'me@dealscout.test',
    to: 'grace@acme.test',
    cc: [],
    subject: '',
    emailBody: '',
    contact: { id: CONTACT, firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme.test' },
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

function play(over: Partial<PlayDto> = {}): PlayDto {
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
    ...over,
  };
}

const ok = <T,>(v: T) => ({ success: true as const, ...v });

function apiWith(
  drafts: EmailDraftDto[],
  extra: {
    emails?: Partial<Api['emails']>;
    integrations?: Api['llm']['integrations'];
    mailbox?: { level: 'warning' | 'error'; message: string } | null;
  } = {},
) {
  const list = [...drafts];
  const save = vi.fn(async (id: string, body: Record<string, unknown>) => {
    const i = list.findIndex((d) => d.channelEmailId === id);
    const cur = list[i];
    list[i] = {
      ...cur,
      to: (body.to as string) ?? cur.to,
      subject: (body.subject as string) ?? cur.subject,
      emailBody: (body.body as string) ?? cur.emailBody,
      cc: (body.cc as string[]) ?? cur.cc,
      showToFromCC: (body.showToFromCC as boolean) ?? cur.showToFromCC,
      updatedAt: new Date().toISOString(),
    };
    return ok({ message: EMAIL_MESSAGES.saved, email: list[i] });
  });
  const api = fakeApi({
    emails: {
      pending: vi.fn(async () => ok({ emails: list.filter((d) => !['cancelled', 'sent', 'scheduled'].includes(d.status)) })),
      save,
      ...extra.emails,
    },
    plays: { published: async () => ok({ plays: [play()] }) },
    llm: { integrations: extra.integrations ?? (async () => ok({ integrations: [] })) },
    // The send controls' mailbox status: no mailbox connected unless a test says otherwise.
    emailService: {
      status: async () =>
        ok({
          configured: true,
          integration: null,
          banner: extra.mailbox === undefined ? { level: 'error' as const, message: 'Office 365 integration not found.' } : extra.mailbox,
          workingHours: { daysOfWeek: ['monday'], startTime: '08:00', endTime: '17:00', timeZone: 'UTC' },
          workingHoursSource: 'default' as const,
          queued: 0,
        }),
    },
  });
  return { api, list, save };
}

function renderPanels(api: Api) {
  return renderWithApi(
    <DraftsProvider userId="u1">
      <DraftPanels offsetRight={400} offsetLeft={0} />
    </DraftsProvider>,
    api,
  );
}

const expanded = () => screen.getAllByTestId('draft-panel').find((p) => p.getAttribute('data-expanded') === 'true')!;

describe('draft rules (shared/src/domain/drafts)', () => {
  it('lays panels out from the right: 600 expanded, 250 minimised, 10 apart; the rest behind +N', () => {
    const slots = [
      { id: 'a', expanded: true },
      { id: 'b', expanded: false },
      { id: 'c', expanded: false },
      { id: 'd', expanded: true },
    ];
    expect(layoutPanels(slots, 2000).hidden).toEqual([]);
    // 600 + 10 + 250 = 860 fits with room for the +N button; a third (250) does not in 1000.
    expect(layoutPanels(slots, 1000).shown.map((s) => s.id)).toEqual(['a', 'b']);
    expect(layoutPanels(slots, 1000).hidden.map((s) => s.id)).toEqual(['c', 'd']);
    // The first one always shows.
    expect(layoutPanels(slots, 100).shown.map((s) => s.id)).toEqual(['a']);
    expect(DRAFT_PANEL).toEqual({ width: 600, height: 610, minimisedWidth: 250, minimisedHeight: 36, gap: 10 });
  });

  it('Generate needs a play, a recipient and an editable draft; Regenerate only a play', () => {
    const base = { playId: PLAY, to: 'a@b.test', status: 'draft', body: '', isAiEmailGenerated: false, hasPlay: false };
    expect(generateAction(base)).toEqual({ label: 'Generate', disabled: false });
    expect(generateAction({ ...base, playId: null }).disabled).toBe(true);
    expect(generateAction({ ...base, to: '' }).disabled).toBe(true);
    expect(generateAction({ ...base, status: 'processing' }).disabled).toBe(true);
    expect(generateAction({ ...base, body: '<p>Hi</p>', to: '' })).toEqual({ label: 'Regenerate', disabled: false });
    expect(generateAction({ ...base, isAiEmailGenerated: true, playId: null })).toEqual({ label: 'Regenerate', disabled: true });
  });

  it('banners: the draft error (default text), the integration as Send Error or Warning', () => {
    expect(draftBanners({ status: 'error', statusMessage: null }, null)).toEqual([
      { level: 'error', heading: 'Error', message: DRAFT_DEFAULT_ERROR },
    ]);
    expect(DRAFT_DEFAULT_ERROR).toBe('Please check Office365 settings and try again');
    expect(
      draftBanners({ status: 'draft', statusMessage: null }, { level: 'error', message: INTEGRATION_MESSAGES.office365NotFound }),
    ).toEqual([{ level: 'error', heading: 'Send Error', message: 'Office 365 integration not found.' }]);
    expect(draftBanners({ status: 'draft', statusMessage: null }, { level: 'warning', message: 'Soon' })).toEqual([
      { level: 'warning', heading: 'Warning', message: 'Soon' },
    ]);
  });

  it('sends only what changed, never an invalid cc; reads the text of an HTML body', () => {
    const saved = { to: 'a@b.test', cc: [], subject: 'S', body: '<p>B</p>', showToFromCC: false };
    expect(draftChanges(saved, { ...saved, subject: 'T' })).toEqual({ subject: 'T' });
    expect(draftChanges(saved, { ...saved, cc: ['not-an-email'] })).toEqual({});
    expect(draftChanges(saved, { ...saved, cc: ['x@y.test'], showToFromCC: true })).toEqual({ cc: ['x@y.test'], showToFromCC: true });
    expect(htmlText('<p>Dear A,</p><p>Hi &amp; bye</p>')).toBe('Dear A,\nHi & bye');
    // The sanitizer's spelling of the editor's body is the same body (no save, no reset of the editor).
    expect(
      draftChanges(
        { ...saved, body: '<p><span style="font-family:Garamond">Hi</span><br /></p>' },
        { ...saved, body: '<p><span style="font-family: Garamond">Hi</span><br></p>' },
      ),
    ).toEqual({});
  });
});

describe('Floating draft panels', () => {
  it('shows one panel per pending draft, minimised; expanding shows from, to, subject, the body editor and the send controls', async () => {
    const user = userEvent.setup();
    const { api } = apiWith([draft(), draft({ channelEmailId: D2, title: 'Alan Turing', to: 'alan@acme.test', status: 'cancelled' })]);
    renderPanels(api);
    const panel = await screen.findByTestId('draft-panel');
    // Cancelled drafts have no panel.
    expect(screen.getAllByTestId('draft-panel')).toHaveLength(1);
    expect(panel.getAttribute('data-expanded')).toBe('false');
    expect(screen.getByTestId('draft-panels').style.right).toBe('410px');
    await user.click(within(panel).getByTestId('draft-panel-header'));
    const p = expanded();
    expect(within(p).getByTestId('draft-from').textContent).toBe('me@dealscout.test');
    expect((within(p).getByTestId('draft-to') as HTMLInputElement).value).toBe('grace@acme.test');
    expect(await within(p).findByTestId('draft-body-input')).toBeTruthy();
    // No mailbox connected: the send controls say so and cannot send.
    await waitFor(() => expect(within(p).getByTestId('draft-banner-error').textContent).toBe('ErrorOffice 365 integration not found.'));
    expect((within(p).getByTestId('draft-send-now') as HTMLButtonElement).disabled).toBe(true);
    // The font list is the spec's.
    const fonts = [...within(p).getByTestId('draft-body-font').querySelectorAll('option')].map((o) => o.value).filter(Boolean);
    expect(fonts).toEqual(['Calibri', 'Anton', 'Arial', 'Courier', 'Garamond', 'Tahoma', 'Times New Roman', 'Verdana']);
    await user.click(within(p).getByTestId('draft-panel-toggle'));
    expect(screen.getByTestId('draft-panel').getAttribute('data-expanded')).toBe('false');
  });

  it('saves 500 ms after the last change to subject or to, sending only those fields; the Cc toggle shows the cc row', async () => {
    const user = userEvent.setup();
    const { api, save } = apiWith([draft({ subject: 'Hello' })]);
    renderPanels(api);
    await user.click(within(await screen.findByTestId('draft-panel')).getByTestId('draft-panel-header'));
    const subject = within(expanded()).getByTestId('draft-subject');
    fireEvent.change(subject, { target: { value: 'Hi' } });
    fireEvent.change(subject, { target: { value: 'Hi Grace' } });
    expect(save).not.toHaveBeenCalled();
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1), { timeout: 2000 });
    expect(save).toHaveBeenCalledWith(D1, { subject: 'Hi Grace' });
    await waitFor(() => expect(within(expanded()).getByTestId('draft-save-state').textContent).toBe('Saved'));
    await user.click(within(expanded()).getByTestId('draft-cc-toggle'));
    expect(within(expanded()).getByTestId('draft-cc')).toBeTruthy();
    await waitFor(() => expect(save).toHaveBeenCalledTimes(2), { timeout: 2000 });
    expect(save).toHaveBeenLastCalledWith(D1, { showToFromCC: true });
    expect((within(expanded()).getByTestId('draft-subject') as HTMLInputElement).value).toBe('Hi Grace');
  });

  it('Generate is disabled until a play is chosen; then the draft is processing under a spinner, and the verified email fills the panel', async () => {
    const user = userEvent.setup();
    let generated = false;
    const generate = vi.fn(async () => {
      generated = true;
      return ok({
        message: EMAIL_MESSAGES.generating,
        email: draft({
          status: 'processing',
          executionId: EXEC,
          play: { id: PLAY, name: 'Founder note', version: null },
          updatedAt: '2026-11-26T10:00:01.000Z',
        }),
      });
    });
    const written = draft({
      status: 'processing',
      executionId: EXEC,
      subject: 'A note',
      emailBody: '<p>Dear Grace, written by the play.</p>',
      isAiEmailGenerated: true,
      play: { id: PLAY, name: 'Founder note', version: 3 },
      updatedAt: '2026-11-26T10:00:02.000Z',
      provenance: {
        model: 'gpt-test',
        renderedPrompt: 'Write to Grace',
        values: [{ box: 'b1', kind: 'field', label: 'First name', value: 'Grace' }],
        playVersion: 3,
      },
    });
    let executionDone = false;
    const checkAiGenerated = vi.fn(async () => {
      if (!executionDone) throw new ApiError(400, EMAIL_MESSAGES.notReady, { success: false, message: EMAIL_MESSAGES.notReady });
      return ok({
        message: EMAIL_MESSAGES.verified,
        email: { ...written, status: 'draft' as const, updatedAt: '2026-11-26T10:00:03.000Z' },
      });
    });
    const { api } = apiWith([draft()], {
      emails: {
        generate,
        checkAiGenerated,
        pending: vi.fn(async () => ok({ emails: [generated ? written : draft()] })),
      },
    });
    const { queryClient } = renderPanels(api);
    await user.click(within(await screen.findByTestId('draft-panel')).getByTestId('draft-panel-header'));
    const button = within(expanded()).getByTestId('draft-generate');
    expect(button.textContent).toBe('Generate');
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.selectOptions(
      await within(expanded()).findByTestId('draft-play'),
      await within(expanded()).findByRole('option', { name: 'Founder note' }),
    );
    expect(button.hasAttribute('disabled')).toBe(false);
    await user.click(button);
    expect(generate).toHaveBeenCalledWith({ channelEmailId: D1, playId: PLAY });
    expect(await within(expanded()).findByTestId('draft-busy')).toBeTruthy();
    expect(expanded().getAttribute('data-status')).toBe('processing');
    // The execution ended (a realtime event, or the poll): the list is read again and the AI email verified.
    executionDone = true;
    await queryClient.invalidateQueries({ queryKey: ['emails', 'pending'] });
    await waitFor(() => expect(checkAiGenerated).toHaveBeenCalledWith({ executionId: EXEC, channelEmailId: D1, contactId: CONTACT }));
    await waitFor(() => expect(expanded().getAttribute('data-status')).toBe('draft'));
    expect(within(expanded()).queryByTestId('draft-busy')).toBeNull();
    expect((within(expanded()).getByTestId('draft-subject') as HTMLInputElement).value).toBe('A note');
    await waitFor(() =>
      expect(within(expanded()).getByTestId('draft-body-input').textContent).toContain('Dear Grace, written by the play.'),
    );
    expect(within(expanded()).getByTestId('draft-generate').textContent).toBe('Regenerate');
    // Why this email: the play and version, the model, the values and the prompt.
    await user.click(within(expanded()).getByTestId('draft-why-toggle'));
    const why = within(expanded()).getByTestId('draft-why');
    expect(why.textContent).toContain('Play: Founder note (version 3)');
    expect(why.textContent).toContain('Model: gpt-test');
    expect(within(why).getByTestId('draft-why-values').textContent).toBe('First name: Grace');
    expect(within(why).getByTestId('draft-why-prompt').textContent).toBe('Write to Grace');
  });

  it('Regenerate asks first; a refused generation is a toast and the Error banner', async () => {
    const user = userEvent.setup();
    const generate = vi.fn(async () => {
      throw new ApiError(400, PLAY_MESSAGES.invalid, { success: false, message: PLAY_MESSAGES.invalid });
    });
    const { api } = apiWith(
      [draft({ subject: 'Old', emailBody: '<p>Old body</p>', play: { id: PLAY, name: 'Founder note', version: 2 } })],
      { emails: { generate } },
    );
    renderPanels(api);
    await user.click(within(await screen.findByTestId('draft-panel')).getByTestId('draft-panel-header'));
    await waitFor(() => expect(within(expanded()).getByTestId('draft-generate').hasAttribute('disabled')).toBe(false));
    await user.click(within(expanded()).getByTestId('draft-generate'));
    const dialog = await screen.findByTestId('draft-regenerate-dialog');
    expect(dialog.textContent).toContain('Founder note');
    expect(generate).not.toHaveBeenCalled();
    await user.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(generate).toHaveBeenCalledTimes(1));
    expect((await screen.findByTestId('toast-error')).textContent).toBe(PLAY_MESSAGES.invalid);
    await waitFor(() =>
      expect(within(expanded()).getAllByTestId('draft-banner-error')[0].textContent).toBe(`Error${PLAY_MESSAGES.invalid}`),
    );
  });

  it('Discard confirms, cancels the draft on the server and removes its panel; a failure says "Failed to cancel draft"', async () => {
    const user = userEvent.setup();
    let fail = true;
    const updateStatus = vi.fn(async () => {
      if (fail) throw new ApiError(400, EMAIL_MESSAGES.updateStatusFailed, { success: false, message: EMAIL_MESSAGES.updateStatusFailed });
      return {
        success: true as const,
        message: 'ok',
        id: D1,
        companyId: COMPANY,
        cc: [],
        subject: '',
        body: '',
        executionId: null,
        status: 'cancelled' as const,
      };
    });
    const { api } = apiWith([draft()], { emails: { updateStatus } });
    renderPanels(api);
    await user.click(within(await screen.findByTestId('draft-panel')).getByTestId('draft-panel-header'));
    await user.click(within(expanded()).getByTestId('draft-discard'));
    await user.click(within(await screen.findByTestId('draft-discard-dialog')).getByTestId('confirm-dialog-confirm'));
    expect((await screen.findByTestId('toast-error')).textContent).toBe(EMAIL_MESSAGES.cancelFailed);
    expect(screen.getByTestId('draft-panel')).toBeTruthy();
    fail = false;
    await user.click(within(screen.getByTestId('draft-discard-dialog')).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(screen.queryByTestId('draft-panel')).toBeNull());
    expect(updateStatus).toHaveBeenLastCalledWith({ id: D1, status: 'cancelled' });
  });

  it('an errored draft shows the Error banner with its message; the integration warning shows as Warning', async () => {
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const integrations = async () =>
      ok({
        integrations: [
          {
            id: 'i1',
            provider: 'Office 365',
            type: 'email',
            scope: 'user' as const,
            data: {
              name: 'Mailbox',
              createdById: null,
              createdBy: null,
              createdAt: soon,
              expiresAt: soon,
              active: true,
              metadata: { name: null },
            },
          },
        ],
      });
    const { api } = apiWith([draft({ status: 'error', statusMessage: PLAY_MESSAGES.executionFailedMessage })], {
      integrations,
      mailbox: { level: 'warning', message: 'Your Office 365 integration will expire in 3 days.' },
    });
    renderPanels(api);
    fireEvent.click(within(await screen.findByTestId('draft-panel')).getByTestId('draft-panel-header'));
    expect(within(expanded()).getByTestId('draft-banner-error').textContent).toBe(`Error${PLAY_MESSAGES.executionFailedMessage}`);
    await waitFor(() =>
      expect(within(expanded()).getByTestId('draft-banner-warning').textContent).toMatch(
        /^WarningYour Office 365 integration will expire in [23] days\.$/,
      ),
    );
    expect(expanded().getAttribute('data-error')).toBe('true');
  });
});

describe('Activities tab and drafts', () => {
  const contact: ContactDetails = {
    id: CONTACT,
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@acme.test',
    owner: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    primaryCompany: null,
    companyCount: 0,
    fields: {},
    entityMapping: [],
  };

  it('"Draft Email to {name}" creates a draft and opens its panel; the record lists its drafts, a click brings one up', async () => {
    const user = userEvent.setup();
    const created = draft({ channelEmailId: D2, subject: '' });
    const create = vi.fn(async () => ok({ message: EMAIL_MESSAGES.saved, email: created }));
    const { api } = apiWith([], { emails: { create } });
    const activities = fakeApi({ activities: { forContact: async () => ok({ activities: [] }) } });
    const merged = new Proxy(api, {
      get: (t, k) =>
        k === 'activities'
          ? (activities as unknown as Record<string, unknown>).activities
          : (t as unknown as Record<string | symbol, unknown>)[k],
    }) as Api;
    renderWithApi(
      <DraftsProvider userId="u1">
        <MiniDrawerProvider>
          <ActivitiesTab loaded={{ entityType: 'contact', record: contact }} />
          <DraftPanels offsetLeft={0} />
        </MiniDrawerProvider>
      </DraftsProvider>,
      merged,
    );
    const button = await screen.findByTestId('activities-draft-email');
    expect(button.textContent).toBe('Draft Email to Grace Hopper');
    await user.click(button);
    expect(create).toHaveBeenCalledWith({ contactId: CONTACT, companyId: null });
    await waitFor(() => expect(expanded().getAttribute('data-id')).toBe(D2));
    const item = await screen.findByTestId('activity-draft');
    expect(item.textContent).toContain('(no subject)');
    await user.click(within(expanded()).getByTestId('draft-panel-toggle'));
    expect(screen.getByTestId('draft-panel').getAttribute('data-expanded')).toBe('false');
    await user.click(item);
    expect(expanded().getAttribute('data-id')).toBe(D2);
  });

  it('a closed panel leaves the dock and stays closed across pages and reloads, until its draft is opened again', async () => {
    const user = userEvent.setup();
    localStorage.clear();
    const errored = draft({
      channelEmailId: D2,
      title: 'Ada Lovelace',
      status: 'error',
      statusMessage: 'The mailbox refused the message.',
      createdAt: '2026-11-26T11:00:00.000Z',
    });
    const { api } = apiWith([draft(), errored]);
    let reserve = -1;
    function Reserve() {
      reserve = useDraftDockReserve();
      return null;
    }
    const page = () => (
      <DraftsProvider userId="u1">
        <DraftItems entityType="company" id={COMPANY} />
        <DraftPanels offsetLeft={0} />
        <Reserve />
      </DraftsProvider>
    );
    const first = renderWithApi(page(), api);
    await waitFor(() => expect(screen.getAllByTestId('draft-panel')).toHaveLength(2));
    // Docked panels: the page keeps their band free (a minimised panel's height and a little air).
    expect(reserve).toBe(DRAFT_PANEL.minimisedHeight + 8);
    const panelOf = (id: string) => screen.getAllByTestId('draft-panel').find((p) => p.getAttribute('data-id') === id);
    await user.click(within(panelOf(D2)!).getByTestId('draft-panel-close'));
    expect(panelOf(D2)).toBeUndefined();
    expect(panelOf(D1)).toBeDefined();
    // The draft is kept: its record still lists it.
    expect(
      screen
        .getAllByTestId('activity-draft')
        .map((b) => b.getAttribute('data-id'))
        .sort(),
    ).toEqual([D1, D2].sort());
    expect(JSON.parse(localStorage.getItem(dismissedDraftsKey('u1'))!)).toEqual([D2]);
    first.unmount();

    // Another page, or a reload: still closed; another user's dock is not affected.
    renderWithApi(page(), api);
    await waitFor(() => expect(screen.getAllByTestId('draft-panel')).toHaveLength(1));
    expect(panelOf(D1)).toBeDefined();
    await user.click(within(panelOf(D1)!).getByTestId('draft-panel-close'));
    await waitFor(() => expect(screen.queryAllByTestId('draft-panel')).toHaveLength(0));
    expect(reserve).toBe(0);
    // Opened again from its record: back in the dock, expanded, and no longer kept as closed.
    await user.click(screen.getAllByTestId('activity-draft').find((b) => b.getAttribute('data-id') === D2)!);
    await waitFor(() => expect(expanded().getAttribute('data-id')).toBe(D2));
    expect(JSON.parse(localStorage.getItem(dismissedDraftsKey('u1'))!)).toEqual([D1]);
    expect(localStorage.getItem(dismissedDraftsKey('u2'))).toBeNull();
  }, 20_000);

  it('a refused draft (no primary company) is a toast', async () => {
    const user = userEvent.setup();
    const create = vi.fn(async () => {
      throw new ApiError(400, 'No primary company found for Grace Hopper', {
        success: false,
        message: 'No primary company found for Grace Hopper',
      });
    });
    const { api } = apiWith([], { emails: { create } });
    const merged = new Proxy(api, {
      get: (t, k) =>
        k === 'activities' ? { forContact: async () => ok({ activities: [] }) } : (t as unknown as Record<string | symbol, unknown>)[k],
    }) as Api;
    renderWithApi(
      <DraftsProvider userId="u1">
        <MiniDrawerProvider>
          <ActivitiesTab loaded={{ entityType: 'contact', record: contact }} />
        </MiniDrawerProvider>
      </DraftsProvider>,
      merged,
    );
    await user.click(await screen.findByTestId('activities-draft-email'));
    expect((await screen.findByTestId('toast-error')).textContent).toBe('No primary company found for Grace Hopper');
  });
});
