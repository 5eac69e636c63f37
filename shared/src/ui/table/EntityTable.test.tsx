// @vitest-environment happy-dom
import '../test-dom';
import './test-select-in-popover';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CompanyDto, FieldDto, TableLayoutBody, TableLayoutDto, TableQuery } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { DrawerProvider, useDrawer } from '../DrawerContext';
import { queryKeys } from '../ApiContext';
import { EntityTable } from './EntityTable';
import { firstTableQuery } from './firstPage';
import type { RecordColumn } from './RecordTable';

afterEach(cleanup);
// These tests drive whole tables through many events: generous limits keep them steady on a busy machine.
configure({ asyncUtilTimeout: 5000 });

const TOTAL = 25;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function company(n: number): CompanyDto {
  return {
    id: uuid(n),
    name: `Company ${String(n).padStart(2, '0')}`,
    website: `c${n}.test`,
    domain: `c${n}.test`,
    owner: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    keyContact: null,
    contactCount: 0,
    fields:
      n === 1
        ? {
            'f-emp': {
              fieldId: 'f-emp',
              value: 120,
              infoValue: null,
              status: null,
              statusMessage: null,
              details: null,
              updatedAt: '2025-01-01T00:00:00.000Z',
            },
          }
        : {},
  };
}

const EMPLOYEES: FieldDto = {
  id: 'f-emp',
  key: 'employees',
  label: 'Employees',
  dataType: 'int',
  entityType: 'company',
  namespace: 'company',
  isMandatory: false,
  isPseudo: false,
  builtIn: false,
  config: { reconciliation: 'use_latest', refreshSchedule: 'never' },
  assignedEnrichments: [],
};
const NAME_FIELD: FieldDto = {
  ...EMPLOYEES,
  id: 'f-name',
  key: 'name',
  label: 'Name',
  dataType: 'string',
  isMandatory: true,
  builtIn: true,
};

const COLUMNS: RecordColumn<CompanyDto>[] = [
  { key: 'name', label: 'Name', sortKey: 'name', width: 200, text: (r) => r.name },
  { key: 'website', label: 'Website', sortKey: 'website', width: 180, text: (r) => r.website },
];

function makeApi(opts: { layouts?: TableLayoutDto[]; estimate?: number; exact?: Promise<number> } = {}) {
  // The exact total that follows an estimate: pending unless the test gives it.
  const total = vi.fn(async () => ({ success: true as const, totalRecords: await (opts.exact ?? new Promise<number>(() => {})) }));
  const page = vi.fn(async (q: TableQuery) => {
    const size = q.pageSize ?? 10;
    const start = (q.pageIndex ?? 0) * size;
    if (opts.estimate) {
      // A server answering with an estimated total (more than 10,000 matches).
      const rows = Array.from({ length: size }, (_, i) => company(start + i + 1));
      return {
        success: true as const,
        rows,
        totalRecords: opts.estimate,
        totalIsEstimate: true,
        totalPages: Math.ceil(opts.estimate / size),
        hasRecords: true,
        pageIndex: q.pageIndex ?? 0,
        pageSize: size,
      };
    }
    const matching = q.text || (q.filters ?? []).length ? 12 : TOTAL;
    const rows = Array.from({ length: Math.max(0, Math.min(size, matching - start)) }, (_, i) => company(start + i + 1));
    return {
      success: true as const,
      rows,
      totalRecords: matching,
      totalPages: Math.ceil(matching / size),
      hasRecords: matching > 0,
      pageIndex: q.pageIndex ?? 0,
      pageSize: size,
    };
  });
  const bulkDelete = vi.fn(async () => ({ success: true as const, message: '25 companies deleted', count: 25 }));
  const exportCsv = vi.fn(
    async () =>
      new Response('Name\r\nAcme\r\n', {
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="companies-2025.csv"' },
      }),
  );
  const layoutsList = vi.fn(async () => ({ success: true as const, layouts: opts.layouts ?? [] }));
  const layout = (columns: TableLayoutBody['columns']): TableLayoutDto => ({
    id: '99999999-9999-4999-8999-999999999999',
    entityType: 'company',
    name: 'Default',
    updatedAt: '2025-01-01T00:00:00.000Z',
    columns: columns.map((c) => ({ width: 150, visible: true, ...c })),
  });
  const layoutCreate = vi.fn(async (_e: string, body: TableLayoutBody) => ({ success: true as const, layout: layout(body.columns) }));
  const layoutUpdate = vi.fn(async (_e: string, body: TableLayoutBody & { id: string }) => ({
    success: true as const,
    layout: layout(body.columns),
  }));
  const api = fakeApi({
    companies: { page, total, bulkDelete, export: exportCsv },
    fields: {
      list: vi.fn(async () => ({ success: true as const, fields: [NAME_FIELD, EMPLOYEES] })),
      filterFields: vi.fn(async () => ({
        success: true as const,
        fields: [
          { key: 'name', label: 'Name', dataType: 'string' as const, entityType: 'company' as const, conditions: [] },
          { key: 'employees', label: 'Employees', dataType: 'int' as const, entityType: 'company' as const, conditions: [] },
        ],
      })),
    },
    tableLayouts: { list: layoutsList, create: layoutCreate, update: layoutUpdate },
  });
  return { api, page, total, bulkDelete, exportCsv, layoutCreate, layoutUpdate };
}

function DrawerProbe() {
  const d = useDrawer();
  return <output data-testid="drawer-probe">{d.target ? `${d.target.entityType}:${d.target.id}` : ''}</output>;
}

function renderTable(opts: { layouts?: TableLayoutDto[]; pluginMode?: boolean; estimate?: number; exact?: Promise<number> } = {}) {
  const mocks = makeApi(opts);
  const utils = renderWithApi(
    <DrawerProvider>
      <div style={{ height: 600 }}>
        <EntityTable<CompanyDto>
          entityType="company"
          columns={COLUMNS}
          defaultSort={{ key: 'name', order: 'asc' }}
          nouns={{ one: 'company', many: 'companies' }}
          searchPlaceholder="Search companies"
        />
      </div>
      <DrawerProbe />
    </DrawerProvider>,
    mocks.api,
    { pluginMode: opts.pluginMode },
  );
  return { ...mocks, ...utils };
}

const lastQuery = (page: ReturnType<typeof makeApi>['page']) => page.mock.calls[page.mock.calls.length - 1][0];
const rowIds = () => screen.getAllByTestId('record-table-row').map((r) => r.getAttribute('data-id'));
const bulkBar = () => screen.queryByTestId('bulk-action-bar');

beforeEach(() => {
  vi.restoreAllMocks();
});

describe('EntityTable', { timeout: 30_000 }, () => {
  it('loads page 0 of 10 rows sorted by name ascending, with a column per custom field', async () => {
    const { page } = renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    expect(lastQuery(page)).toMatchObject({ pageIndex: 0, pageSize: 10, sortKey: 'name', sortOrder: 'asc', text: '', filters: [] });
    await waitFor(() =>
      expect(screen.getAllByTestId('record-table-header').map((h) => h.getAttribute('data-key'))).toEqual(['name', 'website', 'employees']),
    );
    const first = screen.getAllByTestId('record-table-row')[0];
    expect(
      within(first)
        .getAllByTestId('record-table-cell')
        .map((c) => c.textContent),
    ).toEqual(['Company 01', 'c1.test', '120']);
    // An empty custom value is an empty cell.
    const second = screen.getAllByTestId('record-table-row')[1];
    expect(within(second).getAllByTestId('record-table-cell')[2].textContent).toBe('');
    expect(screen.getByTestId('pagination-label').textContent).toBe('Page 1 of 3');
  });

  it('asks for its first page under the key a first load prefetches (firstTableQuery)', async () => {
    const { page, queryClient } = renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    expect(page).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData(queryKeys.companiesPage(firstTableQuery({ key: 'name', order: 'asc' })))).toMatchObject({
      rows: expect.any(Array),
    });
  });

  it('selects the page, then all rows across pages, and keeps the selection while paging', async () => {
    const user = userEvent.setup();
    const { page } = renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    expect(bulkBar()).toBeNull();

    await user.click(screen.getByTestId('record-table-select-page'));
    expect(bulkBar()).toBeTruthy();
    expect(screen.getByTestId('bulk-selected-count').textContent).toBe('10 selected');
    await user.click(screen.getByTestId('bulk-select-all-across'));
    expect(bulkBar()!.getAttribute('data-all-selected')).toBe('true');
    expect(screen.getByTestId('bulk-selected-count').textContent).toBe('All 25 companies selected');

    await user.click(screen.getByTestId('pagination-next'));
    await waitFor(() => expect(lastQuery(page).pageIndex).toBe(1));
    await waitFor(() => expect(rowIds()[0]).toBe(uuid(11)));
    expect(screen.getAllByTestId('record-table-row').every((r) => r.getAttribute('data-selected') === 'true')).toBe(true);
    // Unticking one row leaves 24 of the set.
    await user.click(screen.getAllByTestId('record-table-select-row')[0]);
    expect(screen.getByTestId('bulk-selected-count').textContent).toBe('All 24 companies selected');
  });

  it('clears the selection and goes back to page 0 when a filter changes', async () => {
    const user = userEvent.setup();
    const { page } = renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    await user.click(screen.getByTestId('pagination-next'));
    await waitFor(() => expect(rowIds()[0]).toBe(uuid(11)));
    await user.click(screen.getByTestId('record-table-select-page'));
    await user.click(screen.getByTestId('bulk-select-all-across'));
    expect(bulkBar()).toBeTruthy();

    await user.click(screen.getByTestId('filter-add'));
    await waitFor(() => expect(screen.getAllByTestId('filter-field-option')).toHaveLength(2));
    await user.click(screen.getAllByTestId('filter-field-option')[1]);
    await user.selectOptions(screen.getByTestId('filter-condition-select'), 'greater_than');
    await user.type(screen.getByTestId('filter-value'), '100');
    await user.click(screen.getByTestId('filter-editor-save'));

    expect(bulkBar()).toBeNull();
    await waitFor(() =>
      expect(lastQuery(page)).toMatchObject({
        pageIndex: 0,
        filters: [{ key: 'employees', operator: 'and', items: [{ condition: 'greater_than', data: 100 }] }],
      }),
    );
    await waitFor(() => expect(screen.getByTestId('pagination-label').textContent).toBe('Page 1 of 2'));
    expect(screen.getAllByTestId('record-table-row').some((r) => r.getAttribute('data-selected') === 'true')).toBe(false);

    // Removing the filter is a filter change too.
    await user.click(screen.getByTestId('record-table-select-page'));
    expect(bulkBar()).toBeTruthy();
    await user.click(screen.getByTestId('filter-chip-remove'));
    expect(bulkBar()).toBeNull();
    await waitFor(() => expect(lastQuery(page)).toMatchObject({ pageIndex: 0, filters: [] }));
  });

  it('clears the selection and goes back to page 0 when the search changes (after 300 ms)', async () => {
    const user = userEvent.setup();
    const { page } = renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    await user.click(screen.getByTestId('pagination-last'));
    await waitFor(() => expect(lastQuery(page).pageIndex).toBe(2));
    await waitFor(() => expect(rowIds()).toHaveLength(5));
    await user.click(screen.getAllByTestId('record-table-select-row')[0]);
    expect(screen.getByTestId('bulk-selected-count').textContent).toBe('1 selected');

    const calls = page.mock.calls.length;
    await user.type(screen.getByTestId('table-search'), 'acme');
    // Not on every keystroke: one request once typing pauses.
    await waitFor(() => expect(lastQuery(page).text).toBe('acme'));
    expect(page.mock.calls.slice(calls).map((c) => c[0].text)).toEqual(['acme']);
    expect(lastQuery(page).pageIndex).toBe(0);
    expect(bulkBar()).toBeNull();
  });

  it('cycles the sort of a header: descending, ascending, none', async () => {
    const user = userEvent.setup();
    const { page } = renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    const header = (key: string) => screen.getAllByTestId('record-table-header').find((h) => h.getAttribute('data-key') === key)!;
    const sortBtn = (key: string) => within(header(key)).getByTestId('record-table-sort');
    expect(header('name').getAttribute('data-sort')).toBe('asc');
    // The first click on the already-sorted Name header changes the view (descending), the next one back.
    await user.click(sortBtn('name'));
    await waitFor(() => expect(lastQuery(page)).toMatchObject({ sortKey: 'name', sortOrder: 'desc' }));
    expect(header('name').getAttribute('data-sort')).toBe('desc');
    await user.click(sortBtn('name'));
    await waitFor(() => expect(lastQuery(page)).toMatchObject({ sortKey: 'name', sortOrder: 'asc' }));

    await user.click(sortBtn('website'));
    await waitFor(() => expect(lastQuery(page)).toMatchObject({ sortKey: 'website', sortOrder: 'desc' }));
    expect(header('website').getAttribute('aria-sort')).toBe('descending');
    expect(header('name').getAttribute('data-sort')).toBe('none');
    await user.click(sortBtn('website'));
    await waitFor(() => expect(lastQuery(page)).toMatchObject({ sortKey: 'website', sortOrder: 'asc' }));
    await user.click(sortBtn('website'));
    await waitFor(() => expect(lastQuery(page)).toMatchObject({ sortKey: null, sortOrder: null }));
    expect(header('website').getAttribute('data-sort')).toBe('none');
    // Unsorted rows come by name ascending, and the Name header says so.
    expect(header('name').getAttribute('data-sort')).toBe('asc');
    // A custom field sorts by its key.
    await user.click(sortBtn('employees'));
    await waitFor(() => expect(lastQuery(page)).toMatchObject({ sortKey: 'employees', sortOrder: 'desc' }));
  });

  it('opens the drawer on a row click, not on its checkbox', async () => {
    const user = userEvent.setup();
    renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    await user.click(screen.getAllByTestId('record-table-select-row')[2]);
    expect(screen.getByTestId('drawer-probe').textContent).toBe('');
    await user.click(within(screen.getAllByTestId('record-table-row')[2]).getAllByTestId('record-table-cell')[0]);
    expect(screen.getByTestId('drawer-probe').textContent).toBe(`company:${uuid(3)}`);
    expect(screen.getAllByTestId('record-table-row')[2].getAttribute('data-active')).toBe('true');
  });

  it('deletes the whole set after confirmation and refreshes the tables', async () => {
    const user = userEvent.setup();
    const { bulkDelete, queryClient } = renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await user.click(screen.getByTestId('record-table-select-page'));
    await user.click(screen.getByTestId('bulk-select-all-across'));
    await user.click(screen.getByTestId('bulk-delete'));
    const dialog = await screen.findByTestId('bulk-delete-dialog');
    expect(dialog.getAttribute('data-confirm-type')).toBe('delete');
    expect(dialog.textContent).toContain('Delete 25 companies? This cannot be undone.');
    await user.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(bulkDelete).toHaveBeenCalledWith({ allSelected: true, text: '', filters: [], excludeIds: [] }));
    await waitFor(() => expect(bulkBar()).toBeNull());
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.companies });
    expect((await screen.findByTestId('toast-success')).textContent).toContain('25 companies deleted');
  });

  it("an estimated total reads 'about' in the bar, the selection and the confirmation; the delete sends the filters (the exact set)", async () => {
    const user = userEvent.setup();
    const { bulkDelete, page } = renderTable({ estimate: 37_700 });
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    expect(screen.getByTestId('pagination-total').textContent).toBe('about 37,700 records');
    expect(screen.getByTestId('pagination-label').textContent).toBe('Page 1 of about 3,770');
    await user.click(screen.getByTestId('pagination-last'));
    await waitFor(() => expect(lastQuery(page).pageIndex).toBe(3769));
    await user.click(screen.getByTestId('record-table-select-page'));
    expect(screen.getByTestId('bulk-selected-count').textContent).toBe('10 selected');
    expect(screen.getByTestId('bulk-select-all-across').textContent).toBe('Select all about 37,700 across pages');
    await user.click(screen.getByTestId('bulk-select-all-across'));
    expect(screen.getByTestId('bulk-selected-count').textContent).toBe('All about 37,700 companies selected');
    await user.click(screen.getByTestId('bulk-delete'));
    const dialog = await screen.findByTestId('bulk-delete-dialog');
    expect(dialog.textContent).toContain('Delete about 37,700 companies? This cannot be undone.');
    await user.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(bulkDelete).toHaveBeenCalledWith({ allSelected: true, text: '', filters: [], excludeIds: [] }));
  });

  it('the exact total follows an estimate without holding the page back, and replaces it when it comes', async () => {
    let resolve!: (n: number) => void;
    const exact = new Promise<number>((r) => {
      resolve = r;
    });
    const { total, page } = renderTable({ estimate: 37_700, exact });
    // The page shows at once with the estimate while the count is still out.
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    expect(screen.getByTestId('pagination-total').textContent).toBe('about 37,700 records');
    await waitFor(() => expect(total).toHaveBeenCalledWith({ text: '', filters: [] }));
    expect(page).toHaveBeenCalledTimes(1);
    resolve(37_712);
    await waitFor(() => expect(screen.getByTestId('pagination-total').textContent).toBe('37,712 records'));
    expect(screen.getByTestId('pagination-label').textContent).toBe('Page 1 of 3,772');
    // Asked once per search and filters, not again for every page.
    await userEvent.setup().click(screen.getByTestId('pagination-next'));
    await waitFor(() => expect(lastQuery(page).pageIndex).toBe(1));
    await waitFor(() => expect(screen.getByTestId('pagination-label').textContent).toBe('Page 2 of 3,772'));
    expect(total).toHaveBeenCalledTimes(1);
  });

  it('Next and Previous on an estimated set send the row the page starts after (before); a jump sends none', async () => {
    const user = userEvent.setup();
    const { page } = renderTable({ estimate: 37_700 });
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    await user.click(screen.getByTestId('pagination-next'));
    await waitFor(() => expect(lastQuery(page)).toMatchObject({ pageIndex: 1, afterId: uuid(10) }));
    expect(lastQuery(page).beforeId).toBeUndefined();
    await waitFor(() => expect(rowIds()[0]).toBe(uuid(11)));
    await user.click(screen.getByTestId('pagination-previous'));
    await waitFor(() => expect(lastQuery(page)).toMatchObject({ pageIndex: 0, beforeId: uuid(11) }));
    await user.click(screen.getByTestId('pagination-last'));
    await waitFor(() => expect(lastQuery(page).pageIndex).toBe(3769));
    expect(lastQuery(page).afterId).toBeUndefined();
    expect(lastQuery(page).beforeId).toBeUndefined();
  });

  it('an exact total asks for no count', async () => {
    const { total } = renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    expect(screen.getByTestId('pagination-total').textContent).toBe('25 records');
    expect(total).not.toHaveBeenCalled();
  });

  it('closes the drawer when the record it shows is deleted', async () => {
    const user = userEvent.setup();
    const { bulkDelete } = renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    await user.click(within(screen.getAllByTestId('record-table-row')[0]).getAllByTestId('record-table-cell')[0]);
    expect(screen.getByTestId('drawer-probe').textContent).toBe(`company:${uuid(1)}`);
    await user.click(screen.getAllByTestId('record-table-select-row')[0]);
    await user.click(screen.getByTestId('bulk-delete'));
    const dialog = await screen.findByTestId('bulk-delete-dialog');
    expect(dialog.textContent).toContain('Delete 1 company? This cannot be undone.');
    await user.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(bulkDelete).toHaveBeenCalledWith({ ids: [uuid(1)] }));
    await waitFor(() => expect(screen.getByTestId('drawer-probe').textContent).toBe(''));
  });

  it('exports the selected rows and downloads the CSV through a Blob URL', async () => {
    const user = userEvent.setup();
    const created: Blob[] = [];
    const createObjectURL = vi.fn((b: Blob) => {
      created.push(b);
      return 'blob:companies';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(`${this.download}|${this.getAttribute('href')}`);
    });
    const { exportCsv } = renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    await user.click(screen.getAllByTestId('record-table-select-row')[0]);
    await user.click(screen.getAllByTestId('record-table-select-row')[1]);
    await user.click(screen.getByTestId('bulk-export'));
    await waitFor(() => expect(clicks).toEqual(['companies-2025.csv|blob:companies']));
    expect(exportCsv).toHaveBeenCalledWith({
      selection: { ids: [uuid(1), uuid(2)] },
      columns: ['name', 'website', 'employees'],
      sortKey: 'name',
      sortOrder: 'asc',
    });
    expect(await created[0].text()).toBe('Name\r\nAcme\r\n');
  });

  it('an export whose CSV breaks off before its end saves no file and says so', async () => {
    const user = userEvent.setup();
    const createObjectURL = vi.fn(() => 'blob:companies');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const { exportCsv } = renderTable();
    // The first rows arrive, then the transfer is cut (the server lost its database connection).
    exportCsv.mockImplementationOnce(
      async () =>
        new Response(
          new ReadableStream({
            start(c) {
              c.enqueue(new TextEncoder().encode('Name\r\nAcme\r\n'));
              c.error(new TypeError('network error'));
            },
          }),
          { headers: { 'content-type': 'text/csv' } },
        ),
    );
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    await user.click(screen.getAllByTestId('record-table-select-row')[0]);
    await user.click(screen.getByTestId('bulk-export'));
    expect((await screen.findByTestId('toast-error')).textContent).toContain(
      'The export was interrupted before it finished; please export again.',
    );
    expect(createObjectURL).not.toHaveBeenCalled();
  });

  it('creates the column layout on the first change, then updates it', async () => {
    const user = userEvent.setup();
    const { layoutCreate, layoutUpdate } = renderTable();
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    await waitFor(() => expect(screen.getAllByTestId('record-table-header')).toHaveLength(3));
    await user.click(screen.getByTestId('columns-menu-button'));
    const item = (key: string) => screen.getAllByTestId('columns-menu-item').find((i) => i.getAttribute('data-key') === key)!;
    await user.click(within(item('website')).getByTestId('columns-menu-visible'));
    await waitFor(() =>
      expect(screen.getAllByTestId('record-table-header').map((h) => h.getAttribute('data-key'))).toEqual(['name', 'employees']),
    );
    await waitFor(() => expect(layoutCreate).toHaveBeenCalledTimes(1));
    expect(layoutCreate.mock.calls[0][1].columns).toEqual([
      { key: 'name', order: 0, width: 200, visible: true },
      { key: 'website', order: 1, width: 180, visible: false },
      { key: 'employees', order: 2, width: 120, visible: true },
    ]);
    await user.click(within(item('employees')).getByTestId('columns-menu-up'));
    await waitFor(() => expect(layoutUpdate).toHaveBeenCalledTimes(1));
    expect(layoutUpdate.mock.calls[0][1]).toMatchObject({
      id: '99999999-9999-4999-8999-999999999999',
      columns: [{ key: 'name' }, { key: 'employees' }, { key: 'website' }],
    });
    expect(screen.getAllByTestId('record-table-header').map((h) => h.getAttribute('data-key'))).toEqual(['name', 'employees']);
    expect(layoutCreate).toHaveBeenCalledTimes(1);
  });

  it('applies a saved layout (order, width, hidden columns)', async () => {
    renderTable({
      layouts: [
        {
          id: '99999999-9999-4999-8999-999999999999',
          entityType: 'company',
          name: 'Default',
          updatedAt: '2025-01-01T00:00:00.000Z',
          columns: [
            { key: 'employees', order: 0, width: 90, visible: true },
            { key: 'name', order: 1, width: 300, visible: true },
            { key: 'website', order: 2, width: 100, visible: false },
            { key: 'gone', order: 3, width: 100, visible: true },
          ],
        },
      ],
    });
    await waitFor(() =>
      expect(screen.getAllByTestId('record-table-header').map((h) => h.getAttribute('data-key'))).toEqual(['employees', 'name']),
    );
    const cols = screen.getByTestId('record-table').querySelectorAll('col');
    // The last, width-less column takes what the columns leave of the table's box: the header band
    // and the rows' lines reach the right edge however narrow the columns.
    expect(Array.from(cols).map((c) => (c as HTMLElement).style.width)).toEqual(['44px', '90px', '300px', '']);
    expect(screen.getByTestId('record-table').style.minWidth).toBe('434px');
    expect(screen.getByTestId('record-table-header-filler').tagName).toBe('TH');
  });

  it('fills its panel under a plugin, the filter editor too', async () => {
    const user = userEvent.setup();
    renderTable({ pluginMode: true });
    await waitFor(() => expect(rowIds()).toHaveLength(10));
    expect(screen.getByTestId('company-table').getAttribute('data-plugin-mode')).toBe('true');
    await user.click(screen.getByTestId('filter-add'));
    await waitFor(() => expect(screen.getAllByTestId('filter-field-option')).toHaveLength(2));
    await user.click(screen.getAllByTestId('filter-field-option')[0]);
    expect(screen.getByTestId('filter-editor').getAttribute('data-plugin-mode')).toBe('true');
  });
});
