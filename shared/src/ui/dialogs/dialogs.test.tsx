// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError, type Api } from '../../client';
import type { CompanyDetails, ContactDetails } from '../../contracts';
import { COMPANY_MESSAGES, CONTACT_MESSAGES, FIELD_MESSAGES, OFFERED_FIELD_TYPES } from '../../domain';
import { fakeApi, renderWithApi } from '../test-render';
import { AccountOwnerSelect, NO_OWNER_LABEL, ownerChoices, type OwnerCandidate } from './AccountOwnerSelect';
import { CompanyDialog } from './CompanyDialog';
import { PICK_CONTACT_MESSAGE } from './RecordDialog';
import { ContactDialog } from './ContactDialog';
import { NewFieldDialog, FIELD_CREATE_FAILED } from './NewFieldDialog';
import { saveErrorMessage, issuesFor } from './save-errors';
import { queryKeys } from '../ApiContext';

afterEach(cleanup);

const OWNERS: OwnerCandidate[] = [
  { id: 'u-zoe', firstName: 'Zoe', lastName: 'Young', email: 'zoe@acme.test', active: true, invitationAccepted: true, deleted: false },
  { id: 'u-ada', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@acme.test', active: true, invitationAccepted: true, deleted: false },
  { id: 'u-off', firstName: 'Ina', lastName: 'Active', email: 'ina@acme.test', active: false, invitationAccepted: true, deleted: false },
  {
    id: 'u-pending',
    firstName: 'Pat',
    lastName: 'Pending',
    email: 'pat@acme.test',
    active: true,
    invitationAccepted: false,
    deleted: false,
  },
  { id: 'u-gone', firstName: 'Del', lastName: 'Eted', email: 'del@acme.test', active: true, invitationAccepted: true, deleted: true },
];

const ownersApi = { owners: vi.fn(async () => ({ success: true as const, owners: OWNERS })) };

function companyDetails(over: Partial<CompanyDetails> = {}): CompanyDetails {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    name: 'Acme',
    website: 'acme.test',
    domain: 'acme.test',
    owner: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    keyContact: null,
    contactCount: 0,
    fields: {},
    entityMapping: [],
    ...over,
  };
}

function contactDetails(over: Partial<ContactDetails> = {}): ContactDetails {
  return {
    id: '22222222-2222-4222-8222-222222222222',
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

const messageOf = (testId: string) => {
  const field = screen.getByTestId(testId);
  // Fluent renders the validation message as the field's last child with role=alert (error state).
  return within(field).queryByRole('alert')?.textContent ?? null;
};

const optionTexts = (select: HTMLElement) => Array.from((select as HTMLSelectElement).options).map((o) => o.textContent);

describe('ownerChoices / AccountOwnerSelect', () => {
  it("lists 'No owner' then only active, accepted, non-deleted members sorted by name", () => {
    expect(ownerChoices(OWNERS)).toEqual([
      { id: null, label: NO_OWNER_LABEL },
      { id: 'u-ada', label: 'Ada Lovelace' },
      { id: 'u-zoe', label: 'Zoe Young' },
    ]);
  });

  it("renders the options and maps 'No owner' to null", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithApi(<AccountOwnerSelect value="u-zoe" onChange={onChange} />, fakeApi({ companies: ownersApi }));
    const select = screen.getByTestId('account-owner-select');
    await waitFor(() => expect(optionTexts(select)).toEqual(['No owner', 'Ada Lovelace', 'Zoe Young']));
    expect((select as HTMLSelectElement).value).toBe('u-zoe');
    await user.selectOptions(select, 'No owner');
    expect(onChange).toHaveBeenLastCalledWith(null);
    await user.selectOptions(select, 'Ada Lovelace');
    expect(onChange).toHaveBeenLastCalledWith('u-ada');
  });

  it('shows a deactivated current owner as an unpickable option', async () => {
    renderWithApi(
      <AccountOwnerSelect
        value="u-off"
        onChange={vi.fn()}
        currentOwner={{ id: 'u-off', firstName: 'Ina', lastName: 'Active', email: 'ina@acme.test' }}
      />,
      fakeApi({ companies: ownersApi }),
    );
    const select = screen.getByTestId('account-owner-select') as HTMLSelectElement;
    await waitFor(() => expect(optionTexts(select)).toEqual(['No owner', 'Ada Lovelace', 'Zoe Young', 'Ina Active (inactive)']));
    expect(select.options[3].disabled).toBe(true);
  });
});

describe('saveErrorMessage', () => {
  it('maps a 409 to the duplicate-domain message and otherwise prefers the server message', () => {
    expect(saveErrorMessage(new ApiError(409, 'conflict', { message: 'whatever' }), 'x')).toBe(COMPANY_MESSAGES.duplicateDomain);
    expect(saveErrorMessage(new ApiError(409, 'c', { message: CONTACT_MESSAGES.duplicateEmail }), 'x')).toBe(
      CONTACT_MESSAGES.duplicateEmail,
    );
    expect(
      saveErrorMessage(new ApiError(400, 'bad', { message: 'Account owner must be an active member of your organization' }), 'x'),
    ).toBe('Account owner must be an active member of your organization');
    expect(saveErrorMessage(new ApiError(500, 'Request failed (500)', null), COMPANY_MESSAGES.createFailed)).toBe(
      COMPANY_MESSAGES.createFailed,
    );
    expect(saveErrorMessage(new Error('network'), CONTACT_MESSAGES.createFailed)).toBe(CONTACT_MESSAGES.createFailed);
  });

  it('reads field issues under a part of the body', () => {
    const issues = [
      { path: 'company.website', message: 'Invalid URL' },
      { path: 'contact/email', message: 'Invalid email' },
      { path: 'name', message: 'Company name is required' },
    ];
    expect(issuesFor(issues, 'company', true)).toEqual({ website: 'Invalid URL', name: 'Company name is required' });
    expect(issuesFor(issues, 'contact', false)).toEqual({ email: 'Invalid email' });
  });
});

describe('CompanyDialog', () => {
  function setup(api: Api, props: Partial<Parameters<typeof CompanyDialog>[0]> = {}) {
    const onOpenChange = vi.fn();
    const onSaved = vi.fn();
    const r = renderWithApi(<CompanyDialog open onOpenChange={onOpenChange} onSaved={onSaved} {...props} />, api);
    return { ...r, onOpenChange, onSaved };
  }

  it('shows the spec messages for the company fields', async () => {
    const user = userEvent.setup();
    const create = vi.fn();
    setup(fakeApi({ companies: { ...ownersApi, create } }));
    expect(screen.getByTestId('company-dialog').getAttribute('data-mode')).toBe('new');
    await user.click(screen.getByTestId('company-dialog-save'));
    expect(messageOf('company-name-field')).toBe('Company name is required');
    expect(messageOf('company-website-field')).toBe('Company website is required');
    await user.type(screen.getByTestId('company-name'), 'Acme');
    await user.type(screen.getByTestId('company-website'), 'not a url');
    expect(messageOf('company-name-field')).toBeNull();
    expect(messageOf('company-website-field')).toBe('Invalid URL');
    await user.clear(screen.getByTestId('company-website'));
    await user.click(screen.getByTestId('company-website'));
    await user.paste(`https://acme.test/${'a'.repeat(250)}`);
    expect(messageOf('company-website-field')).toBe('URL must be at most 255 characters long');
    await user.clear(screen.getByTestId('company-name'));
    await user.click(screen.getByTestId('company-name'));
    await user.paste('n'.repeat(256));
    expect(messageOf('company-name-field')).toBe('Company name must be at most 255 characters long');
    expect(create).not.toHaveBeenCalled();
  });

  it('validates a new linked contact with the contact rules and creates both', async () => {
    const user = userEvent.setup();
    const saved = companyDetails({
      entityMapping: [
        {
          companyId: '11111111-1111-4111-8111-111111111111',
          contactId: 'c-new',
          isKey: true,
          isPrimary: true,
          label: null,
          value: null,
          firstName: 'Grace',
          lastName: 'Hopper',
          email: 'grace@acme.test',
        },
      ],
    });
    const create = vi.fn(async () => ({ success: true as const, message: 'ok', company: saved }));
    const { onSaved, onOpenChange, queryClient } = setup(fakeApi({ companies: { ...ownersApi, create } }), { defaultOwnerId: 'u-ada' });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await user.type(screen.getByTestId('company-name'), '  Acme  ');
    await user.type(screen.getByTestId('company-website'), 'acme.test');
    await user.click(screen.getByTestId('company-contact-link-new'));
    await user.click(screen.getByTestId('company-dialog-save'));
    expect(messageOf('company-contact-first-name-field')).toBe('First name is required');
    expect(messageOf('company-contact-last-name-field')).toBe('Last name is required');
    expect(messageOf('company-contact-email-field')).toBe('Email is required');
    await user.type(screen.getByTestId('company-contact-first-name'), 'Grace');
    await user.type(screen.getByTestId('company-contact-last-name'), 'Hopper');
    await user.type(screen.getByTestId('company-contact-email'), 'grace@');
    expect(messageOf('company-contact-email-field')).toBe('Invalid email');
    expect(create).not.toHaveBeenCalled();
    await user.type(screen.getByTestId('company-contact-email'), 'acme.test');
    await waitFor(() => expect((screen.getByTestId('company-owner') as HTMLSelectElement).options.length).toBe(3));
    await user.click(screen.getByTestId('company-dialog-save'));
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create).toHaveBeenCalledWith({
      company: { name: 'Acme', website: 'acme.test', accountOwnerId: 'u-ada' },
      contact: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme.test', accountOwnerId: 'u-ada' },
    });
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(await screen.findByText(COMPANY_MESSAGES.created)).toBeTruthy();
    const keys = invalidate.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey));
    expect(keys).toEqual(
      expect.arrayContaining([
        JSON.stringify(queryKeys.companies),
        JSON.stringify(queryKeys.contacts),
        JSON.stringify(queryKeys.company(saved.id)),
        JSON.stringify(queryKeys.contact('c-new')),
      ]),
    );
  });

  it('links an existing contact picked by search (already linked ones disabled) when editing', async () => {
    const user = userEvent.setup();
    const editing = companyDetails({
      owner: { id: 'u-zoe', firstName: 'Zoe', lastName: 'Young', email: 'zoe@acme.test' },
      entityMapping: [
        {
          companyId: '11111111-1111-4111-8111-111111111111',
          contactId: 'c-linked',
          isKey: true,
          isPrimary: true,
          label: null,
          value: null,
          firstName: 'Lin',
          lastName: 'Ked',
          email: 'lin@acme.test',
        },
      ],
    });
    const update = vi.fn(async () => ({ success: true as const, message: 'ok', company: editing }));
    const search = vi.fn(async () => ({
      success: true as const,
      results: [
        { id: 'c-linked', entityType: 'contact' as const, title: 'Lin Ked', subtitle: 'lin@acme.test' },
        { id: '33333333-3333-4333-8333-333333333333', entityType: 'contact' as const, title: 'Ada Free', subtitle: 'ada@free.test' },
      ],
    }));
    setup(fakeApi({ companies: { ...ownersApi, update }, contacts: { search } }), { company: editing });
    expect(screen.getByText('Edit Company')).toBeTruthy();
    expect((screen.getByTestId('company-name') as HTMLInputElement).value).toBe('Acme');
    // Editing links existing contacts only.
    expect(screen.queryByTestId('company-contact-link-new')).toBeNull();
    await user.click(screen.getByTestId('company-contact-link-existing'));
    await user.click(screen.getByTestId('company-dialog-save'));
    expect(screen.getByText(PICK_CONTACT_MESSAGE)).toBeTruthy();
    await user.type(screen.getByTestId('company-contact-picker-search'), 'a');
    await waitFor(() => expect(search).toHaveBeenLastCalledWith('a'));
    await waitFor(() => expect(screen.getAllByTestId('company-contact-picker-option')).toHaveLength(2));
    const [linked, free] = screen.getAllByTestId('company-contact-picker-option');
    expect(linked.getAttribute('data-disabled')).toBe('true');
    expect(linked.getAttribute('aria-disabled')).toBe('true');
    await user.click(linked);
    expect(screen.queryByTestId('company-contact-picked')).toBeNull();
    await user.click(free);
    expect(screen.getByTestId('company-contact-picked').getAttribute('data-id')).toBe('33333333-3333-4333-8333-333333333333');
    await waitFor(() => expect((screen.getByTestId('company-owner') as HTMLSelectElement).value).toBe('u-zoe'));
    await user.selectOptions(screen.getByTestId('company-owner'), 'No owner');
    await user.click(screen.getByTestId('company-dialog-save'));
    await waitFor(() =>
      expect(update).toHaveBeenCalledWith({
        id: editing.id,
        company: { name: 'Acme', website: 'acme.test', accountOwnerId: null },
        accountOwnerId: null,
        assignContactId: '33333333-3333-4333-8333-333333333333',
      }),
    );
    expect(await screen.findByText(COMPANY_MESSAGES.updated)).toBeTruthy();
  });

  it('shows the duplicate-domain message on 409 and keeps the dialog open', async () => {
    const user = userEvent.setup();
    const create = vi.fn(async () => {
      throw new ApiError(409, 'Conflict', { success: false, message: 'Conflict' });
    });
    const { onOpenChange } = setup(fakeApi({ companies: { ...ownersApi, create } }));
    await user.type(screen.getByTestId('company-name'), 'Acme');
    await user.type(screen.getByTestId('company-website'), 'https://www.acme.test');
    await user.click(screen.getByTestId('company-dialog-save'));
    await waitFor(() => expect(screen.getByTestId('company-dialog-error').textContent).toBe('Company with same domain already exists'));
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
    // Focus stayed in the dialog through the save, so Esc still closes it.
    expect(screen.getByTestId('company-dialog').contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('shows the server message, else the spec fallback, and the server field issues', async () => {
    const user = userEvent.setup();
    const create = vi
      .fn()
      .mockRejectedValueOnce(
        new ApiError(400, 'Validation failed', {
          success: false,
          message: 'Validation failed',
          issues: [{ path: 'company.website', message: 'Invalid URL' }],
        }),
      )
      .mockRejectedValueOnce(new ApiError(500, 'Request failed (500)', null));
    setup(fakeApi({ companies: { ...ownersApi, create } }));
    await user.type(screen.getByTestId('company-name'), 'Acme');
    await user.type(screen.getByTestId('company-website'), 'acme.test');
    await user.click(screen.getByTestId('company-dialog-save'));
    await waitFor(() => expect(screen.getByTestId('company-dialog-error').textContent).toBe('Validation failed'));
    expect(messageOf('company-website-field')).toBe('Invalid URL');
    await user.click(screen.getByTestId('company-dialog-save'));
    await waitFor(() => expect(screen.getByTestId('company-dialog-error').textContent).toBe('Failed to create company'));
  });

  it("falls back to 'Failed to updated company' when an edit fails without a message", async () => {
    const user = userEvent.setup();
    const update = vi.fn(async () => {
      throw new ApiError(500, 'Request failed (500)', null);
    });
    setup(fakeApi({ companies: { ...ownersApi, update } }), { company: companyDetails() });
    await user.click(screen.getByTestId('company-dialog-save'));
    await waitFor(() => expect(screen.getByTestId('company-dialog-error').textContent).toBe('Failed to updated company'));
  });

  it('is 400 px wide, full width under a plugin', () => {
    const api = fakeApi({ companies: ownersApi });
    const { unmount } = renderWithApi(<CompanyDialog open onOpenChange={vi.fn()} />, api);
    expect(screen.getByTestId('company-dialog').style.width).toBe('400px');
    unmount();
    renderWithApi(<CompanyDialog open onOpenChange={vi.fn()} />, api, { pluginMode: true });
    expect(screen.getByTestId('company-dialog').style.width).toBe('100%');
  });

  it('closes on Esc', async () => {
    const user = userEvent.setup();
    const { onOpenChange } = setup(fakeApi({ companies: ownersApi }));
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe('ContactDialog', () => {
  function setup(api: Api, props: Partial<Parameters<typeof ContactDialog>[0]> = {}) {
    const onOpenChange = vi.fn();
    const onSaved = vi.fn();
    const r = renderWithApi(<ContactDialog open onOpenChange={onOpenChange} onSaved={onSaved} {...props} />, api);
    return { ...r, onOpenChange, onSaved };
  }

  it('shows the spec messages for the contact fields', async () => {
    const user = userEvent.setup();
    const create = vi.fn();
    setup(fakeApi({ companies: ownersApi, contacts: { create } }));
    await user.click(screen.getByTestId('contact-dialog-save'));
    expect(messageOf('contact-first-name-field')).toBe('First name is required');
    expect(messageOf('contact-last-name-field')).toBe('Last name is required');
    expect(messageOf('contact-email-field')).toBe('Email is required');
    await user.click(screen.getByTestId('contact-first-name'));
    await user.paste('f'.repeat(129));
    await user.click(screen.getByTestId('contact-last-name'));
    await user.paste('l'.repeat(129));
    await user.type(screen.getByTestId('contact-email'), 'nope');
    expect(messageOf('contact-first-name-field')).toBe('First name must be at most 128 characters long');
    expect(messageOf('contact-last-name-field')).toBe('Last name must be at most 128 characters long');
    expect(messageOf('contact-email-field')).toBe('Invalid email');
    expect(create).not.toHaveBeenCalled();
  });

  it('validates a new linked company with the company rules and creates both', async () => {
    const user = userEvent.setup();
    const saved = contactDetails();
    const create = vi.fn(async () => ({ success: true as const, message: 'ok', contact: saved }));
    const { onSaved } = setup(fakeApi({ companies: ownersApi, contacts: { create } }));
    await user.type(screen.getByTestId('contact-first-name'), 'Grace');
    await user.type(screen.getByTestId('contact-last-name'), 'Hopper');
    await user.type(screen.getByTestId('contact-email'), 'grace@acme.test');
    await user.click(screen.getByTestId('contact-company-link-new'));
    await user.click(screen.getByTestId('contact-dialog-save'));
    expect(messageOf('contact-company-name-field')).toBe('Company name is required');
    expect(messageOf('contact-company-website-field')).toBe('Company website is required');
    await user.type(screen.getByTestId('contact-company-name'), 'Acme');
    await user.type(screen.getByTestId('contact-company-website'), 'acme');
    expect(messageOf('contact-company-website-field')).toBe('Invalid URL');
    expect(create).not.toHaveBeenCalled();
    await user.type(screen.getByTestId('contact-company-website'), '.test');
    await user.click(screen.getByTestId('contact-dialog-save'));
    await waitFor(() =>
      expect(create).toHaveBeenCalledWith({
        contact: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme.test', accountOwnerId: null },
        company: { name: 'Acme', website: 'acme.test', accountOwnerId: null },
      }),
    );
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(await screen.findByText(CONTACT_MESSAGES.created)).toBeTruthy();
  });

  it('is prefilled to link a company (Add a contact from a company drawer)', async () => {
    const user = userEvent.setup();
    const create = vi.fn(async () => ({ success: true as const, message: 'ok', contact: contactDetails() }));
    setup(fakeApi({ companies: ownersApi, contacts: { create } }), {
      linkCompany: { id: '11111111-1111-4111-8111-111111111111', title: 'Acme', subtitle: 'acme.test' },
    });
    expect(screen.getByTestId('contact-company-picked').textContent).toContain('Acme');
    await user.type(screen.getByTestId('contact-first-name'), 'Grace');
    await user.type(screen.getByTestId('contact-last-name'), 'Hopper');
    await user.type(screen.getByTestId('contact-email'), 'grace@acme.test');
    await user.click(screen.getByTestId('contact-dialog-save'));
    await waitFor(() =>
      expect(create).toHaveBeenCalledWith({
        contact: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme.test', accountOwnerId: null },
        assignCompanyId: '11111111-1111-4111-8111-111111111111',
      }),
    );
  });

  it("falls back to 'Error creating contact' and 'Failed to updated contact'; 409 is the domain conflict", async () => {
    const user = userEvent.setup();
    const create = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(502, 'Request failed (502)', null))
      .mockRejectedValueOnce(new ApiError(409, 'Conflict', { success: false, message: 'Conflict' }));
    setup(fakeApi({ companies: ownersApi, contacts: { create } }));
    await user.type(screen.getByTestId('contact-first-name'), 'Grace');
    await user.type(screen.getByTestId('contact-last-name'), 'Hopper');
    await user.type(screen.getByTestId('contact-email'), 'grace@acme.test');
    await user.click(screen.getByTestId('contact-dialog-save'));
    await waitFor(() => expect(screen.getByTestId('contact-dialog-error').textContent).toBe('Error creating contact'));
    await user.click(screen.getByTestId('contact-dialog-save'));
    await waitFor(() => expect(screen.getByTestId('contact-dialog-error').textContent).toBe('Company with same domain already exists'));
    cleanup();
    const update = vi.fn(async () => {
      throw new ApiError(500, 'Request failed (500)', null);
    });
    setup(fakeApi({ companies: ownersApi, contacts: { update } }), { contact: contactDetails() });
    expect(screen.getByText('Edit Contact')).toBeTruthy();
    await user.click(screen.getByTestId('contact-dialog-save'));
    await waitFor(() => expect(screen.getByTestId('contact-dialog-error').textContent).toBe('Failed to updated contact'));
  });

  it("shows 'Contact updated' after an edit", async () => {
    const user = userEvent.setup();
    const update = vi.fn(async () => ({ success: true as const, message: 'ok', contact: contactDetails({ lastName: 'Brewster' }) }));
    setup(fakeApi({ companies: ownersApi, contacts: { update } }), { contact: contactDetails() });
    await user.clear(screen.getByTestId('contact-last-name'));
    await user.type(screen.getByTestId('contact-last-name'), 'Brewster');
    await user.click(screen.getByTestId('contact-dialog-save'));
    await waitFor(() =>
      expect(update).toHaveBeenCalledWith({
        id: '22222222-2222-4222-8222-222222222222',
        contact: { firstName: 'Grace', lastName: 'Brewster', email: 'grace@acme.test', accountOwnerId: null },
        accountOwnerId: null,
      }),
    );
    expect(await screen.findByText(CONTACT_MESSAGES.updated)).toBeTruthy();
  });
});

describe('NewFieldDialog', () => {
  it('offers the twelve data types and the two entity types', () => {
    renderWithApi(<NewFieldDialog open onOpenChange={vi.fn()} />, fakeApi({}));
    expect(optionTexts(screen.getByTestId('new-field-type'))).toEqual(OFFERED_FIELD_TYPES.map((t) => t.label));
    expect(optionTexts(screen.getByTestId('new-field-type'))).toEqual([
      'String',
      'Url',
      'Integer',
      'Decimal',
      'Boolean',
      'Address',
      'Date',
      'Time',
      'Currency',
      'Email',
      'Object',
      'Phone Number',
    ]);
    expect(optionTexts(screen.getByTestId('new-field-entity'))).toEqual(['Company', 'Contact']);
  });

  it('checks the name length with the spec messages, then creates the field', async () => {
    const user = userEvent.setup();
    const field = {
      id: 'f1',
      key: 'arr',
      label: 'ARR',
      dataType: 'currency' as const,
      entityType: 'contact' as const,
      namespace: 'contact' as const,
      isMandatory: false,
      isPseudo: false,
      builtIn: false,
      config: { reconciliation: 'use_latest' as const, refreshSchedule: 'never' as const },
      assignedEnrichments: [],
    };
    const create = vi.fn(async () => ({ success: true as const, message: FIELD_MESSAGES.created, field }));
    const onCreated = vi.fn();
    const onOpenChange = vi.fn();
    const { queryClient } = renderWithApi(
      <NewFieldDialog open onOpenChange={onOpenChange} onCreated={onCreated} entityType="contact" />,
      fakeApi({ fields: { create } }),
    );
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    expect((screen.getByTestId('new-field-entity') as HTMLSelectElement).value).toBe('contact');
    await user.click(screen.getByTestId('new-field-save'));
    expect(messageOf('new-field-label-field')).toBe('Field name must be at least 1 characters long');
    await user.type(screen.getByTestId('new-field-label'), '   ');
    expect(messageOf('new-field-label-field')).toBe('Field name must be at least 1 characters long');
    await user.clear(screen.getByTestId('new-field-label'));
    await user.click(screen.getByTestId('new-field-label'));
    await user.paste('x'.repeat(51));
    expect(messageOf('new-field-label-field')).toBe('Field name must be at most 50 characters long');
    await user.clear(screen.getByTestId('new-field-label'));
    await user.click(screen.getByTestId('new-field-label'));
    await user.paste('x'.repeat(50));
    expect(messageOf('new-field-label-field')).toBeNull();
    expect(create).not.toHaveBeenCalled();
    await user.clear(screen.getByTestId('new-field-label'));
    await user.type(screen.getByTestId('new-field-label'), ' ARR ');
    await user.selectOptions(screen.getByTestId('new-field-type'), 'Currency');
    await user.click(screen.getByTestId('new-field-save'));
    await waitFor(() => expect(create).toHaveBeenCalledWith({ label: 'ARR', dataType: 'currency', entityType: 'contact' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(field));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(await screen.findByText(FIELD_MESSAGES.created)).toBeTruthy();
    expect(invalidate.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey))).toEqual(
      expect.arrayContaining([JSON.stringify(queryKeys.fields('contact'))]),
    );
  });

  it('shows the server message or the fallback when the create fails', async () => {
    const user = userEvent.setup();
    const create = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(409, 'dup', { success: false, message: FIELD_MESSAGES.duplicate }))
      .mockRejectedValueOnce(new ApiError(500, 'Request failed (500)', null));
    renderWithApi(<NewFieldDialog open onOpenChange={vi.fn()} />, fakeApi({ fields: { create } }));
    await user.type(screen.getByTestId('new-field-label'), 'ARR');
    await user.click(screen.getByTestId('new-field-save'));
    await waitFor(() => expect(screen.getByTestId('new-field-error').textContent).toBe(FIELD_MESSAGES.duplicate));
    await user.click(screen.getByTestId('new-field-save'));
    await waitFor(() => expect(screen.getByTestId('new-field-error').textContent).toBe(FIELD_CREATE_FAILED));
  });
});
