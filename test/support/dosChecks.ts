// One observation per DoS mitigation of the reference agent (issue 14 item 4), each answering the
// guarantee it found broken, or undefined when it holds. Run against an agent started with
// DOS_CHECK_OPTIONS (small bounds, so each check is quick). Raw sockets where the mitigation acts
// before HTTP does; every wait is bounded and every socket opened is destroyed before returning.
import { connect, type Socket } from 'node:net';
import type { AgentOptions } from '../../rig/agent/startAgent.ts';
import { rawExchange } from './rawHttp.ts';
import { answerMessage, envelopeOf, headersFor, rpc, scriptData, userMessage } from './rpcClient.ts';

export const HEADERS_MS = 500;
export const REQUEST_MS = 1_500;
/** What a loaded 2-core box may add to a timeout (a check interval of 50 ms, scheduling). */
const SLACK_MS = 1_000;
export const PER_CLIENT = 8;
export const TOTAL = 32;

export const DOS_CHECK_OPTIONS = {
  headersTimeoutMs: HEADERS_MS,
  requestTimeoutMs: REQUEST_MS,
  maxConnectionsPerClient: PER_CLIENT,
  maxConnections: TOTAL,
  limits: { maxStreamsPerTask: 1 },
} satisfies Partial<AgentOptions>;

export type Check = (url: string) => Promise<string | undefined>;
const portOf = (url: string) => Number(new URL(url).port);

/** A declared 2 MiB body is refused (413) before a byte of it is sent; a chunked one past 1 MiB too. */
export const bodyLimit: Check = async (url) => {
  const declared = await rawExchange(
    portOf(url),
    ['POST / HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\n\r\n'],
    {
      stopAtReply: true,
      boundMs: 1_000,
    },
  );
  if (declared.status !== 413)
    return (
      `a declared 2 MiB body got ${declared.status ?? 'no answer'} within 1 s of its headers ` +
      '(no 413 before the body)'
    );
  const chunk = 'a'.repeat(1_100_000);
  const chunked = await rawExchange(
    portOf(url),
    [
      'POST / HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n' +
        `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`,
    ],
    { stopAtReply: true, boundMs: 2_000 },
  );
  if (chunked.status !== 413)
    return `a chunked 1.1 MB body got ${chunked.status ?? 'no answer'} (read whole, no size bound)`;
  return undefined;
};

/**
 * `^(a+)+$` against 'a'×28+'!': 422 at once (the linear engine), never seconds of backtracking.
 * A matching answer to a first prompt warms the pattern up: V8 runs the first match of a pattern
 * source in a process in its bytecode interpreter, several times slower than the native code later
 * matches of the same source share (docs/testing.md, "What the tests were written against"), so the
 * measured match is the native one whatever ran before in this process: still seconds, far over the
 * 500 ms bar, while the linear engine's round trip is a few ms.
 */
export const linearPatterns: Check = async (url) => {
  const schema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
  const prompt = async () => {
    const sent = await rpc(url, '1.0', 'SendMessage', {
      message: userMessage('1.0', {
        data: scriptData([{ prompt: { text: 'Q?', response_schema: schema } }, { complete: {} }]),
      }),
    });
    const task = sent.body.result.task;
    return (s: string) =>
      rpc(url, '1.0', 'SendMessage', { message: answerMessage('1.0', task.id, envelopeOf(task).prompt_id, { s }) });
  };
  const warm = await (await prompt())('aaa');
  if (warm.status !== 200) return `a matching answer got ${warm.status}`;
  const answer = await prompt();
  const started = performance.now();
  const reply = await answer(`${'a'.repeat(28)}!`);
  const ms = performance.now() - started;
  if (reply.status !== 422) return `the non-matching answer got ${reply.status}, not 422`;
  if (ms >= 500) return `validating one answer against ^(a+)+$ took ${ms.toFixed(0)} ms (backtracking)`;
  return undefined;
};

/** Bodies that are not JSON or not UTF-8: -32700 (JSON-RPC, HTTP 200) and 400 (HTTP+JSON), no 500. */
export const parseErrors: Check = async (url) => {
  const post = async (path: string, body: string | Uint8Array<ArrayBuffer>) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: headersFor('1.0'),
      body,
      signal: AbortSignal.timeout(5_000),
    });
    return { status: res.status, text: await res.text() };
  };
  for (const body of ['{"jsonrpc":', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])]) {
    const rpcReply = await post('/', body);
    if (rpcReply.status !== 200 || !rpcReply.text.includes('-32700'))
      return `JSON-RPC answered ${rpcReply.status} ${rpcReply.text.slice(0, 80)} to a malformed body, not -32700`;
    const rest = await post('/message:send', body);
    if (rest.status !== 400) return `HTTP+JSON answered ${rest.status} to a malformed body, not 400`;
  }
  return undefined;
};

/** A 1 MiB header block gets 431 (node's 16 KiB bound). */
export const headerLimit: Check = async (url) => {
  const reply = await rawExchange(
    portOf(url),
    [`GET /.well-known/agent-card.json HTTP/1.1\r\nHost: a\r\nX-Pad: ${'a'.repeat(1_048_576)}\r\n\r\n`],
    {
      stopAtReply: true,
      boundMs: 3_000,
    },
  );
  if (reply.status !== 431) return `a 1 MiB header block got ${reply.status ?? 'no answer'}, not 431`;
  return undefined;
};

/** Trickled headers, a silent socket and a stalled body are each closed on time. */
export const requestTimeouts: Check = async (url) => {
  const port = portOf(url);
  const slowloris = ['GET / HTTP/1.1\r\nHost: a\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: ${i}\r\n`)];
  const stalled = [
    'POST / HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
  ];
  const [trickled, silent, body] = await Promise.all([
    rawExchange(port, slowloris, { gapMs: 100, boundMs: HEADERS_MS + SLACK_MS }),
    rawExchange(port, [], { boundMs: HEADERS_MS + SLACK_MS }),
    rawExchange(port, stalled, { boundMs: REQUEST_MS + SLACK_MS }),
  ]);
  if (trickled.closedAfterMs === undefined)
    return `trickled headers were still open after ${HEADERS_MS + SLACK_MS} ms (headers timeout ${HEADERS_MS} ms)`;
  if (silent.closedAfterMs === undefined)
    return `a socket that never sent a byte was still open after ${HEADERS_MS + SLACK_MS} ms`;
  if (body.closedAfterMs === undefined)
    return `a stalled body was still open after ${REQUEST_MS + SLACK_MS} ms (request timeout ${REQUEST_MS} ms)`;
  return undefined;
};

/**
 * A socket from `localAddress` sending a GET of the card: 'admitted' once the answer starts (the
 * socket is then kept alive, holding its slot), 'shed' when the agent closes it unanswered.
 */
export function openFrom(
  port: number,
  localAddress: string,
): Promise<{ outcome: 'admitted' | 'shed' | 'silent'; socket: Socket }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress }, () =>
      socket.write('GET /.well-known/agent-card.json HTTP/1.1\r\nHost: a\r\n\r\n'),
    );
    const done = (outcome: 'admitted' | 'shed' | 'silent') => {
      clearTimeout(bound);
      socket.removeAllListeners('data').removeAllListeners('close');
      resolve({ outcome, socket });
    };
    const bound = setTimeout(() => done('silent'), 3_000);
    socket.on('error', () => {});
    socket.once('data', () => done('admitted'));
    socket.once('close', () => done('shed'));
  });
}

/** PER_CLIENT sockets from one address are admitted, the next is shed while another address still
 * gets in; sockets from fresh addresses are shed once TOTAL are open. */
export const connectionBounds: Check = async (url) => {
  const port = portOf(url);
  const held: Socket[] = [];
  const open = async (address: string) => {
    const got = await openFrom(port, address);
    held.push(got.socket);
    return got.outcome;
  };
  try {
    for (let i = 0; i < PER_CLIENT; i++)
      if ((await open('127.0.0.3')) !== 'admitted')
        return `connection ${i + 1} of ${PER_CLIENT} from one address was not admitted`;
    const extra = await open('127.0.0.3');
    if (extra !== 'shed')
      return `connection ${PER_CLIENT + 1} from one address was ${extra}, not shed (per-client bound ${PER_CLIENT})`;
    if ((await open('127.0.0.4')) !== 'admitted') return 'another address was refused beside a client at its bound';
    // Fresh addresses (one socket each) can only meet the total bound; other checks' sockets may
    // still be open, so the shed comes at TOTAL or earlier, never later.
    for (let i = 0; i < TOTAL + 4; i++) {
      const outcome = await open(`127.0.1.${i + 1}`);
      if (outcome === 'shed') return undefined;
      if (outcome !== 'admitted') return `a socket from a fresh address was ${outcome}`;
    }
    return `${held.length} connections open and none shed (total bound ${TOTAL})`;
  } finally {
    for (const s of held) s.destroy();
  }
};

/** A second event stream on a task bounded to one is refused (429), and the buffer bound is finite
 * (a unit test in agent.dosFaults.test.ts: its bytes are not observable from outside). */
export const streamBounds: Check = async (url) => {
  const steps = [{ prompt: { text: 'Q?', response_schema: { type: 'object' } } }, { complete: {} }];
  const task = (await rpc(url, '1.0', 'SendMessage', { message: userMessage('1.0', { data: scriptData(steps) }) })).body
    .result.task;
  const first = new AbortController();
  const second = new AbortController();
  try {
    const open = await fetch(`${url}/tasks/${task.id}:subscribe`, { headers: headersFor('1.0'), signal: first.signal });
    if (open.status !== 200) return `the first stream got ${open.status}`;
    const next = await fetch(`${url}/tasks/${task.id}:subscribe`, {
      headers: headersFor('1.0'),
      signal: second.signal,
    });
    if (next.status !== 429) return `a second stream on a task bounded to one got ${next.status}, not 429`;
    return undefined;
  } finally {
    first.abort();
    second.abort();
  }
};
