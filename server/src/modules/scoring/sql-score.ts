// Set-based scoring: a scoring model compiled into one SQL expression, so a run scores a batch of
// ideas with one INSERT … SELECT … ON CONFLICT inside PostgreSQL instead of reading every idea's
// values into the worker and writing every breakdown back as JSON.
//
// The SQL evaluation is the domain's `scoreValues()` (shared/src/domain/scoring.ts) written in SQL;
// the property test in scoring.test.ts runs both on random models and values against the real
// database and asks for exactly the same totals and breakdowns. What the model brings — rule values,
// scores, weights, labels, field paths and custom field names — is bound as parameters ($n), never
// written into the SQL text; the text only holds the model's shape (how many fields and rules, which
// operators), so it is the same for every model of that shape.
//
// How the reference's rules read in SQL (the value of a field is a jsonb, null when absent):
// - missing: SQL or JSON null, text that trims to '' (JavaScript's whitespace set: `btrim` with the
//   same characters), an empty array;
// - numbers: JSON numbers, or text that (trimmed, commas removed) matches the reference's pattern,
//   read as double precision through numeric (beyond the double range: not a number, as
//   JavaScript's Infinity is not finite; exponents of six digits or more are not read);
// - booleans: true/false, the numbers 1/0, the words true/yes/1 and false/no/0 in any case;
// - text: strings as they are, numbers and booleans as their JSON text; compared lower-cased and
//   trimmed (ASCII case folding is the same in both; see ARCHITECTURE 'Scoring' for the rest);
// - arrays: every element a string, number or boolean, else invalid;
// - the value shown: the text (arrays joined with ', '), or '{…}' / '[…]' for an object or a list
//   that holds other things (invalid values);
// - contributions and the total: double precision arithmetic in the reference's order, rounded as
//   Math.round((x + Number.EPSILON) * 100) / 100 is: floor((x + ε) * 100 + 0.5) / 100.
import type { EntityManager } from '@mikro-orm/postgresql';
import { toBoolean, toNumber, type ScoreRule, type ScoreRuleSet } from '@dealscout/shared/domain';
import type { IdeaFilters } from '@dealscout/shared/contracts';
import { tenantSql } from '../../db/sql';
import { ideaWhere } from '../lists/lists.service';
import { enrichmentPath, fieldKey, mandatoryColumn } from './scoring.service';

/** JavaScript's String.prototype.trim() whitespace (WhiteSpace and LineTerminator). */
export const JS_WHITESPACE = '\t\n\u000b\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
/** The reference's number pattern (toNumber), for PostgreSQL's regular expressions. */
const NUMBER_PATTERN = '^[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]{1,5})?$';

const norm = (v: string | null | undefined) => (v ?? '').trim().toLowerCase();

/** Collects parameters and answers their placeholders. */
class Params {
  readonly values: unknown[] = [];
  constructor(offset = 0) {
    for (let i = 0; i < offset; i++) this.values.push(undefined);
  }
  add(v: unknown, cast: string): string {
    this.values.push(v);
    return `$${this.values.length}::${cast}`;
  }
}

/** `?` placeholders of a fragment (ideaWhere's) as $n of `p`. */
function dollars(text: string, params: readonly unknown[], p: Params): string {
  let i = 0;
  return text.replace(/\?/g, () => {
    p.values.push(params[i++]);
    return `$${p.values.length}`;
  });
}

/** The match of one rule on a field's typed reading (columns n, b, arr, nv of the field's lateral). */
function ruleMatch(type: ScoreRuleSet['fieldData']['fieldType'], rule: Pick<ScoreRule, 'operator' | 'value'>, p: Params): string {
  const prim = rule.value.primary;
  const sec = rule.value.secondary ?? '';
  switch (type) {
    case 'int':
    case 'double': {
      const a = toNumber(prim);
      const b = toNumber(sec);
      if (a === null) return 'false';
      switch (rule.operator) {
        case 'equals': return `(c.n = ${p.add(a, 'float8')})`;
        case 'not_equals': return `(c.n <> ${p.add(a, 'float8')})`;
        case 'greater_than': return `(c.n > ${p.add(a, 'float8')})`;
        case 'less_than': return `(c.n < ${p.add(a, 'float8')})`;
        case 'between':
        case 'not_between': {
          if (b === null) return 'false';
          const inside = `(c.n >= ${p.add(Math.min(a, b), 'float8')} and c.n <= ${p.add(Math.max(a, b), 'float8')})`;
          return rule.operator === 'between' ? inside : `(not ${inside})`;
        }
        default: return 'false';
      }
    }
    case 'boolean': {
      const want = toBoolean(prim);
      if (want === null) return 'false';
      if (rule.operator === 'equals') return `(c.b = ${p.add(want, 'boolean')})`;
      if (rule.operator === 'not_equals') return `(c.b <> ${p.add(want, 'boolean')})`;
      return 'false';
    }
    case 'array': {
      const has = `exists (select 1 from unnest(c.arr) x where lower(btrim(x, $1::text)) = ${p.add(norm(prim), 'text')})`;
      if (rule.operator === 'is') return `(${has})`;
      if (rule.operator === 'is_not') return `(not ${has})`;
      return 'false';
    }
    default: {
      const q = p.add(norm(prim), 'text');
      switch (rule.operator) {
        case 'contain': return `(strpos(c.nv, ${q}) > 0)`;
        case 'not_contain': return `(strpos(c.nv, ${q}) = 0)`;
        case 'starts_with': return `(left(c.nv, length(${q})) = ${q})`;
        case 'ends_with': return `(length(c.nv) >= length(${q}) and right(c.nv, length(${q})) = ${q})`;
        case 'equals': return `(c.nv = ${q})`;
        case 'not_equals': return `(c.nv <> ${q})`;
        default: return 'false';
      }
    }
  }
}

/** The typed reading of the field's type: its column and whether the value is unreadable as it. */
function reading(type: ScoreRuleSet['fieldData']['fieldType']): { col: string; unreadable: string } {
  switch (type) {
    case 'int':
    case 'double': return { col: 'n', unreadable: 'c.n is null' };
    case 'boolean': return { col: 'b', unreadable: 'c.b is null' };
    case 'array': return { col: 'arr', unreadable: 'c.arr is null' };
    default: return { col: 'nv', unreadable: 'c.nv is null' };
  }
}

const ROUND2 = (x: string, eps: string) => `(floor((${x} + ${eps}) * 100 + 0.5) / 100)`;

/**
 * The lateral that scores one field (its value in `valueSql`): d (the FieldScore as jsonb) and sc
 * (the score, double precision).
 */
function fieldLateral(rs: ScoreRuleSet, share: number, valueSql: string, p: Params, eps: string, alias: string): string {
  const type = rs.fieldData.fieldType;
  const { unreadable } = reading(type);
  // Rules by score, highest first, then in their order: the first that matches is the reference's best.
  const ordered = rs.rules.map((r, i) => ({ r, i })).sort((x, y) => y.r.score - x.r.score || x.i - y.i);
  const def = p.add(rs.defaultScore, 'float8');
  const cases = ordered.map(({ r }) => `when ${ruleMatch(type, r, p)} then array[${p.add(r.id, 'text')}, ${p.add(r.score, 'float8')}::text]`).join(' ');
  const hasRules = rs.rules.length > 0;
  // m: [ruleId, score] of the best matching rule, or null.
  const best = hasRules ? `case ${cases} else null end` : 'null::text[]';
  const invalid = hasRules ? unreadable : 'false';
  return `cross join lateral (
    select jsonb_build_object('ruleSetId', ${p.add(rs.id, 'text')}, 'label', ${p.add(rs.label, 'text')}, 'fieldPath', ${p.add(rs.fieldData.fieldPath, 'text')},
             'value', g.shown, 'reason', g.reason, 'ruleId', g.rule_id, 'score', g.sc, 'weight', ${p.add(rs.weight, 'float8')},
             'contribution', ${ROUND2(`${p.add(share, 'float8')} * g.sc`, eps)}) as d, g.sc
      from (select case when c.missing then 'missing' when ${invalid} then 'invalid' when m.m is not null then 'rule' else 'no_match' end as reason,
                   case when c.missing or ${invalid} or m.m is null then null else m.m[1] end as rule_id,
                   case when c.missing or ${invalid} then ${def} when m.m is not null then m.m[2]::float8 else 0::float8 end as sc,
                   case when c.missing then null else c.shown end as shown
              from (${readingsSql(valueSql, type)}) c
              cross join lateral (select ${best} as m offset 0) m offset 0) g
  ) ${alias}`;
}

/**
 * The readings of one jsonb value: missing, shown, and the typed reading the field's type needs.
 * Each level ends with OFFSET 0 so PostgreSQL does not pull it up into the level above: pulled up,
 * every reference to a reading (c.n appears in each rule, the best rule in the reason, the rule and
 * the score) was computed again with its subplans — about ten times slower than reading the values
 * into the worker (measured: 50,000 ideas in 220 s against 22 s).
 */
function readingsSql(valueSql: string, type: ScoreRuleSet['fieldData']['fieldType']): string {
  // $1 is the whitespace set, $2 the number pattern (bound by compile()).
  const scalar = `a.t in ('string', 'number', 'boolean')`;
  const typed = (() => {
    switch (type) {
      case 'int':
      case 'double': return `case when a.t = 'number' then ${safeDouble('a.s')}
                     when a.t = 'string' and replace(btrim(a.s, $1::text), ',', '') ~ $2::text then ${safeDouble(`replace(btrim(a.s, $1::text), ',', '')`)}
                     else null end as n`;
      case 'boolean': return `case when a.t = 'boolean' then a.s::boolean
                     when a.t = 'number' then case when a.s::numeric = 1 then true when a.s::numeric = 0 then false else null end
                     when a.t = 'string' then case when lower(btrim(a.s, $1::text)) in ('true', 'yes', '1') then true when lower(btrim(a.s, $1::text)) in ('false', 'no', '0') then false else null end
                     else null end as b`;
      case 'array': return `case when a.t = 'array' then (select case when bool_and(jsonb_typeof(e) in ('string', 'number', 'boolean')) then coalesce(array_agg(e #>> '{}' order by o), '{}') end
                                                   from jsonb_array_elements(a.v) with ordinality x(e, o))
                     when ${scalar} then array[a.s] else null end as arr`;
      default: return `case when ${scalar} then lower(btrim(a.s, $1::text)) else null end as nv`;
    }
  })();
  return `select (a.v is null or a.t = 'null' or (a.t = 'string' and btrim(a.s, $1::text) = '') or (a.t = 'array' and jsonb_array_length(a.v) = 0)) as missing,
                 case when a.t = 'array' then (select case when bool_and(jsonb_typeof(e) in ('string', 'number', 'boolean')) then string_agg(e #>> '{}', ', ' order by o) else '[…]' end
                                                 from jsonb_array_elements(a.v) with ordinality x(e, o))
                      when ${scalar} then a.s else '{…}' end as shown,
                 ${typed}
            from (select ${valueSql} as v, jsonb_typeof(${valueSql}) as t, ${valueSql} #>> '{}' as s offset 0) a
          offset 0`;
}

/** Text that is a number (already checked) as double precision, as JavaScript's Number() reads it: beyond the range → null; below the smallest → 0. */
function safeDouble(text: string): string {
  return `(select case when abs(x.num) > 1.7976931348623157e308 then null when abs(x.num) < 2.4703282292062328e-324 then 0::float8 else x.num::float8 end
             from (select (${text})::numeric as num) x)`;
}

export interface CompiledScore {
  /** The statement: scores and writes the batch after $afterId (null: from the start), answers { n, last }. */
  sql: string;
  params: unknown[];
}

export interface ScoreScope { listId: string; ideaIds: string[] | null; filters: IdeaFilters | null }

/**
 * One batch of a run as one statement: the next `limit` ideas of the scope in id order after
 * `afterId`, each scored with the model's rule sets and written to idea_score (inserted or replaced:
 * a retried batch writes the same). Answers how many ideas it scored and the last id.
 */
export function compileScoreBatch(organizationId: string, modelId: string, executionId: string, scope: ScoreScope, ruleSets: readonly ScoreRuleSet[], afterId: string | null, limit: number): CompiledScore {
  const p = new Params();
  p.add(JS_WHITESPACE, 'text');
  p.add(NUMBER_PATTERN, 'text');
  // The placeholders of $1/$2 are used bare (btrim(x, $1::text), x ~ $2::text): their types are fixed by the first use.
  const org = p.add(organizationId, 'uuid');
  const eps = p.add(Number.EPSILON, 'float8');

  // The values every field reads, once per distinct field (as readIdeaBatch reads them).
  const fields = [...new Map(ruleSets.map((rs) => [fieldKey(rs.fieldData), rs.fieldData])).values()];
  const cols: string[] = [];
  const joins: string[] = [];
  fields.forEach((f, n) => {
    if (f.sourceType === 'mandatory') {
      const col = mandatoryColumn(f.fieldPath);
      if (!col) cols.push(`null::jsonb as v${n}`);
      else if (col.startsWith('data.')) cols.push(`r.data -> ${p.add(col.slice(5), 'text')} as v${n}`);
      else cols.push(`to_jsonb(${col}) as v${n}`);
      return;
    }
    const keys = enrichmentPath(f.fieldPath);
    if (!keys || !f.enrichmentId) { cols.push(`null::jsonb as v${n}`); return; }
    cols.push(`e${n}.v as v${n}`);
    joins.push(`left join lateral (select er.value #> ${p.add(keys, 'text[]')} as v from enrichment_result er
                   where er.organization_id = r.organization_id and er.enrichment_id = ${p.add(f.enrichmentId, 'uuid')} and er.entity_id = r.id and er.entity_type = 'idea') e${n} on true`);
  });
  const column = new Map(fields.map((f, n) => [fieldKey(f), `b.v${n}`]));

  const where = ideaWhere(organizationId, scope.listId, scope.ideaIds ? { ids: scope.ideaIds } : (scope.filters ?? {}));
  const whereSql = dollars(where.text, where.params, p);
  const after = afterId ? ` and r.id > ${p.add(afterId, 'uuid')}` : '';
  const lim = p.add(limit, 'int');

  const total = ruleSets.reduce((s, rs) => s + Math.max(0, rs.weight), 0);
  const shareOf = (rs: ScoreRuleSet) => (total === 0 ? 1 / ruleSets.length : Math.max(0, rs.weight) / total);
  const laterals: string[] = [];
  const names: string[] = [];
  let sum = '0::float8';
  ruleSets.forEach((rs, i) => {
    const alias = `f${i}`;
    laterals.push(fieldLateral(rs, shareOf(rs), column.get(fieldKey(rs.fieldData))!, p, eps, alias));
    names.push(alias);
    // The reference's order: ((0 + s1·x1) + s2·x2) + …
    sum = `(${sum} + ${p.add(shareOf(rs), 'float8')} * ${alias}.sc)`;
  });
  const totalSql = ruleSets.length === 0 ? '0::float8' : ROUND2(sum, eps);
  const details = ruleSets.length === 0 ? `'[]'::jsonb` : `jsonb_build_array(${names.map((n) => `${n}.d`).join(', ')})`;
  const model = p.add(modelId, 'uuid');
  const execution = p.add(executionId, 'uuid');

  const sql = `with b as (
      select r.id${cols.length ? ', ' + cols.join(', ') : ''} from idea r ${joins.join(' ')} ${whereSql}${after} order by r.id limit ${lim}
    ), s as (
      select b.id, ${totalSql} as total, ${details} as details from b ${laterals.join('\n')}
    ), ins as (
      insert into idea_score (id, organization_id, model_id, idea_id, execution_id, status, status_message, total_score, details, updated_at)
      select gen_random_uuid(), ${org}, ${model}, s.id, ${execution}, 'completed', null, s.total, s.details, clock_timestamp() from s
      on conflict (organization_id, model_id, idea_id) do update
        set execution_id = excluded.execution_id, status = excluded.status, status_message = null, total_score = excluded.total_score, details = excluded.details, updated_at = excluded.updated_at
      returning 1
    )
    select (select count(*) from b)::int as n, (select b.id from b order by b.id desc limit 1)::text as last, (select count(*) from ins)::int as written, $1::text is not null and $2::text is not null as bound`;
  return { sql, params: p.values };
}

/** Scores and writes one batch inside the database (see compileScoreBatch). */
export async function scoreBatchInDatabase(em: EntityManager, organizationId: string, modelId: string, executionId: string, scope: ScoreScope, ruleSets: readonly ScoreRuleSet[], afterId: string | null, limit: number): Promise<{ n: number; last: string | null }> {
  const { sql, params } = compileScoreBatch(organizationId, modelId, executionId, scope, ruleSets, afterId, limit);
  const [row] = await tenantSql(em, organizationId).bound<{ n: number; last: string | null }>(sql, params);
  return { n: Number(row?.n ?? 0), last: row?.last ?? null };
}

