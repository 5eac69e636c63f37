// lowerPriority (WORKER_NICE) in a process of its own: a nice value cannot be lowered back without
// privileges, so the test runner's own process is left alone.
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const MODULE = pathToFileURL(path.resolve('server/src/lib/priority.ts')).href;

/** Runs `before` then lowerPriority(nice) in a new Node process; its answer and every thread's nice value. */
function run(nice: number, before = ''): { answer: number; threads: number[] } {
  const code = `
    import fs from 'node:fs';
    import os from 'node:os';
    const { lowerPriority } = await import(${JSON.stringify(MODULE)});
    ${before}
    const answer = lowerPriority(${nice});
    const threads = fs.readdirSync('/proc/self/task').map((t) => {
      const stat = fs.readFileSync('/proc/self/task/' + t + '/stat', 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
    console.log(JSON.stringify({ answer, threads }));`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code]).toString());
}

describe('lowerPriority', () => {
  it('sets every thread of the process, V8 and libuv ones included', () => {
    const { answer, threads } = run(10);
    expect(answer).toBe(10);
    expect(threads.length).toBeGreaterThan(1);
    expect(threads.every((n) => n === 10)).toBe(true);
  });

  it('never raises a priority already lower than asked (a supervisor’s Nice=)', () => {
    expect(run(5, 'os.setPriority(0, 15);').answer).toBe(15);
  });
});
