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
// The statement's shape: the batch's values (b), then one level per step of the reference, each a
// subquery with one column per field — raw jsonb, type and text (a); missing, shown and the reading
// of the field's type (r); that reading as the rules use it (c); the best rule (m); the outcome:
// reason, rule, score (g) — and on top the total and the breakdown. Each level ends with OFFSET 0 so
// PostgreSQL does not pull it up into the level above: pulled up, every reference to a reading (a
// number appears in each rule, the best rule in the reason, the rule and the score) was computed
// again — about ten times slower (measured: 50,000 ideas in 220 s against 22 s). Levels of columns
// rather than a lateral subquery per field: no nested loop re-scanned per idea and field (10–15 %
// less CPU a batch, docs/benchmarks.md).
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
import { tenantSql, unscopedSql } from '../../db/sql';
import { ideaWhere } from '../records/idea-query';
import { enrichmentPath, fieldKey, mandatoryColumn, SCORE_LIST_LOCK } from './scoring.service';
import { runFields } from '../lists/score-breakdown';

/** JavaScript's String.prototype.trim() whitespace (WhiteSpace and LineTerminator). */
export const JS_WHITESPACE =
  '\t\n\u000b\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
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

/** The match of one rule on field `i`'s typed reading (columns n<i>, b<i>, arr<i>, nv<i> of the level below). */
function ruleMatch(
  type: ScoreRuleSet['fieldData']['fieldType'],
  rule: Pick<ScoreRule, 'operator' | 'value'>,
  p: Params,
  i: number,
): string {
  const prim = rule.value.primary;
  const sec = rule.value.secondary ?? '';
  switch (type) {
    case 'int':
    case 'double': {
      const a = toNumber(prim);
      const b = toNumber(sec);
      if (a === null) return 'false';
      const n = `c.n${i}`;
      switch (rule.operator) {
        case 'equals':
          return `(${n} = ${p.add(a, 'float8')})`;
        case 'not_equals':
          return `(${n} <> ${p.add(a, 'float8')})`;
        case 'greater_than':
          return `(${n} > ${p.add(a, 'float8')})`;
        case 'less_than':
          return `(${n} < ${p.add(a, 'float8')})`;
        case 'between':
        case 'not_between': {
          if (b === null) return 'false';
          const inside = `(${n} >= ${p.add(Math.min(a, b), 'float8')} and ${n} <= ${p.add(Math.max(a, b), 'float8')})`;
          return rule.operator === 'between' ? inside : `(not ${inside})`;
        }
        default:
          return 'false';
      }
    }
    case 'boolean': {
      const want = toBoolean(prim);
      if (want === null) return 'false';
      if (rule.operator === 'equals') return `(c.b${i} = ${p.add(want, 'boolean')})`;
      if (rule.operator === 'not_equals') return `(c.b${i} <> ${p.add(want, 'boolean')})`;
      return 'false';
    }
    case 'array': {
      const has = `(${p.add(norm(prim), 'text')} = any(c.arr${i}))`;
      if (rule.operator === 'is') return has;
      if (rule.operator === 'is_not') return `(not ${has})`;
      return 'false';
    }
    default: {
      const q = p.add(norm(prim), 'text');
      const v = `c.nv${i}`;
      switch (rule.operator) {
        case 'contain':
          return `(strpos(${v}, ${q}) > 0)`;
        case 'not_contain':
          return `(strpos(${v}, ${q}) = 0)`;
        case 'starts_with':
          return `(left(${v}, length(${q})) = ${q})`;
        case 'ends_with':
          return `(length(${v}) >= length(${q}) and right(${v}, length(${q})) = ${q})`;
        case 'equals':
          return `(${v} = ${q})`;
        case 'not_equals':
          return `(${v} <> ${q})`;
        default:
          return 'false';
      }
    }
  }
}

/** The typed reading field `i`'s type needs, as a column of the readings level (from its a-level columns v<i>, t<i>, s<i>). */
function typedReading(type: ScoreRuleSet['fieldData']['fieldType'], i: number): string {
  // $1 is the whitespace set, $2 the number pattern (bound by compileScoreBatch()).
  const [t, s] = [`a.t${i}`, `a.s${i}`];
  const scalar = `${t} in ('string', 'number', 'boolean')`;
  switch (type) {
    case 'int':
    case 'double':
      return `case when ${t} = 'number' then ${s}::numeric
                     when ${t} = 'string' and replace(btrim(${s}, $1::text), ',', '') ~ $2::text then replace(btrim(${s}, $1::text), ',', '')::numeric
                     else null end as num${i}`;
    case 'boolean':
      return `case when ${t} = 'boolean' then ${s}::boolean
                     when ${t} = 'number' then case when ${s}::numeric = 1 then true when ${s}::numeric = 0 then false else null end
                     when ${t} = 'string' then case when lower(btrim(${s}, $1::text)) in ('true', 'yes', '1') then true when
                       lower(btrim(${s}, $1::text)) in ('false', 'no', '0') then false else null end
                     else null end as b${i}`;
    // The elements compared as the rules compare them (lower-cased, trimmed): of a list, a.x<i>[2:] (see arrayElements()).
    case 'array':
      return `case when ${t} = 'array' then case when cardinality(a.x${i}) > 1 then a.x${i}[2:] end
                     when ${scalar} then array[lower(btrim(${s}, $1::text))] else null end as arr${i}`;
    default:
      return `case when ${scalar} then lower(btrim(${s}, $1::text)) else null end as nv${i}`;
  }
}

/**
 * A list's shown value and, for a field of type array, its elements as the rules compare them, read
 * in one pass (a column of the raw level, x<i>): [shown, element…] when every element is a string, a
 * number or a boolean, else ['[…]'] (an empty list too: missing anyway). A list field reads both, so
 * one subquery per idea instead of two.
 */
function arrayElements(v: string, type: ScoreRuleSet['fieldData']['fieldType']): string {
  const shown = `string_agg(e #>> '{}', ', ' order by o)`;
  const agg = type === 'array' ? `array_prepend(${shown}, array_agg(lower(btrim(e #>> '{}', $1::text))))` : `array[${shown}]`;
  return `case when jsonb_typeof(${v}) = 'array' then (select case when bool_and(jsonb_typeof(e) in ('string', 'number', 'boolean')) then
            ${agg} else array['[…]'] end from jsonb_array_elements(${v}) with ordinality x(e, o)) end`;
}

/** Is field `i`'s value missing, and the value shown (columns of the readings level). */
function presence(i: number): string {
  const [v, t, s] = [`a.v${i}`, `a.t${i}`, `a.s${i}`];
  return `(${v} is null or ${t} = 'null' or (${t} = 'string' and btrim(${s}, $1::text) = '') or (${t} = 'array' and
    jsonb_array_length(${v}) = 0)) as missing${i},
          case when ${t} = 'array' then a.x${i}[1] when ${t} in ('string', 'number', 'boolean') then ${s} else '{…}' end as shown${i}`;
}

/** The typed reading of the field's type as the rules use it (a number: double precision as JavaScript's Number() reads it). */
function finalReading(type: ScoreRuleSet['fieldData']['fieldType'], i: number): { col: string; unreadable: string } {
  // A number beyond the double range → null (not finite); below the smallest → 0.
  switch (type) {
    case 'int':
    case 'double':
      return {
        col: `case when abs(r.num${i}) > 1.7976931348623157e308 then null when abs(r.num${i}) < 2.4703282292062328e-324 then 0::float8
          else r.num${i}::float8 end as n${i}`,
        unreadable: `c.n${i} is null`,
      };
    case 'boolean':
      return { col: `r.b${i}`, unreadable: `c.b${i} is null` };
    case 'array':
      return { col: `r.arr${i}`, unreadable: `c.arr${i} is null` };
    default:
      return { col: `r.nv${i}`, unreadable: `c.nv${i} is null` };
  }
}

const ROUND2 = (x: string, eps: string) => `(floor((${x} + ${eps}) * 100 + 0.5) / 100)`;

export interface CompiledScore {
  /** The statement: scores and writes the batch after $afterId (null: from the start), answers { n, last }. */
  sql: string;
  params: unknown[];
}

export interface ScoreScope {
  listId: string;
  ideaIds: string[] | null;
  filters: IdeaFilters | null;
}

/**
 * One batch of a run as one statement: the next `limit` ideas of the scope in id order after
 * `afterId`, each scored with the model's rule sets and written to idea_score (inserted or replaced:
 * a retried batch writes the same). Answers how many ideas it scored and the last id. It writes only
 * while the model exists in the organization and the scope's list (read by the statement, once): with
 * the list's lock its caller holds (SCORE_LIST_LOCK), that is what keeps a result's model, instead of a
 * foreign key whose check cost a query per row (Migration20261130090000).
 */
export function compileScoreBatch(
  organizationId: string,
  modelId: string,
  executionId: string,
  scope: ScoreScope,
  ruleSets: readonly ScoreRuleSet[],
  afterId: string | null,
  limit: number | null,
  upToId: string | null = null,
): CompiledScore {
  // The parameters are numbered in the order they are added: each step below adds its own, in turn.
  const p = new Params();
  p.add(JS_WHITESPACE, 'text');
  p.add(NUMBER_PATTERN, 'text');
  // The placeholders of $1/$2 are used bare (btrim(x, $1::text), x ~ $2::text): their types are fixed by the first use.
  const org = p.add(organizationId, 'uuid');
  const eps = p.add(Number.EPSILON, 'float8');

  // The values every field reads, once per distinct field (as readIdeaBatch reads them).
  const fields = [...new Map(ruleSets.map((rs) => [fieldKey(rs.fieldData), rs.fieldData])).values()];
  const { cols, joins } = fieldColumns(fields, p);
  const column = new Map(fields.map((f, n) => [fieldKey(f), `b.v${n}`]));

  const where = ideaWhere(organizationId, scope.listId, scope.ideaIds ? { ids: scope.ideaIds } : (scope.filters ?? {}));
  const whereSql = dollars(where.text, where.params, p);
  const after = afterId ? ` and r.id > ${p.add(afterId, 'uuid')}` : '';
  const upTo = upToId ? ` and r.id <= ${p.add(upToId, 'uuid')}` : '';
  const lim = limit === null ? '' : ` limit ${p.add(limit, 'int')}`;

  const scored = scoredSelect(ruleSets, ruleSetColumns(ruleSets, column, p, eps), eps);
  const model = p.add(modelId, 'uuid');
  const execution = p.add(executionId, 'uuid');
  const list = p.add(scope.listId, 'uuid');

  const sql = `with b as (
      select r.id${cols.length ? ', ' + cols.join(', ') : ''} from idea r ${joins.join(' ')} ${whereSql}${after}${upTo} order by r.id${lim}
    ), s as (
      ${scored}
    ), ins as (
      insert into idea_score (organization_id, idea_id, model_id, execution_id, status, status_message, total_score, details, updated_at)
      select ${org}, s.id, ${model}, ${execution}, 'completed', null, s.total, s.details, clock_timestamp() from s
       where exists (select 1 from scoring_model m where m.organization_id = ${org} and m.id = ${model} and m.list_id = ${list})
      on conflict (organization_id, idea_id, model_id) do update
        set execution_id = excluded.execution_id, status = excluded.status, status_message = null, total_score = excluded.total_score,
          details = excluded.details, updated_at = excluded.updated_at
      returning 1
    )
    select (select count(*) from b)::int as n, (select b.id from b order by b.id desc limit 1)::text as last, (select count(*) from
      ins)::int as written, $1::text is not null and $2::text is not null as bound`;
  return { sql, params: p.values };
}

/** The columns (and lateral joins) of b: one value per distinct field, v<n>. */
function fieldColumns(fields: readonly ScoreRuleSet['fieldData'][], p: Params): { cols: string[]; joins: string[] } {
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
    if (!keys || !f.enrichmentId) {
      cols.push(`null::jsonb as v${n}`);
      return;
    }
    cols.push(`e${n}.v as v${n}`);
    // One lookup per idea in enrichment_result's (organization, enrichment, entity) unique index. The
    // LIMIT 1 (at most one row matches) keeps PostgreSQL from flattening the lateral into a join, for
    // which it picks a hash join over every result of the organization in each batch: a cost per idea
    // that grows with the list (1,000,000 ideas: a scan of 1,000,000 results in each of 50 batches).
    joins.push(`left join lateral (select er.value #> ${p.add(keys, 'text[]')} as v from enrichment_result er
                   where er.organization_id = r.organization_id and er.enrichment_id = ${p.add(f.enrichmentId, 'uuid')} and er.entity_id
                     = r.id and er.entity_type = 'idea' limit 1) e${n} on true`);
  });
  return { cols, joins };
}

/** The columns of each level of the scored select, one per rule set at each, and the total's sum. */
interface ScoreLevels {
  raw: string[];
  readings: string[];
  typed: string[];
  best: string[];
  outcome: string[];
  fieldsJson: string[];
  sum: string;
}

/**
 * One column per field at each level, each level fenced with OFFSET 0 (see the header): raw (a),
 * readings (r), typed readings (c), best rule (m), outcome (g), then the total and the breakdown.
 */
function ruleSetColumns(ruleSets: readonly ScoreRuleSet[], column: ReadonlyMap<string, string>, p: Params, eps: string): ScoreLevels {
  const total = ruleSets.reduce((s, rs) => s + Math.max(0, rs.weight), 0);
  const shareOf = (rs: ScoreRuleSet) => (total === 0 ? 1 / ruleSets.length : Math.max(0, rs.weight) / total);
  const raw: string[] = [];
  const readings: string[] = [];
  const typed: string[] = [];
  const best: string[] = [];
  const outcome: string[] = [];
  const fieldsJson: string[] = [];
  let sum = '0::float8';
  ruleSets.forEach((rs, i) => {
    const type = rs.fieldData.fieldType;
    const v = column.get(fieldKey(rs.fieldData))!;
    raw.push(`${v} as v${i}, jsonb_typeof(${v}) as t${i}, ${v} #>> '{}' as s${i}, ${arrayElements(v, type)} as x${i}`);
    readings.push(`${presence(i)}, ${typedReading(type, i)}`);
    const fin = finalReading(type, i);
    typed.push(`r.missing${i}, r.shown${i}, ${fin.col}`);
    // Rules by score, highest first, then in their order: the first that matches is the reference's best.
    const ordered = rs.rules.map((r, j) => ({ r, j })).sort((x, y) => y.r.score - x.r.score || x.j - y.j);
    const hasRules = rs.rules.length > 0;
    // m<i>: [ruleId as JSON text, score] of the best matching rule, or null.
    const pick = (r: ScoreRule) => `array[${p.add(JSON.stringify(r.id), 'text')}, ${p.add(r.score, 'float8')}::text]`;
    best.push(
      hasRules
        ? `case
          ${ordered.map(({ r }) => `when ${ruleMatch(type, r, p, i)} then ${pick(r)}`).join(' ')}
          else null end as m${i}`
        : `null::text[] as m${i}`,
    );
    const invalid = hasRules ? fin.unreadable : 'false';
    const def = p.add(rs.defaultScore, 'float8');
    outcome.push(`case when c.missing${i} then 'missing' when ${invalid} then 'invalid' when c.m${i} is not null then 'rule' else 'no_match' end as reason${i},
                  case when c.missing${i} or ${invalid} or c.m${i} is null then null else c.m${i}[1] end as rule_json${i},
                  case when c.missing${i} or ${invalid} then ${def} when c.m${i} is not null then c.m${i}[2]::float8 else 0::float8 end as sc${i},
                  case when c.missing${i} then null else c.shown${i} end as shown${i}`);
    const share = p.add(shareOf(rs), 'float8');
    const contribution = ROUND2(`${share} * g.sc${i}`, eps);
    // The breakdown as JSON text, stored as json (idea_score.details: checked as it is written, never
    // parsed into jsonb), and only the idea's part of each entry: [value, reason, ruleId, score,
    // contribution] (breakdown.ts; the model's part is the run's score_run.fields). to_json writes the
    // value, the rule id comes written (JSON.stringify), float8out writes the numbers (the same shortest
    // round-trip digits as JavaScript's).
    fieldsJson.push(`'[' || coalesce(to_json(g.shown${i})::text, 'null') || ',"' || g.reason${i} || '",' || coalesce(g.rule_json${i}, 'null')
             || ',' || coalesce(g.sc${i}::text, 'null') || ',' || coalesce(${contribution}::text, 'null') || ']'`);
    // The reference's order: ((0 + s1·x1) + s2·x2) + …
    sum = `(${sum} + ${share} * g.sc${i})`;
  });
  return { raw, readings, typed, best, outcome, fieldsJson, sum };
}

/** The select that scores b: the levels of ScoreLevels nested, then each idea's total and breakdown. */
function scoredSelect(ruleSets: readonly ScoreRuleSet[], levels: ScoreLevels, eps: string): string {
  const { raw, readings, typed, best, outcome, fieldsJson, sum } = levels;
  const totalSql = ruleSets.length === 0 ? '0::float8' : ROUND2(sum, eps);
  const details = ruleSets.length === 0 ? `'[]'::json` : `('[' || ${fieldsJson.join(` || ',' || `)} || ']')::json`;
  const list = (cols: string[]) => (cols.length ? ', ' + cols.join(',\n') : '');
  const scored = `select g.id, ${totalSql} as total, ${details} as details from (
        select c.id${list(outcome)} from (
          select c.*${list(best)} from (
            select r.id${list(typed)} from (
              select a.id${list(readings)} from (
                select b.id${list(raw)} from b offset 0
              ) a offset 0
            ) r offset 0
          ) c offset 0
        ) c offset 0
      ) g`;
  return scored;
}

/** Scores and writes one batch inside the database (see compileScoreBatch). */
export async function scoreBatchInDatabase(
  em: EntityManager,
  organizationId: string,
  modelId: string,
  executionId: string,
  scope: ScoreScope,
  ruleSets: readonly ScoreRuleSet[],
  afterId: string | null,
  limit: number | null,
  upToId: string | null = null,
): Promise<{ n: number; last: string | null }> {
  const { sql, params } = compileScoreBatch(organizationId, modelId, executionId, scope, ruleSets, afterId, limit, upToId);
  // Without JIT: the statement's cost estimate asks for it, but compiling its expressions takes
  // 40–250 ms a batch and saves less than it costs (measured, docs/benchmarks.md). Without waiting
  // for the batch's WAL to reach the disk at commit: a crash may lose the last batches, which a
  // resumed run writes again (writing is idempotent), and the run's completion is committed
  // synchronously later, which flushes every batch's WAL before it.
  const [row] = await em.fork().transactional(async (tem) => {
    await unscopedSql(tem, 'connection').run('set local jit = off');
    await unscopedSql(tem, 'connection').run('set local synchronous_commit = off');
    // A statement of its own: the batch's statement then reads the ideas as of after the wait.
    await unscopedSql(tem, 'connection').run(SCORE_LIST_LOCK, [scope.listId]);
    return tenantSql(tem, organizationId).bound<{ n: number; last: string | null }>(sql, params);
  });
  return { n: Number(row?.n ?? 0), last: row?.last ?? null };
}

/** Writes what the run's model brings to every breakdown entry (breakdown.ts) on its score_run row. */
export async function writeRunFields(
  em: EntityManager,
  organizationId: string,
  runId: string,
  ruleSets: readonly ScoreRuleSet[],
): Promise<void> {
  await tenantSql(em, organizationId).all(`update score_run set fields = ?::jsonb where organization_id = ? and id = ?`, [
    JSON.stringify(runFields(ruleSets)),
    organizationId,
    runId,
  ]);
}

/**
 * The end of the next batch of the scope after `afterId` (null: from the start): the id of its
 * `size`-th idea in id order, or null when fewer are left (the last batch runs to the end).
 */
export async function nextBatchEnd(
  em: EntityManager,
  organizationId: string,
  scope: ScoreScope,
  afterId: string | null,
  size: number,
): Promise<string | null> {
  const where = ideaWhere(organizationId, scope.listId, scope.ideaIds ? { ids: scope.ideaIds } : (scope.filters ?? {}));
  const [row] = await tenantSql(em, organizationId).all<{ id: string }>(
    `select r.id::text as id from idea r ${where.text}${afterId ? ' and r.id > ?' : ''} order by r.id offset ? limit 1`,
    [...where.params, ...(afterId ? [afterId] : []), size - 1],
  );
  return row?.id ?? null;
}
