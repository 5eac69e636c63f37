// The stored breakdown of a set-based run (docs/ARCHITECTURE.md 'Scoring'): per field only
// what depends on the idea — [value, reason, ruleId, score, contribution] — while what the model
// brings (rule set id, label, field path, weight) is written once per run in score_run.fields.
// Reading joins the two back into the FieldScore entries the reference gives; entries written whole
// (the worker-side writer) are read as they are.
import type { FieldScore, ScoreReason, ScoreRuleSet } from '@dealscout/shared/domain';

/** What a run's model brings to each entry, in the model's order. */
export interface RunField {
  ruleSetId: string;
  label: string;
  fieldPath: string;
  weight: number;
}

export function runFields(ruleSets: readonly ScoreRuleSet[]): RunField[] {
  return ruleSets.map((rs) => ({ ruleSetId: rs.id, label: rs.label, fieldPath: rs.fieldData.fieldPath, weight: rs.weight }));
}

type Compact = [string | null, ScoreReason, string | null, number, number];

/** The breakdown as FieldScore entries: compact entries joined with their run's fields. */
export function expandDetails(details: unknown, fields: readonly RunField[] | null | undefined): FieldScore[] {
  if (!Array.isArray(details)) return [];
  return details.map((e: unknown, i) => {
    if (!Array.isArray(e)) return e as FieldScore;
    const [value, reason, ruleId, score, contribution] = e as Compact;
    const f = fields?.[i];
    return {
      ruleSetId: f?.ruleSetId ?? '',
      label: f?.label ?? '',
      fieldPath: f?.fieldPath ?? '',
      value,
      reason,
      ruleId,
      score,
      weight: f?.weight ?? 0,
      contribution,
    };
  });
}
