// `npm run bench:lists` at a tiny size from an empty database (figures not checked). Each bench script has a
// file of its own so the run's workers take them side by side.
import { it } from 'vitest';
import { runBench } from '../smoke';

it('npm run bench:lists runs from an empty database (tiny size, figures not checked)', async () => {
  await runBench('lists.ts', [], { BENCH_LIST_ROWS: '2000' });
});
