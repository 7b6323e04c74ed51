// The HTTP floor beside the agents of bench/sdkComparison.ts: node:http doing only the HTTP part
// of a plain SendMessage (read the body, parse it as JSON, answer a completed task of the size the
// reference agent answers, after setImmediate as the agent answers after its batch commits). Its
// CPU per request is what no agent on node:http gets under. Prints `{"url": ...}` first, as the
// agents do, and stops on SIGTERM/SIGINT.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** About the bytes of the reference agent's reply to a `tck-complete-task-` send. */
const REPLY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  result: { task: { status: { state: 'TASK_STATE_COMPLETED' }, padding: 'x'.repeat(760) } },
});

function answer(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    setImmediate(() => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(REPLY) });
      res.end(REPLY);
    });
  });
}

const server = createServer(answer);
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
