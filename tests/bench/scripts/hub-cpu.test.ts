// tests/bench/hub-cpu.ts at a tiny size: the hub's private parts it drives still exist and a round
// still reaches every fake socket (figures not checked).
import { describe, it, expect } from 'vitest';
import { runBench } from '../smoke';

describe('the realtime hub CPU bench runs (tiny size, figures not checked)', () => {
  it('dispatches to every fake socket and prints its CPU per frame', async () => {
    const out = await runBench('hub-cpu.ts', [], { SOCKETS: '50', ROUNDS: '6' }, 60_000);
    expect(out).toMatch(/50 sockets, 6 rounds: 300 frames, [\d.]+ µs of CPU per frame/);
  });
});
