// The hub's one shortcut around `ws`'s public API, kept in this file alone: an event's WebSocket
// frame is built once and the same bytes are written to every socket's TCP connection, instead of
// `socket.send()` framing it again per socket (a header buffer, cork, a two-buffer writev). It
// relies on three private fields of `ws` 8.x (`_socket`, `_sender._state`, `_sender._queue`); the
// version is pinned exactly in server/package.json and frame.test.ts fails if `ws` changes any of
// them or the bytes it puts on the wire; an upgrade must pass those tests, and otherwise falls back to
// `socket.send()` (writeFrame takes the shortcut only when all three fields look as expected).
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/**
 * A complete unmasked, unfragmented WebSocket text frame (RFC 6455 §5.2): what `ws` sends for
 * `socket.send(payload)` without compression. A server's frames are not masked, so the same bytes
 * go to every socket.
 */
export function textFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81; // FIN + text
  if (head === 2) frame[1] = n;
  else if (head === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(n / 2 ** 32), 2);
    frame.writeUInt32BE(n >>> 0, 6);
  }
  payload.copy(frame, head);
  return frame;
}

/** The payload of a frame built by textFrame(). */
export function payloadOf(frame: Buffer): Buffer {
  return frame.subarray(frame[1] === 126 ? 4 : frame[1] === 127 ? 10 : 2);
}

/** The parts of a `ws` (8.x) WebSocket used to write a pre-built frame straight to its TCP socket. */
export interface WsInternals {
  _socket?: Socket | null;
  _sender?: { _state?: number; _queue?: unknown[] } | null;
}

const WS_OPEN = 1;

/**
 * Writes a pre-built frame to the socket's TCP connection in one write, when `ws` itself has
 * nothing queued (no compression negotiated, its sender idle): the same bytes, in the same order,
 * as `socket.send()`, without re-framing per socket (a header buffer, cork, a two-buffer writev).
 * Otherwise it goes through `socket.send()`. Bytes written either way count in `bufferedAmount`.
 */
export function writeFrame(socket: WebSocket, frame: Buffer): void {
  const w = socket as unknown as WsInternals;
  const raw = w._socket;
  const sender = w._sender;
  if (
    socket.readyState === WS_OPEN &&
    socket.extensions === '' &&
    raw &&
    raw.writable &&
    sender &&
    sender._state === 0 &&
    sender._queue?.length === 0
  ) {
    raw.write(frame);
    return;
  }
  socket.send(payloadOf(frame), { binary: false });
}
