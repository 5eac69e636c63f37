// An app closed right after it was built: nothing it started may still hold a connection of the
// ORM's pool, or `orm.close()` (the tests' teardown, the process's shutdown) waits for it for ever.
import { expect, it, vi } from 'vitest';
import { createTestApp } from './helpers';

it('an app closed as soon as it is ready closes its ORM at once', async () => {
  // A spy that still writes: the teardown says on stderr which step it gave up waiting for.
  const spy = vi.spyOn(process.stderr, 'write');
  try {
    const ctx = await createTestApp();
    const started = performance.now();
    await ctx.close();
    // The teardown bounds each step at 10 s; a close that waits on a leftover connection takes all of it.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(spy.mock.calls.map(([chunk]) => String(chunk)).filter((line) => line.includes('did not finish'))).toEqual([]);
  } finally {
    spy.mockRestore();
  }
});
