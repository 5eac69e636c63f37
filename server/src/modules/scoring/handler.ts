// The execution handler of score runs: one execution = one model over a scope of ideas (score_run).
//
//   run()   reads the ideas in id order, BATCH at a time, with every value the model reads (one
//           statement per batch: idea columns, the source row's data, enrichment results by path),
//           scores them with the domain's scoreValues() — the same function the editor's preview and
//           the property test use — and writes the batch's results in one statement. Writing is
//           idempotent (an idea's entry for the model is replaced), so a retried or resumed run
//           writes the same; a cancelled run stops between batches and keeps what it wrote. The
//           next batch is read while the previous one is written.
//   commit() nothing more: the completion event tells the list page to reload its ideas.
import type { IdeaFilters } from '@dealscout/shared/contracts';
import type { ScoreRuleSet } from '@dealscout/shared/domain';
import { SCORING_MESSAGES } from '@dealscout/shared/domain';
import { defineExecutionHandler, ExecutionError, type ExecutionHandler } from '../executions/runner';
import { readIdeaBatch, scoreIdeas, writeScores } from './scoring.service';
import { tenantSql } from '../../db/sql';

export const SCORE_BATCH = 5_000;

export interface ScoreRunOutcome { scored: number }

export function createScoreHandler(opts: { batch?: number } = {}): ExecutionHandler<ScoreRunOutcome> {
  const batch = opts.batch ?? SCORE_BATCH;
  return defineExecutionHandler<ScoreRunOutcome>({
    type: 'score',
    async run(ctx) {
      const row = ctx.execution;
      const org = row.organization_id;
      const [run] = await tenantSql(ctx.em, org).all<{ model_id: string; list_id: string; idea_ids: string[] | null; filters: IdeaFilters | null; rule_sets: ScoreRuleSet[] }>(
        `select s.model_id, s.list_id, s.idea_ids, s.filters, m.rule_sets from score_run s join scoring_model m on m.organization_id = s.organization_id and m.id = s.model_id
          where s.organization_id = ? and s.id = ?`, [org, row.id]);
      if (!run) throw new ExecutionError(SCORING_MESSAGES.notFound);
      const scope = { listId: run.list_id, ideaIds: run.idea_ids, filters: run.filters };
      const total = row.total ?? null;
      let done = 0;
      let next = readIdeaBatch(ctx.em, org, scope, run.rule_sets, null, batch);
      for (;;) {
        const ideas = await next;
        if (ideas.length === 0) break;
        if (ctx.signal.aborted) throw new ExecutionError('Cancelled');
        // Read ahead on a second connection while this batch is written.
        next = ideas.length < batch ? Promise.resolve([]) : readIdeaBatch(ctx.em.fork(), org, scope, run.rule_sets, ideas[ideas.length - 1]!.id, batch);
        await writeScores(ctx.em, org, run.model_id, row.id, scoreIdeas(run.rule_sets, ideas));
        done += ideas.length;
        await ctx.progress(done, total !== null ? Math.max(total, done) : null);
      }
      return { scored: done };
    },
  });
}

export const scoreExecutionHandler = createScoreHandler();
