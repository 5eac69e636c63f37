// The cross-organization route matrix, generated from the OpenAPI document (/api/docs): every route
// is classified below, and every route that acts for a signed-in user is attacked by a second
// organization (B) with the ids of every kind of row of the first (A), through a cookie session and
// through a bearer token. Each answer must be a 404 (routes that take ids) or B's own data only
// (lists, searches, the caller's own settings); no answer may carry an id or a text of A's; A's
// rows are unchanged afterwards. The realtime paths of A are refused to B's socket.
//
// A route added later is attacked without anyone writing a test for it; it only has to be
// classified in ROUTES (the test says so), and a new table only needs a row in the fixture.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { realtimePaths } from '@dealscout/shared/domain';
import { createTestApp, createOrg, createUser, signedIn, TestClient, TEST_PASSWORD, type TestContext } from './helpers';
import { openSocket } from './ws-client';
import { newCompany, newContact, newField, setValue, link } from './records';
import { notifyUser } from '../src/modules/notifications/notify';
import { createExecutions } from '../src/modules/executions/commands/create-executions';
import { createRun } from '../src/modules/executions/runs';
import { scoreResultId } from '../src/modules/lists/lists.service';
import { createQueues } from '../src/jobs/definitions';
import { jobDefinitions } from '../src/job-registry';
import { z } from 'zod';
import type { JobContext } from '../src/jobs/definitions';
import type { Job } from 'pg-boss';

type Rule =
  /** No session needed (sign-in, first run, links from mail): there is no organization to cross. */
  | { kind: 'public'; reason: string }
  /** Ends the caller's own session: not attacked (it would end B's session), and it takes no id. */
  | { kind: 'session'; reason: string }
  /**
   * Takes ids of organization-owned rows (path or body): another organization's ids answer 404.
   * `body` gives the fields the generator cannot guess (merged over the generated body; the id slots stay generated unless named here).
   */
  | { kind: 'ids'; body?: Record<string, unknown> }
  /** Lists, searches or the caller's own user and organization: the answer holds B's data only (may be empty). */
  | { kind: 'scoped' };

const ids: Rule = { kind: 'ids' };
const idsWith = (body: Record<string, unknown>): Rule => ({ kind: 'ids', body });
const company = { name: 'Matrix Co', website: 'https://matrix.example.com' };
const contact = { firstName: 'Mat', lastName: 'Rix', email: 'mat.rix@example.com' };
const activity = { type: 'call', date: '2999-01-15', content: 'Matrix call' };
/** The LLM enrichment config for companies (enrichments/configs.ts: fixed ids). */
const LLM_COMPANY_CONFIG = '00000000-0000-4000-8000-000000000011';
const scoped: Rule = { kind: 'scoped' };
const pub = (reason: string): Rule => ({ kind: 'public', reason });

/** A valid rule set of a scoring model. */
const MATRIX_RULE_SET = {
  id: 'rs',
  label: 'Name',
  weight: 100,
  defaultScore: 5,
  fieldData: { id: 'name', sourceType: 'mandatory', fieldType: 'string', fieldPath: 'name' },
  rules: [{ id: 'r', operator: 'contain', value: { primary: 'matrix' }, score: 7 }],
};

/** Every route of the OpenAPI document, by `METHOD path`. */
const ROUTES: Record<string, Rule> = {
  'GET /health': pub('liveness probe, answers no data'),
  'GET /ready': pub('readiness probe for a balancer, answers no data'),
  'GET /api/v1/setup': pub('first run: says only whether any user exists'),
  'POST /api/v1/setup': pub('first run: creates the first organization (409 once one exists)'),
  'POST /api/v1/auth/login': pub('sign-in by email and password'),
  'POST /api/v1/auth/token': pub('sign-in of the add-in and the extension (bearer token)'),
  'DELETE /api/v1/auth/token': { kind: 'session', reason: 'revokes the bearer token it is called with, nothing else' },
  'POST /api/account/logout': { kind: 'session', reason: 'ends the session it is called with, nothing else' },
  'POST /api/v1/auth/forgotpassword': pub('answers the same confirmation for any address'),
  'POST /api/v1/auth/resetpassword': pub('a single-use token from mail'),
  'GET /api/v1/invite/{token}': pub('an invitation link from mail'),
  'POST /api/v1/invite/accept': pub('an invitation link from mail'),
  'GET /api/v1/user': scoped,
  'PUT /api/v1/user/settings': scoped,
  'PUT /api/v1/user/profile': scoped,
  'GET /api/v1/organization': scoped,
  'GET /api/v1/organization/system-roles': scoped,
  'GET /api/v1/organization/users': scoped,
  'POST /api/v1/organization/invite': scoped,
  'DELETE /api/v1/organization/invites/{id}': ids,
  'PUT /api/v1/organization/users/{id}/role': ids,
  'PUT /api/v1/organization/users/{id}/status': ids,
  'DELETE /api/v1/organization/users/{id}': ids,
  'GET /api/v1/entity/fields': scoped,
  'GET /api/v1/entity/filters-fields': scoped,
  'POST /api/v1/entity/field': scoped,
  'PUT /api/v1/entity/set-config': ids,
  'PUT /api/v1/entity/company/field': ids,
  'PUT /api/v1/entity/contact/field': ids,
  // The account owner is checked first (400 'Account owner must be an active member of your organization'): left out so the other ids are tried.
  'POST /api/v1/entity/company': idsWith({ company: { ...company, accountOwnerId: undefined }, contact: undefined }),
  'PUT /api/v1/entity/company': idsWith({ company }),
  'POST /api/v1/entity/contact': idsWith({ contact: { ...contact, accountOwnerId: undefined }, company: undefined }),
  'PUT /api/v1/entity/contact': idsWith({ contact }),
  'POST /api/v1/entity': scoped,
  'POST /api/v1/entity/create': scoped,
  'PUT /api/v1/entity/update': idsWith({ data: company }),
  'POST /api/v1/company/create-mapping': ids,
  'PUT /api/v1/entity/mapping-contact': ids,
  'PUT /api/v1/entity/mapping-company': ids,
  'PUT /api/v1/company/set-key': ids,
  'PUT /api/v1/contact/set-primary': ids,
  'POST /api/v1/entity/search': scoped,
  'POST /api/v1/company/search': scoped,
  'POST /api/v1/contact/search': scoped,
  'GET /api/v1/company/details/{id}': ids,
  'GET /api/v1/contact/details/{id}': ids,
  'DELETE /api/v1/company/delete/{id}': ids,
  'POST /api/v1/company/bulk-delete': scoped,
  'POST /api/v1/company/export': scoped,
  'DELETE /api/v1/contact/delete/{id}': ids,
  'POST /api/v1/contact/bulk-delete': scoped,
  'POST /api/v1/contact/export': scoped,
  'GET /api/v1/company/owners-list': scoped,
  'POST /api/v1/company/get-companies': scoped,
  'POST /api/v1/contact/get-contacts': scoped,
  'GET /api/v1/user/tablelayout/{entityType}': scoped,
  'POST /api/v1/user/tablelayout/{entityType}': scoped,
  'PUT /api/v1/user/tablelayout/{entityType}': ids,
  'DELETE /api/v1/user/tablelayout/{entityType}/{id}': ids,
  'GET /api/v1/notifications/token': scoped,
  'POST /api/v1/execution/cancel': ids,
  'POST /api/v1/play/execution/cancel': ids,
  'GET /api/v1/execution/{id}': ids,
  'POST /api/v1/execution/active': scoped,
  'POST /api/v1/execution/progress': scoped,
  'POST /api/v1/execution/run/cancel': ids,
  'GET /api/v1/notifications': scoped,
  'GET /api/v1/notifications/unread-count': scoped,
  'PUT /api/v1/notifications/read-all': scoped,
  'POST /api/v1/activity': idsWith(activity),
  'PUT /api/v1/activity': idsWith(activity),
  'GET /api/v1/activity/participant/{id}': ids,
  'DELETE /api/v1/activity/{id}': ids,
  'GET /api/v1/activity/company/{id}': ids,
  'GET /api/v1/activity/contact/{id}': ids,
  'PUT /api/v1/organization/useSystemLLMSetting': ids,
  'PUT /api/v1/organization/llmSetting': scoped,
  'POST /api/v1/enrichment/generate-prompt': scoped,
  'POST /api/v1/enrichment/generate-schema-object': scoped,
  'GET /api/v1/integration': scoped,
  'POST /api/v1/organization/integration': scoped,
  'DELETE /api/v1/organization/integration/{id}': ids,
  'PUT /api/v1/integrations/{id}': ids,
  'GET /api/v1/integrations/salesforce/callback': scoped,
  'POST /api/v1/crm/username/check': scoped,
  'PUT /api/v1/user/calendar': scoped,
  'GET /api/v1/user/email-settings': scoped,
  'PUT /api/v1/user/email-settings': scoped,
  'PUT /api/v1/organization/ai-summary': scoped,
  'POST /api/v1/organization/ai-summary/generate': scoped,
  'GET /api/v1/crm/user-settings': scoped,
  'POST /api/v1/crm/user-settings': scoped,
  'GET /api/v1/crm/sync-settings': scoped,
  'PUT /api/v1/crm/sync-settings': ids,
  'GET /api/v1/crm/fields': scoped,
  'POST /api/v1/crm/sync': scoped,
  'GET /api/v1/crm/sync': scoped,
  'GET /api/v1/crm/sync-changes': ids,
  'GET /api/v1/enrichment/configs': scoped,
  'GET /api/v1/enrichment/idea/configs': scoped,
  'GET /api/v1/enrichment/next-name': scoped,
  'POST /api/v1/enrichment/list': scoped,
  'GET /api/v1/enrichment/list/creators': scoped,
  'GET /api/v1/enrichment/executions': scoped,
  'POST /api/v1/enrichment/results': scoped,
  'POST /api/v1/enrichment/execute': ids,
  'POST /api/v1/enrichment/estimate': scoped,
  'POST /api/v1/enrichment/assign': ids,
  'POST /api/v1/enrichment/unassign': ids,
  'PUT /api/v1/enrichment/set-primary': ids,
  'PUT /api/v1/enrichment/set-color': ids,
  'PUT /api/v1/enrichment/column': ids,
  'POST /api/v1/enrichment': idsWith({
    configId: LLM_COMPANY_CONFIG,
    name: 'Matrix enrichment',
    prompt: [{ type: 'text', text: 'What do they sell?' }],
    schema: [{ name: 'answer', type: 'string', description: 'Answer.', required: true, createColumn: false }],
    listId: undefined,
    scrapeFieldId: undefined,
  }),
  'PUT /api/v1/enrichment': ids,
  // Lists do not exist yet: the enrichments of a list of the caller's organization (none for another's).
  'GET /api/v1/enrichment/{listId}/list': scoped,
  'GET /api/v1/enrichment/{id}': ids,
  // Records.
  // The exact total that follows an estimated one: counts only the caller's records.
  'POST /api/v1/company/count-companies': scoped,
  'POST /api/v1/contact/count-contacts': scoped,
  'POST /api/v1/company/create': idsWith({ company: { ...company, accountOwnerId: undefined }, contact: undefined }),
  'PUT /api/v1/organization/currency': scoped,
  'POST /api/v1/contact/match-emails': scoped,
  'POST /api/v1/contact/from-email': scoped,
  'POST /api/v1/entity/lookup': scoped,
  // Plays and drafts. Runs, estimates and checks answer per target ('Entity not found.'),
  // so they are scoped: nothing of A's may show and A's rows stay unchanged. A saved play and the
  // editor's draft keep the ids inside them (boxes' fields and enrichments, the test contact): 404.
  'POST /api/v1/play': idsWith({ name: 'Matrix play' }),
  'POST /api/v1/play/playbook': scoped,
  'GET /api/v1/play': scoped,
  'GET /api/v1/play/playbook-users': scoped,
  'GET /api/v1/play/draft/{provider}': scoped,
  'PUT /api/v1/play/draft/{provider}': ids,
  'DELETE /api/v1/play/draft': scoped,
  'GET /api/v1/play/{id}': ids,
  'DELETE /api/v1/play/remove/{id}': ids,
  'POST /api/v1/play/duplicate/{id}': ids,
  'POST /api/v1/play/execute': scoped,
  'POST /api/v1/play/estimate': scoped,
  'POST /api/v1/play/preview': scoped,
  'GET /api/v1/email/pending': scoped,
  'POST /api/v1/email/draft': scoped,
  'PUT /api/v1/email/draft/{id}': ids,
  'POST /api/v1/email/generate': scoped,
  'POST /api/v1/email/update-email-status': scoped,
  // Sending from the user's own Office 365 mailbox.
  'POST /api/v1/user/o365-integration': scoped,
  'GET /api/v1/user/o365-integration/callback': pub(
    "Microsoft's redirect after consent: the user and organization travel encrypted in the state, not in the session",
  ),
  'DELETE /api/v1/user/integration/{id}': ids,
  'GET /api/v1/email/service-status': scoped,
  'POST /api/v1/email/send-time': scoped,
  'PUT /api/v1/email/send-window': scoped,
  'POST /api/v1/email/send-to-email': idsWith({
    to: 'matrix@example.com',
    subject: 'Matrix',
    body: '<p>Matrix</p>',
    cc: [],
    scheduledAt: null,
  }),
  'POST /api/v1/email/send-email-to-my-self': idsWith({ subject: 'Matrix', body: '<p>Matrix</p>' }),
  'POST /api/v1/entity/check-ai-generated': scoped,
  'POST /api/v1/entity/check-valid-entity': scoped,
  'DELETE /api/v1/enrichment/{id}': ids,
  // Lists, sources and ideas.
  'POST /api/v1/list-company': scoped,
  'POST /api/v1/list-company/list': scoped,
  'GET /api/v1/list-company/users': scoped,
  'GET /api/v1/list-company/intentions': scoped,
  'GET /api/v1/list-company/{id}': ids,
  'DELETE /api/v1/list-company/{id}': ids,
  'PATCH /api/v1/list-company/name': ids,
  'DELETE /api/v1/list-company/source/{id}': ids,
  'GET /api/v1/list-company/{id}/complete-confirmation': ids,
  'POST /api/v1/list-company/{id}/complete': ids,
  'POST /api/v1/list-company/idea/list': ids,
  'PUT /api/v1/list-company/idea/shortlist': ids,
  'POST /api/v1/list-company/idea/delete': ids,
  'POST /api/v1/list-company/idea': idsWith({ companyName: 'Matrix Idea', website: 'https://matrix-idea.example.com' }),
  'POST /api/v1/list-company/idea/export': ids,
  // The side panel's lists of a company: by a website's domain, only the caller's lists.
  'POST /api/v1/list-company/idea/memberships': scoped,
  'GET /api/v1/scoring-model': ids,
  'POST /api/v1/scoring-model': idsWith({ name: 'Matrix score', ruleSets: [MATRIX_RULE_SET] }),
  'GET /api/v1/scoring-model/{id}': ids,
  'PUT /api/v1/scoring-model/{id}': idsWith({ name: 'Matrix score', ruleSets: [MATRIX_RULE_SET] }),
  'DELETE /api/v1/scoring-model/{id}': ids,
  'POST /api/v1/scoring-model/execute': idsWith({ options: { runAll: true } }),
  // Multipart (the generator builds JSON bodies only): csv-import.test.ts shows another organization's list answering 404.
  'POST /api/v1/list-company/source': scoped,
  'GET /api/v1/list-company/source/{id}/rejected': ids,
  // Data-provider sources: previews take no row of ours (a Source Scrub source id is the
  // vendor's) and use the caller's organization's key; B has none, so B's answer is its own 400.
  'POST /api/v1/list-company/ocean/preview': scoped,
  'POST /api/v1/list-company/google-maps-samples': scoped,
  'POST /api/v1/list-company/source-scrub/preview': scoped,
  'POST /api/v1/list-company/source-scrub-sources/preview': scoped,
  'POST /api/v1/list-company/source-scrub-companies/preview': scoped,
  'POST /api/v1/list-company/execute': ids,
  'POST /api/v1/list-company/auto-complete': idsWith({ query: { value: 'matrix' } }),
  // 'Companies matching filters': the list is A's (404 for B); the companies are always the caller's own.
  'POST /api/v1/list-company/filter': ids,
};

/** Routes whose own-organization check cannot find a row of the fixture, with the reason. */
const CONTROL_EXEMPT: Record<string, string> = {
  'DELETE /api/v1/scoring-model/{id}':
    "runs after DELETE /list-company/{id} removed the fixture's list with its scoring models (cascade); " +
    'scoring.test.ts shows an organization removing its own model (204)',
  'DELETE /api/v1/list-company/source/{id}':
    "runs after DELETE /list-company/{id} removed the fixture's list with its sources (cascade); lists.test.ts shows an organization removing its own source",
  'POST /api/v1/play/execution/cancel':
    'cancels play executions only; the fixture has none until plays exist (add one to seed() then, and drop this line)',
  'DELETE /api/v1/user/integration/{id}':
    "one id per table is tried and A's first integration is its organization's AI key (the fixture's mailbox id " +
    "sorts last); a user's own removal is tested in email-send.test.ts",
};

/** Tables whose rows have no id of their own to send (keyed by the organization alone). */
const NO_ID_TABLES = ['realtime_sequence'];
/** Tables with a serial id that no route takes (record_count: the maintained totals). */
const SERIAL_ID_TABLES = ['record_count', 'list_source_rejection'];
/** Tables whose rows never outlive their transaction (realtime_pending: moved into realtime_event at commit), so no route sees their ids. */
const TRANSIENT_TABLES = ['realtime_pending'];

// ---- a request from the route's JSON schema -------------------------------------------------

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  pattern?: string;
  nullable?: boolean;
  default?: unknown;
};

/** A string property that names an id (`id`, `companyId`, `entityIds`…) even where its contract does not say uuid. */
const ID_NAME = /^(id|ids|.*Id|.*Ids)$/;
const isIdSlot = (s: Schema | undefined, name?: string) =>
  !!s &&
  (s.format === 'uuid' ||
    (name !== undefined &&
      ID_NAME.test(name) &&
      (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')) || (s.type === 'array' && s.items?.type === 'string'))));

/** Whether a value of this schema can hold an id (a uuid string somewhere inside). */
function holdsId(s: Schema | undefined, depth = 0, name?: string): boolean {
  if (!s || depth > 6) return false;
  if (isIdSlot(s, name)) return true;
  return (
    [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? []), ...(s.items ? [s.items] : [])].some((x) => holdsId(x, depth + 1, name)) ||
    Object.entries(s.properties ?? {}).some(([k, x]) => holdsId(x, depth + 1, k))
  );
}

/** The smallest valid value of a schema, with `id` in every uuid slot (optional slots that hold ids included). */
function sample(s: Schema | undefined, id: string, depth = 0, name?: string): unknown {
  if (!s || depth > 8) return null;
  if (isIdSlot(s, name) && s.type !== 'array') return id;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const options = s.anyOf ?? s.oneOf;
  if (options) {
    const withId = options.find((o) => holdsId(o, 0, name));
    const nonNull = options.find((o) => o.type !== 'null');
    return sample(withId ?? nonNull ?? options[0], id, depth + 1, name);
  }
  if (s.allOf) return Object.assign({}, ...s.allOf.map((x) => sample(x, id, depth + 1)));
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        if ((s.required ?? []).includes(k) || holdsId(v, 0, k)) out[k] = sample(v, id, depth + 1, k);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(s.items, id, depth + 1, name?.replace(/s$/, '')));
    case 'string':
      if (s.format === 'uuid') return id;
      if (s.format === 'email') return 'matrix@example.com';
      if (s.format === 'date-time') return new Date().toISOString();
      if (s.format === 'date') return new Date().toISOString().slice(0, 10);
      if (s.format === 'uri') return 'https://example.com';
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return s.minimum !== undefined ? Math.max(s.minimum, Math.min(1, s.maximum ?? 1)) : Math.min(1, s.maximum ?? 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return null;
  }
}

interface Op {
  method: string;
  path: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
}

/** The generated body with the route's own example fields over it (objects merged key by key). */
function merge(generated: unknown, example: unknown): unknown {
  if (example === undefined) return generated;
  if (
    generated &&
    example &&
    typeof generated === 'object' &&
    typeof example === 'object' &&
    !Array.isArray(generated) &&
    !Array.isArray(example)
  ) {
    const out: Record<string, unknown> = { ...(generated as Record<string, unknown>) };
    // An example key set to undefined leaves the generated field out.
    for (const [k, v] of Object.entries(example)) {
      if (v === undefined) delete out[k];
      else out[k] = merge(out[k], v);
    }
    return out;
  }
  return example;
}

function requestFor(op: Op, id: string): { url: string; body: unknown } {
  let url = op.path;
  const query: string[] = [];
  for (const p of op.parameters ?? []) {
    const value = holdsId(p.schema, 0, p.name) ? id : sample(p.schema, id);
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    else if (p.in === 'query' && (p.required || holdsId(p.schema, 0, p.name))) query.push(`${p.name}=${encodeURIComponent(String(value))}`);
  }
  const schema = op.requestBody?.content?.['application/json']?.schema;
  const rule = ROUTES[`${op.method} ${op.path}`];
  const example = rule?.kind === 'ids' ? rule.body : undefined;
  return { url: query.length ? `${url}?${query.join('&')}` : url, body: schema ? merge(sample(schema, id), example) : undefined };
}

const takesIds = (op: Op) =>
  (op.parameters ?? []).some((p) => holdsId(p.schema, 0, p.name)) || holdsId(op.requestBody?.content?.['application/json']?.schema);

// ---------------------------------------------------------------------------------------------

describe('cross-organization route matrix (from the OpenAPI document)', () => {
  let ctx: TestContext;
  let db: pg.Client;
  let ops: Op[];
  let orgA: Awaited<ReturnType<typeof createOrg>>;
  let orgB: Awaited<ReturnType<typeof createOrg>>;
  let a: TestClient;
  let bCookie: TestClient;
  let bBearer: TestClient;
  /** Every id of A's rows, by table. */
  let idsOfA: Map<string, string[]>;
  let tenantTables: string[];
  const MARK = `zqalpha${randomUUID().slice(0, 6)}`;

  /**
   * A's rows, one fingerprint per table: one statement over every table (prepared once), as it runs
   * after every route attacked (a query per table was most of the matrix's database round trips).
   */
  const snapshotA = async () => {
    const text = tenantTables
      .map(
        (t, i) =>
          `select ${i} as i, count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h ` +
          `from "${t}" x where organization_id = $1`,
      )
      .join(' union all ');
    const r = await db.query<{ i: number; n: number; h: string }>({
      name: `snapshot-a-${tenantTables.length}`,
      text,
      values: [orgA.organization.id],
    });
    const out: Record<string, string> = {};
    for (const row of r.rows) out[tenantTables[row.i]] = `${row.n}:${row.h}`;
    expect(Object.keys(out).length, 'a fingerprint of every table').toBe(tenantTables.length);
    return out;
  };

  /** Gives an organization data of every kind, its texts marked. */
  async function seed(client: TestClient, org: Awaited<ReturnType<typeof createOrg>>, mark: string) {
    const member = await createUser(ctx, org.organization.id, { firstName: `${mark}Member` });
    await signedIn(ctx, member.email);
    expect((await client.post('/api/v1/auth/forgotpassword', { email: member.email })).statusCode).toBe(200);
    expect(
      (await client.post('/api/v1/organization/invite', { emails: [`${mark}-invitee@example.com`], role: 'User' })).statusCode,
      'invite',
    ).toBeLessThan(300);
    const company = await newCompany(client, { name: `${mark} Company` });
    const contact = await newContact(client, { lastName: `${mark}Contact` });
    await link(client, company.id, contact.id, { label: mark });
    const field = await newField(client, 'company', 'string', `${mark} Field`);
    await setValue(client, 'company', company.id, field.id, `${mark} value`);
    expect(
      (
        await client.post('/api/v1/user/tablelayout/company', {
          name: `${mark} layout`,
          columns: [{ key: 'name', order: 0, width: 200, visible: true }],
        })
      ).statusCode,
      'layout',
    ).toBeLessThan(300);
    expect(
      (
        await client.post('/api/v1/activity', {
          type: 'call',
          companyId: company.id,
          contactId: contact.id,
          date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
          content: `${mark} call`,
        })
      ).statusCode,
      'activity',
    ).toBeLessThan(300);
    const configs = (await client.get('/api/v1/enrichment/configs')).json().configs as {
      id: string;
      entityType: string;
      enrichmentType: string;
    }[];
    const llm = configs.find((x) => x.entityType === 'company' && x.enrichmentType === 'llm')!;
    const enr = await client.post('/api/v1/enrichment', {
      configId: llm.id,
      name: `${mark} enrichment`,
      prompt: [{ type: 'text', text: `${mark} prompt` }],
      schema: [{ name: 'answer', type: 'string', description: 'Answer.', required: true, createColumn: false }],
      fieldIdToAssign: field.id,
    });
    expect(enr.statusCode, enr.body).toBe(201);
    const enrichmentId = enr.json().enrichment.id as string;
    // An organization's own OpenAI-compatible key (the route checks the key against the provider: written directly here).
    await db.query(
      `insert into integration (id, organization_id, user_id, provider, type, name, active, data, secret, created_by_id, created_at,
        updated_at) values (gen_random_uuid(), $1, null, 'openai', 'organization', $2, true, $3, null, $4, now(), now())`,
      [org.organization.id, `${mark} key`, JSON.stringify({ baseUrl: 'http://127.0.0.1:9/v1', models: ['gpt-matrix'] }), org.admin.id],
    );
    const em = ctx.em();
    await notifyUser(em, {
      organizationId: org.organization.id,
      userId: org.admin.id,
      level: 'info',
      message: `${mark} notice`,
      uniqueKey: `${mark}-n`,
    });
    const runId = randomUUID();
    const [exec] = await createExecutions(em, ctx.boss!, {
      organizationId: org.organization.id,
      createdById: org.admin.id,
      type: 'enrichment',
      typeId: enrichmentId,
      entityType: 'company',
      targets: [{ entityId: company.id }],
      runId,
    });
    await createRun(em, {
      id: runId,
      organizationId: org.organization.id,
      type: 'enrichment',
      typeId: enrichmentId,
      entityType: 'company',
      total: 1,
      createdById: org.admin.id,
    });
    // Rows only the worker writes: a result of the enrichment, and an LLM charge.
    await db.query(
      `insert into enrichment_result (id, organization_id, enrichment_id, entity_type, entity_id, execution_id, status, value, sources,
        updated_at) values (gen_random_uuid(), $1, $2, 'company', $3, $4, 'complete', $5, '[]', now())`,
      [org.organization.id, enrichmentId, company.id, exec.executionId, JSON.stringify({ result: { answer: `${mark} answer` } })],
    );
    await db.query(
      `insert into llm_charge (id, organization_id, charge_key, model, created_at) values (gen_random_uuid(), $1, $2, 'gpt-matrix', now())`,
      [org.organization.id, `${mark}-charge`],
    );
    // A CRM record id of the company (the side panel's lookup), a play of the organization's own, its
    // unsaved editor draft and an email draft of the admin (plays and drafts).
    await db.query(
      `insert into crm_link (id, organization_id, source, entity_type, external_id, company_id, created_at) values (gen_random_uuid(),
        $1, 'salesforce', 'company', $2, $3, now())`,
      [org.organization.id, `${mark}-sf-1`, company.id],
    );
    // A user's CRM user.
    await db.query(
      `insert into crm_user_link (id, organization_id, user_id, provider, crm_user_id, crm_username, created_at) values
        (gen_random_uuid(), $1, $2, 'affinity', $3, $4, now())`,
      [org.organization.id, org.admin.id, `${mark}-aff-user`, `${mark.toLowerCase()}-crm@example.com`],
    );
    // A mailbox's Inbox delta state (the replies follower).
    await db.query(
      `insert into mailbox_sync (id, organization_id, integration_id, owner_id, delta_link, created_at, updated_at) values
        (gen_random_uuid(), $1, (select id from integration where organization_id = $1 order by created_at limit 1), $2, $3, now(),
        now())`,
      [org.organization.id, org.admin.id, `https://graph.invalid/${mark}-delta`],
    );
    // A pending OAuth authorization (a Salesforce connect started, not yet back).
    await db.query(
      `insert into oauth_authorization (id, organization_id, user_id, provider, state_hash, verifier, data, expires_at, created_at) values
        (gen_random_uuid(), $1, $2, 'salesforce', $3, 'v1.x.y.z', '{}', now() + interval '1 hour', now())`,
      [org.organization.id, org.admin.id, `${mark}-state-hash`],
    );
    // CRM sync settings, a high-water mark and a sync change of the company.
    await db.query(
      `insert into crm_sync_settings (id, organization_id, provider, sync_accounts, sync_contacts, account_mappings, contact_mappings,
        updated_at) values (gen_random_uuid(), $1, 'salesforce', true, true, $2, '[]', now())`,
      [org.organization.id, JSON.stringify([{ crmField: `${mark}_Field__c`, fieldId: field.id, reconciliation: 'use_latest' }])],
    );
    await db.query(
      `insert into crm_sync_state (id, organization_id, provider, object, scope, high_water, last_id, updated_at) values
        (gen_random_uuid(), $1, 'salesforce', 'Account', '*', now(), $2, now())`,
      [org.organization.id, `${mark}-sf-last`],
    );
    await db.query(
      `insert into crm_sync_change (id, organization_id, provider, entity_type, entity_id, side, action, field_label, old_value,
        new_value, crm_id, changed_at) values (gen_random_uuid(), $1, 'salesforce', 'company', $2, 'dealscout', 'updated', 'Name', $3,
        $4, $5, now())`,
      [org.organization.id, company.id, `${mark} old`, `${mark} new`, `${mark}-sf-1`],
    );
    // The outbound phase: a Bulk API job not collected yet, and an activity logged in the CRM.
    await db.query(
      `insert into crm_push_job (id, organization_id, provider, entity_type, job_id, items, created_at) values (gen_random_uuid(), $1,
        'salesforce', 'company', $2, $3, now())`,
      [
        org.organization.id,
        `750${mark}job`.slice(0, 40),
        JSON.stringify({ [company.id]: { localId: company.id, crmId: null, agreed: { Name: `${mark} name` }, sent: [] } }),
      ],
    );
    await db.query(
      `insert into crm_activity_push (id, organization_id, provider, activity_id, crm_id, created_at) values (gen_random_uuid(), $1,
        'salesforce', (select id from activity where organization_id = $1 limit 1), $2, now())`,
      [org.organization.id, `00T${mark}`],
    );
    const play = await db.query<{ id: string }>(
      `insert into play (id, organization_id, name, instructions, play_type, status, enrichments_included, created_by_id, created_at,
        updated_at) values (gen_random_uuid(), $1, $2, '[]', 'non_ai', 'published', '[]', $3, now(), now()) returning id::text`,
      [org.organization.id, `${mark} play`, org.admin.id],
    );
    const draft = await client.put('/api/v1/play/draft/openai', {
      name: `${mark} unsaved play`,
      description: '',
      instructions: [],
      title: '',
      subjectPrompt: '',
      targetContactId: contact.id,
    });
    expect(draft.statusCode, draft.body).toBe(200);
    await db.query(
      `insert into channel_email (id, organization_id, owner_id, title, to_address, cc, subject, body, contact_id, company_id, play_id,
        status, created_at, updated_at) values (gen_random_uuid(), $1, $2, $3::text, 'x@example.com', '[]', $3::text, $3::text, $4, $5,
        $6, 'draft', now(), now())`,
      [org.organization.id, org.admin.id, `${mark} draft`, contact.id, company.id, play.rows[0].id],
    );
    // A list with a manual idea (its manual source), shortlisted (lists).
    const list = await client.post('/api/v1/list-company', { name: `${mark} list` });
    expect(list.statusCode, list.body).toBe(201);
    const idea = await client.post('/api/v1/list-company/idea', {
      id: list.json().list.id,
      companyName: `${mark} idea`,
      website: `https://${mark}-idea.example.com`,
    });
    expect(idea.statusCode, idea.body).toBe(201);
    expect(
      (
        await client.put('/api/v1/list-company/idea/shortlist', {
          listId: list.json().list.id,
          ideaIds: [idea.json().idea.id],
          status: true,
        })
      ).json().count,
    ).toBe(1);
    // A scoring model of the list and a run of it (its score_run; no worker takes it here).
    const model = await client.post('/api/v1/scoring-model', {
      name: `${mark} score`,
      listCompanyId: list.json().list.id,
      ruleSets: [MATRIX_RULE_SET],
    });
    expect(model.statusCode, model.body).toBe(201);
    const run = await client.post('/api/v1/scoring-model/execute', {
      scoringModelId: model.json().scoringModel.id,
      options: { runAll: true },
    });
    expect(run.statusCode, run.body).toBe(200);
    // The idea's score (only the scoring worker writes it; none runs here).
    await db.query(
      `insert into idea_score (organization_id, model_id, idea_id, execution_id, status, total_score, details, updated_at) values
        ($1, $2, $3, null, 'completed', 1, '[]', now())`,
      [org.organization.id, model.json().scoringModel.id, idea.json().idea.id],
    );
    // A CSV upload with a rejected row (its report).
    const boundary = `----ds${mark}`;
    const form =
      [
        ['listCompanyId', list.json().list.id],
        ['intentionSourceId', 'csv'],
        ['source', JSON.stringify({ mapping: { name: 'Company', website: 'Website' } })],
      ]
        .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join('') +
      (`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ideas.csv"\r\nContent-Type: ` +
        `text/csv\r\n\r\nCompany,Website\n${mark} csv idea,https://${mark}-csv.example.com\n${mark} bad,not a ` +
        `url\n\r\n--${boundary}--\r\n`);
    const up = await client.request('POST', '/api/v1/list-company/source', Buffer.from(form), {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(up.statusCode, up.body).toBe(201);
    // The admin's own Office 365 mailbox and a send in its outbox.
    await db.query(
      `insert into integration (id, organization_id, user_id, provider, type, name, active, data, secret, created_by_id, created_at,
        updated_at, expires_at) values (('ffffffff-' || substr(gen_random_uuid()::text, 10))::uuid, $1, $2, 'office365', 'email', $3,
        true, '{}', null, $2, now(), now(), now() + interval '60 days')`,
      [org.organization.id, org.admin.id, `${mark}-mailbox@example.com`],
    );
    await db.query(
      `insert into email_outbox (id, organization_id, channel_email_id, owner_id, state, send_after, attempt, recipients, created_at,
        updated_at) select gen_random_uuid(), $1, e.id, $2, 'queued', now() + interval '1 day', 0, 1, now(), now() from channel_email e
        where e.organization_id = $1 limit 1`,
      [org.organization.id, org.admin.id],
    );
  }

  beforeAll(async () => {
    ctx = await createTestApp({ boss: true });
    await createQueues(ctx.boss!, jobDefinitions, ctx.config);
    db = new pg.Client({ connectionString: ctx.dbUrl });
    await db.connect();
    orgA = await createOrg(ctx, { name: `${MARK} Capital` });
    orgB = await createOrg(ctx, { name: 'Beta Partners' });
    a = await signedIn(ctx, orgA.admin.email);
    bCookie = await signedIn(ctx, orgB.admin.email, '10.0.0.2');
    await seed(a, orgA, MARK);
    await seed(bCookie, orgB, 'beta');
    bBearer = new TestClient(ctx.app, '10.0.0.3');
    const tok = await bBearer.post('/api/v1/auth/token', { email: orgB.admin.email, password: TEST_PASSWORD, label: 'matrix' });
    expect(tok.statusCode, tok.body).toBe(200);
    bBearer.bearer = tok.json().token;

    tenantTables = (
      await db.query<{ table_name: string }>(
        `select table_name from information_schema.columns where table_schema = 'public' and column_name = 'organization_id' order by 1`,
      )
    ).rows.map((r) => r.table_name);
    // The organization's own id too (routes that name it, e.g. the LLM settings).
    idsOfA = new Map([['organization', [orgA.organization.id]]]);
    for (const t of tenantTables) {
      if (NO_ID_TABLES.includes(t)) continue;
      // A scoring result's id in the API is derived from its model and idea (idea_score stores none).
      const id = t === 'idea_score' ? scoreResultId('idea_score') : 'id';
      const r = await db.query<{ id: string }>(`select ${id}::text as id from "${t}" where organization_id = $1 order by id`, [
        orgA.organization.id,
      ]);
      // Only uuid ids are sent and looked for in answers (a serial id like 3 would match any digit).
      idsOfA.set(
        t,
        r.rows.map((x) => x.id).filter((x) => /^[0-9a-f-]{36}$/.test(x)),
      );
    }
    const doc = ctx.app.swagger() as { paths: Record<string, Record<string, Omit<Op, 'method' | 'path'>>> };
    ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
    );
  });
  afterAll(async () => {
    await db?.end();
    await ctx?.close();
  });

  it('the fixture gives the first organization rows of every kind (a new table needs a row here)', () => {
    const empty = [...idsOfA]
      .filter(([t, v]) => v.length === 0 && !SERIAL_ID_TABLES.includes(t) && !TRANSIENT_TABLES.includes(t))
      .map(([t]) => t);
    for (const t of TRANSIENT_TABLES) expect(idsOfA.get(t), `${t} keeps rows after their transaction`).toEqual([]);
    expect(
      empty.map(
        (t) =>
          `table ${t} has no row of organization A: create one in seed() in server/test/tenancy-routes.test.ts so its ids are tried on every route`,
      ),
    ).toEqual([]);
  });

  it('every route of the OpenAPI document is classified', () => {
    const unclassified = ops.filter((op) => !(`${op.method} ${op.path}` in ROUTES)).map((op) => `${op.method} ${op.path}`);
    expect(
      unclassified.map(
        (r) =>
          `${r} is not in ROUTES (server/test/tenancy-routes.test.ts): add it as ids (it takes ids of organization-owned ` +
          `rows: another organization's answer 404), scoped (lists, searches, the caller's own data), or public/session ` +
          `with the reason`,
      ),
    ).toEqual([]);
    const gone = Object.keys(ROUTES).filter((k) => !ops.some((op) => `${op.method} ${op.path}` === k));
    expect(gone.map((r) => `${r} is in ROUTES but no longer in the OpenAPI document: remove it`)).toEqual([]);
    // A route that takes ids cannot be classified as if it took none.
    const mislabeled = ops
      .filter((op) => ROUTES[`${op.method} ${op.path}`]?.kind === 'public' && takesIds(op))
      .map((op) => `${op.method} ${op.path}`);
    expect(mislabeled).toEqual([]);
  });

  it('every route that takes ids documents the 404 another organization gets', () => {
    const undocumented = ops
      .filter((op) => ROUTES[`${op.method} ${op.path}`]?.kind === 'ids' && takesIds(op) && !op.responses?.['404'])
      .map((op) => `${op.method} ${op.path}`);
    expect(
      undocumented.map((r) => `${r} answers 404 for another organization's ids: add 404: ErrorResponse to its response schema`),
    ).toEqual([]);
  });

  for (const via of ['cookie session', 'bearer token'] as const) {
    it(
      `B's ${via} with A's ids of every kind: 404 or B's own data, nothing of A's in any answer, A's rows unchanged`,
      { timeout: 240_000 },
      async () => {
        const b = via === 'cookie session' ? bCookie : bBearer;
        const allA = [...idsOfA.values()].flat();
        const problems: string[] = [];
        const before = await snapshotA();
        const attacked = ops.filter((op) => {
          const r = ROUTES[`${op.method} ${op.path}`];
          return r && (r.kind === 'ids' || r.kind === 'scoped');
        });
        expect(attacked.length).toBeGreaterThan(50);
        for (const op of attacked) {
          const route = `${op.method} ${op.path}`;
          const rule = ROUTES[route];
          // Every kind of A's id in every id slot (one request per table), or one request when the route takes none.
          const tries = takesIds(op)
            ? [...idsOfA].filter(([, v]) => v.length).map(([table, v]) => ({ table, id: v[0] }))
            : [{ table: '-', id: randomUUID() }];
          const statuses: number[] = [];
          let last = '';
          for (const t of tries) {
            const { url, body } = requestFor(op, t.id);
            const res: LightMyRequestResponse = await b.request(op.method as 'GET', url, body);
            statuses.push(res.statusCode);
            const sent = JSON.stringify({ url, body });
            const text = res.body;
            last = text;
            if (res.statusCode >= 500) problems.push(`${route} with A's ${t.table} id answered ${res.statusCode}: ${text.slice(0, 200)}`);
            if (text.includes(MARK))
              problems.push(`${route} with A's ${t.table} id answered a text of organization A: ${text.slice(0, 300)}`);
            const leaked = allA.filter((x) => text.includes(x) && !sent.includes(x));
            if (leaked.length) problems.push(`${route} with A's ${t.table} id answered ids of organization A (${leaked.join(', ')})`);
            if (rule.kind === 'ids' && takesIds(op) && res.statusCode < 300)
              problems.push(`${route} with A's ${t.table} id answered ${res.statusCode} instead of 404: ${text.slice(0, 200)}`);
          }
          // A scoped route takes no id of A's: a request the generator cannot make valid is still checked for leaks above.
          if (rule.kind === 'ids' && statuses.every((s) => s === 400))
            problems.push(
              `${route}: every generated request was refused as invalid (400: ${last.slice(0, 200)}), so the route was not ` +
                `tried; give it the fields the generator cannot guess (idsWith({...}) in ROUTES)`,
            );
          if (rule.kind === 'ids' && takesIds(op) && !statuses.includes(404))
            problems.push(`${route}: no request answered 404 (${[...new Set(statuses)].join(', ')})`);
          const after = await snapshotA();
          const changed = tenantTables.filter((t) => before[t] !== after[t]);
          if (changed.length) {
            problems.push(`${route} changed organization A's rows in ${changed.join(', ')}`);
            Object.assign(before, after);
          }
        }
        expect(problems).toEqual([]);
      },
    );
  }

  it(
    "A's own requests find A's rows (the 404s above come from the organization, not from a request that finds nothing)",
    { timeout: 240_000 },
    async () => {
      const problems: string[] = [];
      const withIds = ops
        .filter((op) => ROUTES[`${op.method} ${op.path}`]?.kind === 'ids' && takesIds(op) && !(`${op.method} ${op.path}` in CONTROL_EXEMPT))
        // Deletions last: they remove what the others look up.
        .sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
      for (const op of withIds) {
        const statuses: number[] = [];
        for (const [, v] of idsOfA) {
          if (!v.length) continue;
          const { url, body } = requestFor(op, v[0]);
          // One kind of id in several slots (a company and a contact) can never all be found: only routes with one id slot are checked here.
          if (JSON.stringify({ url, body }).split(v[0]).length > 2) continue;
          statuses.push((await a.request(op.method as 'GET', url, body)).statusCode);
        }
        if (statuses.length && statuses.every((s) => s === 404 || s >= 500))
          problems.push(`${op.method} ${op.path}: organization A's own ids never found a row (${[...new Set(statuses)].join(', ')})`);
      }
      expect(problems).toEqual([]);
    },
  );

  it("B's socket is refused every realtime path of A's organization and A's users", async () => {
    const addr = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const token = (await bCookie.get('/api/v1/notifications/token')).json().token as string;
    const s = await openSocket(`${addr.replace('http', 'ws')}/api/v1/realtime`);
    s.send({ type: 'auth', token });
    await s.next('ready');
    const builders = Object.entries(realtimePaths) as [string, (...args: string[]) => string][];
    expect(builders.length).toBeGreaterThan(0);
    const paths = [
      ...new Set(
        builders.flatMap(([, build]) =>
          [orgA.organization.id, orgA.admin.id].flatMap((owner) => [
            build(owner),
            build(owner, 'enrichment', 'company'),
            build(owner, randomUUID()),
          ]),
        ),
      ),
    ];
    for (const path of paths) {
      s.send({ type: 'subscribe', paths: [path] });
      const answer = await s.next('refused', 5000).catch((e: Error) => ({ type: 'not refused', path, error: e.message }));
      expect(answer, path).toMatchObject({ type: 'refused', path });
    }
    // B's own path is accepted on the same socket (the refusals above are about the organization).
    s.send({ type: 'subscribe', paths: [realtimePaths.activities(orgB.organization.id)] });
    expect(await s.next('subscribed')).toMatchObject({ paths: [realtimePaths.activities(orgB.organization.id)] });
    await s.close();
  });

  // Jobs: a job carrying B's organization with A's ids in every id slot — as B's user
  // could cause by naming A's rows — is enqueued and handed to its handler exactly as a worker
  // would; A's rows are unchanged and no row of B's gets a text of A's.
  it("a job carrying B's organization and A's ids changes nothing of A's and reads nothing of A's into B's rows", async () => {
    const jobCtx: JobContext = {
      orm: ctx.orm,
      logger: ctx.app.log as unknown as JobContext['logger'],
      boss: ctx.boss!,
      config: ctx.config,
    };
    const before = await snapshotA();
    const ran: string[] = [];
    const unparsable: string[] = [];
    for (const def of jobDefinitions) {
      const json = z.toJSONSchema(def.schema, { unrepresentable: 'any' }) as Schema & { properties?: Record<string, Schema> };
      if (!json.properties?.organizationId) continue; // maintenance jobs: tenancy-jobs.test.ts lists them with the reason
      for (const [table, list] of idsOfA) {
        if (!list[0]) continue;
        const generated = sample(json, list[0]) as Record<string, unknown>;
        // Tuples ([entityId, executionId] pairs) come out of the generator with nulls: fill them with the id.
        const fill = (v: unknown): unknown =>
          Array.isArray(v)
            ? v.map((x) => (x === null ? list[0] : fill(x)))
            : v && typeof v === 'object'
              ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]))
              : v;
        const data = { ...(fill(generated) as Record<string, unknown>), organizationId: orgB.organization.id };
        const parsed = def.schema.safeParse(data);
        if (!parsed.success) {
          unparsable.push(`${def.queue} (${table}): ${parsed.error.message.slice(0, 200)}`);
          continue;
        }
        const jobId = await ctx.boss!.send(def.queue, parsed.data as object);
        expect(jobId, def.queue).toBeTruthy();
        // The fixture's own executions wait in the same queues: take ours out of what is fetched.
        const job = ((await ctx.boss!.fetch(def.queue, { batchSize: 1000 })) as Job[]).find((j) => j.id === jobId)!;
        expect(job?.id, `${def.queue}: the job just sent is fetched`).toBe(jobId);
        try {
          if (def.handleBatch) await def.handleBatch([{ data: def.schema.parse(job.data), job }], jobCtx);
          else await def.handle(def.schema.parse(job.data), jobCtx, job);
        } catch {
          // A handler may fail the job (not found, not retried): what matters is what it changed.
        }
        await ctx.boss!.complete(def.queue, job.id).catch(() => {});
        ran.push(`${def.queue}:${table}`);
      }
    }
    expect(unparsable).toEqual([]);
    // Every queue that carries an organization was tried.
    const tenantQueues = jobDefinitions
      .filter(
        (d) =>
          (z.toJSONSchema(d.schema, { unrepresentable: 'any' }) as { properties?: Record<string, unknown> }).properties?.organizationId,
      )
      .map((d) => d.queue);
    expect(tenantQueues.length).toBeGreaterThan(0);
    expect(new Set(ran.map((r) => r.split(':')[0]))).toEqual(new Set(tenantQueues));
    expect(await snapshotA()).toEqual(before);
    const leaked: string[] = [];
    for (const t of tenantTables) {
      const r = await db.query(`select count(*)::int as n from "${t}" x where organization_id = $1 and x::text like $2`, [
        orgB.organization.id,
        `%${MARK}%`,
      ]);
      if (r.rows[0].n > 0) leaked.push(t);
    }
    expect(leaked.map((t) => `${t}: a row of B's holds a text of A's after the jobs ran`)).toEqual([]);
  });
});
