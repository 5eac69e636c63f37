// The other bench scripts at a tiny size: lists, email sending, the CRM syncs, the load run.
import { describe, it } from 'vitest';
import { runBench } from './smoke';

describe('the bench scripts run from an empty database (tiny sizes, figures not checked)', () => {
  it('npm run bench:lists', async () => {
    await runBench('lists.ts', [], { BENCH_LIST_ROWS: '2000' });
  });

  it('npm run bench:email', async () => {
    await runBench('email-send.ts', [], { BENCH_MAILBOXES: '2', BENCH_PER_MAILBOX: '3', BENCH_LEAD_MS: '8000' });
  });

  it('npm run bench:crm', async () => {
    await runBench('crm-sync.ts', [], { BENCH_CRM_ACCOUNTS: '300', BENCH_CRM_CONTACTS: '600', BENCH_CRM_CHANGES: '20' });
  });

  it('npm run bench:crm:affinity', async () => {
    await runBench('crm-sync-affinity.ts', [], { BENCH_AFF_ORGS: '300', BENCH_AFF_PERSONS: '600', BENCH_AFF_CHANGES: '20' });
  });

  it('npm run bench:load', async () => {
    await runBench('load.ts', [], { BENCH_LOAD_COMPANIES: '60', BENCH_LOAD_SECONDS: '2', BENCH_LOAD_CONNECTIONS: '4' });
  });
});
