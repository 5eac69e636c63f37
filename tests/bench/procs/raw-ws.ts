// Raw infrastructure for the realtime benchmark: a plain `ws` server (no hub: no auth, no paths, no
// sequence tracking, no coalescing) with one `pg` connection that LISTENs on a channel and sends each
// NOTIFY payload, serialized once, to every connected socket; or, without the database, what a
// control client sends. What our hub adds is measured against it.
// Each broadcast's send loop is timed (from the event's arrival to the last socket's send()): on
// SIGUSR2 the loops timed since the last signal go to RAW_STATS_FILE as JSON, the floor the API
// process's own fan-out time is compared with.
//   env: DATABASE_URL, PORT, RAW_CHANNEL, RAW_STATS_FILE
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { WebSocketServer, type WebSocket } from 'ws';

const port = Number(process.env.PORT);
const channel = process.env.RAW_CHANNEL ?? 'bench_raw';
const sockets = new Set<WebSocket>();
let loops: number[] = [];
const broadcast = (frame: Buffer) => {
  const t = performance.now();
  for (const s of sockets) s.send(frame, { binary: false });
  loops.push(performance.now() - t);
};
process.on('SIGUSR2', () => {
  if (process.env.RAW_STATS_FILE) writeFileSync(process.env.RAW_STATS_FILE, JSON.stringify({ loopsMs: loops }));
  loops = [];
});
const wss = new WebSocketServer({ host: '127.0.0.1', port, perMessageDeflate: false });
const listening = new Promise<void>((resolve) => wss.once('listening', () => resolve()));
wss.on('connection', (ws) => {
  // A control client sends '!' + an event: it goes to every other socket (ws alone, no database).
  ws.on('message', (raw) => {
    const text = raw.toString();
    if (!text.startsWith('!')) return;
    sockets.delete(ws);
    broadcast(Buffer.from(`{"type":"events","events":[${text.slice(1)}]}`));
  });
  sockets.add(ws);
  ws.on('close', () => sockets.delete(ws));
  ws.on('error', () => sockets.delete(ws));
});
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
client.on('notification', (msg) => {
  broadcast(Buffer.from(`{"type":"events","events":[${msg.payload ?? 'null'}]}`));
});
await client.connect();
await client.query(`listen ${channel}`);
await listening;
process.stdout.write('ready\n');
const stop = async () => {
  for (const ws of sockets) ws.terminate();
  wss.close();
  await client.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
