// The execution handler of list executions (type 'list', typeId the list source, entityId the
// list; started by POST /list-company/execute):
//
//   run()    reads the source, marks it in progress, fetches its companies through the provider's
//            adapter (progress as they come) and answers them. It writes no ideas: a retried or
//            resumed attempt fetches again and nothing is doubled. A provider failure is written on
//            the source (its reason; failed when a retry cannot help) and fails the attempt.
//   commit() in the completing transaction (at most once): locks the list, adds the companies as
//            ideas deduplicated by normalized domain (insertIdeas: a domain already in the list
//            gains this source; the source's and the list's counters move with them), marks the
//            source completed with what was skipped, and tells the list page to reload.
//
// A source whose execution ends in error (retries spent, a crash) is shown failed from the
// execution's message (listDtos), so the source never stays 'in progress' after its execution.
import { ProviderSourceParams, REALTIME_EVENT_KINDS } from '@dealscout/shared/contracts';
import { LIST_MESSAGES, LIST_SOURCE_MESSAGES, realtimePaths } from '@dealscout/shared/domain';
import { loadConfig, type Config } from '../../config';
import { tenantSql } from '../../db/sql';
import { defineExecutionHandler, ExecutionError, type ExecutionHandler } from '../executions/runner';
import { EXECUTION_COLUMNS, executionEvent, type ExecutionRow } from '../executions/execution.presenter';
import { publish } from '../realtime/publish';
import { ListProviderError, type SourceCompany } from '../../providers/list-sources/port';
import { fetchProviderCompanies, ideaRows } from './list-sources.service';
import { insertIdeas, lockList, publishListChange } from './lists.service';
import { runListAgent, type ListAgentDeps } from './list-agent';

export interface ListRunOutcome {
  companies: SourceCompany[];
}

export function createListHandler(deps: { config?: Config; agent?: ListAgentDeps } = {}): ExecutionHandler<ListRunOutcome | null> {
  let config: Config | null = deps.config ?? null;
  const settings = () => (config ??= loadConfig());
  return defineExecutionHandler<ListRunOutcome | null>({
    type: 'list',
    async run(ctx) {
      const row = ctx.execution;
      const org = row.organization_id;
      const db = tenantSql(ctx.em, org);
      const [src] = await db.all<{ id: string; list_id: string; type: string; parameters: Record<string, unknown> }>(
        `select id::text, list_id::text, type, parameters from list_source where organization_id = ? and id = ?`,
        [org, row.type_id],
      );
      if (!src) throw new ExecutionError(LIST_MESSAGES.sourceNotFound);
      const parsed = ProviderSourceParams.safeParse({ ...src.parameters, intention: src.type });
      if (!parsed.success) throw new ExecutionError(LIST_SOURCE_MESSAGES.notProviderSource);
      await db.run(
        `update list_source set status = 'inProgress', status_severity = null, status_reason = null, updated_at = now() where
          organization_id = ? and id = ? and status <> 'inProgress'`,
        [org, src.id],
      );
      await publishListChange(ctx.em, org, src.list_id, 'sources');
      const max = parsed.data.maxResultCount;
      try {
        const companies =
          parsed.data.intention === 'agent'
            ? await runListAgent(ctx.em, settings(), org, parsed.data, {
                signal: ctx.signal,
                onProgress: (n) => ctx.progress(n, max),
                memo: ctx.memo,
                draining: ctx.draining,
                deps: deps.agent,
                chargeKeyPrefix: `list:${row.id}`,
              })
            : await fetchProviderCompanies(ctx.em, settings(), org, parsed.data, {
                signal: ctx.signal,
                onProgress: (n) => ctx.progress(Math.min(n, max), max),
              });
        await ctx.progress(companies.length, companies.length);
        return { companies };
      } catch (e) {
        if (!(e instanceof ListProviderError) || e.kind === 'cancelled' || ctx.signal.aborted || ctx.draining.aborted) throw e;
        if (e.retryable) {
          // A retry may help (rate limit, timeout, 5xx): a warning while the execution tries again.
          await db.run(
            `update list_source set status_severity = 'warning', status_reason = ?, updated_at = now() where organization_id = ? and id = ?`,
            [e.message, org, src.id],
          );
          await publishListChange(ctx.em, org, src.list_id, 'sources');
          throw new ExecutionError(e.message);
        }
        // No key, a refused key, no credits, a refused request: no retry can help — the execution
        // ends in error now and the source has failed, with the provider's reason.
        await ctx.em.fork().transactional(async (tem) => {
          const [x] = await tenantSql(tem, org).all<ExecutionRow>(
            `update execution set status = 'error', status_message = ?, completed_at = clock_timestamp(), updated_at = clock_timestamp()
              where id = ? and organization_id = ? and status = 'processing' returning ${EXECUTION_COLUMNS}`,
            [e.message, row.id, org],
          );
          if (!x) return;
          await tenantSql(tem, org).run(
            `update list_source set status = 'failed', status_severity = 'error', status_reason = ?, updated_at = now() where organization_id = ? and id = ?`,
            [e.message, org, src.id],
          );
          await publish(tem, org, executionEvent(x));
          await publishListChange(tem, org, src.list_id, 'sources');
        });
        return null;
      }
    },
    async commit(em, execution, result, events) {
      if (!result) return;
      const org = execution.organization_id;
      const db = tenantSql(em, org);
      const [src] = await db.all<{ id: string; list_id: string }>(
        `select id::text, list_id::text from list_source where organization_id = ? and id = ?`,
        [org, execution.type_id],
      );
      if (!src) return; // removed meanwhile: nothing to add to
      await lockList(em, org, src.list_id);
      const { rows, skipped } = ideaRows(result.companies);
      const res = await insertIdeas(em, org, src.list_id, src.id, rows);
      const parts = [
        `${res.inserted.toLocaleString('en-US')} idea${res.inserted === 1 ? '' : 's'} added`,
        `${res.merged.toLocaleString('en-US')} already in the list`,
      ];
      if (skipped) parts.push(`${skipped.toLocaleString('en-US')} without a website skipped`);
      if (result.companies.length === 0) parts.splice(0, parts.length, 'The provider found no companies');
      await db.run(
        `update list_source set status = 'completed', status_severity = ?, status_reason = ?, updated_at = now() where organization_id = ? and id = ?`,
        [skipped || result.companies.length === 0 ? 'warning' : 'info', parts.join(', '), org, src.id],
      );
      events.push({
        path: realtimePaths.lists(org, src.list_id),
        kind: REALTIME_EVENT_KINDS.entityUpdated,
        key: `list:${src.list_id}`,
        data: { id: src.list_id, what: 'ideas' },
      });
    },
  });
}
