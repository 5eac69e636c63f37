// What a run will take before it starts: the model calls, the
// organization's AI credits it uses out of those remaining, the expected time at the current
// limits, and whether it would exceed the credits. One model call is one AI credit
// (server/src/providers/llm/credits.ts); a null credit total is unlimited.

export interface RunCostInput {
  rows: number;
  /** Model calls one row takes (at most, when `upTo`). */
  callsPerRow: number;
  /** Agents stop early: the calls are a ceiling. */
  upTo?: boolean;
  creditsTotal: number | null;
  creditsUsed: number;
  /** The organization's concurrency for these calls. */
  concurrency: number;
  /** Seconds one model call takes, about. */
  secondsPerCall?: number;
  /** Seconds a row without a model call takes, about. */
  secondsPerRowWithoutModel?: number;
}

export interface RunCost {
  modelCalls: number;
  creditsRemaining: number | null;
  creditsTotal: number | null;
  exceedsCredits: boolean;
  concurrency: number;
  expectedSeconds: number;
  upTo: boolean;
  message: string;
}

export function formatDuration(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

export function runCost(i: RunCostInput): RunCost {
  const calls = Math.max(0, Math.round(i.rows * i.callsPerRow));
  const remaining = i.creditsTotal === null ? null : Math.max(0, i.creditsTotal - i.creditsUsed);
  const concurrency = Math.max(1, i.concurrency);
  const seconds =
    calls === 0 ? Math.ceil(i.rows * (i.secondsPerRowWithoutModel ?? 0.005)) : Math.ceil((calls / concurrency) * (i.secondsPerCall ?? 2));
  const upTo = !!i.upTo && calls > 0;
  // A ceiling exceeds the credits for sure only when even one call per row does not fit.
  const exceeds = remaining !== null && calls > 0 && (upTo ? i.rows > remaining : calls > remaining);
  const callsText = `${upTo ? 'up to ' : ''}${calls.toLocaleString('en-US')} model call(s)`;
  const message = exceeds
    ? `This run needs ${upTo ? 'at least ' : ''}${(upTo ? i.rows : calls).toLocaleString('en-US')} AI credits; ${remaining!.toLocaleString('en-US')} remain.`
    : `${callsText}, about ${formatDuration(seconds)}.`;
  return {
    modelCalls: calls,
    creditsRemaining: remaining,
    creditsTotal: i.creditsTotal,
    exceedsCredits: exceeds,
    concurrency,
    expectedSeconds: seconds,
    upTo,
    message,
  };
}
