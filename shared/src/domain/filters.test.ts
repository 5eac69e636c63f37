import { describe, it, expect } from 'vitest';
import {
  conditionsFor,
  canAddCondition,
  filterProblem,
  isBlockedNumericKey,
  matchesItem,
  matchesFilters,
  itemValues,
  FILTER_MESSAGES,
  MAX_FILTER_CONDITIONS,
  type FilterItem,
  type TableFilter,
} from './filters';
import type { FieldDataType } from './fields';

const item = (condition: FilterItem['condition'], data: unknown, id = '1'): FilterItem => ({ id, condition, data });
const filter = (items: FilterItem[], operator?: 'and' | 'or'): TableFilter => ({ key: 'k', items, operator });

const NUMBER_SET = ['equals', 'not_equals', 'less_than', 'greater_than', 'less_than_or_equal', 'greater_than_or_equal', 'between'];
const STRING_SET = ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with'];

describe('conditionsFor (spec 001 §5 condition sets)', () => {
  it.each<FieldDataType>(['string', 'email', 'reference', 'id', 'url', 'phone', 'address', 'object'])('%s: the string set', (t) => {
    expect(conditionsFor(t)).toEqual(STRING_SET);
  });
  it.each<FieldDataType>(['int', 'double', 'currency', 'date', 'time'])('%s: the number set', (t) => {
    expect(conditionsFor(t)).toEqual(NUMBER_SET);
  });
  it('uuid: in; number: between; boolean: equals / not equals', () => {
    expect(conditionsFor('uuid')).toEqual(['in']);
    expect(conditionsFor('number')).toEqual(['between']);
    expect(conditionsFor('boolean')).toEqual(['equals', 'not_equals']);
  });
});

describe('canAddCondition', () => {
  it('at most 5 conditions', () => {
    expect(MAX_FILTER_CONDITIONS).toBe(5);
    expect(canAddCondition('string', 0)).toBe(true);
    expect(canAddCondition('string', 4)).toBe(true);
    expect(canAddCondition('string', 5)).toBe(false);
    expect(canAddCondition('int', 5)).toBe(false);
  });
  it('blocked for uuid and number filters', () => {
    expect(canAddCondition('uuid', 1)).toBe(false);
    expect(canAddCondition('number', 1)).toBe(false);
  });
});

describe('isBlockedNumericKey', () => {
  it.each(['e', 'E', '+', '-'])('blocks %s', (k) => expect(isBlockedNumericKey(k)).toBe(true));
  it.each(['0', '9', '.', 'Backspace', 'a'])('allows %s', (k) => expect(isBlockedNumericKey(k)).toBe(false));
});

describe('filterProblem', () => {
  it('accepts complete filters', () => {
    expect(filterProblem(filter([item('contains', 'acme')]), 'string')).toBeNull();
    expect(filterProblem(filter([item('between', [1, 5])]), 'int')).toBeNull();
    expect(filterProblem(filter([item('between', ['0', '2.5'])]), 'double')).toBeNull();
    expect(filterProblem(filter([item('equals', 0)]), 'int')).toBeNull();
    expect(filterProblem(filter([item('equals', true)]), 'boolean')).toBeNull();
    expect(filterProblem(filter([item('in', ['a', 'b'])]), 'uuid')).toBeNull();
    expect(filterProblem(filter([item('greater_than', '2024-01-01')]), 'date')).toBeNull();
    expect(filterProblem(filter([1, 2, 3, 4, 5].map((i) => item('contains', `v${i}`, String(i)))), 'string')).toBeNull();
  });

  it('more than 5 conditions', () => {
    const six = [1, 2, 3, 4, 5, 6].map((i) => item('contains', `v${i}`, String(i)));
    expect(filterProblem(filter(six), 'string')).toBe('A filter can have at most 5 conditions.');
    expect(FILTER_MESSAGES.tooMany).toBe('A filter can have at most 5 conditions.');
  });

  it('uuid and number filters hold one condition', () => {
    expect(filterProblem(filter([item('in', ['a']), item('in', ['b'], '2')]), 'uuid')).toBe(FILTER_MESSAGES.tooMany);
    expect(filterProblem(filter([item('between', [1, 2]), item('between', [3, 4], '2')]), 'number')).toBe(FILTER_MESSAGES.tooMany);
  });

  it('a condition outside the type’s set', () => {
    expect(filterProblem(filter([item('greater_than', 'a')]), 'string')).toBe('This condition is not supported for this field type.');
    expect(filterProblem(filter([item('contains', '1')]), 'int')).toBe(FILTER_MESSAGES.unsupported);
    expect(filterProblem(filter([item('greater_than', true)]), 'boolean')).toBe(FILTER_MESSAGES.unsupported);
    expect(filterProblem(filter([item('equals', 'x')]), 'uuid')).toBe(FILTER_MESSAGES.unsupported);
  });

  it("missing values: 'Please fill in all condition values before saving.'", () => {
    const fill = 'Please fill in all condition values before saving.';
    expect(filterProblem(filter([item('contains', '')]), 'string')).toBe(fill);
    expect(filterProblem(filter([item('contains', '   ')]), 'string')).toBe(fill);
    expect(filterProblem(filter([item('contains', null)]), 'string')).toBe(fill);
    expect(filterProblem(filter([item('equals', undefined)]), 'int')).toBe(fill);
    expect(filterProblem(filter([item('between', [1])]), 'int')).toBe(fill);
    expect(filterProblem(filter([item('between', [1, ''])]), 'int')).toBe(fill);
    expect(filterProblem(filter([item('between', 3)]), 'double')).toBe(fill);
    expect(filterProblem(filter([item('in', [])]), 'uuid')).toBe(fill);
    expect(filterProblem(filter([item('in', ['a', ''])]), 'uuid')).toBe(fill);
    expect(filterProblem(filter([item('equals', 'abc')]), 'int')).toBe(fill);
    expect(filterProblem(filter([item('contains', 'ok'), item('contains', '', '2')]), 'string')).toBe(fill);
  });

  it('negative numbers are refused', () => {
    expect(filterProblem(filter([item('greater_than', -1)]), 'int')).toBe('Negative numbers are not allowed.');
    expect(filterProblem(filter([item('between', [0, '-0.5'])]), 'double')).toBe(FILTER_MESSAGES.negative);
    expect(filterProblem(filter([item('equals', -3)]), 'currency')).toBe(FILTER_MESSAGES.negative);
  });
});

describe('matchesItem: the reference semantics', () => {
  it('text comparisons ignore case', () => {
    expect(matchesItem('Acme Corp', item('equals', 'acme corp'), 'string')).toBe(true);
    expect(matchesItem('Acme Corp', item('contains', 'ME C'), 'string')).toBe(true);
    expect(matchesItem('Acme Corp', item('starts_with', 'aC'), 'string')).toBe(true);
    expect(matchesItem('Acme Corp', item('ends_with', 'CORP'), 'string')).toBe(true);
    expect(matchesItem('Acme Corp', item('not_contains', 'acme'), 'string')).toBe(false);
    expect(matchesItem('Acme Corp', item('not_equals', 'ACME CORP'), 'string')).toBe(false);
    expect(matchesItem('Acme', item('in', ['x', 'ACME']), 'uuid')).toBe(true);
  });

  it('missing values satisfy only the negative conditions', () => {
    for (const missing of [null, undefined, '']) {
      expect(matchesItem(missing, item('equals', 'a'), 'string')).toBe(false);
      expect(matchesItem(missing, item('contains', 'a'), 'string')).toBe(false);
      expect(matchesItem(missing, item('starts_with', 'a'), 'string')).toBe(false);
      expect(matchesItem(missing, item('in', ['a']), 'uuid')).toBe(false);
      expect(matchesItem(missing, item('greater_than', 0), 'int')).toBe(false);
      expect(matchesItem(missing, item('less_than', 10), 'int')).toBe(false);
      expect(matchesItem(missing, item('between', [0, 10]), 'int')).toBe(false);
      expect(matchesItem(missing, item('equals', true), 'boolean')).toBe(false);
      expect(matchesItem(missing, item('not_equals', 'a'), 'string')).toBe(true);
      expect(matchesItem(missing, item('not_contains', 'a'), 'string')).toBe(true);
      expect(matchesItem(missing, item('not_starts_with', 'a'), 'string')).toBe(true);
      expect(matchesItem(missing, item('not_ends_with', 'a'), 'string')).toBe(true);
      expect(matchesItem(missing, item('not_between', [0, 10]), 'int')).toBe(true);
      expect(matchesItem(missing, item('not_equals', true), 'boolean')).toBe(true);
    }
  });

  it('numbers compare as numbers, inclusive between in either order', () => {
    expect(matchesItem(10, item('greater_than', '9'), 'int')).toBe(true);
    expect(matchesItem(10, item('less_than', 9), 'int')).toBe(false);
    expect(matchesItem(10, item('greater_than_or_equal', 10), 'int')).toBe(true);
    expect(matchesItem(10, item('less_than_or_equal', 10), 'int')).toBe(true);
    expect(matchesItem(2.5, item('equals', '2.5'), 'double')).toBe(true);
    expect(matchesItem(5, item('between', [5, 7]), 'int')).toBe(true);
    expect(matchesItem(7, item('between', [7, 5]), 'int')).toBe(true);
    expect(matchesItem(8, item('between', [7, 5]), 'int')).toBe(false);
    expect(matchesItem(8, item('not_between', [7, 5]), 'int')).toBe(true);
    expect(matchesItem(6, item('not_between', [5, 7]), 'int')).toBe(false);
  });

  it('dates and times compare in order as ISO text', () => {
    expect(matchesItem('2024-03-01', item('greater_than', '2024-02-29'), 'date')).toBe(true);
    expect(matchesItem('2024-03-01', item('between', ['2024-12-31', '2024-01-01']), 'date')).toBe(true);
    expect(matchesItem('09:30', item('less_than', '10:00'), 'time')).toBe(true);
  });

  it('objects are compared as their JSON text, as the server stores them', () => {
    expect(matchesItem({ Stage: 'Seed' }, item('contains', '"stage":"seed"'), 'object')).toBe(true);
    expect(matchesItem({ a: 1 }, item('contains', 'object'), 'object')).toBe(false);
    expect(matchesItem({ a: 1 }, item('not_contains', 'object'), 'object')).toBe(true);
    expect(matchesItem([1, 2], item('equals', '[1,2]'), 'object')).toBe(true);
  });

  it('booleans: equals / not equals', () => {
    expect(matchesItem(true, item('equals', true), 'boolean')).toBe(true);
    expect(matchesItem(false, item('equals', 'true'), 'boolean')).toBe(false);
    expect(matchesItem(false, item('not_equals', true), 'boolean')).toBe(true);
  });

  it('itemValues lists one value, or the pair', () => {
    expect(itemValues(item('equals', 3))).toEqual([3]);
    expect(itemValues(item('between', [1, 2]))).toEqual([1, 2]);
  });
});

describe('matchesFilters', () => {
  const row: Record<string, unknown> = { name: 'Acme', revenue: 12, active: true, founded: null };
  const types: Record<string, FieldDataType> = { name: 'string', revenue: 'double', active: 'boolean', founded: 'date' };
  const match = (filters: TableFilter[]) =>
    matchesFilters(
      (k) => row[k],
      filters,
      (k) => types[k],
    );

  it('every filter must match; no filters match everything', () => {
    expect(match([])).toBe(true);
    expect(
      match([
        { key: 'name', items: [item('contains', 'cm')] },
        { key: 'revenue', items: [item('greater_than', 10)] },
      ]),
    ).toBe(true);
    expect(
      match([
        { key: 'name', items: [item('contains', 'cm')] },
        { key: 'revenue', items: [item('greater_than', 20)] },
      ]),
    ).toBe(false);
  });

  it('a filter’s conditions combine with its operator (and by default)', () => {
    const items = [item('greater_than', 20), item('less_than', 15, '2')];
    expect(match([{ key: 'revenue', items }])).toBe(false);
    expect(match([{ key: 'revenue', items, operator: 'and' }])).toBe(false);
    expect(match([{ key: 'revenue', items, operator: 'or' }])).toBe(true);
  });

  it('negative conditions include rows without a value', () => {
    expect(match([{ key: 'founded', items: [item('not_equals', '2020-01-01')] }])).toBe(true);
    expect(match([{ key: 'founded', items: [item('equals', '2020-01-01')] }])).toBe(false);
  });
});
