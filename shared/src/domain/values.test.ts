import { describe, expect, it } from 'vitest';
import { exportResultText, exportValueText, formatResult, formatValue, rawValueText, valueLabel, valueText } from './values';
import { resultDisplay, resultValueText } from './enrichment-form';
import { formatFieldValue } from './format';

const text = (v: unknown, schema?: { name: string; type?: string }[]) => valueText(formatResult(v, schema));

describe('one field → its value, formatted by its type', () => {
  it("an enrichment's one-property result is its value, never JSON ({ employees: 44 } → '44')", () => {
    expect(text({ result: { employees: 44 } }, [{ name: 'employees', type: 'number' }])).toBe('44');
    expect(text({ result: { employees: 44 } })).toBe('44');
    expect(text({ result: { answer: 'Jane Doe' } })).toBe('Jane Doe');
    expect(resultDisplay({ status: 'complete', value: { result: { employees: 44 } } }).text).toBe('44');
  });

  it('numbers: grouped in the locale, decimals kept; a number typed by the schema is read from its text; years stay whole', () => {
    expect(formatValue(1250000)).toEqual({ kind: 'number', text: '1,250,000', value: 1250000 });
    expect(valueText(formatValue(42.5))).toBe('42.5');
    expect(text({ employees: '1250' }, [{ name: 'employees', type: 'number' }])).toBe('1,250');
    // Without a schema, digits in a string stay text (a zip code, an id).
    expect(text({ zip: '02139' })).toBe('02139');
    expect(text({ founded: 2011 })).toBe('2011');
    expect(text({ founding_year: 1998 })).toBe('1998');
  });

  it("booleans read 'Yes' / 'No' (also when the schema says boolean and the model wrote text)", () => {
    expect(formatValue(true)).toEqual({ kind: 'boolean', text: 'Yes', value: true });
    expect(text({ is_public: false })).toBe('No');
    expect(text({ is_public: 'true' }, [{ name: 'is_public', type: 'boolean' }])).toBe('Yes');
  });

  it('dates: ISO days and times read as dates', () => {
    expect(formatValue('2024-01-05')).toEqual({ kind: 'date', text: 'Jan 5, 2024', iso: '2024-01-05' });
    expect(valueText(formatValue('2024-01-05T15:04:00Z'))).toBe('Jan 5, 2024, 3:04 PM UTC');
    expect(valueText(formatValue('2024-13-45'))).toBe('2024-13-45');
  });

  it('URLs and email addresses are links; a bare domain is one where the name or the field type says so', () => {
    expect(formatValue('https://acme.example/about')).toEqual({
      kind: 'url',
      text: 'https://acme.example/about',
      href: 'https://acme.example/about',
    });
    expect(formatValue('ceo@acme.example')).toEqual({ kind: 'email', text: 'ceo@acme.example', href: 'mailto:ceo@acme.example' });
    expect(formatResult({ website: 'acme.example' })).toEqual({ kind: 'url', text: 'acme.example', href: 'https://acme.example' });
    expect(formatValue('acme.example', { dataType: 'url' })).toMatchObject({ kind: 'url', href: 'https://acme.example' });
    expect(formatValue('acme.example')).toEqual({ kind: 'text', text: 'acme.example' });
    // javascript: and other schemes are never links.
    expect(formatValue('javascript:alert(1)')).toEqual({ kind: 'text', text: 'javascript:alert(1)' });
  });

  it('lists are chips (their text joined); empty items dropped; an empty list is empty', () => {
    expect(formatResult({ industries: ['Robotics', 'Automation'] })).toEqual({
      kind: 'list',
      items: [
        { kind: 'text', text: 'Robotics' },
        { kind: 'text', text: 'Automation' },
      ],
    });
    expect(text({ industries: ['Robotics', '', 'Automation'] })).toBe('Robotics, Automation');
    expect(text({ industries: [] })).toBeNull();
  });

  it('empty values are empty (null, blank, missing)', () => {
    expect(text(null)).toBeNull();
    expect(text({ result: { answer: '  ' } })).toBeNull();
    expect(text({ result: {} })).toBeNull();
    expect(resultDisplay({ status: 'complete', value: { result: { answer: null } } })).toEqual({ kind: 'none', text: 'Not executed yet' });
  });
});

describe('several fields → labelled fields, in the schema order', () => {
  const schema = [
    { name: 'Employee Count', type: 'number' },
    { name: 'industry', type: 'string' },
    { name: 'hq_city', type: 'string' },
  ];
  it('labels come from the schema names (or the keys, made readable); empty fields are left out', () => {
    const f = formatResult({ result: { hq_city: 'Boston', Employee_Count: 4400, industry: 'Robotics', note: null } }, schema);
    expect(f).toEqual({
      kind: 'fields',
      fields: [
        { key: 'Employee_Count', label: 'Employee Count', value: { kind: 'number', text: '4,400', value: 4400 } },
        { key: 'industry', label: 'Industry', value: { kind: 'text', text: 'Robotics' } },
        { key: 'hq_city', label: 'Hq city', value: { kind: 'text', text: 'Boston' } },
      ],
    });
    expect(valueText(f)).toBe('Employee Count: 4,400; Industry: Robotics; Hq city: Boston');
    expect(resultValueText({ result: { answer: 'a', size: 3 } })).toBe('Answer: a; Size: 3');
  });

  it('a JSON string answer is read as its object; nested objects are labelled fields in parentheses', () => {
    expect(text('{"ceo":"Ada","founded":1998}')).toBe('Ceo: Ada; Founded: 1998');
    expect(text({ ceo: { name: 'Ada', since: '2019-03-01' }, size: 12 })).toBe('Ceo: (Name: Ada; Since: Mar 1, 2019); Size: 12');
  });

  it('valueLabel: snake, kebab and camel case read as words', () => {
    expect(valueLabel('employee_count')).toBe('Employee count');
    expect(valueLabel('fundingStage')).toBe('Funding stage');
    expect(valueLabel('Employee Count')).toBe('Employee Count');
  });
});

describe('export text: the same rules, machine-readable atoms', () => {
  it('numbers without grouping, dates as ISO, several fields labelled', () => {
    expect(exportResultText({ result: { employees: 4400 } })).toBe('4400');
    expect(exportResultText({ result: { industry: 'Robotics', employees: 4400 } }, [{ name: 'employees', type: 'number' }])).toBe(
      'Employees: 4400; Industry: Robotics',
    );
    expect(exportValueText(1250000, { dataType: 'currency', currency: 'EUR' })).toBe('1250000');
    expect(exportValueText('2024-01-05', { dataType: 'date' })).toBe('2024-01-05');
    expect(exportValueText({ industry: 'Robotics', employees: 4400 })).toBe('Industry: Robotics; Employees: 4400');
    expect(exportValueText(null)).toBe('');
  });
});

describe("'Show raw': the stored JSON, indented", () => {
  it('shows the result as the model answered it', () => {
    expect(rawValueText({ result: { employees: 44 } })).toBe('{\n  "employees": 44\n}');
    expect(rawValueText('plain')).toBe('plain');
  });
});

describe('field values use the same rules', () => {
  it('an object-valued field reads as labelled fields, not JSON', () => {
    expect(formatFieldValue('object', { employees: 44, industry: 'Robotics' })).toBe('Employees: 44; Industry: Robotics');
    expect(formatFieldValue('string', 'https://acme.example')).toBe('https://acme.example');
  });
});
