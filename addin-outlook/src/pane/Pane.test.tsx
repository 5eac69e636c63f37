// @vitest-environment happy-dom
// The pane over a scripted Outlook host (the adapter's interface) and a fake Api at the component
// boundary: read mode, the one-step create, a pinned pane following the selection, compose mode.
import '../../../shared/src/ui/test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContactDetails, MatchedContact } from '@dealscout/shared/contracts';
import { defaultUserConfig } from '@dealscout/shared/domain';
import { DrawerProvider, MiniDrawerProvider } from '@dealscout/shared/ui';
import { fakeApi, renderWithApi } from '../../../shared/src/ui/test-render';
import type { MailItem, OutlookHost } from '../office/outlook';
import { Pane, NO_ITEM } from './Pane';

afterEach(cleanup);

const JANE_ID = 'c0000000-0000-4000-8000-000000000001';
const NINA_ID = 'c0000000-0000-4000-8000-000000000002';

function scriptedHost(first: MailItem | null) {
  let item = first;
  let changed: (() => void) | null = null;
  const host: OutlookHost = {
    ready: async () => ({ host: 'Outlook', platform: 'OfficeOnline' }),
    inOutlook: () => true,
    userEmail: () => 'me@corp.example',
    currentItem: async () => item,
    onItemChanged: async (h) => {
      changed = h;
      return () => {
        changed = null;
      };
    },
    setSubject: vi.fn(async () => {}),
    setBody: vi.fn(async () => {}),
    insertBody: vi.fn(async () => {}),
    openDialog: vi.fn(async () => null),
    displayReplyForm: vi.fn(),
    graphId: (id: string) => `graph-${id}`,
    settings: { get: () => null, set: async () => {} },
  };
  return {
    host,
    select: (next: MailItem | null) => {
      item = next;
      act(() => changed?.());
    },
  };
}

function details(id: string, firstName: string, lastName: string, email: string): ContactDetails {
  return {
    id,
    firstName,
    lastName,
    email,
    owner: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    primaryCompany: null,
    companyCount: 0,
    fields: {},
    entityMapping: [],
  };
}

const jane: MatchedContact = {
  id: JANE_ID,
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@acme.example',
  primaryCompany: { id: 'k1', name: 'Acme', website: 'acme.example', domain: 'acme.example' },
};

function setup(first: MailItem | null, known: MatchedContact[] = [jane]) {
  const contacts = new Map<string, ContactDetails>([[JANE_ID, details(JANE_ID, 'Jane', 'Doe', 'jane@acme.example')]]);
  const matched = [...known];
  const matchEmails = vi.fn(async (emails: string[]) => ({
    success: true as const,
    contacts: matched.filter((c) => emails.includes(c.email)),
  }));
  const contactFromEmail = vi.fn(
    async (body: {
      contact: { firstName?: string | null; lastName?: string | null; email?: string | null };
      companyName?: string | null;
    }) => {
      const c = details(NINA_ID, body.contact.firstName!, body.contact.lastName!, body.contact.email!);
      contacts.set(NINA_ID, c);
      matched.push({ id: NINA_ID, firstName: c.firstName, lastName: c.lastName, email: c.email, primaryCompany: null });
      return {
        success: true as const,
        message: `Contact and company ${body.companyName} created`,
        contact: { ...c, entityMapping: [] },
        company: null,
        companyCreated: true,
      };
    },
  );
  const api = fakeApi({
    mailbox: { matchEmails, contactFromEmail },
    contacts: { details: async (id: string) => ({ success: true as const, contact: contacts.get(id)! }) },
    activities: { forContact: async () => ({ success: true as const, activities: [] }) },
    emails: { pending: async () => ({ success: true as const, emails: [] }) },
    plays: { published: async () => ({ success: true as const, plays: [] }) },
  });
  const scripted = scriptedHost(first);
  const config = { ...defaultUserConfig(), drawer: { ...defaultUserConfig().drawer, tab: 'Activities' as const } };
  renderWithApi(
    <DrawerProvider initialVisibility="Visible">
      <MiniDrawerProvider>
        <Pane host={scripted.host} userId="u1" userName="Morgan Lee" initialConfig={config} onSignOut={() => {}} />
      </MiniDrawerProvider>
    </DrawerProvider>,
    api,
    { pluginMode: true },
  );
  return { ...scripted, matchEmails, contactFromEmail };
}

const read = (over: Partial<Extract<MailItem, { mode: 'read' }>> = {}): MailItem => ({
  mode: 'read',
  kind: 'message',
  id: 'm1',
  subject: 'Q3 numbers',
  from: { displayName: 'Jane Doe', email: 'Jane@Acme.example' },
  to: [
    { displayName: 'Me', email: 'me@corp.example' },
    { displayName: 'Nina Park', email: 'nina.park@northwind.example' },
  ],
  cc: [],
  ...over,
});

describe('the Outlook pane', { timeout: 20_000 }, () => {
  it("read mode: the people matched by email, the sender's drawer in plugin mode (no close button)", async () => {
    const { matchEmails } = setup(read());
    await waitFor(() => expect(screen.getByTestId('drawer-title').textContent).toBe('Jane Doe'));
    expect(matchEmails).toHaveBeenCalledWith(['jane@acme.example', 'nina.park@northwind.example']);
    const people = screen.getAllByTestId('pane-person');
    expect(people.map((p) => p.getAttribute('data-email'))).toEqual(['jane@acme.example', 'nina.park@northwind.example']);
    expect(people[0].getAttribute('aria-selected')).toBe('true');
    expect(within(people[1]).getByText(/Not in Dealscout/)).toBeTruthy();
    expect(screen.queryByTestId('drawer-close')).toBeNull();
    expect(screen.getByTestId('activities-log')).toBeTruthy();
    // Run Play opens the shared mini drawer on its tab (plays arrive with the playbook module).
    await userEvent.setup().click(screen.getByTestId('pane-run-play'));
    expect(screen.getByTestId('mini-drawer').getAttribute('data-tab')).toBe('Run Play');
    expect(screen.getByTestId('run-play-empty')).toBeTruthy();
  });

  it('an unknown person: the one-step create, prefilled from the name and domain, then their drawer', async () => {
    const { contactFromEmail } = setup(read());
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getAllByTestId('pane-person')[1].getAttribute('data-known')).toBe('false'));
    await user.click(screen.getAllByTestId('pane-person')[1]);
    const card = await screen.findByTestId('new-contact-from-email');
    expect((within(card).getByTestId('new-contact-first-name') as HTMLInputElement).value).toBe('Nina');
    expect((within(card).getByTestId('new-contact-last-name') as HTMLInputElement).value).toBe('Park');
    expect((within(card).getByTestId('new-contact-company') as HTMLInputElement).value).toBe('Northwind');
    await user.click(within(card).getByTestId('new-contact-create'));
    expect(contactFromEmail).toHaveBeenCalledWith({
      contact: { firstName: 'Nina', lastName: 'Park', email: 'nina.park@northwind.example' },
      companyName: 'Northwind',
    });
    await waitFor(() => expect(screen.getByTestId('drawer-title').textContent).toBe('Nina Park'));
    expect(screen.queryByTestId('new-contact-from-email')).toBeNull();
  });

  it('a personal mail domain: the contact alone', async () => {
    setup(read({ from: { displayName: 'Pat Lee', email: 'pat.lee@gmail.com' }, to: [] }), []);
    const card = await screen.findByTestId('new-contact-from-email');
    expect(within(card).getByTestId('new-contact-personal').textContent).toContain('gmail.com is a personal mail domain');
    expect(within(card).getByTestId('new-contact-create').textContent).toBe('Create contact');
  });

  it("read mode: 'Reply with a play' shows the drafting card for the chosen contact, closed again on a new selection", async () => {
    const { select } = setup(read());
    await waitFor(() => expect(screen.getByTestId('drawer-title').textContent).toBe('Jane Doe'));
    await userEvent.setup().click(screen.getByTestId('pane-reply'));
    await waitFor(() => expect(screen.getByTestId('compose-draft').textContent).toContain('Reply with a play'));
    await screen.findByTestId('compose-no-plays');
    select(read({ id: 'm2', subject: 'Again' }));
    await waitFor(() => expect(screen.queryByTestId('compose-draft')).toBeNull());
  });

  it('a pinned pane follows the selection', async () => {
    const { select } = setup(read());
    await waitFor(() => expect(screen.getByTestId('drawer-title').textContent).toBe('Jane Doe'));
    select(read({ subject: 'Intro', from: { displayName: 'Nina Park', email: 'nina.park@northwind.example' }, to: [] }));
    await screen.findByTestId('new-contact-from-email');
    expect(screen.getByTestId('pane-mode').textContent).toBe('Intro');
    select(null);
    await screen.findByText(NO_ITEM);
  });

  it('compose mode: the recipients, and drafting with a play for the chosen one (no Coming soon mark)', async () => {
    setup({
      mode: 'compose',
      kind: 'message',
      subject: 'Following up',
      to: [
        { displayName: '', email: 'jane@acme.example' },
        { displayName: 'Nina Park', email: 'nina.park@northwind.example' },
      ],
      cc: [],
    });
    await waitFor(() => expect(screen.getByTestId('drawer-title').textContent).toBe('Jane Doe'));
    expect(screen.getByTestId('pane-mode').textContent).toBe('Writing: Following up');
    await waitFor(() => expect(screen.getByTestId('compose-draft').getAttribute('data-state')).toBe('pick'));
    expect(screen.queryByText('Coming soon')).toBeNull();
    await screen.findByTestId('compose-no-plays');
    // An unknown recipient: drafting waits for the one-step create below it.
    await userEvent.setup().click(screen.getAllByTestId('pane-person')[1]);
    await waitFor(() => expect(screen.getByTestId('compose-draft').getAttribute('data-state')).toBe('unknown'));
    expect(screen.getByTestId('compose-draft').textContent).toContain('nina.park@northwind.example is not in Dealscout yet');
    expect(screen.getByTestId('new-contact-from-email')).toBeTruthy();
  });

  it('compose mode without recipients says to add one', async () => {
    setup({ mode: 'compose', kind: 'message', subject: '', to: [], cc: [] });
    await waitFor(() => expect(screen.getByTestId('compose-draft').getAttribute('data-state')).toBe('no-recipient'));
  });
});
