// How an attack reads a reply (rig/attack/attackSocket.ts attackExchange): a big chunked or sized
// reply settles at its end, not at the hold bound, and a 100 Continue before the real status is skipped.
import { once } from 'node:events';
import { createServer as createNetServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { attackExchange } from '../rig/attack/attackSocket.ts';
import { attackTarget } from '../rig/attack/attackTarget.ts';
import type { AttackOutcome } from '../rig/attack/attackTypes.ts';

describe('reply framing', () => {
  it(
    'big chunked and sized replies settle at their end (not at the hold bound), ' + 'and a 100 Continue is skipped',
    async () => {
      const server = createNetServer((socket) => {
        socket.on('error', () => {});
        socket.once('data', (first: Buffer) => {
          const kind = /x-reply: (\w+)/.exec(first.toString('latin1'))?.[1];
          if (kind === 'chunked') {
            socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
            for (let i = 0; i < 64; i++) socket.write(`8000\r\n${'c'.repeat(0x8000)}\r\n`);
            socket.write('0\r\n\r\n');
          } else if (kind === 'sized') {
            socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${3 * 1024 * 1024}\r\n\r\n`);
            socket.write(Buffer.alloc(3 * 1024 * 1024, 0x7b));
          } else
            socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 413 Payload Too Large\r\ncontent-length: 0\r\n\r\n');
        });
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const target = attackTarget({ baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
        for (const [kind, expected] of [
          ['chunked', 'accepted'],
          ['sized', 'accepted'],
          ['continue', 'refused'],
        ] as const) {
          const end = await attackExchange(
            target,
            new AbortController().signal,
            { holdMs: 5000, what: 'request' },
            async (io) => {
              await io.write(`GET / HTTP/1.1\r\nhost: x\r\nx-reply: ${kind}\r\n\r\n`);
            },
          );
          expect(end, kind).toMatchObject({ kind: expected });
          expect((end as AttackOutcome).latencyMs, kind).toBeLessThan(4000);
        }
      } finally {
        await new Promise((r) => server.close(r));
      }
    },
  );
});
