import { describe, it, expect } from 'vitest';
import {
  nextEnrichmentName,
  schemaItemsToJsonSchema,
  schemaItemProblems,
  enrichmentResultValue,
  enrichmentResultStatus,
  valueAtPath,
  richPromptIsEmpty,
  fieldValueOfResult,
  providerOfType,
  executionsStartedMessage,
  ENRICHMENT_NAME_PREFIXES,
} from './enrichments';

describe('enrichment rules', () => {
  it('generates prefix + next number, ignoring other names and case', () => {
    expect(nextEnrichmentName('LLM Prompt', [])).toBe('LLM Prompt 1');
    expect(nextEnrichmentName('LLM Prompt', ['LLM Prompt 1', 'llm prompt 7', 'LLM Prompt x', 'AI Agent 9', 'LLM Prompt 3'])).toBe(
      'LLM Prompt 8',
    );
    expect(nextEnrichmentName('Deep Research Agent', ['Deep Research Agent 2'])).toBe('Deep Research Agent 3');
    expect(ENRICHMENT_NAME_PREFIXES).toEqual({
      llm: 'LLM Prompt',
      agent: 'AI Agent',
      deepresearchagent: 'Deep Research Agent',
      mixrankCompanyDetails: 'Linkedin',
    });
    expect(providerOfType('mixrankCompanyDetails')).toBe('mixrank');
    expect(providerOfType('agent')).toBe('dealscout');
    expect(executionsStartedMessage(3)).toBe('3 enrichment execution(s) started');
  });

  it('turns schema items into a strict JSON schema (all required, optional ones nullable, categories as enums)', () => {
    const s = schemaItemsToJsonSchema([
      { name: 'answer', type: 'string', description: 'The answer', required: true },
      { name: 'head count', type: 'number', description: 'People', required: false },
      { name: 'tier', type: 'categories', description: 'Tier', required: true, enumValues: ['A', 'B', 'A', ' '], enumType: 'best' },
      { name: 'tags', type: 'categories', description: 'Tags', required: true, enumValues: ['x', 'y'], enumType: 'topN', enumTopN: 2 },
      { name: 'opt', type: 'categories', description: 'Opt', required: false, enumValues: ['p'] },
      { name: 'list', type: 'array', description: 'List', required: true },
      { name: 'ok', type: 'boolean', description: 'Ok', required: true },
    ]);
    expect(s).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['answer', 'head_count', 'tier', 'tags', 'opt', 'list', 'ok'],
      properties: {
        answer: { type: 'string', description: 'The answer' },
        head_count: { type: ['number', 'null'], description: 'People' },
        tier: { type: 'string', description: 'Tier', enum: ['A', 'B'] },
        tags: { type: 'array', description: 'Tags Pick at most 2, best first.', items: { type: 'string', enum: ['x', 'y'] } },
        opt: { type: ['string', 'null'], description: 'Opt', enum: ['p', null] },
        list: { type: 'array', description: 'List', items: { type: 'string' } },
        ok: { type: 'boolean', description: 'Ok' },
      },
    });
  });

  it("reports the form's per-item messages", () => {
    expect(
      schemaItemProblems([
        { name: '', type: 'string', description: 'd', required: true },
        { name: 'n', type: 'string', description: ' ', required: true },
        { name: 'c', type: 'categories', description: 'd', required: true, enumValues: [' '] },
        { name: 'ok', type: 'categories', description: 'd', required: true, enumValues: ['v'] },
      ]).map((p) => [p.index, p.path, p.message]),
    ).toEqual([
      [0, 'name', 'Schema name is required'],
      [1, 'description', 'Schema description is required'],
      [2, 'enumValues', 'Schema categorical values are required'],
    ]);
    expect(richPromptIsEmpty([{ type: 'text', text: ' ' }])).toBe(true);
    expect(richPromptIsEmpty([{ type: 'field-box', id: 'a', fieldId: 'f' }])).toBe(false);
    expect(richPromptIsEmpty('  ')).toBe(true);
    expect(richPromptIsEmpty(null)).toBe(true);
  });

  it('maps answers: objects as they are, plain strings (or JSON that is not an object) to {answer}', () => {
    expect(enrichmentResultValue('{"answer":"x","n":1}')).toEqual({ answer: 'x', n: 1 });
    expect(enrichmentResultValue('Paris')).toEqual({ answer: 'Paris' });
    expect(enrichmentResultValue('"quoted"')).toEqual({ answer: '"quoted"' });
    expect(enrichmentResultValue('[1,2]')).toEqual({ answer: '[1,2]' });
    expect(enrichmentResultValue({ a: 1 })).toEqual({ a: 1 });
    expect(enrichmentResultValue(null)).toEqual({ answer: null });
    expect(fieldValueOfResult({ answer: 'x', other: 1 })).toBe('x');
    expect(fieldValueOfResult({ sector: 'y' })).toBe('y');
    expect(fieldValueOfResult({ a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
  });

  it('reads values at paths of a result', () => {
    const r = { answer: 'x', nested: { n: 2 } };
    expect(valueAtPath(r, '$.result')).toBe(r);
    expect(valueAtPath(r, undefined)).toBe(r);
    expect(valueAtPath(r, '$.result.answer')).toBe('x');
    expect(valueAtPath(r, 'nested.n')).toBe(2);
    expect(valueAtPath(r, '$.result.missing.deeper')).toBeUndefined();
  });

  it('follows the execution while a result is queued; errors default to Error parsing data', () => {
    expect(enrichmentResultStatus('preprocessing', null, { status: 'scheduled', statusMessage: null })).toEqual({
      status: 'preprocessing',
      statusMessage: null,
    });
    expect(enrichmentResultStatus('preprocessing', null, { status: 'processing', statusMessage: null })).toEqual({
      status: 'processing',
      statusMessage: null,
    });
    expect(enrichmentResultStatus('preprocessing', null, { status: 'error', statusMessage: 'Rate limited' })).toEqual({
      status: 'error',
      statusMessage: 'Rate limited',
    });
    expect(enrichmentResultStatus('preprocessing', null, { status: 'error', statusMessage: null })).toEqual({
      status: 'error',
      statusMessage: 'Error parsing data',
    });
    expect(enrichmentResultStatus('error', null, null)).toEqual({ status: 'error', statusMessage: 'Error parsing data' });
    expect(enrichmentResultStatus('complete', null, { status: 'completed', statusMessage: null })).toEqual({
      status: 'complete',
      statusMessage: null,
    });
  });
});
