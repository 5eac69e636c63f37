// The score columns of a list's ideas export: per scoring model of the list, the idea's total and
// its breakdown in words. Read from the scoring tables (written by modules/scoring).
import type { EntityManager } from '@mikro-orm/postgresql';
import { describeFieldScore, type ScoreRuleSet } from '@dealscout/shared/domain';
import { tenantSql } from '../../db/sql';
import { expandDetails, type RunField } from './score-breakdown';

const pgArray = (xs: readonly string[]) => `{${xs.join(',')}}`;

/**
 * The score columns of the ideas export ('the export carries it'): per model of the list, the total
 * and the breakdown in words, so a ranking can be defended from the spreadsheet alone.
 */
export async function exportScoreColumns(
  em: EntityManager,
  organizationId: string,
  listId: string,
): Promise<{ header: string[]; cells(ideaIds: readonly string[]): Promise<Map<string, string[]>> }> {
  const models = await tenantSql(em, organizationId).all<{ id: string; name: string; rule_sets: ScoreRuleSet[] }>(
    `select id, name, rule_sets from scoring_model where organization_id = ? and list_id = ? order by created_at, id`,
    [organizationId, listId],
  );
  const header = models.flatMap((m) => [`${m.name} score`, `${m.name} breakdown`]);
  return {
    header,
    async cells(ideaIds) {
      const out = new Map<string, string[]>();
      if (models.length === 0 || ideaIds.length === 0) return out;
      const rows = (
        await tenantSql(em, organizationId).all<{
          idea_id: string;
          model_id: string;
          total_score: number | null;
          details: unknown;
          fields: RunField[] | null;
        }>(
          `select s.idea_id::text, s.model_id::text, s.total_score, s.details, sr.fields from idea_score s
           left join score_run sr on sr.organization_id = s.organization_id and sr.id = s.execution_id
          where s.organization_id = ? and s.idea_id = any(?::uuid[])`,
          [organizationId, pgArray([...ideaIds])],
        )
      ).map((r) => ({ ...r, details: expandDetails(r.details, r.fields) }));
      for (const id of ideaIds) {
        out.set(
          id,
          models.flatMap((m) => {
            const r = rows.find((x) => x.idea_id === id && x.model_id === m.id);
            if (!r) return ['', ''];
            const words = (r.details ?? []).map((f) => {
              const rule = m.rule_sets.find((rs) => rs.id === f.ruleSetId)?.rules.find((x) => x.id === f.ruleId) ?? null;
              return `${f.label} = ${f.value ?? '(missing)'}: ${describeFieldScore(f, rule)} × weight ${f.weight} → ${f.contribution.toFixed(2)}`;
            });
            return [r.total_score === null ? '' : Number(r.total_score).toFixed(2), words.join('; ')];
          }),
        );
      }
      return out;
    },
  };
}
