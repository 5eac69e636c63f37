// The progress line of a long run (an enrichment or a play over many rows, a score run, a list
// source, a CRM sync): done / total, failed, the rate and the time left. The server counts; the rate
// and the time left are worked out here from what the client has seen (progressRate).
import type { ExecutionType } from './executions';

export interface ProgressCounts {
  total: number | null;
  done: number;
  failed: number;
  cancelled: number;
  status: 'running' | 'completed' | 'cancelled' | 'error';
}

/** One observation of a run: when (ms) and how many rows were settled by then. */
export interface ProgressSample {
  at: number;
  settled: number;
}

/** How much of the run is behind us: its rows done or failed (cancelled ones will not run). */
export function settledOf(p: ProgressCounts): number {
  return p.done + p.failed;
}

/**
 * Rows per second: over the samples of the last `windowMs` (the recent pace, so a run that speeds
 * up or slows down shows it), else since the run started. Null until something was settled.
 */
export function progressRate(samples: readonly ProgressSample[], startedAt: number, now: number, windowMs = 20_000): number | null {
  const recent = samples.filter((s) => s.at >= now - windowMs);
  if (recent.length >= 2) {
    const first = recent[0]!;
    const last = recent[recent.length - 1]!;
    const dt = (last.at - first.at) / 1000;
    if (dt >= 1 && last.settled > first.settled) return (last.settled - first.settled) / dt;
  }
  const last = samples[samples.length - 1];
  if (!last || last.settled <= 0) return null;
  const dt = (Math.max(last.at, now) - startedAt) / 1000;
  return dt > 0 ? last.settled / dt : null;
}

/** '7.2 rows/s', '45 rows/min' (slower than one a second), '1,204 rows/s'. */
export function formatRate(perSecond: number | null): string | null {
  if (perSecond === null || !Number.isFinite(perSecond) || perSecond <= 0) return null;
  if (perSecond < 1) return `${Math.max(1, Math.round(perSecond * 60)).toLocaleString('en-US')} rows/min`;
  if (perSecond < 10) return `${(Math.round(perSecond * 10) / 10).toLocaleString('en-US')} rows/s`;
  return `${Math.round(perSecond).toLocaleString('en-US')} rows/s`;
}

/** 'about 25 s left', 'about 3 min left', 'about 1 h 5 min left'; 'almost done' under 5 s. */
export function formatTimeLeft(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return null;
  if (seconds < 5) return 'almost done';
  if (seconds < 60) return `about ${Math.round(seconds / 5) * 5} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `about ${h} h${m ? ` ${m} min` : ''} left`;
}

/** Seconds left at this rate (null when unknown). */
export function timeLeft(p: ProgressCounts, perSecond: number | null): number | null {
  if (p.total === null || perSecond === null || perSecond <= 0) return null;
  const left = p.total - settledOf(p) - p.cancelled;
  return left <= 0 ? 0 : left / perSecond;
}

/** What a run of this type does, for its progress line. */
export const RUN_LABELS: Record<ExecutionType, string> = {
  enrichment: 'Enriching',
  play: 'Running play',
  score: 'Scoring',
  list: 'Adding ideas',
  crmsync: 'Syncing with the CRM',
};

const n = (x: number) => x.toLocaleString('en-US');

/**
 * The line's text: '120 / 295 done · 3 failed · 7.2 rows/s · about 25 s left' while running;
 * 'Done: 295 / 295 · 3 failed', 'Cancelled: 120 / 295 done', 'Failed' when it ended.
 */
export function progressText(p: ProgressCounts, perSecond: number | null): string {
  const of = p.total === null ? `${n(p.done)} done` : `${n(p.done)} / ${n(p.total)} done`;
  const failed = p.failed > 0 ? ` · ${n(p.failed)} failed` : '';
  if (p.status === 'completed') return `Done: ${p.total === null ? n(p.done) : `${n(p.done)} / ${n(p.total)}`}${failed}`;
  if (p.status === 'cancelled') return `Cancelled: ${of}${failed}`;
  if (p.status === 'error') return `Failed: ${of}`;
  const rate = formatRate(perSecond);
  const left = formatTimeLeft(timeLeft(p, perSecond));
  return [of + failed, rate, left].filter(Boolean).join(' · ');
}

/** The fraction for a progress bar (null: unknown total). */
export function progressFraction(p: ProgressCounts): number | null {
  if (p.total === null || p.total <= 0) return p.status === 'running' ? null : 1;
  return Math.min(1, (settledOf(p) + p.cancelled) / p.total);
}
