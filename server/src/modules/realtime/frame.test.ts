import { describe, it, expect, afterEach } from 'vitest';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import { Socket, type AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { payloadOf, textFrame, writeFrame, type WsInternals } from './frame';

// What `ws` itself would put on the wire for socket.send(payload) from a server (unmasked, one
// fragment, no compression): the hub writes these bytes straight to the TCP socket.
type FrameFn = (data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }) => Buffer[];
const require = createRequire(import.meta.url);
const { Sender } = require('ws') as { Sender: { frame: FrameFn } };
const wsFrame = (payload: Buffer) =>
  Buffer.concat(Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }));

/** A ws server on loopback and one client connected to it; `server` is the server side of that connection. */
async function pair(opts: { perMessageDeflate?: boolean } = {}) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: opts.perMessageDeflate ?? false });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const serverSide = new Promise<WebSocket>((r) => wss.once('connection', (ws) => r(ws)));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, {
    perMessageDeflate: opts.perMessageDeflate ?? false,
  });
  const received: string[] = [];
  client.on('message', (raw) => received.push(raw.toString()));
  await new Promise<void>((r) => client.once('open', () => r()));
  const server = await serverSide;
  const close = async () => {
    client.close();
    await new Promise<void>((r) => wss.close(() => r()));
  };
  cleanups.push(close);
  return { server, client, received };
}
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('textFrame', () => {
  it.each([0, 1, 125, 126, 400, 65_535, 65_536, 200_000])('is the frame ws sends for a %i-byte text message', (n) => {
    const payload = Buffer.from('é'.repeat(Math.ceil(n / 2))).subarray(0, n);
    expect(textFrame(payload).equals(wsFrame(payload))).toBe(true);
    expect(payloadOf(textFrame(payload)).equals(payload)).toBe(true);
  });
});

describe('writeFrame and the ws internals it relies on (fails when a ws upgrade changes them)', () => {
  it('ws is pinned to an exact version, the one installed and the one @fastify/websocket serves the hub with', () => {
    const pinned = (
      JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies.ws;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const installed = (JSON.parse(fs.readFileSync(require.resolve('ws/package.json'), 'utf8')) as { version: string }).version;
    expect(installed).toBe(pinned);
    const viaPlugin = createRequire(require.resolve('@fastify/websocket'))('ws/package.json') as { version: string };
    expect(viaPlugin.version).toBe(pinned);
  });

  it("an open server socket has the private fields the shortcut reads: its TCP socket and an idle sender's state and queue", async () => {
    const { server } = await pair();
    const w = server as unknown as WsInternals;
    expect(w._socket).toBeInstanceOf(Socket);
    expect(w._sender?._state).toBe(0);
    expect(Array.isArray(w._sender?._queue)).toBe(true);
    expect(w._sender?._queue).toHaveLength(0);
    expect(server.extensions).toBe('');
  });

  it('writes the frame to the TCP socket itself, and the client reads the same text', async () => {
    const { server, received } = await pair();
    const raw = (server as unknown as WsInternals)._socket!;
    const writes: Buffer[] = [];
    const write = raw.write.bind(raw);
    raw.write = ((chunk: Buffer, ...rest: never[]) => (writes.push(chunk), write(chunk, ...rest))) as typeof raw.write;
    const text = JSON.stringify({ type: 'events', events: [{ seq: 1, data: 'x'.repeat(70_000) }] });
    const frame = textFrame(Buffer.from(text));
    writeFrame(server, frame);
    expect(writes).toEqual([frame]);
    await until(() => received.length === 1);
    expect(received).toEqual([text]);
  });

  it('keeps the order of frames written beside socket.send(), and counts them in bufferedAmount', async () => {
    const { server, received } = await pair();
    const big = 'y'.repeat(4 * 1024 * 1024);
    writeFrame(server, textFrame(Buffer.from('a')));
    server.send(big);
    writeFrame(server, textFrame(Buffer.from('c')));
    expect(server.bufferedAmount).toBeGreaterThan(0);
    server.send('d');
    writeFrame(server, textFrame(Buffer.from('e')));
    await until(() => received.length === 5);
    expect(received.map((m) => (m.length > 10 ? 'big' : m))).toEqual(['a', 'big', 'c', 'd', 'e']);
  });

  it('goes through socket.send() when compression was negotiated', async () => {
    const { server, received } = await pair({ perMessageDeflate: true });
    expect(server.extensions).toContain('permessage-deflate');
    const raw = (server as unknown as WsInternals)._socket!;
    const writes: Buffer[] = [];
    const write = raw.write.bind(raw);
    raw.write = ((chunk: Buffer, ...rest: never[]) => (writes.push(chunk), write(chunk, ...rest))) as typeof raw.write;
    const frame = textFrame(Buffer.from('compressed'));
    writeFrame(server, frame);
    await until(() => received.length === 1);
    expect(received).toEqual(['compressed']);
    expect(writes.some((w) => w.equals(frame))).toBe(false);
  });
});
