// @vitest-environment happy-dom
import '../test-dom';
import '../table/test-select-in-popover';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError, type Api } from '../../client';
import type { ActivityDto, CompanyDetails, ContactDetails } from '../../contracts';
import { ACTIVITY_MESSAGES, activityGroup } from '../../domain';
import { fakeApi, renderWithApi } from '../test-render';
import { ActivitiesTab, type LoadedRecord } from './ActivitiesTab';
import { MiniDrawer, LOG_TEXT_ROWS, LOG_TEXT_ROWS_WIDE, NO_PLAYS } from './MiniDrawer';
import { MiniDrawerProvider, useMiniDrawer, type MiniDrawerRequest } from './MiniDrawerContext';
import { ACTIVITIES_EMPTY, activityMoment, draftEmailName, localDate, logActivityDefaults } from './activity-view';
import { CREATE_NEW_LABEL } from './ParticipantPicker';

afterEach(cleanup);

const COMPANY_ID = '11111111-1111-4111-8111-111111111111';
const CONTACT_ID = '22222222-2222-4222-8222-222222222222';
const OTHER_COMPANY = '33333333-3333-4333-8333-333333333333';

function company(over: Partial<CompanyDetails> = {}): CompanyDetails {
  return {
    id: COMPANY_ID,
    name: 'Acme Holdings',
    website: 'acme.test',
    domain: 'acme.test',
    owner: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    keyContact: { id: CONTACT_ID, firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme.test' },
    contactCount: 1,
    fields: {},
    entityMapping: [],
    ...over,
  };
}

function contact(over: Partial<ContactDetails> = {}): ContactDetails {
  return {
    id: CONTACT_ID,
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
    ...over,
  };
}

/** A date `days` from today in the viewer's time zone. */
function day(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return localDate(d);
}

let n = 0;
function activity(over: Partial<ActivityDto> = {}): ActivityDto {
  n += 1;
  return {
    id: `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    type: 'call',
    group: 'Recent',
    title: 'Phone Call',
    date: day(-1),
    dueDate: null,
    status: null,
    source: 'manual',
    sourceId: null,
    content: 'Spoke about the deal.',
    subject: null,
    to: null,
    others: [],
    by: null,
    followUp: false,
    errorMessage: null,
    companyId: COMPANY_ID,
    contactId: CONTACT_ID,
    createdById: null,
    editable: true,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    ...over,
  };
}

function listApi(list: ActivityDto[], more: Partial<Api['activities']> = {}, extra: Parameters<typeof fakeApi>[0] = {}) {
  const forCompany = vi.fn(async (_id: string, types?: readonly string[]) => ({
    success: true as const,
    activities: list.filter((a) => !types || types.length === 0 || types.includes(a.type)),
  }));
  return { api: fakeApi({ activities: { forCompany, forContact: forCompany, ...more }, ...extra }), forCompany };
}

function Opener({ request }: { request?: MiniDrawerRequest }) {
  const mini = useMiniDrawer()!;
  useEffect(() => {
    if (request) mini.open(request);
  }, []);
  return null;
}

function renderTab(api: Api, loaded: LoadedRecord = { entityType: 'company', record: company() }) {
  return renderWithApi(
    <MiniDrawerProvider>
      <ActivitiesTab loaded={loaded} />
      <MiniDrawer />
    </MiniDrawerProvider>,
    api,
  );
}

function renderMini(api: Api, request: MiniDrawerRequest = {}) {
  return renderWithApi(
    <MiniDrawerProvider>
      <Opener request={request} />
      <MiniDrawer onNewPlay={vi.fn()} />
    </MiniDrawerProvider>,
    api,
  );
}

describe('Activities tab', () => {
  it('groups Upcoming first, then Recent, then the months, each with "{n} Activity", collapsible', async () => {
    const user = userEvent.setup();
    const old1 = activity({ date: day(-100), type: 'f2f', title: 'F2F Meeting' });
    const old2 = activity({ date: day(-400), type: 'text', title: 'Note' });
    const { api } = listApi([
      activity({ date: day(-2) }),
      old1,
      activity({ date: day(5), type: 'video', title: 'Zoom / Video Call' }),
      old2,
      activity({ date: day(0), type: 'chat', title: 'SMS / Text Message' }),
      activity({ date: day(2), type: 'other', title: 'Other' }),
    ]);
    renderTab(api);
    await screen.findAllByTestId('activity-group');
    const groups = screen.getAllByTestId('activity-group');
    const today = localDate();
    expect(groups.map((g) => g.getAttribute('data-label'))).toEqual([
      'Upcoming',
      'Recent',
      activityGroup(old1, today),
      activityGroup(old2, today),
    ]);
    expect(groups.map((g) => within(g).getByTestId('activity-group-count').textContent)).toEqual([
      '2 Activity',
      '2 Activity',
      '1 Activity',
      '1 Activity',
    ]);
    // Upcoming: soonest first; Recent: newest first.
    expect(
      within(groups[0])
        .getAllByTestId('activity-type')
        .map((e) => e.textContent),
    ).toEqual(['Other', 'Video']);
    expect(
      within(groups[1])
        .getAllByTestId('activity-type')
        .map((e) => e.textContent),
    ).toEqual(['SMS', 'Phone']);
    await user.click(within(groups[1]).getByTestId('activity-group-toggle'));
    expect(groups[1].getAttribute('data-open')).toBe('false');
    expect(within(groups[1]).queryAllByTestId('activity-row')).toHaveLength(0);
    expect(within(groups[1]).getByTestId('activity-group-count').textContent).toBe('2 Activity');
    await user.click(within(groups[1]).getByTestId('activity-group-toggle'));
    expect(within(groups[1]).getAllByTestId('activity-row')).toHaveLength(2);
  });

  it('rows: the type label, a "Tue, Jan 5 03:00 pm" date and a 70-character preview with an ellipsis', async () => {
    const long = 'Discussed the carve-out of the logistics unit, pricing expectations and the timeline to signing.';
    const a = activity({ content: long, dueDate: '2026-01-05T15:00:00.000Z' });
    const { api } = listApi([a]);
    renderTab(api);
    const row = await screen.findByTestId('activity-row');
    expect(within(row).getByTestId('activity-type').textContent).toBe('Phone');
    expect(within(row).getByTestId('activity-preview').textContent).toBe(`${long.slice(0, 70)}…`);
    const shown = new Date('2026-01-05T15:00:00.000Z');
    const h = shown.getHours() % 12 === 0 ? 12 : shown.getHours() % 12;
    expect(within(row).getByTestId('activity-date').textContent).toBe(
      `${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][shown.getDay()]}, ` +
        `Jan ${shown.getDate()} ${String(h).padStart(2, '0')}:00 ${shown.getHours() < 12 ? 'am' : 'pm'}`,
    );
    // The default title ('Phone Call') is not repeated next to 'Phone'.
    expect(row.textContent).not.toContain('Phone Call');
  });

  it("a sent email the contact answered is marked 'Replied' (with when); other emails are not", async () => {
    const answered = activity({ type: 'email', status: null, source: 'email', subject: 'Intro', repliedAt: '2026-01-06T09:30:00.000Z' });
    const waiting = activity({ type: 'email', status: null, source: 'email', subject: 'Follow up', repliedAt: null });
    const { api } = listApi([answered, waiting]);
    renderTab(api);
    const rows = await screen.findAllByTestId('activity-row');
    const byId = (id: string) => rows.find((r) => r.getAttribute('data-id') === id)!;
    const mark = within(byId(answered.id)).getByTestId('activity-replied');
    expect(mark.textContent).toBe('Replied');
    expect(mark.getAttribute('title')).toMatch(/^Replied \w{3}, Jan \d{1,2} \d{2}:30 (am|pm)$/);
    expect(within(byId(waiting.id)).queryByTestId('activity-replied')).toBeNull();
  });

  it('an activity without a due time shows its date at the time it was logged', () => {
    const m = activityMoment({ date: '2026-03-04', dueDate: null, createdAt: new Date(2026, 2, 1, 14, 35).toISOString() });
    expect([m.getFullYear(), m.getMonth(), m.getDate(), m.getHours(), m.getMinutes()]).toEqual([2026, 2, 4, 14, 35]);
  });

  it('filters by type on the server; the label lists two names then "+N more"; clear; none matching', async () => {
    const user = userEvent.setup();
    const { api, forCompany } = listApi([activity({ type: 'call' }), activity({ type: 'text', title: 'Note' })]);
    renderTab(api);
    await screen.findAllByTestId('activity-row');
    await user.click(screen.getByTestId('activity-filters-button'));
    const boxes = Array.from((await screen.findByTestId('activity-filters')).querySelectorAll('input[type="checkbox"]'));
    expect(boxes.map((b) => b.getAttribute('data-testid'))).toEqual(
      ['email', 'f2f', 'text', 'call', 'chat', 'video', 'other'].map((t) => `activity-filter-${t}`),
    );
    expect(screen.getByTestId('activity-filters').textContent).toBe('EmailF2FNotePhoneSMSVideoOther');
    await user.click(screen.getByTestId('activity-filter-email'));
    expect(screen.getByTestId('activity-filter-label').textContent).toBe('Email');
    expect(await screen.findByTestId('activities-none-matching')).toBeTruthy();
    expect(screen.getByTestId('activities-none-matching').textContent).toBe(ACTIVITY_MESSAGES.noneMatching);
    expect(forCompany).toHaveBeenLastCalledWith(COMPANY_ID, ['email']);
    await user.click(screen.getByTestId('activity-filter-text'));
    await user.click(screen.getByTestId('activity-filter-f2f'));
    // Spec order, not click order.
    expect(screen.getByTestId('activity-filter-label').textContent).toBe('Email, F2F +1 more');
    await waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(1));
    expect(forCompany).toHaveBeenLastCalledWith(COMPANY_ID, ['email', 'f2f', 'text']);
    await user.click(screen.getByTestId('activity-filter-clear'));
    expect(screen.queryByTestId('activity-filter-label')).toBeNull();
    await waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(2));
  });

  it('empty: tells the user to run a Play; "Draft Email to {name}" is disabled in a client without draft panels', async () => {
    const { api } = listApi([]);
    renderTab(api, { entityType: 'contact', record: contact() });
    const empty = await screen.findByTestId('activities-empty');
    expect(empty.textContent).toContain(ACTIVITIES_EMPTY('Grace Hopper'));
    expect(empty.textContent).toMatch(/Run a Play from the Playbook tab/);
    const button = screen.getByTestId('activities-draft-email');
    expect(button.textContent).toBe('Draft Email to Grace Hopper');
    expect(button.getAttribute('aria-disabled')).toBe('true');
  });

  it('edit and delete only for manual activities; delete confirms, then "Participants deleted successfully."', async () => {
    const user = userEvent.setup();
    const manual = activity({ content: 'Manual note' });
    const synced = activity({ type: 'crm', source: 'crm', editable: false, content: 'From the CRM', date: day(-3) });
    const list = [manual, synced];
    const remove = vi.fn(async (id: string) => {
      list.splice(
        list.findIndex((a) => a.id === id),
        1,
      );
      return { success: true as const, message: ACTIVITY_MESSAGES.deleted };
    });
    const { api } = listApi(list, { remove });
    renderTab(api);
    await screen.findAllByTestId('activity-row');
    const rowOf = (id: string) => screen.getAllByTestId('activity-row').find((r) => r.getAttribute('data-id') === id)!;
    expect(within(rowOf(synced.id)).getByTestId('activity-edit').getAttribute('aria-disabled')).toBe('true');
    expect(within(rowOf(synced.id)).getByTestId('activity-delete').getAttribute('aria-disabled')).toBe('true');
    await user.click(within(rowOf(synced.id)).getByTestId('activity-delete'));
    expect(screen.queryByTestId('activity-delete-dialog')).toBeNull();
    expect(within(rowOf(manual.id)).getByTestId('activity-delete').getAttribute('aria-disabled')).toBeNull();
    await user.click(within(rowOf(manual.id)).getByTestId('activity-delete'));
    const dialog = await screen.findByTestId('activity-delete-dialog');
    await user.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    expect(remove).toHaveBeenCalledWith(manual.id);
    expect((await screen.findByTestId('toast-success')).textContent).toBe(ACTIVITY_MESSAGES.deleted);
    await waitFor(() => expect(screen.getAllByTestId('activity-row').map((r) => r.getAttribute('data-id'))).toEqual([synced.id]));
  });

  it('a refused delete shows the server message as a toast', async () => {
    const user = userEvent.setup();
    const a = activity();
    const remove = vi.fn(async () => {
      throw new ApiError(403, ACTIVITY_MESSAGES.deleteFailed, { success: false, message: ACTIVITY_MESSAGES.deleteFailed });
    });
    const { api } = listApi([a], { remove });
    renderTab(api);
    await user.click(await screen.findByTestId('activity-delete'));
    await user.click(within(await screen.findByTestId('activity-delete-dialog')).getByTestId('confirm-dialog-confirm'));
    expect((await screen.findByTestId('toast-error')).textContent).toBe(ACTIVITY_MESSAGES.deleteFailed);
  });

  it('errors: an "Error" heading with the message on red; a failed load says so', async () => {
    const { api } = listApi([
      activity({
        type: 'email',
        status: 'error',
        errorMessage: 'Mailbox refused the message',
        source: 'email',
        sourceId: '00000000-0000-4000-8000-0000000000e1',
        editable: false,
        subject: 'Intro',
      }),
    ]);
    renderTab(api);
    const err = await screen.findByTestId('activity-error');
    expect(err.textContent).toBe('ErrorMailbox refused the message');
    // Try Again works since sending exists (shared/src/ui/email/email.test.tsx drives it).
    expect(screen.getByTestId('activity-try-again').getAttribute('aria-disabled')).toBeNull();
    cleanup();
    const failing = fakeApi({
      activities: {
        forCompany: vi.fn(async () => {
          throw new ApiError(500, 'Internal server error', { success: false, message: 'Internal server error' });
        }),
      },
    });
    renderTab(failing);
    expect((await screen.findByTestId('activities-load-error')).textContent).toBe('ErrorInternal server error');
  });

  it('edit opens the mini drawer filled from the server and saves with PUT', async () => {
    const user = userEvent.setup();
    const a = activity({ type: 'f2f', content: 'Lunch with Grace', date: day(-10) });
    const participant = vi.fn(async () => ({
      success: true as const,
      activity: a,
      company: { id: COMPANY_ID, name: 'Acme Holdings', website: 'acme.test' },
      contact: { id: CONTACT_ID, firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme.test' },
    }));
    const update = vi.fn(async () => ({ success: true as const, message: ACTIVITY_MESSAGES.updated, activity: a }));
    const { api } = listApi([a], { participant, update });
    renderTab(api);
    await user.click(await screen.findByTestId('activity-edit'));
    await waitFor(() => expect((screen.getByTestId('log-activity-content') as HTMLTextAreaElement).value).toBe('Lunch with Grace'));
    expect(participant).toHaveBeenCalledWith(a.id);
    expect((screen.getByTestId('log-activity-type') as HTMLSelectElement).value).toBe('f2f');
    expect((screen.getByTestId('log-activity-company-input') as HTMLInputElement).value).toBe('Acme Holdings');
    expect((screen.getByTestId('log-activity-contact-input') as HTMLInputElement).value).toBe('Grace Hopper');
    // The stored date is in the past: keeping it is allowed on an edit.
    await user.clear(screen.getByTestId('log-activity-content'));
    await user.type(screen.getByTestId('log-activity-content'), 'Lunch moved');
    await user.click(screen.getByTestId('mini-drawer-save'));
    await waitFor(() => expect(update).toHaveBeenCalled());
    expect(update.mock.calls[0]).toEqual([
      expect.objectContaining({
        id: a.id,
        type: 'f2f',
        companyId: COMPANY_ID,
        contactId: CONTACT_ID,
        date: a.date,
        content: 'Lunch moved',
        source: 'manual',
      }),
    ]);
    expect((await screen.findByTestId('toast-success')).textContent).toBe(ACTIVITY_MESSAGES.updated);
    await waitFor(() => expect(screen.queryByTestId('mini-drawer')).toBeNull());
  });

  it('"Log Activity" opens the mini drawer with the company and its key contact', async () => {
    const user = userEvent.setup();
    const { api } = listApi([]);
    renderTab(api);
    await user.click(await screen.findByTestId('activities-log'));
    expect(screen.getByTestId('mini-drawer').getAttribute('data-tab')).toBe('Log Activity');
    expect((screen.getByTestId('log-activity-company-input') as HTMLInputElement).value).toBe('Acme Holdings');
    expect((screen.getByTestId('log-activity-contact-input') as HTMLInputElement).value).toBe('Grace Hopper');
  });
});

describe('Log Activity defaults from a drawer', () => {
  it('a company brings its key contact; a contact brings its primary company', () => {
    expect(logActivityDefaults({ entityType: 'company', record: company() })).toEqual({
      company: { id: COMPANY_ID, title: 'Acme Holdings', subtitle: 'acme.test' },
      contact: { id: CONTACT_ID, title: 'Grace Hopper', subtitle: 'grace@acme.test' },
    });
    expect(logActivityDefaults({ entityType: 'company', record: company({ keyContact: null }) }).contact).toBeNull();
    expect(
      logActivityDefaults({
        entityType: 'contact',
        record: contact({ primaryCompany: { id: OTHER_COMPANY, name: 'Beta Corp', website: 'beta.test', domain: 'beta.test' } }),
      }),
    ).toEqual({
      contact: { id: CONTACT_ID, title: 'Grace Hopper', subtitle: 'grace@acme.test' },
      company: { id: OTHER_COMPANY, title: 'Beta Corp', subtitle: 'beta.test' },
    });
    expect(draftEmailName({ entityType: 'company', record: company() })).toBe('Grace Hopper');
    expect(draftEmailName({ entityType: 'company', record: company({ keyContact: null }) })).toBe('Acme Holdings');
  });
});

describe('Mini drawer', () => {
  it('two tabs; Save only on Log Activity; Run Play without published plays says so, with Search Plays and New Play', async () => {
    const user = userEvent.setup();
    renderMini(fakeApi({ plays: { published: async () => ({ success: true as const, plays: [] }) } }), { tab: 'Run Play' });
    const mini = await screen.findByTestId('mini-drawer');
    expect(
      within(mini)
        .getAllByRole('tab')
        .map((t) => t.getAttribute('data-testid')),
    ).toEqual(['mini-drawer-tab-run-play', 'mini-drawer-tab-log-activity']);
    expect(within(mini).getByRole('tab', { name: 'Run Play' })).toBeTruthy();
    expect(within(mini).getByRole('tab', { name: 'Log Activity' })).toBeTruthy();
    expect(mini.style.width).toBe('399px');
    expect(screen.getByPlaceholderText('Search Plays')).toBeTruthy();
    expect((await screen.findByTestId('run-play-empty')).textContent).toContain(NO_PLAYS);
    expect(screen.getByTestId('run-play-new')).toBeTruthy();
    expect(screen.queryByTestId('mini-drawer-save')).toBeNull();
    expect(screen.getByTestId('mini-drawer-close')).toBeTruthy();
    await user.click(screen.getByTestId('mini-drawer-tab-log-activity'));
    expect(screen.getByTestId('mini-drawer-save')).toBeTruthy();
    await user.click(screen.getByTestId('mini-drawer-close'));
    expect(screen.queryByTestId('mini-drawer')).toBeNull();
  });

  it('the type dropdown offers the five manual types; the text area has 12 rows, 17 with options hidden', async () => {
    const user = userEvent.setup();
    renderMini(fakeApi({}));
    const select = await screen.findByTestId('log-activity-type');
    expect(
      Array.from((select as HTMLSelectElement).options)
        .filter((o) => !o.disabled)
        .map((o) => o.textContent),
    ).toEqual(['F2F Meeting', 'Note', 'Phone Call', 'SMS / Text Message', 'Zoom / Video Call']);
    expect(screen.getByTestId('log-activity-content').getAttribute('rows')).toBe(String(LOG_TEXT_ROWS));
    await user.click(screen.getByTestId('log-activity-options-toggle'));
    expect(screen.queryByTestId('log-activity-type')).toBeNull();
    expect(screen.getByTestId('log-activity-content').getAttribute('rows')).toBe(String(LOG_TEXT_ROWS_WIDE));
    await user.click(screen.getByTestId('log-activity-options-toggle'));
    expect(screen.getByTestId('log-activity-content').getAttribute('rows')).toBe('12');
  });

  it('Save names what is missing ("Please provide valid ..., ..."), refuses a past date, and sends nothing', async () => {
    const user = userEvent.setup();
    const create = vi.fn();
    renderMini(fakeApi({ activities: { create } }));
    await screen.findByTestId('log-activity');
    const date = screen.getByTestId('log-activity-date') as HTMLInputElement;
    expect(date.value).toBe(localDate());
    expect(date.min).toBe(localDate());
    await user.click(screen.getByTestId('mini-drawer-save'));
    expect(screen.getByTestId('log-activity-problem').textContent).toBe('Please provide valid activity, company, contact, value');
    expect((await screen.findByTestId('toast-error')).textContent).toBe('Please provide valid activity, company, contact, value');
    await user.clear(date);
    await user.click(screen.getByTestId('mini-drawer-save'));
    expect(screen.getByTestId('log-activity-problem').textContent).toBe('Please provide valid activity, company, contact, date, value');
    cleanup();

    renderMini(fakeApi({ activities: { create } }), {
      company: { id: COMPANY_ID, title: 'Acme Holdings' },
      contact: { id: CONTACT_ID, title: 'Grace Hopper' },
    });
    await user.selectOptions(await screen.findByTestId('log-activity-type'), 'Note');
    await user.type(screen.getByTestId('log-activity-content'), 'Left a note');
    const d = screen.getByTestId('log-activity-date') as HTMLInputElement;
    await user.clear(d);
    await user.type(d, day(-1));
    await user.click(screen.getByTestId('mini-drawer-save'));
    expect(screen.getByTestId('log-activity-problem').textContent).toBe(ACTIVITY_MESSAGES.pastDate);
    expect(create).not.toHaveBeenCalled();
  });

  it('picks company and contact by search (debounced), saves with POST and shows the server message', async () => {
    const user = userEvent.setup();
    const companySearch = vi.fn(async (q: string) => ({
      success: true as const,
      results: [
        { id: OTHER_COMPANY, entityType: 'company' as const, title: 'Beta Corp', subtitle: 'beta.test' },
        { id: COMPANY_ID, entityType: 'company' as const, title: 'Acme Holdings', subtitle: 'acme.test' },
      ].filter((h) => h.title.toLowerCase().includes(q.toLowerCase())),
    }));
    const contactSearch = vi.fn(async () => ({
      success: true as const,
      results: [{ id: CONTACT_ID, entityType: 'contact' as const, title: 'Grace Hopper', subtitle: 'grace@acme.test' }],
    }));
    const create = vi.fn(async () => ({ success: true as const, message: ACTIVITY_MESSAGES.created, activity: activity() }));
    renderMini(fakeApi({ companies: { search: companySearch }, contacts: { search: contactSearch }, activities: { create } }));
    await user.selectOptions(await screen.findByTestId('log-activity-type'), 'Phone Call');
    await user.click(screen.getByTestId('log-activity-company-input'));
    await user.type(screen.getByTestId('log-activity-company-input'), 'acm');
    await waitFor(() =>
      expect(screen.getAllByTestId('log-activity-company-option').map((o) => o.getAttribute('data-id'))).toEqual([COMPANY_ID]),
    );
    // Debounced: no search per keystroke.
    expect(companySearch.mock.calls.map((c) => c[0])).not.toContain('a');
    expect(companySearch.mock.calls.map((c) => c[0])).not.toContain('ac');
    expect(screen.getByTestId('log-activity-company-create').textContent).toBe(CREATE_NEW_LABEL.company);
    await user.click(screen.getByTestId('log-activity-company-option'));
    expect((screen.getByTestId('log-activity-company-input') as HTMLInputElement).value).toBe('Acme Holdings');
    await user.click(screen.getByTestId('log-activity-contact-input'));
    await user.click(await screen.findByTestId('log-activity-contact-option'));
    await user.type(screen.getByTestId('log-activity-content'), 'Called about the deal');
    await user.click(screen.getByTestId('mini-drawer-save'));
    await waitFor(() => expect(create).toHaveBeenCalled());
    expect(create.mock.calls[0]).toEqual([
      expect.objectContaining({
        type: 'call',
        companyId: COMPANY_ID,
        contactId: CONTACT_ID,
        date: localDate(),
        content: 'Called about the deal',
        source: 'manual',
      }),
    ]);
    expect((await screen.findByTestId('toast-success')).textContent).toBe(ACTIVITY_MESSAGES.created);
  });

  it('a server refusal is shown as a toast and the form stays', async () => {
    const user = userEvent.setup();
    const create = vi.fn(async () => {
      throw new ApiError(404, ACTIVITY_MESSAGES.invalidParticipant, { success: false, message: ACTIVITY_MESSAGES.invalidParticipant });
    });
    renderMini(fakeApi({ activities: { create } }), {
      company: { id: COMPANY_ID, title: 'Acme Holdings' },
      contact: { id: CONTACT_ID, title: 'Grace Hopper' },
    });
    await user.selectOptions(await screen.findByTestId('log-activity-type'), 'Note');
    await user.type(screen.getByTestId('log-activity-content'), 'x');
    await user.click(screen.getByTestId('mini-drawer-save'));
    expect((await screen.findByTestId('toast-error')).textContent).toBe(ACTIVITY_MESSAGES.invalidParticipant);
    expect(screen.getByTestId('mini-drawer')).toBeTruthy();
  });

  it('"Create New Company" opens the company modal, and the new company is picked', async () => {
    const user = userEvent.setup();
    const search = vi.fn(async () => ({ success: true as const, results: [] }));
    const created = company({ id: OTHER_COMPANY, name: 'Gamma Labs', website: 'gamma.test', keyContact: null });
    const createCompany = vi.fn(async () => ({ success: true as const, message: 'Company created successfully', company: created }));
    renderMini(
      fakeApi({ companies: { search, create: createCompany, owners: vi.fn(async () => ({ success: true as const, owners: [] })) } }),
    );
    await user.click(await screen.findByTestId('log-activity-company-input'));
    await user.click(await screen.findByTestId('log-activity-company-create'));
    const dialog = await screen.findByTestId('company-dialog');
    await user.type(within(dialog).getByTestId('company-name'), 'Gamma Labs');
    await user.type(within(dialog).getByTestId('company-website'), 'gamma.test');
    await user.click(within(dialog).getByTestId('company-dialog-save'));
    await waitFor(() => expect((screen.getByTestId('log-activity-company-input') as HTMLInputElement).value).toBe('Gamma Labs'));
    expect(screen.getByTestId('log-activity-company-input').getAttribute('data-picked-id')).toBe(OTHER_COMPANY);
  });

  it('takes the full width under a plugin', async () => {
    renderWithApi(
      <MiniDrawerProvider>
        <Opener request={{}} />
        <MiniDrawer />
      </MiniDrawerProvider>,
      fakeApi({}),
      { pluginMode: true },
    );
    expect((await screen.findByTestId('mini-drawer')).style.width).toBe('100%');
  });
});
