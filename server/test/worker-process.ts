// A real worker process (`main.ts --role worker`) for the crash and stop tests: spawned with the
// test's environment and database, its output kept, killable with -9 or stopped with a signal.
import { spawn, type ChildProcess } from 'node:child_process';
import { eventually } from './execution-harness';
import { mainArgs } from './main-bundle';

export interface WorkerProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * Starts a worker process on `databaseUrl` with `env` added to this process's environment, and
 * waits until it says 'worker started'. The caller kills what it started (`killWorkers`).
 */
export async function startWorkerProcess(databaseUrl: string, env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [...mainArgs(), '--role', 'worker'], {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', ...env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const w = { child, output: () => out, exited };
  try {
    await eventually(async () => (out.includes('worker started') ? true : undefined), `the worker process to start (${out})`, 90_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return w;
}

/** Kills (-9) every worker still running in `workers` and waits for each to exit; empties the list. */
export async function killWorkers(workers: WorkerProcess[]): Promise<void> {
  for (const w of workers.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await w.exited;
  }
}
