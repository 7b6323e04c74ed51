// An A2A agent (node:http, JSON-RPC for A2A 1.0) whose every string is hostile to a terminal and to
// XML: its card name, skill names, the text of every task status and every JSON-RPC error message
// carry ESC sequences, BEL, CR, C1 controls, a bidi override (U+202E), XML-forbidden characters
// (U+FFFE, U+FFFF, NUL) and a lone surrogate. It declares hitl-prompt/v1 so the conformance
// scenarios run against it; SendMessage answers with a FAILED task whose status text is hostile,
// every other method with a JSON-RPC error whose message is hostile. Loopback only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HITL } from './inProcessAgent.ts';

/** Every kind of character the rig must not pass raw to a terminal or into junit.xml. */
export const HOSTILE =
  '\u001b[31mRED\u001b[0m\u0007BEL\rCR\u0085NEL\u009b2J\u202eRTL\u2066ISO' +
  '\ufffe-FFFE\uffff-FFFF\ud800-LONE\udfff\u0000NUL\u007fDEL';

export interface HostileAgent {
  url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startHostileAgent(): Promise<HostileAgent> {
  let url = '';
  const card = () => ({
    name: `hostile ${HOSTILE}`,
    description: `description ${HOSTILE}`,
    version: `1${HOSTILE}`,
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [{ uri: HITL, required: false, params: {} }],
    },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: `skill${HOSTILE}`, name: `skill ${HOSTILE}`, description: HOSTILE, tags: [HOSTILE] }],
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/.well-known/agent-card.json') return send(res, card());
    if (req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end(`not found ${HOSTILE}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > 1024 * 1024) return void res.destroy();
      chunks.push(c as Buffer);
    }
    let rpc: { id?: unknown; method?: unknown; params?: { message?: { contextId?: string } } } = {};
    try {
      rpc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof rpc;
    } catch {
      // answered below with an error like any other
    }
    const id = rpc.id ?? null;
    if (rpc.method === 'SendMessage') {
      const contextId = rpc.params?.message?.contextId ?? 'ctx';
      const message = {
        messageId: 'm1',
        role: 'ROLE_AGENT',
        parts: [{ text: `status ${HOSTILE}` }],
        contextId,
        taskId: 't1',
      };
      const task = {
        id: 't1',
        contextId,
        status: { state: 'TASK_STATE_FAILED', message, timestamp: new Date().toISOString() },
      };
      return send(res, { jsonrpc: '2.0', id, result: { task } });
    }
    return send(res, { jsonrpc: '2.0', id, error: { code: -32603, message: `error ${HOSTILE}`, data: HOSTILE } });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A character that must never reach a terminal or a report raw (written independently of the
 * rig's own list, from the issue): C0 controls but tab and newline, DEL, C1 controls, bidi
 * embeddings/overrides/isolates, U+2028/U+2029, U+FFFE, U+FFFF, a lone surrogate.
 */
export const RAW_CONTROL =
  // eslint-disable-next-line no-control-regex, max-len -- it matches control characters, as one class
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The raw characters of `text` that should not be there, as `U+XXXX` (empty when clean), for a readable failure. */
export function rawControls(text: string): string[] {
  return [...text.matchAll(new RegExp(RAW_CONTROL.source, 'g'))].map(
    (m) => `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}
