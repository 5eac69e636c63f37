import { describe, expect, it } from 'vitest';
import {
  ENRICHMENT_FORM_MESSAGES,
  RUN_ENRICHMENT_MESSAGES,
  addEnumValue,
  addGeneratedItem,
  blankSchemaItem,
  canDeleteSchemaItem,
  canSaveEnrichment,
  clampEnumTopN,
  defaultSchemaItem,
  enrichmentFormErrors,
  executionToasts,
  generatedColumnToItem,
  hasFormErrors,
  linkedinFormErrors,
  newEnrichBox,
  newFieldBox,
  newPromptBoxId,
  normalizePrompt,
  promptIsEmpty,
  promptToText,
  removeSchemaItem,
  resultDisplay,
  resultValueText,
  runEnrichmentProblem,
  schemaItemErrors,
  schemaTypeOptions,
  slashQuery,
  withSchemaType,
  type FormSchemaItem,
  type PromptNode,
} from './enrichment-form';

describe('schema items', () => {
  it('starts with answer / string / required', () => {
    expect(defaultSchemaItem()).toMatchObject({
      name: 'answer',
      type: 'string',
      description: "Your answer to the user's request.",
      required: true,
    });
  });

  it('offers array only to an item that already is one', () => {
    expect(schemaTypeOptions({ type: 'string' })).toEqual(['string', 'number', 'boolean', 'categories']);
    expect(schemaTypeOptions({ type: 'array' })).toEqual(['string', 'number', 'boolean', 'categories', 'array']);
  });

  it('gives categories their defaults (best, top 1)', () => {
    const c = withSchemaType(blankSchemaItem(), 'categories');
    expect(c).toMatchObject({ type: 'categories', enumValues: [], enumType: 'best', enumTopN: 1 });
    const kept = withSchemaType({ ...c, enumType: 'topN', enumTopN: 3, enumValues: ['a'] }, 'categories');
    expect(kept).toMatchObject({ enumType: 'topN', enumTopN: 3, enumValues: ['a'] });
  });

  it('adds a category value only when non-empty and new', () => {
    expect(addEnumValue([], '  SaaS ')).toEqual(['SaaS']);
    expect(addEnumValue(['SaaS'], 'SaaS')).toEqual(['SaaS']);
    expect(addEnumValue(['SaaS'], '   ')).toEqual(['SaaS']);
    expect(addEnumValue(undefined, 'B2B')).toEqual(['B2B']);
  });

  it('keeps enumTopN a whole number of at least 1', () => {
    expect(clampEnumTopN(0)).toBe(1);
    expect(clampEnumTopN(-4)).toBe(1);
    expect(clampEnumTopN('3')).toBe(3);
    expect(clampEnumTopN(2.7)).toBe(2);
    expect(clampEnumTopN('x')).toBe(1);
  });

  it('never deletes the last item', () => {
    const one = [defaultSchemaItem()];
    expect(canDeleteSchemaItem(one)).toBe(false);
    expect(removeSchemaItem(one, 0)).toHaveLength(1);
    const two = [defaultSchemaItem(), blankSchemaItem()];
    expect(canDeleteSchemaItem(two)).toBe(true);
    expect(removeSchemaItem(two, 0)).toEqual([two[1]]);
  });

  it('reports per-item errors with the spec messages', () => {
    expect(schemaItemErrors(blankSchemaItem())).toEqual({
      name: ENRICHMENT_FORM_MESSAGES.schemaNameRequired,
      description: ENRICHMENT_FORM_MESSAGES.schemaDescriptionRequired,
    });
    const cat: FormSchemaItem = withSchemaType({ ...blankSchemaItem(), name: 'sector', description: 'Sector' }, 'categories');
    expect(schemaItemErrors(cat)).toEqual({ enumValues: 'Schema categorical values are required' });
    expect(schemaItemErrors({ ...cat, enumValues: ['SaaS'] })).toEqual({});
  });
});

describe('generated columns', () => {
  it('maps a hint result (categorical → categories, required and createColumn)', () => {
    expect(
      generatedColumnToItem({
        keyName: 'sector',
        keyDataType: 'categorical',
        keyDescription: 'The sector',
        keyOptions: ['SaaS', 'SaaS', 'Retail'],
      }),
    ).toEqual({
      name: 'sector',
      type: 'categories',
      description: 'The sector',
      required: true,
      createColumn: true,
      expanded: true,
      enumValues: ['SaaS', 'Retail'],
      enumType: 'best',
      enumTopN: 1,
    });
    expect(generatedColumnToItem({ keyName: 'employees', keyDataType: 'number', keyDescription: 'Head count' })?.type).toBe('number');
    expect(generatedColumnToItem({ keyName: '', keyDataType: 'string' })).toBeNull();
  });

  it('collapses the other items when one is added', () => {
    const items = addGeneratedItem([{ ...defaultSchemaItem(), expanded: true }], { ...blankSchemaItem(), name: 'x', description: 'y' });
    expect(items.map((i) => i.expanded)).toEqual([false, true]);
  });
});

describe('rich prompt', () => {
  it('makes 12-character box ids with autorun and required off', () => {
    expect(newPromptBoxId()).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(newPromptBoxId()).not.toBe(newPromptBoxId());
    expect(newFieldBox('f1')).toMatchObject({ type: 'field-box', fieldId: 'f1', autorun: false, required: false });
    expect(newEnrichBox('e1')).toMatchObject({ type: 'enrich-box', enrichmentId: 'e1', path: '$.result', autorun: false, required: false });
  });

  it('stringifies and normalizes', () => {
    const nodes: PromptNode[] = [
      { type: 'text', text: 'Find ' },
      { type: 'text', text: '' },
      { type: 'text', text: 'the CEO of ' },
      newFieldBox('name-id'),
    ];
    const n = normalizePrompt(nodes);
    expect(n).toHaveLength(2);
    expect(promptToText(n, () => 'Company Name')).toBe('Find the CEO of {{Company Name}}');
    expect(promptIsEmpty([{ type: 'text', text: '   ' }])).toBe(true);
    expect(promptIsEmpty([newFieldBox('x')])).toBe(false);
  });

  it('finds the slash query before the caret', () => {
    expect(slashQuery('Tell me /')).toBe('');
    expect(slashQuery('/web')).toBe('web');
    expect(slashQuery('Tell me /web')).toBe('web');
    expect(slashQuery('a/b')).toBeNull();
    expect(slashQuery('/web site')).toBeNull();
  });
});

describe('the form', () => {
  const good = { name: 'CEO', prompt: [{ type: 'text', text: 'Who is the CEO?' }] as PromptNode[], schema: [defaultSchemaItem()] };

  it('requires name, prompt and schema', () => {
    const e = enrichmentFormErrors({ name: ' ', prompt: [], schema: [] });
    expect(e).toMatchObject({ name: 'Name is required', prompt: 'Prompt is required', schema: 'Schema is required' });
    expect(hasFormErrors(enrichmentFormErrors(good))).toBe(false);
  });

  it('cannot save while generating or before the schema is ready', () => {
    expect(canSaveEnrichment(good, 'generating')).toBe(false);
    expect(canSaveEnrichment(good, 'idle')).toBe(false);
    expect(canSaveEnrichment(good, 'error')).toBe(false);
    expect(canSaveEnrichment(good, 'ready')).toBe(true);
    expect(canSaveEnrichment({ ...good, schema: [blankSchemaItem()] }, 'ready')).toBe(false);
  });

  it('keys the LinkedIn name as enrichmentName', () => {
    expect(linkedinFormErrors({ enrichmentName: '' })).toEqual({ enrichmentName: 'Name is required' });
    expect(linkedinFormErrors({ enrichmentName: 'Linkedin 1' })).toEqual({});
  });
});

describe('running', () => {
  const base = { fieldId: 'f', enrichmentId: 'e', selectedCount: 2, entity: 'company', option: 'all' as const, emptyCount: 0 };
  it('checks field and enrichment, then rows, then empty rows', () => {
    expect(runEnrichmentProblem({ ...base, fieldId: null })?.message).toBe(RUN_ENRICHMENT_MESSAGES.invalid);
    expect(runEnrichmentProblem({ ...base, enrichmentId: null })?.message).toBe('Invalid Enrichment');
    expect(runEnrichmentProblem({ ...base, selectedCount: 0 })?.message).toBe('Please select a company.');
    expect(runEnrichmentProblem({ ...base, option: 'empty' })).toEqual({ message: 'No empty rows to enrich.', timeout: 1000 });
    expect(runEnrichmentProblem({ ...base, option: 'empty', emptyCount: null })).toBeNull();
    expect(runEnrichmentProblem(base)).toBeNull();
  });

  it('reports started, duplicates and failures', () => {
    expect(executionToasts({ started: 3, duplicates: 1, failed: 2 })).toEqual([
      { level: 'success', message: '3 enrichment execution(s) started' },
      { level: 'warning', message: '1 enrichment execution(s) already in the queue' },
      { level: 'error', message: '2 enrichment execution(s) failed to start' },
    ]);
    expect(executionToasts({ started: 0, duplicates: 0, failed: 0 })).toEqual([]);
  });
});

describe('result display', () => {
  it('follows the statuses', () => {
    expect(resultDisplay(null)).toEqual({ kind: 'none', text: 'Not executed yet' });
    expect(resultDisplay({ status: 'preprocessing' })).toEqual({ kind: 'preprocessing', text: '-' });
    expect(resultDisplay({ status: 'preprocessing', value: { result: { answer: 'old' } } })).toMatchObject({
      kind: 'preprocessing',
      text: 'old',
    });
    expect(resultDisplay({ status: 'processing' }).text).toBe('Processing...');
    expect(resultDisplay({ status: 'error', statusMessage: 'boom' })).toEqual({ kind: 'error', text: 'Error', message: 'boom' });
    expect(resultDisplay({ status: 'complete', value: { result: { answer: 'Jane Doe' } } })).toMatchObject({
      kind: 'value',
      text: 'Jane Doe',
    });
    expect(resultDisplay({ status: 'ready', value: 42 })).toMatchObject({
      kind: 'value',
      text: '42',
      formatted: { kind: 'number', text: '42', value: 42 },
      raw: 42,
    });
  });

  it('shows structured results as labelled fields, never JSON', () => {
    expect(resultValueText({ result: { answer: 'a', size: 3 } })).toBe('Answer: a; Size: 3');
    expect(resultValueText(['a', 'b'])).toBe('a, b');
    expect(resultValueText('')).toBeNull();
  });
});
