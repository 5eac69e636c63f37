// A worker process's CPU priority (WORKER_NICE): background work on a host it shares with API
// processes (or PostgreSQL) takes the CPU only when they leave it, as the jobs of a one-process
// install yield to its requests in the same event loop.
import fs from 'node:fs';
import os from 'node:os';

/**
 * Lowers this process's scheduling priority to at least `nice` (0–19; never raises it, e.g. over a
 * systemd `Nice=`). Linux keeps a nice value per thread: every thread running now (V8's, libuv's)
 * is set, and threads started later inherit it from the main thread. Returns the nice value in effect.
 */
export function lowerPriority(nice: number): number {
  const target = Math.max(nice, os.getPriority(0));
  if (target === os.getPriority(0)) return target;
  let tids: number[] = [];
  try {
    tids = fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    /* not Linux: the process-wide call below is all there is */
  }
  os.setPriority(0, target);
  for (const tid of tids) {
    try {
      os.setPriority(tid, target);
    } catch {
      /* a thread that ended meanwhile */
    }
  }
  return target;
}
