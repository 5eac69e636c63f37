// The jobs that create the rest of a large enrichment run (its first rows are created with the
// request), and its dead-letter queue, which fails the rows a run could not create (execute.ts).
import { defineJob } from '../../jobs/definitions';
import { EXECUTE_REST_DEAD_LETTER_QUEUE, EXECUTE_REST_QUEUE, ExecuteRestData, createRestOfRun, handleDeadRestOfRun } from './execute';

export const executeRestDeadLetterJob = defineJob({
  queue: EXECUTE_REST_DEAD_LETTER_QUEUE,
  schema: ExecuteRestData,
  queueOptions: { retryLimit: 5, retryBackoff: true, retryDelay: 2, deleteAfterSeconds: 7 * 86_400 },
  workOptions: { localConcurrency: 1 },
  async handle(data, ctx) {
    const missing = await handleDeadRestOfRun(ctx.orm.em.fork(), data);
    ctx.logger.error(
      { enrichmentId: data.enrichmentId, rows: data.items.length, missing },
      'the rest of an enrichment run could not be created',
    );
  },
});

export const executeRestJob = defineJob({
  queue: EXECUTE_REST_QUEUE,
  schema: ExecuteRestData,
  queueOptions: {
    retryLimit: 10,
    retryBackoff: true,
    retryDelay: 2,
    retryDelayMax: 60,
    expireInSeconds: 600,
    deleteAfterSeconds: 3_600,
    notify: true,
    deadLetter: EXECUTE_REST_DEAD_LETTER_QUEUE,
  },
  workOptions: { localConcurrency: 2, notifyPollingIntervalSeconds: 2 },
  async handle(data, ctx) {
    const created = await createRestOfRun(ctx.orm.em.fork(), ctx.boss, data);
    ctx.logger.info({ enrichmentId: data.enrichmentId, rows: data.items.length, created }, 'rest of an enrichment run created');
  },
});
