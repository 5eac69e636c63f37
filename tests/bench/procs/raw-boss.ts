// Raw infrastructure for the jobs benchmark: pg-boss alone. A worker process with the same pg-boss
// settings as our execution queues (NOTIFY wake-up, batch size, local and per-group concurrency,
// per-job results) whose handler does nothing: no execution rows, no claim, no status events.
//   env: DATABASE_URL, RAW_QUEUE, EXECUTION_BATCH_SIZE, EXECUTION_WORKER_CONCURRENCY, EXECUTION_ORG_CONCURRENCY
import { PgBoss, type JobResult } from 'pg-boss';

const queue = process.env.RAW_QUEUE ?? 'bench.raw';
const boss = new PgBoss({
  connectionString: process.env.DATABASE_URL!,
  schema: 'pgboss',
  supervise: true,
  schedule: false,
  useListenNotify: true,
  max: 5,
});
boss.on('error', (err: Error) => process.stderr.write(`pg-boss error: ${err.message}\n`));
await boss.start();
if (!(await boss.getQueue(queue)))
  await boss.createQueue(queue, { retryLimit: 3, retryBackoff: true, deleteAfterSeconds: 3600, notify: true });
await boss.work(
  queue,
  {
    batchSize: Number(process.env.EXECUTION_BATCH_SIZE ?? 16),
    localConcurrency: Number(process.env.EXECUTION_WORKER_CONCURRENCY ?? 4),
    groupConcurrency: Number(process.env.EXECUTION_ORG_CONCURRENCY ?? 16),
    burstWhenBatchFull: true,
    pollingIntervalSeconds: 0.5,
    notifyPollingIntervalSeconds: 2,
    perJobResults: true,
  },
  async (jobs): Promise<JobResult[]> => jobs.map((j) => ({ id: j.id, status: 'completed' })),
);
process.stdout.write('ready\n');
const stop = async () => {
  await boss.stop({ graceful: false });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
