// @vitest-environment happy-dom
import '../test-dom';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Api } from '../../client';
import type { CompanyDetails, ContactDetails, FieldDto, FieldValueDto, UserSettingsBody } from '../../contracts';
import { defaultUserConfig, ENTITY_MESSAGES, type UserConfig } from '../../domain';
import { fakeApi, renderWithApi, watchForText } from '../test-render';
import { DrawerProvider, useDrawer, type DrawerTarget } from '../DrawerContext';
import { queryKeys } from '../ApiContext';
import { RecordDrawer, DRAFT_EMAIL_ELSEWHERE } from './RecordDrawer';
import {
  COPIED_MESSAGE,
  NOT_EXECUTED,
  SELECT_ENTITY_HINT,
  drawerFields,
  formatFieldValue,
  initialShowGroups,
  sortCompanyLinks,
  sortContactLinks,
  type CompanyLink,
  type ContactLink,
} from './drawer-rules';

afterEach(cleanup);

const COMPANY_ID = '11111111-1111-4111-8111-111111111111';
const OTHER_COMPANY_ID = '44444444-4444-4444-8444-444444444444';
const C1 = 'c0000000-0000-4000-8000-000000000001';
const C2 = 'c0000000-0000-4000-8000-000000000002';
const C3 = 'c0000000-0000-4000-8000-000000000003';
const C4 = 'c0000000-0000-4000-8000-000000000004';

function contactLink(contactId: string, firstName: string, lastName: string, over: Partial<CompanyLink> = {}): CompanyLink {
  return {
    companyId: COMPANY_ID,
    contactId,
    isKey: false,
    isPrimary: false,
    label: null,
    value: null,
    firstName,
    lastName,
    email: `${firstName.toLowerCase()}@acme.test`,
    ...over,
  };
}

function field(id: string, label: string, over: Partial<FieldDto> = {}): FieldDto {
  return {
    id,
    key: label.toLowerCase().replace(/\W+/g, '_'),
    label,
    dataType: 'string',
    entityType: 'company',
    namespace: 'company',
    isMandatory: false,
    isPseudo: false,
    builtIn: false,
    config: { reconciliation: 'use_latest', refreshSchedule: 'never' },
    assignedEnrichments: [],
    ...over,
  };
}

function value(fieldId: string, v: unknown): FieldValueDto {
  return { fieldId, value: v, infoValue: null, status: null, statusMessage: null, details: null, updatedAt: '2025-01-01T00:00:00.000Z' };
}

const F_ARR = 'f0000000-0000-4000-8000-00000000000a';
const F_SECTOR = 'f0000000-0000-4000-8000-00000000000b';
const F_BOARD = 'f0000000-0000-4000-8000-00000000000c';

const COMPANY_FIELDS: FieldDto[] = [
  field('f-id', 'Id', { key: 'id', dataType: 'id', isMandatory: true, builtIn: true }),
  field('f-name', 'Name', { key: 'name', isMandatory: true, builtIn: true }),
  field('f-owner', 'Account Owner', { key: 'owner', dataType: 'reference', isMandatory: true, builtIn: true }),
  field(F_SECTOR, 'sector'),
  field('f-ref', 'Parent company', { dataType: 'reference' }),
  field(F_ARR, 'ARR', { dataType: 'currency', currency: 'EUR' }),
  field('f-uuid', 'External id', { dataType: 'id' }),
  field(F_BOARD, 'Board seats', { dataType: 'int' }),
];

function company(over: Partial<CompanyDetails> = {}): CompanyDetails {
  return {
    id: COMPANY_ID,
    name: 'Acme Holdings',
    website: 'https://acme.test',
    domain: 'acme.test',
    owner: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    keyContact: null,
    contactCount: 4,
    fields: { [F_ARR]: value(F_ARR, 1250000), [F_SECTOR]: value(F_SECTOR, '') },
    entityMapping: [
      contactLink(C1, 'Zed', 'Zulu', { label: 'Advisor' }),
      contactLink(C2, 'Bea', 'Brown', { label: 'CFO' }),
      contactLink(C3, 'Kim', 'Key', { isKey: true, label: 'CEO' }),
      contactLink(C4, 'Al', 'Able', { label: 'Board' }),
    ],
    ...over,
  };
}

function contact(over: Partial<ContactDetails> = {}): ContactDetails {
  return {
    id: C2,
    firstName: 'Bea',
    lastName: 'Brown',
    email: 'bea@acme.test',
    owner: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    primaryCompany: null,
    companyCount: 2,
    fields: {},
    entityMapping: [
      {
        companyId: OTHER_COMPANY_ID,
        contactId: C2,
        isKey: false,
        isPrimary: false,
        label: null,
        value: null,
        name: 'Beta Corp',
        website: 'beta.test',
      },
      {
        companyId: COMPANY_ID,
        contactId: C2,
        isKey: false,
        isPrimary: true,
        label: null,
        value: null,
        name: 'Acme Holdings',
        website: 'acme.test',
      },
    ],
    ...over,
  };
}

function Open({ target }: { target: DrawerTarget | null }) {
  const drawer = useDrawer();
  useEffect(() => {
    if (target) drawer.open(target);
    // Opened once, like a row click.
  }, []);
  return null;
}

function renderDrawer(
  api: Api,
  opts: {
    target?: DrawerTarget | null;
    visibility?: 'NoDrawer' | 'Collapsed' | 'Visible';
    config?: UserConfig;
    pluginMode?: boolean;
    saveSettings?: (patch: UserSettingsBody) => void;
  } = {},
) {
  const onVisibilityChange = vi.fn();
  const saveSettings = opts.saveSettings ?? vi.fn();
  const r = renderWithApi(
    <DrawerProvider initialVisibility={opts.visibility ?? 'NoDrawer'} onVisibilityChange={onVisibilityChange}>
      <Open target={opts.target ?? null} />
      <RecordDrawer initialConfig={opts.config} saveSettings={saveSettings} />
    </DrawerProvider>,
    api,
    { pluginMode: opts.pluginMode },
  );
  return { ...r, onVisibilityChange, saveSettings };
}

function companyApi(
  over: {
    details?: CompanyDetails;
    companies?: Partial<Api['companies']>;
    contacts?: Partial<Api['contacts']>;
    fields?: Partial<Api['fields']>;
    enrichments?: Partial<Api['enrichments']>;
  } = {},
) {
  const details = over.details ?? company();
  return fakeApi({
    companies: {
      details: vi.fn(async () => ({ success: true as const, company: details })),
      owners: vi.fn(async () => ({ success: true as const, owners: [] })),
      ...over.companies,
    },
    contacts: {
      details: vi.fn(async () => ({ success: true as const, contact: contact() })),
      ...over.contacts,
    },
    fields: {
      list: vi.fn(async () => ({ success: true as const, fields: COMPANY_FIELDS })),
      ...over.fields,
    },
    enrichments: {
      list: vi.fn(async () => ({
        success: true as const,
        enrichments: [],
        totalRecords: 0,
        totalPages: 0,
        hasRecords: false,
        pageIndex: 0,
        pageSize: 100,
      })),
      results: vi.fn(async () => ({ success: true as const, results: [] })),
      ...over.enrichments,
    },
  });
}

const rowIds = (testId: string, attr: string) => screen.getAllByTestId(testId).map((r) => r.getAttribute(attr));

describe('drawer rules', () => {
  it('sorts contacts key contact first, then by label', () => {
    const sorted = sortContactLinks(company().entityMapping);
    expect(sorted.map((l) => l.label)).toEqual(['CEO', 'Advisor', 'Board', 'CFO']);
    expect(sorted[0].isKey).toBe(true);
    // Without labels, by name.
    const plain = sortContactLinks([contactLink(C1, 'Zed', 'Zulu'), contactLink(C2, 'Al', 'Brown'), contactLink(C3, 'Al', 'Able')]);
    expect(plain.map((l) => l.lastName)).toEqual(['Able', 'Brown', 'Zulu']);
  });

  it('sorts companies primary first, then by name', () => {
    const links: ContactLink[] = [
      { companyId: 'a', contactId: C1, isKey: false, isPrimary: false, label: null, value: null, name: 'zeta', website: '' },
      { companyId: 'b', contactId: C1, isKey: false, isPrimary: false, label: null, value: null, name: 'Alpha', website: '' },
      { companyId: 'c', contactId: C1, isKey: false, isPrimary: true, label: null, value: null, name: 'Mid', website: '' },
    ];
    expect(sortCompanyLinks(links).map((l) => l.name)).toEqual(['Mid', 'Alpha', 'zeta']);
  });

  it('lists fields without id and reference types or mandatory fields, sorted by label', () => {
    expect(drawerFields(COMPANY_FIELDS).map((f) => f.label)).toEqual(['ARR', 'Board seats', 'sector']);
    expect(drawerFields(COMPANY_FIELDS, 'contact')).toEqual([]);
  });

  it('formats values; empty ones are null', () => {
    expect(formatFieldValue('string', '')).toBeNull();
    expect(formatFieldValue('string', '  ')).toBeNull();
    expect(formatFieldValue('int', null)).toBeNull();
    expect(formatFieldValue('int', 0)).toBe('0');
    expect(formatFieldValue('boolean', false)).toBe('No');
    expect(formatFieldValue('object', { a: 1 })).toBe('A: 1');
    expect(formatFieldValue('address', { street: '1 Main St', city: 'Springfield' })).toBe('1 Main St, Springfield');
  });

  it('restores section states from the config, missing flags open', () => {
    const config = defaultUserConfig();
    config.drawer.company.details.showGroups = { contacts: false };
    expect(initialShowGroups(config).company).toEqual({ contacts: false, unassignedEnrichments: true, companyFields: true });
    expect(initialShowGroups(undefined).contact).toEqual({ companies: true, unassignedEnrichments: true, contactFields: true });
  });
});

describe('RecordDrawer visibility', () => {
  it('renders nothing in NoDrawer', () => {
    renderDrawer(companyApi(), { visibility: 'NoDrawer' });
    expect(screen.queryByTestId('record-drawer')).toBeNull();
  });

  it('collapsed: a toolbar with open drawer, a disabled email action explained, and the hint when nothing is selected', async () => {
    const user = userEvent.setup();
    const { onVisibilityChange } = renderDrawer(companyApi(), { visibility: 'Collapsed' });
    expect(screen.getByTestId('record-drawer').getAttribute('data-visibility')).toBe('Collapsed');
    expect(screen.getByTestId('drawer-hint').textContent).toBe(SELECT_ENTITY_HINT);
    const email = screen.getByTestId('drawer-draft-email');
    expect(email.getAttribute('aria-disabled')).toBe('true');
    await user.hover(email);
    expect(await screen.findByText(DRAFT_EMAIL_ELSEWHERE)).toBeTruthy();
    await user.click(screen.getByTestId('drawer-open'));
    expect(onVisibilityChange).toHaveBeenLastCalledWith('Visible');
    expect(screen.getByTestId('record-drawer').getAttribute('data-visibility')).toBe('Visible');
    expect(screen.getByTestId('drawer-hint').textContent).toBe(SELECT_ENTITY_HINT);
  });

  it('visible: the company header with collapse and close; collapse then close', async () => {
    const user = userEvent.setup();
    const { onVisibilityChange } = renderDrawer(companyApi(), { target: { entityType: 'company', id: COMPANY_ID } });
    expect(await screen.findByTestId('drawer-title')).toBeTruthy();
    expect(screen.getByTestId('drawer-title').textContent).toBe('Acme Holdings');
    expect(screen.getByTestId('drawer-subtitle').textContent).toBe('https://acme.test');
    expect(screen.queryByTestId('drawer-back')).toBeNull();
    await user.click(screen.getByTestId('drawer-collapse'));
    expect(onVisibilityChange).toHaveBeenLastCalledWith('Collapsed');
    expect(screen.getByTestId('drawer-collapsed')).toBeTruthy();
    expect(screen.queryByTestId('drawer-hint')).toBeNull();
    await user.click(screen.getByTestId('drawer-open'));
    await user.click(await screen.findByTestId('drawer-close'));
    expect(onVisibilityChange).toHaveBeenLastCalledWith('NoDrawer');
    expect(screen.queryByTestId('record-drawer')).toBeNull();
  });

  it('a record opened to fix its details comes up with its edit dialog (a play run names it as skipped)', async () => {
    renderDrawer(companyApi(), { target: { entityType: 'company', id: COMPANY_ID, edit: true } });
    const dialog = await screen.findByTestId('company-dialog');
    expect(dialog.getAttribute('data-mode')).toBe('edit');
  });

  it('has no close or collapse button under a plugin, and takes the full width', async () => {
    renderDrawer(companyApi(), { target: { entityType: 'company', id: COMPANY_ID }, pluginMode: true });
    await screen.findByTestId('drawer-title');
    expect(screen.queryByTestId('drawer-close')).toBeNull();
    expect(screen.queryByTestId('drawer-collapse')).toBeNull();
    expect(screen.getByTestId('record-drawer').style.width).toBe('100%');
  });

  it('shows the contact header (full name and email)', async () => {
    renderDrawer(companyApi(), { target: { entityType: 'contact', id: C2 } });
    await waitFor(() => expect(screen.getByTestId('drawer-title').textContent).toBe('Bea Brown'));
    expect(screen.getByTestId('drawer-subtitle').textContent).toBe('bea@acme.test');
    expect(screen.getByTestId('drawer-subtitle').getAttribute('href')).toBe('mailto:bea@acme.test');
  });

  it('says so when the record no longer exists', async () => {
    const { ApiError } = await import('../../client');
    const api = companyApi({
      companies: {
        details: vi.fn(async () => {
          throw new ApiError(404, 'Company not found', { success: false, message: 'Company not found' });
        }),
      },
    });
    renderDrawer(api, { target: { entityType: 'company', id: COMPANY_ID } });
    await waitFor(() => expect(screen.getByTestId('drawer-error').textContent).toContain('This company no longer exists.'));
  });
});

describe('RecordDrawer tabs and sections', () => {
  it("Activities tab lists the record's activities (empty state with the key contact to email)", async () => {
    const user = userEvent.setup();
    const api = companyApi();
    const forCompany = vi.fn(async () => ({ success: true as const, activities: [] }));
    (api as unknown as { activities: Partial<Api['activities']> }).activities = { forCompany };
    const { saveSettings } = renderDrawer(api, { target: { entityType: 'company', id: COMPANY_ID } });
    await user.click(await screen.findByTestId('drawer-tab-activities'));
    await screen.findByTestId('activities-empty');
    expect(forCompany).toHaveBeenCalledWith(COMPANY_ID, []);
    expect(screen.getByTestId('activities-draft-email').textContent).toBe('Draft Email to Acme Holdings');
    expect(saveSettings).toHaveBeenLastCalledWith({ drawer: { tab: 'Activities' } });
  });

  it('company sections in order; Unassigned Enrichments says when there are none', async () => {
    renderDrawer(companyApi(), { target: { entityType: 'company', id: COMPANY_ID } });
    await screen.findByTestId('drawer-details');
    const sections = within(screen.getByTestId('drawer-details'))
      .getAllByRole('region')
      .map((s) => s.getAttribute('aria-label'));
    expect(sections).toEqual(['Contacts', 'Unassigned Enrichments', 'Company Fields']);
    expect((await screen.findByTestId('drawer-enrichments-empty')).textContent).toMatch(/No unassigned company enrichments/);
  });

  it('restores collapsed sections from the config and saves each toggle per entity type', async () => {
    const user = userEvent.setup();
    const config = defaultUserConfig();
    config.drawer.company.details.showGroups = { contacts: false, unassignedEnrichments: true, companyFields: true };
    const { saveSettings } = renderDrawer(companyApi(), { target: { entityType: 'company', id: COMPANY_ID }, config });
    await screen.findByTestId('drawer-details');
    expect(screen.getByTestId('drawer-section-contacts').getAttribute('data-open')).toBe('false');
    expect(screen.queryByTestId('drawer-contact-row')).toBeNull();
    await user.click(screen.getByTestId('drawer-section-toggle-contacts'));
    expect(screen.getByTestId('drawer-section-contacts').getAttribute('data-open')).toBe('true');
    expect(saveSettings).toHaveBeenLastCalledWith({
      drawer: { company: { details: { showGroups: { contacts: true, unassignedEnrichments: true, companyFields: true } } } },
    });
    await user.click(screen.getByTestId('drawer-section-toggle-companyFields'));
    expect(saveSettings).toHaveBeenLastCalledWith({
      drawer: { company: { details: { showGroups: { contacts: true, unassignedEnrichments: true, companyFields: false } } } },
    });
    expect(screen.queryByTestId('drawer-field-row')).toBeNull();
  });

  it('lists contacts key first then by label; the marker of a non-key contact makes it key', async () => {
    const user = userEvent.setup();
    const setKey = vi.fn(async () => ({ success: true as const, message: ENTITY_MESSAGES.keySet, mapping: null }));
    renderDrawer(companyApi({ companies: { setKey } }), { target: { entityType: 'company', id: COMPANY_ID } });
    await screen.findByTestId('drawer-details');
    expect(rowIds('drawer-contact-row', 'data-contact-id')).toEqual([C3, C1, C4, C2]);
    expect(rowIds('drawer-contact-row', 'data-key')).toEqual(['true', 'false', 'false', 'false']);
    const markers = screen.getAllByTestId('drawer-key-marker');
    expect(markers.map((m) => m.getAttribute('aria-pressed'))).toEqual(['true', 'false', 'false', 'false']);
    await user.click(markers[0]);
    expect(setKey).not.toHaveBeenCalled();
    await user.click(markers[2]);
    await waitFor(() => expect(setKey).toHaveBeenCalledWith(COMPANY_ID, C4));
    // The toast says so (the screen reader's live region may say it too: the toast is the one checked).
    await waitFor(() =>
      expect([...document.querySelectorAll('[data-testid^="toast-"]')].some((t) => t.textContent?.includes(ENTITY_MESSAGES.keySet))).toBe(
        true,
      ),
    );
  });

  it("'Link a contact': search-as-you-type (debounced), linked contacts disabled and not pickable", async () => {
    const user = userEvent.setup();
    const search = vi.fn(async (q: string) => ({
      success: true as const,
      results: [
        { id: C2, entityType: 'contact' as const, title: 'Bea Brown', subtitle: 'bea@acme.test' },
        { id: 'c0000000-0000-4000-8000-000000000009', entityType: 'contact' as const, title: `New ${q}`, subtitle: 'new@else.test' },
      ],
    }));
    const link = vi.fn(async () => ({ success: true as const, message: ENTITY_MESSAGES.linked, mapping: null }));
    renderDrawer(companyApi({ contacts: { search }, companies: { link } }), { target: { entityType: 'company', id: COMPANY_ID } });
    await screen.findByTestId('drawer-details');
    await user.click(screen.getByTestId('drawer-link-contact'));
    const box = screen.getByTestId('drawer-link-contact-picker-search');
    expect(box.getAttribute('placeholder')).toBe('Search for a contact');
    await user.type(box, 'bea');
    await waitFor(() => expect(search).toHaveBeenLastCalledWith('bea'));
    // Typed faster than 250 ms per key: no request for the partial text.
    expect(search.mock.calls.map((c) => c[0])).not.toContain('b');
    expect(search.mock.calls.map((c) => c[0])).not.toContain('be');
    await waitFor(() =>
      expect(screen.getAllByTestId('drawer-link-contact-picker-option').map((o) => o.textContent)).toEqual([
        'Bea Brownbea@acme.testAlready linked',
        'New beanew@else.test',
      ]),
    );
    const [linked, fresh] = screen.getAllByTestId('drawer-link-contact-picker-option');
    expect(linked.getAttribute('aria-disabled')).toBe('true');
    await user.click(linked);
    expect(link).not.toHaveBeenCalled();
    await user.click(fresh);
    await waitFor(() => expect(link).toHaveBeenCalledWith({ companyId: COMPANY_ID, contactId: 'c0000000-0000-4000-8000-000000000009' }));
    expect(await screen.findByText(ENTITY_MESSAGES.linked)).toBeTruthy();
    expect(screen.queryByTestId('drawer-link-contact-picker')).toBeNull();
  });

  it("'Add a contact' opens the contact dialog set to link this company", async () => {
    const user = userEvent.setup();
    renderDrawer(companyApi(), { target: { entityType: 'company', id: COMPANY_ID } });
    await screen.findByTestId('drawer-details');
    await user.click(screen.getByTestId('drawer-add-contact'));
    const dialog = await screen.findByTestId('contact-dialog');
    expect(within(dialog).getByTestId('contact-company-picked').getAttribute('data-id')).toBe(COMPANY_ID);
    expect(within(dialog).getByTestId('contact-company-picked').textContent).toContain('Acme Holdings');
  });

  it('opens a contact nested, with a back arrow instead of close/collapse', async () => {
    const user = userEvent.setup();
    renderDrawer(companyApi(), { target: { entityType: 'company', id: COMPANY_ID } });
    await screen.findByTestId('drawer-details');
    await user.click(within(screen.getAllByTestId('drawer-contact-row')[3]).getByTestId('drawer-contact-open'));
    await waitFor(() => expect(screen.getByTestId('drawer-title').textContent).toBe('Bea Brown'));
    expect(screen.getByTestId('record-drawer').getAttribute('data-nested')).toBe('true');
    expect(screen.queryByTestId('drawer-close')).toBeNull();
    expect(screen.queryByTestId('drawer-collapse')).toBeNull();
    // The contact drawer: Companies (primary first and marked), Unassigned Enrichments, Contact Fields.
    const sections = within(screen.getByTestId('drawer-details'))
      .getAllByRole('region')
      .map((s) => s.getAttribute('aria-label'));
    expect(sections).toEqual(['Companies', 'Unassigned Enrichments', 'Contact Fields']);
    expect(rowIds('drawer-company-row', 'data-company-id')).toEqual([COMPANY_ID, OTHER_COMPANY_ID]);
    expect(rowIds('drawer-company-row', 'data-primary')).toEqual(['true', 'false']);
    expect(screen.getAllByTestId('drawer-primary-badge')).toHaveLength(1);
    await user.click(screen.getByTestId('drawer-back'));
    await waitFor(() => expect(screen.getByTestId('drawer-title').textContent).toBe('Acme Holdings'));
    expect(screen.getByTestId('drawer-close')).toBeTruthy();
  });

  it('contact drawer: makes another company primary; linked companies are disabled in the picker', async () => {
    const user = userEvent.setup();
    const setPrimary = vi.fn(async () => ({ success: true as const, message: ENTITY_MESSAGES.primarySet, mapping: null }));
    const search = vi.fn(async () => ({
      success: true as const,
      results: [
        { id: COMPANY_ID, entityType: 'company' as const, title: 'Acme Holdings', subtitle: 'acme.test' },
        { id: '55555555-5555-4555-8555-555555555555', entityType: 'company' as const, title: 'Gamma', subtitle: 'gamma.test' },
      ],
    }));
    const api = companyApi({ contacts: { setPrimary }, companies: { search } });
    renderDrawer(api, { target: { entityType: 'contact', id: C2 } });
    await screen.findByTestId('drawer-details');
    await user.click(screen.getAllByTestId('drawer-primary-marker')[1]);
    await waitFor(() => expect(setPrimary).toHaveBeenCalledWith(C2, OTHER_COMPANY_ID));
    await user.click(screen.getByTestId('drawer-link-company'));
    expect(screen.getByTestId('drawer-link-company-picker-search').getAttribute('placeholder')).toBe('Search for a company');
    await waitFor(() => expect(rowIds('drawer-link-company-picker-option', 'data-disabled')).toEqual(['true', null]));
  });
});

describe('RecordDrawer fields', { timeout: 20_000 }, () => {
  it("lists the custom fields by label with their value or 'Not executed yet'", async () => {
    renderDrawer(companyApi(), { target: { entityType: 'company', id: COMPANY_ID } });
    await waitFor(() => expect(screen.getAllByTestId('drawer-field-row')).toHaveLength(3));
    expect(screen.getAllByTestId('drawer-field-label').map((l) => l.textContent)).toEqual(['ARR', 'Board seats', 'sector']);
    expect(screen.getAllByTestId('drawer-field-value').map((v) => v.textContent)).toEqual(['€1,250,000.00', NOT_EXECUTED, NOT_EXECUTED]);
  });

  it('caches the field list under the key the tables use, in the same shape (an array of fields)', async () => {
    const { queryClient } = renderDrawer(companyApi(), { target: { entityType: 'company', id: COMPANY_ID } });
    await waitFor(() => expect(screen.getAllByTestId('drawer-field-row')).toHaveLength(3));
    expect(queryClient.getQueryData(queryKeys.fields('company'))).toEqual(COMPANY_FIELDS);
  });

  it("copies a value with 'Value copied to clipboard' shown briefly", async () => {
    const user = userEvent.setup();
    renderDrawer(companyApi(), { target: { entityType: 'company', id: COMPANY_ID } });
    await waitFor(() => expect(screen.getAllByTestId('drawer-field-row')).toHaveLength(3));
    const [arr, board] = screen.getAllByTestId('drawer-field-row');
    expect(within(board).getByTestId('drawer-field-copy').getAttribute('aria-disabled')).toBe('true');
    // The toast lives only 500 ms: watch the DOM for it from before the click.
    const toast = watchForText(COPIED_MESSAGE);
    await user.click(within(arr).getByTestId('drawer-field-copy'));
    await waitFor(() => expect(toast.seen()).toBe(true), { timeout: 5000 });
    toast.stop();
    expect(await navigator.clipboard.readText()).toBe('€1,250,000.00');
    // Dismissed after 500 ms, not the 3 s default (toast.tsx times it; toast.test.tsx measures it).
    const shown = () => [...document.querySelectorAll('[data-testid^="toast-"]')].some((t) => t.textContent === COPIED_MESSAGE);
    await waitFor(() => expect(shown()).toBe(false), { timeout: 1500 });
  });

  it('edits a value inline: checks the type, then saves it', async () => {
    const user = userEvent.setup();
    const setValue = vi.fn(async () => ({ success: true as const, message: ENTITY_MESSAGES.valueSaved, value: null }));
    renderDrawer(companyApi({ fields: { setValue } }), { target: { entityType: 'company', id: COMPANY_ID } });
    await waitFor(() => expect(screen.getAllByTestId('drawer-field-row')).toHaveLength(3));
    const board = screen.getAllByTestId('drawer-field-row')[1];
    await user.click(within(board).getByTestId('drawer-field-edit'));
    await user.type(within(board).getByTestId('drawer-field-input'), '2.5');
    await user.click(within(board).getByTestId('drawer-field-save'));
    expect(within(board).getByTestId('drawer-field-editor').textContent).toContain('Please enter a whole number');
    expect(setValue).not.toHaveBeenCalled();
    await user.clear(within(board).getByTestId('drawer-field-input'));
    await user.type(within(board).getByTestId('drawer-field-input'), '7{Enter}');
    await waitFor(() =>
      expect(setValue).toHaveBeenCalledWith('company', { entityType: 'company', entityId: COMPANY_ID, fieldId: F_BOARD, value: 7 }),
    );
    expect(await screen.findByText(ENTITY_MESSAGES.valueSaved)).toBeTruthy();
    await waitFor(() => expect(within(screen.getAllByTestId('drawer-field-row')[1]).queryByTestId('drawer-field-input')).toBeNull());
  });

  it('the add-field action opens New Field for this entity type', async () => {
    const user = userEvent.setup();
    renderDrawer(companyApi(), { target: { entityType: 'company', id: COMPANY_ID } });
    await screen.findByTestId('drawer-details');
    await user.click(screen.getByTestId('drawer-add-field'));
    const dialog = await screen.findByTestId('new-field-dialog');
    const entity = within(dialog).getByTestId('new-field-entity') as HTMLSelectElement;
    expect(entity.value).toBe('company');
    expect(entity.disabled).toBe(true);
  });
});
