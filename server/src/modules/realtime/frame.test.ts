import { describe, it, expect } from 'vitest';
import { createRequire } from 'node:module';
import WebSocket, { WebSocketServer } from 'ws';
import { textFrame } from './hub';

// What `ws` itself would put on the wire for socket.send(payload) from a server (unmasked, one
// fragment, no compression): the hub writes these bytes straight to the TCP socket.
type FrameFn = (data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }) => Buffer[];
const { Sender } = createRequire(import.meta.url)('ws') as { Sender: { frame: FrameFn } };
const wsFrame = (payload: Buffer) =>
  Buffer.concat(Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }));

describe('textFrame', () => {
  it.each([0, 1, 125, 126, 400, 65_535, 65_536, 200_000])('is the frame ws sends for a %i-byte text message', (n) => {
    const payload = Buffer.from('é'.repeat(Math.ceil(n / 2))).subarray(0, n);
    expect(textFrame(payload).equals(wsFrame(payload))).toBe(true);
  });

  it('is read back by a ws client as the same text', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => server.once('listening', () => r()));
    const text = JSON.stringify({ type: 'events', events: [{ seq: 1, data: 'x'.repeat(70_000) }] });
    server.once('connection', (ws) => {
      (ws as unknown as { _socket: import('node:net').Socket })._socket.write(textFrame(Buffer.from(text)));
    });
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`);
    const got = await new Promise<string>((resolve) => client.once('message', (raw) => resolve(raw.toString())));
    expect(got).toBe(text);
    client.close();
    await new Promise<void>((r) => server.close(() => r()));
  });
});
