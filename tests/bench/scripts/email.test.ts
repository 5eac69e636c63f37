// `npm run bench:email` at a tiny size from an empty database (figures not checked). Each bench script has a
// file of its own so the run's workers take them side by side.
import { it } from 'vitest';
import { runBench } from '../smoke';

it('npm run bench:email runs from an empty database (tiny size, figures not checked)', async () => {
  await runBench('email-send.ts', [], {
    BENCH_MAILBOXES: '2',
    BENCH_PER_MAILBOX: '3',
    // Due 5 s after the script schedules them rather than at the start of a coming minute (waiting for
    // a minute to start takes one to two): scheduling six emails takes under a second, also on a
    // loaded machine; everything before the due time is idle waiting.
    BENCH_LEAD_MS: '5000',
    BENCH_WHOLE_MINUTE: '0',
  });
});
