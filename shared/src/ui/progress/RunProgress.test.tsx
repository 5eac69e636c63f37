// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RunProgressDto } from '../../contracts';
import { formatRate, formatTimeLeft, progressRate, progressText, timeLeft } from '../../domain';
import { fakeApi, renderWithApi } from '../test-render';
import { RunProgress, applyProgressEvent, mergeProgress, runProgressKey } from './RunProgress';

afterEach(cleanup);

const run = (over: Partial<RunProgressDto> = {}): RunProgressDto => ({
  id: '11111111-1111-4111-8111-111111111111',
  kind: 'run',
  type: 'enrichment',
  typeId: null,
  entityType: 'idea',
  status: 'running',
  total: 295,
  done: 0,
  failed: 0,
  cancelled: 0,
  startedAt: new Date().toISOString(),
  finishedAt: null,
  ...over,
});

describe('progress formatting (rate and time left)', () => {
  it('formats the rate per second, per minute when slower than one a second, with separators', () => {
    expect(formatRate(7.24)).toBe('7.2 rows/s');
    expect(formatRate(12.6)).toBe('13 rows/s');
    expect(formatRate(1234.4)).toBe('1,234 rows/s');
    expect(formatRate(0.5)).toBe('30 rows/min');
    expect(formatRate(0.001)).toBe('1 rows/min');
    expect(formatRate(null)).toBeNull();
    expect(formatRate(0)).toBeNull();
  });

  it('formats the time left in seconds, minutes, hours', () => {
    expect(formatTimeLeft(3)).toBe('almost done');
    expect(formatTimeLeft(23)).toBe('about 25 s left');
    expect(formatTimeLeft(59)).toBe('about 60 s left');
    expect(formatTimeLeft(61)).toBe('about 1 min left');
    expect(formatTimeLeft(25 * 60)).toBe('about 25 min left');
    expect(formatTimeLeft(65 * 60)).toBe('about 1 h 5 min left');
    expect(formatTimeLeft(2 * 3600)).toBe('about 2 h left');
    expect(formatTimeLeft(null)).toBeNull();
  });

  it('works the rate out from the recent samples, else since the start; the time left from what remains', () => {
    const t0 = 1_000_000;
    // 10 rows in the last 2 s: 5/s (the first 20 s went slower).
    expect(
      progressRate(
        [
          { at: t0 + 20_000, settled: 20 },
          { at: t0 + 22_000, settled: 30 },
        ],
        t0,
        t0 + 22_000,
      ),
    ).toBe(5);
    // One sample: since the start (30 rows in 10 s).
    expect(progressRate([{ at: t0 + 10_000, settled: 30 }], t0, t0 + 10_000)).toBe(3);
    expect(progressRate([], t0, t0 + 5_000)).toBeNull();
    expect(timeLeft({ total: 295, done: 120, failed: 5, cancelled: 0, status: 'running' }, 5)).toBe(34);
    expect(timeLeft({ total: null, done: 1, failed: 0, cancelled: 0, status: 'running' }, 5)).toBeNull();
  });

  it('writes the line: done / total, failed, rate and time left while running; the outcome once ended', () => {
    expect(progressText({ total: 295, done: 120, failed: 3, cancelled: 0, status: 'running' }, 7.2)).toBe(
      '120 / 295 done · 3 failed · 7.2 rows/s · about 25 s left',
    );
    expect(progressText({ total: 1500, done: 0, failed: 0, cancelled: 0, status: 'running' }, null)).toBe('0 / 1,500 done');
    expect(progressText({ total: 295, done: 292, failed: 3, cancelled: 0, status: 'completed' }, 7)).toBe('Done: 292 / 295 · 3 failed');
    expect(progressText({ total: 295, done: 40, failed: 0, cancelled: 255, status: 'cancelled' }, 7)).toBe('Cancelled: 40 / 295 done');
  });

  it('merges views of a run: counters never go back, an ended run stays ended', () => {
    const a = run({ done: 50, failed: 2 });
    expect(mergeProgress(a, run({ done: 40, failed: 3 }))).toMatchObject({ done: 50, failed: 3 });
    expect(mergeProgress(run({ status: 'cancelled' }), run({ status: 'running' })).status).toBe('cancelled');
  });
});

describe('RunProgress', () => {
  it('shows done / total from the server, follows realtime events, and Cancel cancels the run', async () => {
    const user = userEvent.setup();
    const id = run().id;
    const progress = vi.fn(async () => ({ success: true as const, runs: [run({ done: 10 })] }));
    const cancelRun = vi.fn(async () => ({
      success: true as const,
      message: 'Execution cancelled.',
      run: run({ done: 60, status: 'cancelled', cancelled: 235, finishedAt: new Date().toISOString() }),
    }));
    const { queryClient } = renderWithApi(<RunProgress id={id} />, fakeApi({ executions: { progress, cancelRun } }));
    const line = await screen.findByTestId('run-progress');
    await waitFor(() => expect(line.getAttribute('data-done')).toBe('10'));
    expect(progress).toHaveBeenCalledWith([id]);
    expect(screen.getByTestId('run-progress-text').textContent).toMatch(/^10 \/ 295 done/);
    expect(line.textContent).toContain('Enriching');
    // A 'run.progress' event moves it on.
    act(() =>
      applyProgressEvent(queryClient, {
        seq: 1,
        path: 'org/x/executions/enrichment/idea',
        kind: 'run.progress',
        key: `run:${id}`,
        data: run({ done: 50, failed: 2 }),
      } as never),
    );
    await waitFor(() => expect(line.getAttribute('data-done')).toBe('50'));
    expect(screen.getByTestId('run-progress-text').textContent).toMatch(/^50 \/ 295 done · 2 failed/);
    await user.click(screen.getByTestId('run-progress-cancel'));
    expect(cancelRun).toHaveBeenCalledWith(id);
    await waitFor(() => expect(line.getAttribute('data-status')).toBe('cancelled'));
    expect(screen.getByTestId('run-progress-text').textContent).toBe('Cancelled: 60 / 295 done · 2 failed');
    expect(screen.queryByTestId('run-progress-cancel')).toBeNull();
    expect(queryClient.getQueryData<RunProgressDto>(runProgressKey(id))?.status).toBe('cancelled');
  });
});
