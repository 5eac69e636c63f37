// `npm run bench:load` at a tiny size from an empty database (figures not checked). Each bench script has a
// file of its own so the run's workers take them side by side.
import { it } from 'vitest';
import { runBench } from '../smoke';

it('npm run bench:load runs from an empty database (tiny size, figures not checked)', async () => {
  await runBench('load.ts', [], { BENCH_LOAD_COMPANIES: '60', BENCH_LOAD_SECONDS: '1', BENCH_LOAD_CONNECTIONS: '4' });
});
