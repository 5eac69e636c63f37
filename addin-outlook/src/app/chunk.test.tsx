// @vitest-environment happy-dom
// A lazily loaded chunk: loaded once, and its parts rendered without suspending once it has loaded
// (a plain lazy() shows its fallback first even then).
import '../../../shared/src/ui/test-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Suspense } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import { chunk, lazyPart } from './chunk';

afterEach(cleanup);

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('lazyPart', () => {
  it('a chunk not loaded yet: loads it once, the fallback showing meanwhile', async () => {
    const importer = vi.fn(async () => ({ Hello }));
    const c = chunk(importer);
    const Part = lazyPart(c, (m) => m.Hello);
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Part name="Jane" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeTruthy();
    expect(await screen.findByText('Hello Jane')).toBeTruthy();
    await c.load();
    expect(importer).toHaveBeenCalledTimes(1);
    expect(c.loaded()).toEqual({ Hello });
  });

  it('a chunk already loaded: the part renders in the first commit, no fallback', async () => {
    const c = chunk(async () => ({ Hello }));
    await c.load();
    const Part = lazyPart(c, (m) => m.Hello);
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Part name="Nina" />
      </Suspense>,
    );
    expect(screen.queryByText('Loading')).toBeNull();
    expect(screen.getByText('Hello Nina')).toBeTruthy();
  });
});
