// Passes a WebSocket upgrade on to another server byte for byte: the fronts and recorders the tests
// put before an agent (to hide, count or steer its traffic) relay the replay plane this way.
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export function forwardUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, to: string): Socket {
  const target = new URL(to);
  const up = connect(Number(target.port), target.hostname, () => {
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    up.write(`${lines.join('\r\n')}\r\n\r\n`);
    up.write(head);
    up.pipe(socket).pipe(up);
  });
  up.on('error', () => socket.destroy());
  socket.on('error', () => up.destroy());
  return up;
}
