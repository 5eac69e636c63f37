import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  SCORE_OPERATORS_BY_TYPE,
  SCORING_MESSAGES,
  WEIGHT_COLOURS,
  defaultScoreModelName,
  scoreValues,
  validateScoreModel,
  weightDistribution,
  weightLegend,
  type ScoreRuleSet,
  type ScoreFieldType,
  type ScoreOperator,
  describeFieldScore,
} from './scoring';

const field = (id: string, fieldType: ScoreFieldType, rules: ScoreRuleSet['rules'], extra: Partial<ScoreRuleSet> = {}): ScoreRuleSet => ({
  id,
  label: id,
  weight: 100,
  defaultScore: 5,
  fieldData: { id, sourceType: 'mandatory', fieldType, fieldPath: id },
  rules,
  ...extra,
});
const rule = (operator: ScoreOperator, primary: string, score: number, secondary?: string) => ({
  id: `${operator}-${primary}-${secondary ?? ''}`,
  operator,
  value: { primary, secondary },
  score,
});

describe('score model validation (spec 002 §5)', () => {
  it('gives each message of the spec', () => {
    expect(validateScoreModel({ name: '  ', ruleSets: [] })).toBe('Invalid score name.');
    expect(validateScoreModel({ name: 'm', ruleSets: [] })).toBe('Please add at least one rule.');
    expect(
      validateScoreModel({
        name: 'm',
        ruleSets: [field('a', 'int', [rule('equals', '1', 5)]), field('a', 'int', [rule('equals', '1', 5)])],
      }),
    ).toBe('The following fields are duplicated: a');
    expect(validateScoreModel({ name: 'm', ruleSets: [field('a', 'int', [rule('between', '1', 5)])] })).toBe('Please fill all the values.');
    expect(validateScoreModel({ name: 'm', ruleSets: [field('a', 'string', [rule('equals', ' ', 5)])] })).toBe(
      'Please fill all the values.',
    );
    expect(validateScoreModel({ name: 'm', ruleSets: [field('a', 'int', [rule('equals', 'abc', 5)])] })).toBe(
      'Please fill all the values.',
    );
    expect(
      validateScoreModel({
        name: 'm',
        ruleSets: [field('Revenue', 'int', [rule('greater_than', '5', 5), { ...rule('greater_than', '5', 7), id: 'x' }])],
      }),
    ).toBe('The value must not be same: Revenue');
    expect(
      validateScoreModel({ name: 'm', ruleSets: [field('Revenue', 'int', [rule('greater_than', '5', 5), rule('greater_than', '9', 7)])] }),
    ).toBe('A field cannot hold two rules with the same operator: Revenue');
    expect(validateScoreModel({ name: 'm', ruleSets: [field('a', 'boolean', [rule('contain', 'x', 5)])] })).toBe(
      'No supported operator found for this field type.',
    );
    expect(validateScoreModel({ name: 'm', ruleSets: [field('a', 'int', [rule('equals', '1', 11)])] })).toBe(SCORING_MESSAGES.score);
    expect(validateScoreModel({ name: 'm', ruleSets: [field('a', 'int', [rule('equals', '1', 2.5)])] })).toBe(SCORING_MESSAGES.score);
    expect(validateScoreModel({ name: 'm', ruleSets: [field('a', 'int', [rule('equals', '1', 5)], { weight: 50 })] })).toBe(
      SCORING_MESSAGES.weight,
    );
    expect(
      validateScoreModel({
        name: 'm',
        ruleSets: [field('a', 'int', [rule('between', '1', 5, '9')]), field('b', 'array', [rule('is', 'SaaS', 10)])],
      }),
    ).toBeNull();
  });

  it('has the operator sets of the spec', () => {
    expect(SCORE_OPERATORS_BY_TYPE.double).toEqual(['equals', 'not_equals', 'greater_than', 'less_than', 'between', 'not_between']);
    expect(SCORE_OPERATORS_BY_TYPE.array).toEqual(['is', 'is_not']);
    expect(SCORE_OPERATORS_BY_TYPE.url).toEqual(SCORE_OPERATORS_BY_TYPE.string);
  });

  it('names a new model after its list', () => {
    expect(defaultScoreModelName('Nordic SaaS')).toBe('Nordic SaaS_score');
  });
});

describe('weight distribution (spec 002 §5)', () => {
  it('is the percentage of the total to two decimals, equal when the total is zero, 17 colours cycling', () => {
    const shares = weightDistribution([
      { id: 'a', label: 'a', weight: 100 },
      { id: 'b', label: 'b', weight: 40 },
      { id: 'c', label: 'c', weight: 60 },
    ]);
    expect(shares.map((s) => s.share)).toEqual([50, 20, 30]);
    expect(
      weightDistribution([
        { id: 'a', label: 'a', weight: 20 },
        { id: 'b', label: 'b', weight: 40 },
      ]).map((s) => s.share),
    ).toEqual([33.33, 66.67]);
    expect(
      weightDistribution([
        { id: 'a', label: 'a', weight: 0 },
        { id: 'b', label: 'b', weight: 0 },
        { id: 'c', label: 'c', weight: 0 },
      ]).map((s) => s.share),
    ).toEqual([33.33, 33.33, 33.33]);
    const many = weightDistribution(Array.from({ length: 18 }, (_, i) => ({ id: `${i}`, label: `${i}`, weight: 20 })));
    expect(WEIGHT_COLOURS).toHaveLength(17);
    expect(many[17]!.colour).toBe(many[0]!.colour);
    expect(new Set(many.slice(0, 17).map((s) => s.colour)).size).toBe(17);
    const legend = weightLegend(many);
    expect(legend.named).toHaveLength(3);
    expect(legend.others).toHaveLength(15);
  });
});

describe('scoring an idea', () => {
  const model = [
    field('Revenue', 'double', [rule('greater_than', '500', 10), rule('between', '100', 6, '500')], { weight: 100, defaultScore: 2 }),
    field('Industry', 'array', [rule('is', 'SaaS', 8)], { weight: 60 }),
    field('Website', 'url', [rule('ends_with', '.se', 9)], { weight: 40, defaultScore: 0 }),
  ];

  it('explains every field: value, rule, default and why, score, weight, contribution', () => {
    const r = scoreValues(
      model,
      (f) => (({ Revenue: '750', Industry: ['Fintech', 'saas'], Website: '' }) as Record<string, unknown>)[f.fieldPath],
    );
    expect(r.fields.map((f) => [f.label, f.value, f.reason, f.score])).toEqual([
      ['Revenue', '750', 'rule', 10],
      ['Industry', 'Fintech, saas', 'rule', 8],
      ['Website', null, 'missing', 0],
    ]);
    expect(r.fields[0]!.ruleId).toBe(model[0]!.rules[0]!.id);
    // (100×10 + 60×8 + 40×0) / 200 = 7.4
    expect(r.totalScore).toBe(7.4);
    expect(r.fields.map((f) => f.contribution)).toEqual([5, 2.4, 0]);
    expect(describeFieldScore(r.fields[2]!)).toBe('Missing value: default score 0');
  });

  it('gives the default to an invalid value and 0 when no rule matches', () => {
    const r = scoreValues(
      model,
      (f) => (({ Revenue: 'lots', Industry: ['Retail'], Website: 'acme.com' }) as Record<string, unknown>)[f.fieldPath],
    );
    expect(r.fields.map((f) => [f.reason, f.score])).toEqual([
      ['invalid', 2],
      ['no_match', 0],
      ['no_match', 0],
    ]);
    expect(r.totalScore).toBe(1);
  });

  it('takes the highest matching rule, whatever their order; the contributions add up to the total', () => {
    const values = fc.record({
      Revenue: fc.oneof(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), fc.constant(null), fc.string()),
      Industry: fc.array(fc.constantFrom('SaaS', 'Retail', 'saas ')),
      Website: fc.string(),
    });
    fc.assert(
      fc.property(values, fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 3, maxLength: 3 }), (v, weights) => {
        const m = model.map((rs, i) => ({ ...rs, weight: [20, 60, 100][weights[i]!]! }));
        const reversed = m.map((rs) => ({ ...rs, rules: [...rs.rules].reverse() }));
        const a = scoreValues(m, (f) => (v as Record<string, unknown>)[f.fieldPath]);
        const b = scoreValues(reversed, (f) => (v as Record<string, unknown>)[f.fieldPath]);
        expect(a).toEqual(b);
        expect(a.totalScore).toBeGreaterThanOrEqual(0);
        expect(a.totalScore).toBeLessThanOrEqual(10);
        const sum = a.fields.reduce((s, f) => s + f.contribution, 0);
        expect(Math.abs(sum - a.totalScore)).toBeLessThanOrEqual(0.011 * a.fields.length);
      }),
    );
  });
});
