// `npm run bench:crm` at a tiny size from an empty database (figures not checked). Each bench script has a
// file of its own so the run's workers take them side by side.
import { it } from 'vitest';
import { runBench } from '../smoke';

it('npm run bench:crm runs from an empty database (tiny size, figures not checked)', async () => {
  await runBench('crm-sync.ts', [], { BENCH_CRM_ACCOUNTS: '300', BENCH_CRM_CONTACTS: '600', BENCH_CRM_CHANGES: '20' });
});
