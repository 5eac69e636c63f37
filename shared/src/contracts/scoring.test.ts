import { describe, expect, it } from 'vitest';
import { CreateScoreModelBody, ExecuteScoreModelBody, UpdateScoreModelBody } from './scoring';

const listCompanyId = '5b0c7c52-6f44-4c8f-9d54-2f1e0f8b3c11';
const ruleSet = {
  id: 'rs1',
  label: 'Revenue',
  weight: 100,
  defaultScore: 5,
  fieldData: { id: 'revenue', sourceType: 'mandatory', fieldType: 'double', fieldPath: 'revenue' },
  rules: [{ id: 'r1', operator: 'greater_than', value: { primary: '500' }, score: 10 }],
};
const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('score model bodies answer with the editor messages', () => {
  it('accepts a valid model and defaults the description', () => {
    const r = CreateScoreModelBody.safeParse({ name: 'Early Saas', listCompanyId, ruleSets: [ruleSet] });
    expect(r.success).toBe(true);
    expect(r.data?.description).toBe('');
  });
  it('rejects what the editor rejects, with the same words', () => {
    expect(message(CreateScoreModelBody.safeParse({ name: ' ', listCompanyId, ruleSets: [ruleSet] }))).toBe('Invalid score name.');
    expect(message(UpdateScoreModelBody.safeParse({ name: 'm', ruleSets: [] }))).toBe('Please add at least one rule.');
    expect(
      message(UpdateScoreModelBody.safeParse({ name: 'm', ruleSets: [{ ...ruleSet, rules: [{ ...ruleSet.rules[0], operator: 'is' }] }] })),
    ).toBe('No supported operator found for this field type.');
    expect(
      message(
        UpdateScoreModelBody.safeParse({ name: 'm', ruleSets: [{ ...ruleSet, rules: [{ ...ruleSet.rules[0], operator: 'between' }] }] }),
      ),
    ).toBe('Please fill all the values.');
    expect(message(UpdateScoreModelBody.safeParse({ name: 'bad\u0000', ruleSets: [ruleSet] }))).toBe('Invalid score name.');
  });
  it('needs ideas to run on unless it runs on all', () => {
    expect(message(ExecuteScoreModelBody.safeParse({ scoringModelId: listCompanyId }))).toBe('No ideas to run score on.');
    expect(ExecuteScoreModelBody.safeParse({ scoringModelId: listCompanyId, options: { runAll: true } }).success).toBe(true);
  });
});
