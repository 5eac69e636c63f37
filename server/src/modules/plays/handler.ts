// The execution handler of plays: one execution = one play for one contact or company.
//
//   run()     loads the play and the target (a contact and its primary company, or a company and its
//             key contact), renders the instructions (field boxes, enrich boxes — autorun ones run
//             their enrichment first through the enrichment handler's Run), then asks the
//             organization's model through the LLM port for a structured answer {subject, body}
//             (charged once per execution: the key is the execution id), or, for a Non-Ai play, fills
//             the template without a model.
//   commit()  writes the email draft in the completing transaction: one draft per execution (unique
//             (organization, execution)), so a retried job updates the same row, never a second one.
//             A draft regenerated in place (POST /email/generate) is the one its idempotency key names.
import type { EntityManager } from '@mikro-orm/postgresql';
import { PLAY_MESSAGES, RenderError, textToHtml, withSignature, type RenderedPrompt } from '@dealscout/shared/domain';
import { loadConfig, type Config } from '../../config';
import { getLlm, LlmError, type LlmPort } from '../../providers/llm';
import { defineExecutionHandler, ExecutionError, type ExecutionHandler } from '../executions/runner';
import { EXECUTION_COLUMNS, executionEvent, type ExecutionRow } from '../executions/execution.presenter';
import { publish } from '../realtime/publish';
import { Run } from '../enrichments/handler';
import { createAgentPorts, type AgentPorts } from '../enrichments/agents';
import { Play } from './play.entity';
import {
  loadTargets,
  loadSender,
  renderForTarget,
  targetContext,
  emailMessages,
  EMAIL_SCHEMA,
  TargetProblem,
  type TargetOutcome,
} from './render';
import { tenantSql } from '../../db/sql';
import { runEventsOf } from '../executions/runs';

export interface PlayRunOutcome {
  kind: 'done';
  subject: string;
  body: string;
  model: string | null;
  isAi: boolean;
  rendered: RenderedPrompt;
  playId: string;
  playName: string;
  playVersion: number;
  contact: { id: string; email: string; firstName: string; lastName: string };
  companyId: string;
  companyName: string;
  /** The sender's signature added under the body (null: none set). */
  signature?: string | null;
}

/** The draft a regenerate run writes into (its idempotency key is `email:{channelEmailId}`). */
export function regenerateTarget(key: string | null): string | null {
  const m = /^email:([0-9a-f-]{36})$/i.exec(key ?? '');
  return m ? m[1] : null;
}

/** Ends an execution at once as 'error' (no retry); a draft being regenerated shows the error. */
async function failNow(em: EntityManager, row: ExecutionRow, message: string): Promise<void> {
  await em.fork().transactional(async (tem) => {
    const [x] = await tenantSql(tem, row.organization_id).all<ExecutionRow>(
      `update execution set status = 'error', status_message = ?, completed_at = clock_timestamp(), updated_at = clock_timestamp()
        where id = ? and organization_id = ? and status = 'processing' returning ${EXECUTION_COLUMNS}`,
      [message, row.id, row.organization_id],
    );
    if (!x) return;
    const draft = regenerateTarget(row.idempotency_key);
    if (draft) {
      await tenantSql(tem, row.organization_id).all(
        `update channel_email set status = 'error', status_message = ?, updated_at = clock_timestamp() where id = ? and organization_id
          = ? and execution_id = ?`,
        [PLAY_MESSAGES.executionFailedMessage, draft, row.organization_id, row.id],
      );
    }
    const runs = await runEventsOf(tem, [x]);
    await publish(tem, row.organization_id, [executionEvent(x), ...runs.flatMap((r) => r.events)]);
  });
}

function finalMessage(err: unknown): string | null {
  if (err instanceof RenderError || err instanceof TargetProblem) return err.message;
  if (err instanceof LlmError)
    return err.retryable || err.kind === 'rate_limited' || err.kind === 'timeout' || err.kind === 'provider' ? null : err.message;
  return null;
}

export interface PlayHandlerDeps {
  config?: Config;
  llm?: (em: EntityManager) => LlmPort;
}

export function createPlayHandler(deps: PlayHandlerDeps = {}): ExecutionHandler<PlayRunOutcome | null> {
  let config: Config | null = deps.config ?? null;
  const settings = () => (config ??= loadConfig());
  let ports: AgentPorts | null = null;
  const agentPorts = () => (ports ??= createAgentPorts(settings()));
  return defineExecutionHandler<PlayRunOutcome | null>({
    type: 'play',
    async run(ctx) {
      const row = ctx.execution;
      const org = row.organization_id;
      const entityType = row.entity_type;
      const runnable = (entityType === 'contact' || entityType === 'company') && !!row.entity_id;
      const llm = deps.llm ? deps.llm(ctx.em) : getLlm({ em: ctx.em, config: settings(), memo: ctx.memo });
      // What the first model call of a claimed batch waits for is read at once, side by side: the
      // play, the batch's targets, the sender and the organization's model settings (each once per
      // batch through ctx.memo), rather than one read after the other. A failed read is not kept by
      // the memo: the step that needs it reads again below and reports it.
      const playRead = row.type_id
        ? ctx.memo(`play:${row.type_id}`, () => ctx.em.fork().findOne(Play, { id: row.type_id!, organization: org }))
        : Promise.resolve(null);
      // The targets of every play execution of the claimed batch (same organization and entity
      // type) are read together, once: four statements for the batch instead of four per draft,
      // so a freshly claimed batch reaches the model within one read instead of after every
      // row's own reads have queued for the connection pool.
      const ids = runnable
        ? [
            ...new Set(
              ctx.batch
                .filter((x) => x.type === 'play' && x.organization_id === org && x.entity_type === entityType && x.entity_id)
                .map((x) => x.entity_id!),
            ),
          ]
        : [];
      if (runnable && !ids.includes(row.entity_id!)) ids.push(row.entity_id!);
      const targetsRead = runnable
        ? ctx.memo(`play-targets:${org}:${entityType}`, () => loadTargets(ctx.em.fork(), org, entityType as 'contact' | 'company', ids))
        : null;
      const senderRead = ctx.memo(`play-sender:${row.created_by_id ?? ''}`, () => loadSender(ctx.em.fork(), org, row.created_by_id));
      targetsRead?.catch(() => {});
      senderRead.catch(() => {});
      llm.prepare?.(org);
      const play = await playRead;
      if (!play) {
        await failNow(ctx.em, row, PLAY_MESSAGES.invalid);
        return null;
      }
      if (!runnable || (entityType !== 'contact' && entityType !== 'company') || !row.entity_id) {
        await failNow(ctx.em, row, PLAY_MESSAGES.invalidEntity);
        return null;
      }
      try {
        const targets = await ctx.memo(`play-targets:${org}:${entityType}`, () => loadTargets(ctx.em.fork(), org, entityType, ids));
        const target: TargetOutcome | undefined = targets.has(row.entity_id)
          ? targets.get(row.entity_id)
          : (await loadTargets(ctx.em, org, entityType, [row.entity_id])).get(row.entity_id);
        if (!target) throw new TargetProblem('Entity not found.');
        if (target instanceof TargetProblem) throw target;
        const run = new Run(ctx, llm, agentPorts, settings());
        const rendered = await renderForTarget(
          ctx.em,
          org,
          play.instructions,
          target,
          async (e, et, id) => (await run.compute(e, et, id, 1, [])).result,
          ctx.memo,
        );
        const base = {
          kind: 'done' as const,
          rendered,
          playId: play.id,
          playName: play.name,
          playVersion: play.version,
          contact: {
            id: target.contact.id,
            email: target.contact.email,
            firstName: target.contact.firstName,
            lastName: target.contact.lastName,
          },
          companyId: target.company.id,
          companyName: target.company.name,
        };
        // The user who ran the play: the name the model writes as, and their signature under the body
        // (read once per claimed batch: a run's executions share their creator).
        const sender = await ctx.memo(`play-sender:${row.created_by_id ?? ''}`, () => loadSender(ctx.em.fork(), org, row.created_by_id));
        if (play.playType === 'non_ai') {
          return {
            ...base,
            subject: play.subject,
            body: textToHtml(withSignature(rendered.text, sender.signature)),
            model: null,
            isAi: false,
            signature: sender.signature,
          };
        }
        const res = await llm.complete({
          organizationId: org,
          model: play.llmModelId || 'default',
          messages: emailMessages({
            instructions: rendered.text,
            subject: play.subject,
            subjectPrompt: play.subjectPrompt,
            context: targetContext(target),
            sender: sender.name,
            signature: sender.signature,
          }),
          responseSchema: { name: 'email', schema: EMAIL_SCHEMA },
          signal: ctx.signal,
          chargeKey: `${row.id}:play`,
          priority: ctx.claimedAt,
        });
        let parsed: { subject?: unknown; body?: unknown };
        try {
          parsed = JSON.parse(res.content ?? '') as typeof parsed;
        } catch {
          throw new RenderError(PLAY_MESSAGES.executionFailedMessage);
        }
        if (typeof parsed.body !== 'string' || parsed.body.trim() === '') throw new RenderError(PLAY_MESSAGES.executionFailedMessage);
        const subject = play.subject.trim() ? play.subject.trim() : typeof parsed.subject === 'string' ? parsed.subject : '';
        return {
          ...base,
          subject,
          body: textToHtml(withSignature(parsed.body, sender.signature)),
          model: res.model,
          isAi: true,
          signature: sender.signature,
        };
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        const message = finalMessage(err);
        if (message !== null) {
          await failNow(ctx.em, row, message);
          return null;
        }
        if (err instanceof LlmError) throw new ExecutionError(err.message);
        throw err;
      }
    },
    async commit(em, execution, outcome) {
      await commitDrafts(em, [{ execution, result: outcome }]);
    },
    async commitMany(em, items) {
      await commitDrafts(em, items);
    },
  });
}

/**
 * Writes the drafts of completed play executions of one organization, in the completing
 * transaction: the new drafts of a group in one statement (one draft per execution: unique
 * (organization, execution), so a retried job updates the same row, never a second one); a draft
 * regenerated in place (its idempotency key names it) is updated on its own.
 */
async function commitDrafts(
  em: EntityManager,
  items: readonly { execution: ExecutionRow; result: PlayRunOutcome | null }[],
): Promise<void> {
  const done = items.filter(
    (i): i is { execution: ExecutionRow; result: PlayRunOutcome } => i.result?.kind === 'done' && !!i.execution.created_by_id,
  );
  if (done.length === 0) return;
  const org = done[0]!.execution.organization_id;
  const fresh: unknown[] = [];
  for (const { execution, result: outcome } of done) {
    const provenance = {
      model: outcome.model,
      renderedPrompt: outcome.rendered.text,
      values: outcome.rendered.values,
      playVersion: outcome.playVersion,
      signature: outcome.signature ?? null,
    };
    // AI emails stay 'processing' until verified (POST /entity/check-ai-generated); template ones are drafts at once.
    const status = outcome.isAi ? 'processing' : 'draft';
    const draft = regenerateTarget(execution.idempotency_key);
    if (draft) {
      // A reply keeps its subject ('Re: …', or what the user made of it): the play writes the body.
      await tenantSql(em, org).all(
        `update channel_email set subject = case when is_reply then subject else ? end, body = ?, play_id = ?, play_name = ?,
          play_version = ?, execution_id = ?, is_ai_email_generated = ?,
                status = ?, status_message = null, provenance = ?::jsonb, updated_at = clock_timestamp()
          where id = ? and organization_id = ? and status not in ('cancelled', 'sent', 'scheduled')`,
        [
          outcome.subject,
          outcome.body,
          outcome.playId,
          outcome.playName,
          outcome.playVersion,
          execution.id,
          outcome.isAi,
          status,
          JSON.stringify(provenance),
          draft,
          org,
        ],
      );
      continue;
    }
    fresh.push({
      title: `${outcome.contact.firstName} ${outcome.contact.lastName}`.trim(),
      to: outcome.contact.email,
      subject: outcome.subject,
      body: outcome.body,
      contact: outcome.contact.id,
      company: outcome.companyId,
      play: outcome.playId,
      playName: outcome.playName,
      playVersion: outcome.playVersion,
      execution: execution.id,
      ai: outcome.isAi,
      status,
      provenance,
      owner: execution.created_by_id,
    });
  }
  if (fresh.length === 0) return;
  await tenantSql(em, org).bound(
    `insert into channel_email (id, organization_id, owner_id, title, from_address, to_address, cc, subject, body, contact_id,
      company_id, play_id, play_name, play_version,
                                  execution_id, is_ai_email_generated, status, status_message, show_to_from_cc, provenance, created_at, updated_at)
       select gen_random_uuid(), $1::uuid, u.id, x->>'title', u.email, x->>'to', '[]'::jsonb, x->>'subject', x->>'body',
         (x->>'contact')::uuid, (x->>'company')::uuid, (x->>'play')::uuid, x->>'playName', (x->>'playVersion')::int,
              (x->>'execution')::uuid, (x->>'ai')::boolean, x->>'status', null, false, x->'provenance', clock_timestamp(), clock_timestamp()
         from jsonb_array_elements($2::jsonb) with ordinality as t(x, n)
         join app_user u on u.id = (x->>'owner')::uuid and u.organization_id = $1::uuid
        order by t.n
       on conflict (organization_id, execution_id) do update set subject = excluded.subject, body = excluded.body, provenance =
         excluded.provenance, updated_at = clock_timestamp()`,
    [org, JSON.stringify(fresh)],
  );
}
