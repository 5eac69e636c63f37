// Scoring models (spec 002 §2 'Score model editor', §3 'Scoring model', §5 'Score model',
// 'Operators by field type', 'Weight distribution', 'Run scope', §8 'Scoring', §9).
//
// One module for the client and the server: the editor validates with `validateScoreModel`, the
// server answers with the same messages, and `scoreValues` is the reference evaluation the server's
// set-based scorer is tested against (a property test compares the two for any model and values).
//
// The rules of a score, decided here and written in docs/ARCHITECTURE.md ('Scoring'):
// - A field's value is missing when it is null, undefined, blank text or an empty array; it is
//   invalid when it cannot be read as the field's type (text 'abc' for a number). Missing and invalid
//   values get the field's default score ('If data is missing or invalid: Set to').
// - Otherwise the field scores the highest score among its rules that match (the order of the rules
//   does not matter), or 0 when no rule matches.
// - The total is the weighted mean of the field scores on the 0–10 scale: Σ(weight × score) / Σweight,
//   rounded to two decimals; with a total weight of zero every field weighs the same (as in the
//   weight distribution bar). A field's contribution is its share × its score, so the contributions
//   add up to the total (before rounding).

export const SCORE_FIELD_TYPES = ['int', 'double', 'boolean', 'array', 'string', 'url', 'other'] as const;
export type ScoreFieldType = (typeof SCORE_FIELD_TYPES)[number];

export const SCORE_OPERATORS = [
  'equals',
  'not_equals',
  'greater_than',
  'less_than',
  'between',
  'not_between',
  'is',
  'is_not',
  'contain',
  'not_contain',
  'starts_with',
  'ends_with',
] as const;
export type ScoreOperator = (typeof SCORE_OPERATORS)[number];

/** Operators by field type (spec 002 §5). */
export const SCORE_OPERATORS_BY_TYPE: Record<ScoreFieldType, readonly ScoreOperator[]> = {
  int: ['equals', 'not_equals', 'greater_than', 'less_than', 'between', 'not_between'],
  double: ['equals', 'not_equals', 'greater_than', 'less_than', 'between', 'not_between'],
  boolean: ['equals', 'not_equals'],
  array: ['is', 'is_not'],
  string: ['contain', 'not_contain', 'starts_with', 'ends_with', 'equals', 'not_equals'],
  url: ['contain', 'not_contain', 'starts_with', 'ends_with', 'equals', 'not_equals'],
  other: ['contain', 'not_contain', 'starts_with', 'ends_with', 'equals', 'not_equals'],
};

export const SCORE_OPERATOR_LABELS: Record<ScoreOperator, string> = {
  equals: 'Equals',
  not_equals: 'Not equals',
  greater_than: 'Greater than',
  less_than: 'Less than',
  between: 'Between',
  not_between: 'Not between',
  is: 'Is',
  is_not: 'Is not',
  contain: 'Contains',
  not_contain: 'Does not contain',
  starts_with: 'Starts with',
  ends_with: 'Ends with',
};

/** Operators that take two values (spec 002 §5). */
export const RANGE_OPERATORS: readonly ScoreOperator[] = ['between', 'not_between'];

/** Weight levels (spec 002 §5, §9). */
export const WEIGHT_LEVELS = [
  { label: 'low', value: 20 },
  { label: 'low-med', value: 40 },
  { label: 'med', value: 60 },
  { label: 'hi-med', value: 80 },
  { label: 'high', value: 100 },
] as const;
export const WEIGHT_VALUES: readonly number[] = WEIGHT_LEVELS.map((w) => w.value);

export const SCORE_MIN = 0;
export const SCORE_MAX = 10;
/** New field defaults (spec 002 §9). */
export const SCORE_DEFAULTS = { weight: 100, defaultScore: 5, ruleScore: 5 } as const;
/** 'Save and run for first 10 row' / 'first row' (spec 002 §5 'Run scope', §9). */
export const RUN_FIRST_N = { ten: 10, one: 1 } as const;

/** The 17 colours of the weight distribution bar, cycling (spec 002 §5, §9). */
export const WEIGHT_COLOURS = [
  '#2563eb',
  '#16a34a',
  '#f59e0b',
  '#dc2626',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#65a30d',
  '#ea580c',
  '#4f46e5',
  '#0d9488',
  '#ca8a04',
  '#9333ea',
  '#e11d48',
  '#0284c7',
  '#84cc16',
  '#a16207',
] as const;

export const SCORING_MESSAGES = {
  created: 'Score created successfully.',
  updated: 'Score updated successfully.',
  started: 'Score execution started.',
  startFailed: 'Failed to start score execution.',
  noIdeasOn: 'No ideas to run score on.',
  noIdeas: 'No ideas to run score.',
  /** The list toolbar's run menu of a saved model (spec 002 §5 'Run scope'). */
  runMenu: { first10: 'Run first 10 row', first1: 'Run first row', all: 'Run on all ideas' },
  getFailed: 'Failed to get score',
  noOperator: 'No supported operator found for this field type.',
  invalidName: 'Invalid score name.',
  noRule: 'Please add at least one rule.',
  duplicated: 'The following fields are duplicated: ',
  fillValues: 'Please fill all the values.',
  sameValue: 'The value must not be same: ',
  sameOperator: 'A field cannot hold two rules with the same operator: ',
  weight: 'Weight must be one of 20, 40, 60, 80 or 100.',
  score: 'Scores run from 0 to 10 in steps of 1.',
  notFound: 'Score model not found',
  listNotFound: 'List not found',
  editor: {
    title: 'New Score model',
    editTitle: 'Edit Score model',
    subtitle: 'Add rule, set conditions and preview your score model',
    namePlaceholder: 'Early Saas',
    noFields: 'No fields added yet.',
    addField: '+ Add field',
    noFieldFound: 'No field found',
    others: 'Others',
    missing: 'If data is missing or invalid: Set to',
    save: 'Save model',
    saveNoRun: "Save and don't run",
    saveRun10: 'Save and run for first 10 row',
    saveRun1: 'Save and run for first row',
    saveRunAll: 'Save and run for all',
  },
} as const;

export type ScoreFieldSource = 'mandatory' | 'enrichment';
export interface ScoreFieldData {
  id: string;
  sourceType: ScoreFieldSource;
  fieldType: ScoreFieldType;
  /** mandatory: the idea's property (name, website, domain…); enrichment: the path in its result ($.result…). */
  fieldPath: string;
  enrichmentId?: string | null;
}
export interface ScoreRuleValue {
  primary: string;
  secondary?: string | null;
}
export interface ScoreRule {
  id: string;
  operator: ScoreOperator;
  value: ScoreRuleValue;
  score: number;
}
export interface ScoreRuleSet {
  id: string;
  label: string;
  weight: number;
  defaultScore: number;
  fieldData: ScoreFieldData;
  rules: ScoreRule[];
}
export interface ScoreModelInput {
  name: string;
  description?: string;
  ruleSets: ScoreRuleSet[];
}

/** The default name of a new model: the list name plus 'score' (pattern list_score). */
export function defaultScoreModelName(listName: string): string {
  return `${listName.trim()}_score`;
}

const isInt = (n: unknown) => typeof n === 'number' && Number.isInteger(n);
const blank = (v: string | null | undefined) => v === undefined || v === null || v.trim() === '';

/** The first problem of a model, as the spec words it, or null when it can be saved. */
export function validateScoreModel(model: ScoreModelInput): string | null {
  if (blank(model.name)) return SCORING_MESSAGES.invalidName;
  if (model.ruleSets.length === 0 || model.ruleSets.every((rs) => rs.rules.length === 0)) return SCORING_MESSAGES.noRule;
  const seen = new Map<string, number>();
  for (const rs of model.ruleSets) seen.set(rs.label.trim().toLowerCase(), (seen.get(rs.label.trim().toLowerCase()) ?? 0) + 1);
  const dup = model.ruleSets.filter(
    (rs, i, all) =>
      seen.get(rs.label.trim().toLowerCase())! > 1 &&
      all.findIndex((o) => o.label.trim().toLowerCase() === rs.label.trim().toLowerCase()) === i,
  );
  if (dup.length > 0) return SCORING_MESSAGES.duplicated + dup.map((rs) => rs.label).join(', ');
  for (const rs of model.ruleSets) {
    if (rs.rules.length === 0) return SCORING_MESSAGES.noRule;
    const ops = SCORE_OPERATORS_BY_TYPE[rs.fieldData.fieldType];
    if (!ops || ops.length === 0) return SCORING_MESSAGES.noOperator;
    if (!WEIGHT_VALUES.includes(rs.weight)) return SCORING_MESSAGES.weight;
    if (!isInt(rs.defaultScore) || rs.defaultScore < SCORE_MIN || rs.defaultScore > SCORE_MAX) return SCORING_MESSAGES.score;
    for (const rule of rs.rules) {
      if (!ops.includes(rule.operator)) return SCORING_MESSAGES.noOperator;
      if (blank(rule.value.primary) || (RANGE_OPERATORS.includes(rule.operator) && blank(rule.value.secondary)))
        return SCORING_MESSAGES.fillValues;
      if (!isInt(rule.score) || rule.score < SCORE_MIN || rule.score > SCORE_MAX) return SCORING_MESSAGES.score;
      if (isNumeric(rs.fieldData.fieldType)) {
        if (toNumber(rule.value.primary) === null || (RANGE_OPERATORS.includes(rule.operator) && toNumber(rule.value.secondary) === null))
          return SCORING_MESSAGES.fillValues;
      }
    }
    for (let i = 0; i < rs.rules.length; i++) {
      for (let j = i + 1; j < rs.rules.length; j++) {
        const a = rs.rules[i]!;
        const b = rs.rules[j]!;
        if (a.operator !== b.operator) continue;
        const same = norm(a.value.primary) === norm(b.value.primary) && norm(a.value.secondary) === norm(b.value.secondary);
        return (same ? SCORING_MESSAGES.sameValue : SCORING_MESSAGES.sameOperator) + rs.label;
      }
    }
  }
  return null;
}

const norm = (v: string | null | undefined) => (v ?? '').trim().toLowerCase();
const isNumeric = (t: ScoreFieldType) => t === 'int' || t === 'double';

export interface WeightShare {
  id: string;
  label: string;
  weight: number;
  share: number;
  colour: string;
}

/** Each field's share of the total weight in percent, two decimals; equal shares for a zero total. */
export function weightDistribution(ruleSets: readonly Pick<ScoreRuleSet, 'id' | 'label' | 'weight'>[]): WeightShare[] {
  const total = ruleSets.reduce((s, rs) => s + Math.max(0, rs.weight), 0);
  return ruleSets.map((rs, i) => ({
    id: rs.id,
    label: rs.label,
    weight: rs.weight,
    share: round2(total === 0 ? 100 / ruleSets.length : (Math.max(0, rs.weight) / total) * 100),
    colour: WEIGHT_COLOURS[i % WEIGHT_COLOURS.length]!,
  }));
}

/** The legend names the first three fields; the rest go in the 'Others' tooltip. */
export function weightLegend(shares: WeightShare[]): { named: WeightShare[]; others: WeightShare[] } {
  return { named: shares.slice(0, 3), others: shares.slice(3) };
}

export const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

export type ScoreReason = 'rule' | 'no_match' | 'missing' | 'invalid';
export interface FieldScore {
  ruleSetId: string;
  label: string;
  fieldPath: string;
  /** The value seen, as text (arrays joined with ', '); null when missing. */
  value: string | null;
  reason: ScoreReason;
  /** The rule that gave the score (reason 'rule'). */
  ruleId: string | null;
  score: number;
  weight: number;
  /** share × score: the contributions add up to the total. */
  contribution: number;
}
export interface ScoreBreakdown {
  totalScore: number;
  fields: FieldScore[];
}

export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const t = v.trim().replace(/,/g, '');
  if (t === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

export function toBoolean(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : null;
  if (typeof v !== 'string') return null;
  const t = v.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(t)) return true;
  if (['false', 'no', '0'].includes(t)) return false;
  return null;
}

export function isMissing(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
}

function asText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

function asArray(v: unknown): string[] | null {
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (const x of v) {
      const t = asText(x);
      if (t === null) return null;
      out.push(t);
    }
    return out;
  }
  const t = asText(v);
  return t === null ? null : [t];
}

/** Does one rule match a (present, valid) value? Text comparisons ignore case and surrounding spaces. */
export function ruleMatches(fieldType: ScoreFieldType, rule: Pick<ScoreRule, 'operator' | 'value'>, value: unknown): boolean | null {
  const p = rule.value.primary;
  const s = rule.value.secondary ?? '';
  switch (fieldType) {
    case 'int':
    case 'double': {
      const n = toNumber(value);
      if (n === null) return null;
      const a = toNumber(p);
      const b = toNumber(s);
      if (a === null) return false;
      switch (rule.operator) {
        case 'equals':
          return n === a;
        case 'not_equals':
          return n !== a;
        case 'greater_than':
          return n > a;
        case 'less_than':
          return n < a;
        case 'between':
        case 'not_between': {
          if (b === null) return false;
          const inside = n >= Math.min(a, b) && n <= Math.max(a, b);
          return rule.operator === 'between' ? inside : !inside;
        }
        default:
          return false;
      }
    }
    case 'boolean': {
      const v = toBoolean(value);
      if (v === null) return null;
      const want = toBoolean(p);
      if (want === null) return false;
      if (rule.operator === 'equals') return v === want;
      if (rule.operator === 'not_equals') return v !== want;
      return false;
    }
    case 'array': {
      const arr = asArray(value);
      if (arr === null) return null;
      const has = arr.some((x) => norm(x) === norm(p));
      if (rule.operator === 'is') return has;
      if (rule.operator === 'is_not') return !has;
      return false;
    }
    default: {
      const t = asText(value);
      if (t === null) return null;
      const v = norm(t);
      const q = norm(p);
      switch (rule.operator) {
        case 'contain':
          return v.includes(q);
        case 'not_contain':
          return !v.includes(q);
        case 'starts_with':
          return v.startsWith(q);
        case 'ends_with':
          return v.endsWith(q);
        case 'equals':
          return v === q;
        case 'not_equals':
          return v !== q;
        default:
          return false;
      }
    }
  }
}

/** Score one field's value. */
export function scoreField(rs: ScoreRuleSet, value: unknown): Omit<FieldScore, 'contribution'> {
  const base = { ruleSetId: rs.id, label: rs.label, fieldPath: rs.fieldData.fieldPath, weight: rs.weight };
  if (isMissing(value)) return { ...base, value: null, reason: 'missing', ruleId: null, score: rs.defaultScore };
  // The value seen: text (a list's items joined with ', '); an object, or a list holding anything
  // but text, numbers and booleans, shows as '{…}' / '[…]' (it is invalid for every field type).
  const shown = Array.isArray(value) ? (asArray(value)?.join(', ') ?? '[…]') : (asText(value) ?? '{…}');
  let best: ScoreRule | null = null;
  for (const rule of rs.rules) {
    const m = ruleMatches(rs.fieldData.fieldType, rule, value);
    if (m === null) return { ...base, value: shown, reason: 'invalid', ruleId: null, score: rs.defaultScore };
    if (m && (best === null || rule.score > best.score)) best = rule;
  }
  if (best) return { ...base, value: shown, reason: 'rule', ruleId: best.id, score: best.score };
  return { ...base, value: shown, reason: 'no_match', ruleId: null, score: 0 };
}

/**
 * The reference evaluation: score one idea's values (read by `valueOf(fieldData)`) with a model's
 * rule sets. The server's batched scorer must give exactly this.
 */
export function scoreValues(ruleSets: readonly ScoreRuleSet[], valueOf: (f: ScoreFieldData) => unknown): ScoreBreakdown {
  if (ruleSets.length === 0) return { totalScore: 0, fields: [] };
  const total = ruleSets.reduce((s, rs) => s + Math.max(0, rs.weight), 0);
  const fields = ruleSets.map((rs) => {
    const f = scoreField(rs, valueOf(rs.fieldData));
    const share = total === 0 ? 1 / ruleSets.length : Math.max(0, rs.weight) / total;
    return { ...f, contribution: round2(share * f.score) };
  });
  const exact = ruleSets.reduce(
    (s, rs, i) => s + (total === 0 ? 1 / ruleSets.length : Math.max(0, rs.weight) / total) * fields[i]!.score,
    0,
  );
  return { totalScore: round2(exact), fields };
}

/** The words of a field's explanation in the breakdown. */
export function describeFieldScore(f: FieldScore, rule?: Pick<ScoreRule, 'operator' | 'value'> | null): string {
  switch (f.reason) {
    case 'missing':
      return `Missing value: default score ${f.score}`;
    case 'invalid':
      return `Invalid value: default score ${f.score}`;
    case 'no_match':
      return 'No rule matched: score 0';
    default: {
      if (!rule) return `Rule matched: score ${f.score}`;
      const v = RANGE_OPERATORS.includes(rule.operator) ? `${rule.value.primary} and ${rule.value.secondary ?? ''}` : rule.value.primary;
      return `${SCORE_OPERATOR_LABELS[rule.operator]} ${v}: score ${f.score}`;
    }
  }
}
