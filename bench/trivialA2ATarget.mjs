// The trivial A2A target of bench/generator.ts, run in its own process: it answers every JSON-RPC
// request with a canned valid reply, so a client's real parsing runs on real replies while the
// target costs as little as a Node HTTP server can. SendMessage (a send or a hitl-prompt/v1 answer)
// gets a completed task wrapped as v1.0's `{task}`; GetTask the task itself; the reply echoes the
// request's id (the rig's client checks it) and the hitl-prompt/v1 activation. The replies are
// prebuilt bytes around the id, with Content-Length. Prints its port on the first line.
import { createServer } from 'node:http';

const HITL = 'https://agentic-sandbox.aiwg.io/extensions/hitl-prompt/v1';
const TASK =
  '{"id":"bench-task-1","contextId":"bench-context-1",' +
  '"status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-01-01T00:00:00.000Z"}}';
const PREFIX = Buffer.from('{"jsonrpc":"2.0","id":');
const SEND = Buffer.from(`,"result":{"task":${TASK}}}`);
const GET = Buffer.from(`,"result":${TASK}}`);
const UNKNOWN = Buffer.from(',"error":{"code":-32601,"message":"Method not found"}}');
const ID = /"id":(\d{1,15}|null)/;
const METHOD = /"method":"(\w+)"/;

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const head = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('latin1', 0, 256);
    const id = Buffer.from(ID.exec(head)?.[1] ?? 'null');
    const method = METHOD.exec(head)?.[1];
    const tail = method === 'SendMessage' ? SEND : method === 'GetTask' ? GET : UNKNOWN;
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': PREFIX.length + id.length + tail.length,
      'a2a-extensions': HITL,
    });
    res.end(Buffer.concat([PREFIX, id, tail]));
  });
}).listen(0, '127.0.0.1', function () {
  console.log(this.address().port);
});
