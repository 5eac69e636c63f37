// Executions and the statuses of cells and results (spec 002 §3 'Execution record', §4, §9 'Other').
// One place for the mapping rules, so enrichments, plays, lists and scores all read the same way.

export const EXECUTION_TYPES = ['enrichment', 'play', 'list', 'score', 'crmsync'] as const;
export type ExecutionType = (typeof EXECUTION_TYPES)[number];

/** Entity types an execution can target (spec 002 §3 Enumerations). */
export const EXECUTION_ENTITY_TYPES = ['contact', 'company', 'enrichment', 'idea', 'list'] as const;
export type ExecutionEntityType = (typeof EXECUTION_ENTITY_TYPES)[number];

/**
 * Statuses of an execution record. 'draft' and 'scheduled' are the initial ones (spec 002 §9);
 * the worker moves a record to 'processing', then to 'completed' or 'error'; 'cancelled' is ours
 * (a user cancelled it, spec 000 §7 POST /play/execution/cancel).
 */
export const EXECUTION_STATUSES = ['draft', 'scheduled', 'processing', 'completed', 'error', 'cancelled'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const ACTIVE_EXECUTION_STATUSES = ['draft', 'scheduled', 'processing'] as const satisfies readonly ExecutionStatus[];
export const TERMINAL_EXECUTION_STATUSES = ['completed', 'error', 'cancelled'] as const satisfies readonly ExecutionStatus[];

/** Execution records start as scheduled (enrichment, list) or draft (play, score). */
export function initialExecutionStatus(type: ExecutionType): 'scheduled' | 'draft' {
  return type === 'enrichment' || type === 'list' ? 'scheduled' : 'draft';
}

export function isTerminalExecutionStatus(status: string): boolean {
  return (TERMINAL_EXECUTION_STATUSES as readonly string[]).includes(status);
}

export const EXECUTION_MESSAGES = {
  notFound: 'Execution not found.',
  alreadyFinished: 'Execution has already finished.',
  cancelled: 'Execution cancelled.',
  retrying: 'Retrying…',
  timedOut: 'The execution did not finish in time.',
  unexpected: 'The execution failed unexpectedly.',
  noHandler: 'This kind of execution cannot run yet.',
  notCancellable: 'An upload cannot be cancelled: it is added whole or not at all.',
} as const;

/**
 * The idempotency key's prefix of a CSV upload's execution (the import runs in its request, one
 * transaction: it shows its progress like a run but cannot be cancelled).
 */
export const CSV_IMPORT_KEY_PREFIX = 'csv-import:';

/** Whether an execution can be cancelled (every one but a CSV upload's). */
export function executionCancellable(e: { type: string; idempotencyKey?: string | null }): boolean {
  return !(e.type === 'list' && (e.idempotencyKey ?? '').startsWith(CSV_IMPORT_KEY_PREFIX));
}

/**
 * The error notice raised when an execution fails for good. Enrichment and play use the spec's
 * texts (002 §8 'Error executing enrichment', 000 §8 'Play execution failed'); list and score
 * follow the same pattern.
 */
export const EXECUTION_FAILED_NOTICES: Record<ExecutionType, string> = {
  enrichment: 'Error executing enrichment',
  play: 'Play execution failed',
  list: 'List execution failed',
  score: 'Score execution failed',
  /** 001 §8 'CRM sync toasts'. */
  crmsync: 'Error syncing data',
};

export function executionFailedNotice(type: ExecutionType, statusMessage?: string | null): string {
  const base = EXECUTION_FAILED_NOTICES[type];
  return statusMessage ? `${base}: ${statusMessage}` : base;
}

// ---------- cells and results (spec 002 §4) ----------

export const RESULT_STATUSES = ['ready', 'preprocessing', 'processing', 'completed', 'error'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** For company and contact cells, completed is shown as ready. */
export function cellStatusFor(entityType: string, status: ResultStatus): ResultStatus {
  return status === 'completed' && (entityType === 'company' || entityType === 'contact') ? 'ready' : status;
}

/**
 * A queue or execution status as a result status: a queue task error maps to error; the queue
 * statuses pending, inqueue, scheduled and processing (and our draft) map to processing.
 */
export function resultStatusOfExecution(status: string): ResultStatus {
  switch (status) {
    case 'error':
      return 'error';
    case 'completed':
      return 'completed';
    case 'pending':
    case 'inqueue':
    case 'scheduled':
    case 'processing':
    case 'draft':
      return 'processing';
    case 'preprocessing':
      return 'preprocessing';
    default:
      return 'ready';
  }
}

export const IDEA_RESULT_DEFAULT_ERROR = 'Error parsing data';

export interface IdeaEnrichmentResult {
  status: 'completed' | 'error' | 'processing';
  message: string | null;
  value: unknown;
}

/**
 * An idea's enrichment result from its execution (spec 002 §4 'Idea enrichment results'):
 * completed gives completed, error gives error (message defaulting to 'Error parsing data'),
 * anything else processing. A string answer that does not parse as structured data becomes
 * completed with the string as an `answer` field.
 */
export function ideaEnrichmentResult(status: string, statusMessage: string | null | undefined, answer?: unknown): IdeaEnrichmentResult {
  if (status === 'error') return { status: 'error', message: statusMessage || IDEA_RESULT_DEFAULT_ERROR, value: null };
  if (status !== 'completed') return { status: 'processing', message: null, value: null };
  if (typeof answer === 'string') {
    try {
      const parsed: unknown = JSON.parse(answer);
      if (parsed !== null && typeof parsed === 'object') return { status: 'completed', message: null, value: parsed };
    } catch {
      /* not structured data */
    }
    return { status: 'completed', message: null, value: { answer } };
  }
  return { status: 'completed', message: null, value: answer ?? null };
}

export type ListSourceProgress = 'in_progress' | 'completed' | 'failed';

/** What an execution event means to the client that follows it (spec 002 §4). */
export interface ExecutionEffect {
  /** Remove the execution and delete its realtime node. */
  dropNode: boolean;
  /** List executions: the source's state (null = unchanged). */
  listSource: ListSourceProgress | null;
  /** Reload the list (list execution completed or errored; drafts then become ready to fetch). */
  reloadList: boolean;
  /** Reload the ideas (a score execution completed). */
  reloadIdeas: boolean;
  /** Drafts can be fetched (a play execution completed or errored). */
  draftsFetchable: boolean;
  /** Raise a failed-execution notice (a play execution errored). */
  failedNotice: boolean;
}

export function executionEffect(type: ExecutionType, status: string): ExecutionEffect {
  const done = status === 'completed' || status === 'error';
  const effect: ExecutionEffect = {
    dropNode: done || status === 'cancelled',
    listSource: null,
    reloadList: false,
    reloadIdeas: false,
    draftsFetchable: false,
    failedNotice: false,
  };
  switch (type) {
    case 'list':
      // processing → source in progress; completed → completed; error → failed; other statuses only drop the node.
      if (status === 'processing') return { ...effect, dropNode: false, listSource: 'in_progress' };
      if (status === 'completed') return { ...effect, dropNode: true, listSource: 'completed', reloadList: true };
      if (status === 'error') return { ...effect, dropNode: true, listSource: 'failed', reloadList: true };
      return { ...effect, dropNode: true };
    case 'score':
      return { ...effect, reloadIdeas: status === 'completed' };
    case 'play':
      return { ...effect, draftsFetchable: done, failedNotice: status === 'error' };
    default:
      return effect;
  }
}
