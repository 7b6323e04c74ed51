// A hostile hitl-prompt/v1 agent for the rig's memory and depth bounds: it parks every new task in
// INPUT_REQUIRED like a well-behaved agent (so cf6 gets as far as its live streams), then misbehaves
// in one way chosen by `mode`:
//  - 'sse-flood': a subscription streams INPUT_REQUIRED status updates forever, each ~1 MiB of
//    `{}`s in metadata (3 bytes on the wire, a whole JS object once parsed); an answer is accepted
//    but the task never resumes, so only the stream could have shown it (cf1 fails on it).
//  - 'replay-flood': the replay socket sends such frames forever.
//  - 'huge-frames': the replay socket sends one 64 MiB frame.
//  - 'deep-id': every JSON-RPC reply's `id` is nested 100,000 arrays deep.
//  - 'deep-metadata': the task snapshots carry metadata nested 100,000 objects deep.
//  - 'deep-card': the agent card carries a skill nested 100,000 arrays deep.
// Loopback only; everything it sends stops when the peer goes away or `close()` is called.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { HITL_PROMPT_URI } from '../../rig/protocol/hitlPrompt.ts';

export type HostileMode = 'sse-flood' | 'replay-flood' | 'huge-frames' | 'deep-id' | 'deep-metadata' | 'deep-card';

export interface HostileAgent {
  url: string;
  /** Bytes of hostile payload written so far (streams and frames). */
  readonly sentBytes: number;
  close(): Promise<void>;
}

export const DEEP_LEVELS = 100_000;
const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '{}' + '}'.repeat(levels);

/** One status update of about `bytes`, its metadata a flat array of empty objects. */
function bigUpdate(taskId: string, contextId: string, bytes: number): string {
  const pad = `[${Array(Math.floor(bytes / 3))
    .fill('{}')
    .join(',')}]`;
  return (
    `{"statusUpdate":{"taskId":"${taskId}","contextId":"${contextId}",` +
    `"status":{"state":"TASK_STATE_INPUT_REQUIRED"},"metadata":{"pad":${pad}}}}`
  );
}

export async function startHostileAgent(mode: HostileMode): Promise<HostileAgent> {
  const tasks = new Map<string, { contextId: string; promptId: string }>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let url = '';
  let sentBytes = 0;

  const taskJson = (id: string) => {
    const t = tasks.get(id)!;
    const envelope = {
      prompt_id: t.promptId,
      prompt: 'Approve?',
      response_schema: { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean' } } },
    };
    const message = {
      messageId: `m-${id}`,
      role: 'ROLE_AGENT',
      parts: [{ text: 'Approve?' }],
      metadata: { [HITL_PROMPT_URI]: envelope },
    };
    const json = JSON.stringify({
      id,
      contextId: t.contextId,
      status: { state: 'TASK_STATE_INPUT_REQUIRED', message },
    });
    return mode === 'deep-metadata' ? `${json.slice(0, -1)},"metadata":${deepObject(DEEP_LEVELS)}}` : json;
  };
  const reply = (res: ServerResponse, id: unknown, resultJson: string) => {
    res.writeHead(200, { 'content-type': 'application/json', 'a2a-extensions': HITL_PROMPT_URI });
    const idJson = mode === 'deep-id' ? deepArray(DEEP_LEVELS) : JSON.stringify(id);
    res.end(`{"jsonrpc":"2.0","id":${idJson},"result":${resultJson}}`);
  };
  const card = () => {
    const deep = mode === 'deep-card' ? `,"x":${deepArray(DEEP_LEVELS)}` : '';
    const skill = `{"id":"approve","name":"approve","description":"asks","tags":["hitl"]${deep}}`;
    const head = {
      name: 'hostile-agent',
      description: 'misbehaves on purpose',
      version: '1.0.0',
      supportedInterfaces: [{ url: `${url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true, extensions: [{ uri: HITL_PROMPT_URI, params: {} }] },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
    };
    return `${JSON.stringify(head).slice(0, -1)},"skills":[${skill}]}`;
  };

  /** Writes `next()` whenever the peer has drained what it got, until it goes away. */
  function flood(write: (chunk: string, done: () => void) => void, gone: () => boolean, next: () => string): void {
    const pump = () => {
      if (gone()) return;
      const chunk = next();
      sentBytes += chunk.length;
      write(chunk, () => {
        const timer = setTimeout(() => (timers.delete(timer), pump()), 0);
        timers.add(timer);
      });
    };
    pump();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url === '/.well-known/agent-card.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(card());
    }
    let body = '';
    for await (const chunk of req) body += chunk;
    const rpc = JSON.parse(body) as { id: unknown; method: string; params: Record<string, any> };
    const taskId = rpc.params?.id ?? rpc.params?.message?.taskId;
    switch (rpc.method) {
      case 'SendMessage': {
        const answered = tasks.get(rpc.params.message?.taskId);
        if (answered && mode === 'sse-flood')
          return reply(res, rpc.id, `{"task":${taskJson(rpc.params.message.taskId)}}`);
        if (answered) {
          const t = rpc.params.message.taskId;
          return reply(
            res,
            rpc.id,
            `{"task":{"id":"${t}","contextId":"${answered.contextId}","status":{"state":"TASK_STATE_COMPLETED"}}}`,
          );
        }
        const id = randomUUID();
        tasks.set(id, { contextId: randomUUID(), promptId: randomUUID() });
        return reply(res, rpc.id, `{"task":${taskJson(id)}}`);
      }
      case 'GetTask':
        return tasks.has(taskId) ? reply(res, rpc.id, taskJson(taskId)) : reply(res, rpc.id, 'null');
      case 'SubscribeToTask': {
        const t = tasks.get(taskId);
        if (!t || mode !== 'sse-flood') break;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'a2a-extensions': HITL_PROMPT_URI });
        const event =
          `data: {"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)},` +
          `"result":${bigUpdate(taskId, t.contextId, 1 << 20)}}\n\n`;
        return flood(
          (c, done) => res.write(c, () => done()),
          () => res.destroyed,
          () => event,
        );
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'not offered' } }));
  }

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  server.on('connection', (s) => (sockets.add(s), s.once('close', () => sockets.delete(s))));
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on('upgrade', (req, socket, head) => {
    // Only the replay modes offer the replay plane, so the others fail on what they test.
    if (mode !== 'replay-flood' && mode !== 'huge-frames')
      return void socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
    const taskId = new URL(req.url ?? '/', 'http://x').searchParams.get('task');
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const t = taskId ? tasks.get(taskId) : undefined;
      if (!t) return ws.close(4400, 'task is required');
      if (mode === 'huge-frames') {
        const frame =
          `{"seq":1,"eventId":"e","taskId":"${taskId}",` + `"event":${bigUpdate(taskId!, t.contextId, 64 << 20)}}`;
        sentBytes += frame.length;
        return ws.send(frame);
      }
      if (mode !== 'replay-flood') return ws.close(1000);
      let seq = 0;
      const update = bigUpdate(taskId!, t.contextId, 512 << 10);
      flood(
        (c, done) => ws.send(c, () => done()),
        () => ws.readyState !== ws.OPEN,
        () => `{"seq":${++seq},"eventId":"e${seq}","taskId":"${taskId}","event":${update}}`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    get sentBytes() {
      return sentBytes;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const ws of wss.clients) ws.terminate();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
