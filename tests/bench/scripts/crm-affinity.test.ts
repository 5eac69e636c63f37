// `npm run bench:crm:affinity` at a tiny size from an empty database (figures not checked). Each bench script has a
// file of its own so the run's workers take them side by side.
import { it } from 'vitest';
import { runBench } from '../smoke';

it('npm run bench:crm:affinity runs from an empty database (tiny size, figures not checked)', async () => {
  await runBench('crm-sync-affinity.ts', [], { BENCH_AFF_ORGS: '300', BENCH_AFF_PERSONS: '600', BENCH_AFF_CHANGES: '20' });
});
