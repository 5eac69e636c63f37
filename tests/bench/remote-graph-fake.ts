// The loopback fake of Microsoft Graph in a process of its own, for the email bench: Microsoft's
// side of a send does not run on our CPU in production, so in the bench it must not take the worker
// process's event loop either (in the same process it was ~0.45 ms of the ~4.3 ms of CPU per email).
// The bench drives it over IPC: the few calls it needs (add a user, consent, the Sent Items, the
// 429 count), in the order they are made.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FakeGraphServer } from '../../server/test/fakes/graph-server';
import type { FakeGraphLike } from '../../server/test/mailbox';

type Call = { id: number; method: 'addUser' | 'consent' | 'sent' | 'throttledCount' | 'close'; args: unknown[] };
type Answer = { id: number; result?: unknown; error?: string };

export interface RemoteGraphFake extends FakeGraphLike {
  url: string;
  clientId: string;
  clientSecret: string;
  sent(): Promise<{ subject: string }[]>;
  throttledCount(): Promise<number>;
  close(): Promise<void>;
}

/** Starts the fake in a child process (this file run with `--child`) and answers a proxy of it. */
export async function startRemoteGraphFake(): Promise<RemoteGraphFake> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ url: string; clientId: string; clientSecret: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; clientId: string; clientSecret: string }));
    child.once('exit', (code) => reject(new Error(`the Graph fake process exited (${code})`)));
  });
  let next = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  child.on('message', (m) => {
    const a = m as Answer;
    const w = waiting.get(a.id);
    if (!w) return;
    waiting.delete(a.id);
    if (a.error) w.reject(new Error(a.error));
    else w.resolve(a.result);
  });
  const call = <T>(method: Call['method'], ...args: unknown[]) =>
    new Promise<T>((resolve, reject) => {
      const id = (next += 1);
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, method, args } satisfies Call);
    });
  return {
    ...ready,
    addUser: (u) => call('addUser', u),
    consent: (authorizeUrl, mail) => call<string>('consent', authorizeUrl, mail),
    sent: () => call('sent'),
    throttledCount: () => call('throttledCount'),
    close: async () => {
      await call('close');
      child.disconnect();
    },
  };
}

if (process.argv.includes('--child')) {
  const fake = await FakeGraphServer.start();
  process.on('message', (m) => {
    const c = m as Call;
    void (async () => {
      try {
        let result: unknown;
        if (c.method === 'addUser') result = (fake.addUser(c.args[0] as Parameters<FakeGraphServer['addUser']>[0]), null);
        else if (c.method === 'consent') result = await fake.consent(c.args[0] as string, c.args[1] as string);
        else if (c.method === 'sent') result = fake.sent().map((s) => ({ subject: s.subject }));
        else if (c.method === 'throttledCount') result = fake.throttledCount;
        else {
          await fake.close();
          result = null;
        }
        process.send!({ id: c.id, result } satisfies Answer);
      } catch (err) {
        process.send!({ id: c.id, error: (err as Error).message } satisfies Answer);
      }
    })();
  });
  process.send!({ url: fake.url, clientId: fake.clientId, clientSecret: fake.clientSecret });
}
