// The reference agent's answer path on loopback with no load: one answer at a time, t0 just before
// a valid answer is sent, t1 when the WORKING status event arrives on the task's replay socket
// (opened beforehand); p50/p95/p99 over many trials. Answers under load (valid answers/s, resume
// latency at 1,000 answers/s) are bench/agent.ts's.
// The agent runs as its own process (one Node thread: "one core"). Run: npx tsx bench/agentAnswers.ts
//   Env: TRIALS (500).
import * as hdr from 'hdr-histogram-js';
import { Pool } from 'undici';
import WebSocket from 'ws';
import { HITL_PROMPT_URI, HITL_RESPONSE_KEY } from '../rig/protocol/hitlPrompt.ts';
import { startReferenceAgent } from './agentProcess.ts';

const LATENCY_TRIALS = Number(process.env.TRIALS ?? 500);

const agent = await startReferenceAgent('reference agent');
const { url } = agent;
const pool = new Pool(url, { connections: 1, pipelining: 1 });
const headers = { 'content-type': 'application/json', 'a2a-version': '1.0', 'a2a-extensions': HITL_PROMPT_URI };
let id = 0;

/** What this benchmark reads of a JSON-RPC reply: a parked task's id and its prompt's id. */
interface RpcReply {
  result?: { task: { id: string; status: { message: { metadata: Record<string, { prompt_id: string }> } } } };
  error?: unknown;
}

async function call(method: string, params: unknown): Promise<{ status: number; body: RpcReply }> {
  const res = await pool.request({
    path: '/',
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  const body = (await res.body.json()) as RpcReply;
  return { status: res.statusCode, body };
}

async function park(): Promise<{ taskId: string; promptId: string }> {
  const { body } = await call('SendMessage', {
    message: { messageId: `b${id}`, role: 'ROLE_USER', parts: [{ text: 'bench' }] },
  });
  const task = body.result!.task;
  return { taskId: task.id, promptId: task.status.message.metadata[HITL_PROMPT_URI].prompt_id };
}

function answer(taskId: string, promptId: string) {
  return call('SendMessage', {
    message: {
      messageId: `a${id}`,
      role: 'ROLE_USER',
      taskId,
      parts: [{ text: 'yes' }],
      metadata: { [HITL_RESPONSE_KEY]: { prompt_id: promptId, payload: { approved: true } } },
    },
    configuration: { returnImmediately: true },
  });
}

function waitForWorking(taskId: string): { opened: Promise<void>; resumedAt: Promise<number>; close: () => void } {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/events?task=${taskId}&since=3&version=1.0`);
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const resumedAt = new Promise<number>((resolve) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      if (frame.event.statusUpdate?.status.state === 'TASK_STATE_WORKING') resolve(performance.now());
    });
  });
  return { opened, resumedAt, close: () => ws.terminate() };
}

// Warm-up: compile caches, JIT, connections.
for (let i = 0; i < 50; i++) {
  const p = await park();
  await answer(p.taskId, p.promptId);
}

const latency = hdr.build({
  lowestDiscernibleValue: 1,
  highestTrackableValue: 60_000_000,
  numberOfSignificantValueDigits: 3,
});
for (let i = 0; i < LATENCY_TRIALS; i++) {
  const p = await park();
  const watch = waitForWorking(p.taskId);
  await watch.opened;
  const t0 = performance.now();
  const reply = await answer(p.taskId, p.promptId);
  if (reply.status !== 200) throw new Error(`answer refused: ${JSON.stringify(reply.body)}`);
  const t1 = await watch.resumedAt;
  watch.close();
  latency.recordValue(Math.round((t1 - t0) * 1000));
}

console.log(`answer → resumed (observed on the replay socket), ${LATENCY_TRIALS} trials:`);
const msAt = (percentile: number) => (latency.getValueAtPercentile(percentile) / 1000).toFixed(3);
console.log(
  `  p50 ${msAt(50)} ms  p95 ${msAt(95)} ms  p99 ${msAt(99)} ms  max ${(latency.maxValue / 1000).toFixed(3)} ms`,
);
console.log(`p99 / 1000 ms budget (AC-4): ${(latency.getValueAtPercentile(99) / 1_000_000).toFixed(4)}`);

await pool.close();
await agent.stop();
