// @vitest-environment happy-dom
import '../test-dom';
import '../table/test-select-in-popover';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../client';
import type { ListFilterBody } from '../../contracts';
import { fakeApi, renderWithApi } from '../test-render';
import { FilterSourceDialog } from './FilterSourceDialog';

afterEach(cleanup);
configure({ asyncUtilTimeout: 5000 });

const LIST = '11111111-1111-4111-8111-111111111111';
const answer = (total: number, dryRun: boolean, message = '') => ({
  success: true as const,
  dryRun,
  total,
  message,
  sourceId: dryRun ? null : 's1',
  inserted: 0,
  merged: 0,
  skipped: 0,
  list: null,
});

describe("FilterSourceDialog: the list source 'Companies matching filters'", { timeout: 20_000 }, () => {
  it("picks conditions with the companies table's filter builder, shows how many match, and adds them with the report", async () => {
    const filterSource = vi.fn(async (body: ListFilterBody) => {
      const narrowed = (body.filters ?? []).length > 0;
      if (body.dryRun) return answer(narrowed ? 3 : 1597, true);
      return answer(3, false, '2 ideas added, 1 already in the list, 0 without a domain skipped');
    });
    const filterFields = vi.fn(async () => ({
      success: true as const,
      fields: [
        { key: 'name', label: 'Name', dataType: 'string' },
        { key: 'employees', label: 'Employees', dataType: 'int' },
      ],
    }));
    const onAdded = vi.fn();
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithApi(
      <FilterSourceDialog open listId={LIST} onClose={onClose} onAdded={onAdded} />,
      fakeApi({ lists: { filterSource: filterSource as never }, fields: { filterFields: filterFields as never } }),
    );

    // Without conditions: every company, counted (a dry run).
    await waitFor(() => expect(screen.getByTestId('filter-source-count').textContent).toBe('1,597 companies match'));
    expect(filterFields).toHaveBeenCalledWith('company');
    expect(filterSource).toHaveBeenLastCalledWith({ listCompanyId: LIST, text: '', filters: [], dryRun: true });

    await user.click(screen.getByTestId('filter-add'));
    await user.click(screen.getAllByTestId('filter-field-option').find((o) => o.getAttribute('data-key') === 'name')!);
    await user.type(screen.getByTestId('filter-value'), 'robotics');
    await user.click(screen.getByTestId('filter-editor-save'));
    await waitFor(() => expect(screen.getByTestId('filter-source-count').textContent).toBe('3 companies match'));
    expect(filterSource.mock.calls.at(-1)![0]).toMatchObject({
      dryRun: true,
      filters: [{ key: 'name', items: [{ condition: 'equals', data: 'robotics' }] }],
    });

    const add = screen.getByTestId('filter-source-add') as HTMLButtonElement;
    expect(add.textContent).toBe('Add 3 companies');
    await user.click(add);
    await waitFor(() => expect(onAdded).toHaveBeenCalledWith('2 ideas added, 1 already in the list, 0 without a domain skipped'));
    const adds = filterSource.mock.calls.filter(([b]) => !b.dryRun);
    expect(adds).toHaveLength(1);
    expect(adds[0][0]).toMatchObject({ listCompanyId: LIST, filters: [{ key: 'name' }] });
    expect(onClose).toHaveBeenCalled();
  });

  it("shows the server's message for a filter it refuses, and nothing to add", async () => {
    const filterSource = vi.fn(async () => {
      throw new ApiError(400, 'Unknown filter field', { success: false, message: 'Unknown filter field' });
    });
    const api = fakeApi({
      lists: { filterSource: filterSource as never },
      fields: { filterFields: (async () => ({ success: true as const, fields: [] })) as never },
    });
    renderWithApi(<FilterSourceDialog open listId={LIST} onClose={vi.fn()} onAdded={vi.fn()} />, api);
    expect((await screen.findByTestId('filter-source-error')).textContent).toBe('Unknown filter field');
    expect((screen.getByTestId('filter-source-add') as HTMLButtonElement).disabled).toBe(true);
  });
});
