// @vitest-environment happy-dom
import '../test-dom';
import './test-select-in-popover';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, render, screen, fireEvent, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { FILTER_MESSAGES, type TableFilter } from '../../domain';
import { FilterEditor, type FilterEditorProps, type FilterFieldInfo } from './FilterEditor';
import { FilterBar } from './FilterBar';
import { filterLabel } from './filterLabel';

afterEach(cleanup);
configure({ asyncUtilTimeout: 5000 });

const NAME: FilterFieldInfo = { key: 'name', label: 'Name', dataType: 'string' };
const EMPLOYEES: FilterFieldInfo = { key: 'employees', label: 'Employees', dataType: 'int' };
const OWNER: FilterFieldInfo = { key: 'owner', label: 'Account Owner', dataType: 'uuid' };

function renderEditor(over: Partial<FilterEditorProps> = {}) {
  const props: FilterEditorProps = { field: NAME, onSave: vi.fn(), onCancel: vi.fn(), ...over };
  render(
    <FluentProvider theme={webLightTheme}>
      <FilterEditor {...props} />
    </FluentProvider>,
  );
  return props;
}

const rows = () => screen.getAllByTestId('filter-condition-row');
const add = () => screen.getByTestId('filter-add-condition') as HTMLButtonElement;
const removes = () => screen.getAllByTestId('filter-condition-remove') as HTMLButtonElement[];
const error = () => screen.queryByTestId('filter-editor-error')?.textContent ?? null;
const optionLabels = (el: HTMLElement) => Array.from((el as HTMLSelectElement).options).map((o) => o.textContent);

describe('FilterEditor', { timeout: 20_000 }, () => {
  it('offers the conditions of the field type', () => {
    renderEditor({ field: NAME });
    expect(optionLabels(screen.getByTestId('filter-condition-select'))).toEqual([
      'equals',
      'not equals',
      'contains',
      'not contains',
      'starts with',
    ]);
    cleanup();
    renderEditor({ field: EMPLOYEES });
    expect(optionLabels(screen.getByTestId('filter-condition-select'))).toEqual([
      'equals',
      'not equals',
      'less than',
      'greater than',
      'less or equal',
      'greater or equal',
      'between',
    ]);
    cleanup();
    renderEditor({ field: OWNER });
    expect(optionLabels(screen.getByTestId('filter-condition-select'))).toEqual(['in']);
    // uuid (and number) filters hold one condition: no way to add another.
    expect(screen.queryByTestId('filter-add-condition')).toBeNull();
  });

  it('allows at most 5 conditions', async () => {
    const user = userEvent.setup();
    renderEditor();
    expect(rows()).toHaveLength(1);
    for (let i = 0; i < 4; i++) await user.click(add());
    expect(rows()).toHaveLength(5);
    expect(add().disabled).toBe(true);
    expect(screen.getByTestId('filter-max-hint').textContent).toBe('At most 5 conditions');
    await user.click(add());
    expect(rows()).toHaveLength(5);
  });

  it('never removes the last condition', async () => {
    const user = userEvent.setup();
    renderEditor();
    expect(removes()[0].disabled).toBe(true);
    await user.click(add());
    expect(removes().map((b) => b.disabled)).toEqual([false, false]);
    await user.click(removes()[1]);
    expect(rows()).toHaveLength(1);
    expect(removes()[0].disabled).toBe(true);
    fireEvent.click(removes()[0]);
    expect(rows()).toHaveLength(1);
  });

  it('needs both ends of between before saving', async () => {
    const user = userEvent.setup();
    const props = renderEditor({ field: EMPLOYEES });
    await user.selectOptions(screen.getByTestId('filter-condition-select'), 'between');
    await user.type(screen.getByTestId('filter-value-from'), '10');
    await user.click(screen.getByTestId('filter-editor-save'));
    expect(error()).toBe('Please fill in all condition values before saving.');
    expect(error()).toBe(FILTER_MESSAGES.fillAll);
    expect(props.onSave).not.toHaveBeenCalled();

    await user.type(screen.getByTestId('filter-value-to'), '50');
    await user.click(screen.getByTestId('filter-editor-save'));
    expect(error()).toBeNull();
    expect(props.onSave).toHaveBeenCalledTimes(1);
    const saved = vi.mocked(props.onSave).mock.calls[0][0];
    expect(saved).toMatchObject({ key: 'employees', operator: 'and', details: { label: 'Employees', dataType: 'int', key: 'employees' } });
    expect(saved.items).toHaveLength(1);
    expect(saved.items[0]).toMatchObject({ condition: 'between', data: [10, 50] });
  });

  it('refuses to save an empty value', async () => {
    const user = userEvent.setup();
    const props = renderEditor();
    await user.click(screen.getByTestId('filter-editor-save'));
    expect(error()).toBe(FILTER_MESSAGES.fillAll);
    await user.click(add());
    await user.type(screen.getAllByTestId('filter-value')[0], 'acme');
    await user.click(screen.getByTestId('filter-editor-save'));
    expect(error()).toBe(FILTER_MESSAGES.fillAll);
    expect(props.onSave).not.toHaveBeenCalled();
  });

  it('blocks e, E, + and - in numeric inputs', async () => {
    const user = userEvent.setup();
    renderEditor({ field: EMPLOYEES });
    const input = screen.getByTestId('filter-value') as HTMLInputElement;
    await user.type(input, '1e2E+3-4');
    expect(input.value).toBe('1234');
    // Text fields take those characters.
    cleanup();
    renderEditor({ field: NAME });
    const text = screen.getByTestId('filter-value') as HTMLInputElement;
    await user.type(text, 'e+E-');
    expect(text.value).toBe('e+E-');
  });

  it('rejects negative numbers', async () => {
    const user = userEvent.setup();
    const props = renderEditor({ field: EMPLOYEES });
    const input = screen.getByTestId('filter-value') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '-5' } });
    expect(input.value).toBe('');
    expect(error()).toBe(FILTER_MESSAGES.negative);
    // A pasted negative value is refused too.
    const paste = new Event('paste', { bubbles: true, cancelable: true }) as Event & { clipboardData: { getData: () => string } };
    paste.clipboardData = { getData: () => '-12' };
    input.dispatchEvent(paste);
    expect(paste.defaultPrevented).toBe(true);
    await user.type(input, '7');
    expect(error()).toBeNull();
    await user.click(screen.getByTestId('filter-editor-save'));
    expect(vi.mocked(props.onSave).mock.calls[0][0].items[0]).toMatchObject({ condition: 'equals', data: 7 });
  });

  it('refuses a negative value held by an existing filter', async () => {
    const user = userEvent.setup();
    const initial: TableFilter = { key: 'employees', items: [{ id: 'a', condition: 'greater_than', data: -3 }] };
    const props = renderEditor({ field: EMPLOYEES, initial });
    await user.click(screen.getByTestId('filter-editor-save'));
    expect(error()).toBe(FILTER_MESSAGES.negative);
    expect(props.onSave).not.toHaveBeenCalled();
  });

  it('saves text conditions combined with the chosen operator', async () => {
    const user = userEvent.setup();
    const props = renderEditor();
    await user.selectOptions(screen.getByTestId('filter-condition-select'), 'contains');
    await user.type(screen.getByTestId('filter-value'), ' acme ');
    await user.click(add());
    const second = rows()[1];
    await user.selectOptions(within(second).getByTestId('filter-condition-select'), 'starts_with');
    await user.type(within(second).getByTestId('filter-value'), 'glob');
    await user.selectOptions(screen.getByTestId('filter-operator'), 'or');
    await user.click(screen.getByTestId('filter-editor-save'));
    const saved = vi.mocked(props.onSave).mock.calls[0][0];
    expect(saved.operator).toBe('or');
    expect(saved.items.map((i) => [i.condition, i.data])).toEqual([
      ['contains', 'acme'],
      ['starts_with', 'glob'],
    ]);
  });

  it('picks the values of an in condition from the options given', async () => {
    const user = userEvent.setup();
    const props = renderEditor({
      field: OWNER,
      options: [
        { value: 'u1', label: 'Ada Lovelace' },
        { value: 'u2', label: 'Grace Hopper' },
      ],
    });
    await user.click(screen.getByTestId('filter-editor-save'));
    expect(error()).toBe(FILTER_MESSAGES.fillAll);
    await user.click(screen.getByLabelText('Grace Hopper'));
    await user.click(screen.getByTestId('filter-editor-save'));
    expect(vi.mocked(props.onSave).mock.calls[0][0].items[0]).toMatchObject({ condition: 'in', data: ['u2'] });
  });
});

describe('filterLabel', () => {
  it('names the field and its conditions, at most 2 names then +N more', () => {
    expect(filterLabel({ key: 'employees', items: [{ id: 'a', condition: 'between', data: [10, 50] }] }, 'Employees')).toBe(
      'Employees: between 10 and 50',
    );
    expect(filterLabel({ key: 'owner', items: [{ id: 'a', condition: 'in', data: ['a', 'b', 'c', 'd'] }] }, 'Owner')).toBe(
      'Owner: in a, b +2 more',
    );
    expect(
      filterLabel({ key: 'owner', items: [{ id: 'a', condition: 'in', data: ['u1'] }] }, 'Owner', (v) => (v === 'u1' ? 'Ada' : '')),
    ).toBe('Owner: in Ada');
  });
});

describe('FilterBar', { timeout: 20_000 }, () => {
  function renderBar(filters: TableFilter[] = []) {
    const onChange = vi.fn();
    render(
      <FluentProvider theme={webLightTheme}>
        <FilterBar fields={[NAME, EMPLOYEES]} filters={filters} onChange={onChange} />
      </FluentProvider>,
    );
    return onChange;
  }

  it('removes a new filter dismissed without items', async () => {
    const user = userEvent.setup();
    const onChange = renderBar();
    await user.click(screen.getByTestId('filter-add'));
    await user.click(screen.getAllByTestId('filter-field-option').find((o) => o.getAttribute('data-key') === 'name')!);
    expect(screen.getByTestId('filter-chip').getAttribute('data-new')).toBe('true');
    expect(screen.getByTestId('filter-editor')).toBeTruthy();
    // Dismissed with Esc while typing a value…
    await user.type(screen.getByTestId('filter-value'), 'acm');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('filter-chip')).toBeNull();
    expect(screen.queryByTestId('filter-editor')).toBeNull();
    // …or with Cancel: nothing is left behind either way.
    await user.click(screen.getByTestId('filter-add'));
    await user.click(screen.getAllByTestId('filter-field-option')[1]);
    expect(screen.getByTestId('filter-chip').getAttribute('data-key')).toBe('employees');
    expect(screen.getByTestId('filter-chip').getAttribute('data-new')).toBe('true');
    await user.click(screen.getByTestId('filter-editor-cancel'));
    expect(screen.queryByTestId('filter-chip')).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('adds a saved filter and removes it from its chip', async () => {
    const user = userEvent.setup();
    const onChange = renderBar();
    await user.click(screen.getByTestId('filter-add'));
    await user.type(screen.getByTestId('filter-field-search'), 'emp');
    expect(screen.getAllByTestId('filter-field-option').map((o) => o.getAttribute('data-key'))).toEqual(['employees']);
    await user.click(screen.getByTestId('filter-field-option'));
    await user.type(screen.getByTestId('filter-value'), '5');
    await user.click(screen.getByTestId('filter-editor-save'));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange.mock.calls[0][0]).toMatchObject([{ key: 'employees', items: [{ condition: 'equals', data: 5 }] }]);
    cleanup();

    const onChange2 = renderBar([
      { key: 'employees', details: { label: 'Employees' }, items: [{ id: 'x', condition: 'equals', data: 5 }] },
    ]);
    expect(screen.getByTestId('filter-chip').textContent).toContain('Employees: equals 5');
    await user.click(screen.getByTestId('filter-chip-remove'));
    expect(onChange2).toHaveBeenCalledWith([]);
  });

  it('shows types as a person reads them (or not at all) and hides id and reference fields (001 §3)', async () => {
    const user = userEvent.setup();
    render(
      <FluentProvider theme={webLightTheme}>
        <FilterBar
          fields={[
            NAME,
            OWNER,
            { key: 'deal_size', label: 'Deal Size', dataType: 'currency' },
            { key: 'id', label: 'Id', dataType: 'id' },
            { key: 'parent', label: 'Parent', dataType: 'reference' },
            { key: 'phone', label: 'Direct line', dataType: 'phone' },
          ]}
          filters={[]}
          onChange={vi.fn()}
        />
      </FluentProvider>,
    );
    await user.click(screen.getByTestId('filter-add'));
    const options = screen.getAllByTestId('filter-field-option');
    expect(options.map((o) => o.textContent)).toEqual(['NameString', 'Account Owner', 'Deal SizeCurrency', 'Direct linePhone Number']);
    expect(screen.getAllByTestId('filter-field-type').map((t) => t.textContent)).toEqual(['String', 'Currency', 'Phone Number']);
  });
});
