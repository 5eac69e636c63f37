// `npm run bench` at a tiny size: the companies table, its data set seeded from an empty database.
import { describe, it, expect } from 'vitest';
import { runBench } from './smoke';

describe('npm run bench runs from an empty database (tiny size, figures not checked)', () => {
  it('the companies table: seeds its data set, pages, exports', async () => {
    const out = await runBench(
      'run.ts',
      ['--only', 'first-search-filter,first-50,random-50,first-1000', '--runs', '1', '--requests', '2', '--warmup', '1'],
      {
        BENCH_SCALE: '0.001',
      },
    );
    expect(out).toContain('seeding');
  });
});
