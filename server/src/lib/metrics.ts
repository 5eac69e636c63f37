// The process's work metrics (prom-client): what the jobs and the outside adapters of this process
// did, whichever role it runs. One registry per process (the adapters are module-level code and a
// worker has no app); the API's GET /metrics and a worker's metrics listener (METRICS_PORT,
// modules/system/worker-metrics.ts) serve it after their own. Counters only grow: Prometheus'
// rate() gives the per-second figures (records synced per second, calls per minute).
//
// Labels are bounded: a provider source, a queue name, an outcome; never an organization, a mailbox
// address or a URL.
import { Counter, Histogram, Registry } from 'prom-client';

export const workRegistry = new Registry();

/** The role label of every series of this process (main.ts, buildApp). */
export function setMetricsRole(role: string): void {
  workRegistry.setDefaultLabels({ role });
}

/** One answer (or failure) of the model provider: every HTTP attempt, retries included. */
export const llmRequests = new Counter({
  name: 'dealscout_llm_requests_total',
  help:
    'Requests sent to the language-model provider (every attempt), by provider source and outcome (ok, ' +
    'rate_limited = 429, server_error, connection_error, timeout, rejected)',
  labelNames: ['provider', 'outcome'] as const,
  registers: [workRegistry],
});
export const llmRetries = new Counter({
  name: 'dealscout_llm_retries_total',
  help: 'Model requests sent again after a 429, a 5xx or a connection failure, by provider source',
  labelNames: ['provider'] as const,
  registers: [workRegistry],
});
export const llmCalls = new Counter({
  name: 'dealscout_llm_calls_total',
  help: 'Model calls (one answer wanted, retries included), by provider source and result (ok or the error kind)',
  labelNames: ['provider', 'result'] as const,
  registers: [workRegistry],
});
export const llmCallDuration = new Histogram({
  name: 'dealscout_llm_call_duration_seconds',
  help: 'Model call latency, retries and their waits included, by provider source',
  labelNames: ['provider'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120],
  registers: [workRegistry],
});

/** One send attempt's outcome (email/send/send.ts). */
export const emailSends = new Counter({
  name: 'dealscout_email_sends_total',
  help:
    'Email send attempts through Microsoft Graph by outcome: sent, refused (4xx), throttled (429 by the mailbox ' +
    'sending rate), concurrency_limited (429 MailboxConcurrency), transient (5xx, timeouts), mailbox_unavailable',
  labelNames: ['outcome'] as const,
  registers: [workRegistry],
});

/** CRM records written by a sync (counted when their page commits). */
export const crmSyncRecords = new Counter({
  name: 'dealscout_crm_sync_records_total',
  help: 'CRM records handled by syncs (rate() = records per second), by direction, entity and result',
  labelNames: ['direction', 'entity', 'result'] as const,
  registers: [workRegistry],
});

/** Jobs this process ran (jobs/definitions.ts). */
export const jobsRun = new Counter({
  name: 'dealscout_jobs_total',
  help: 'pg-boss jobs run by this process, by queue and result (completed, failed)',
  labelNames: ['queue', 'result'] as const,
  registers: [workRegistry],
});
export const jobDuration = new Histogram({
  name: 'dealscout_job_duration_seconds',
  help: 'Time a fetched batch of jobs took in its handler, by queue',
  labelNames: ['queue'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [workRegistry],
});

/** Executions this process finished (executions/runner.ts): completed, or error once their retries are spent. */
export const executionsFinished = new Counter({
  name: 'dealscout_executions_finished_total',
  help: 'Executions finished by this process, by type and state (completed, error)',
  labelNames: ['type', 'status'] as const,
  registers: [workRegistry],
});
