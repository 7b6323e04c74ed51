// Hostile-client helpers for the agent's amplification tests (issue 9 items 11 and 12): raw
// readers that never read, a health probe timed against the agent card, the RSS of a child
// process, and a big task built through the public API. Loopback only, bounded in count and time.
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { answerMessage, envelopeOf, rpc, scriptData, userMessage } from './rpcClient.ts';

/** VmRSS of a process in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

/** Milliseconds one GET of the agent card takes (10 s at most; a timeout counts as 10 s). */
export async function probeMs(url: string): Promise<number> {
  const started = performance.now();
  try {
    const res = await fetch(`${url}/.well-known/agent-card.json`, { signal: AbortSignal.timeout(10_000) });
    await res.text();
  } catch {
    return 10_000;
  }
  return performance.now() - started;
}

/**
 * Probes the card and samples the RSS of `pid` every `everyMs` until `attack` settles, then
 * `tailMs` more; returns the worst probe and the peak RSS seen.
 */
export async function watchDuring(
  url: string,
  pid: number,
  attack: Promise<unknown>,
  opts: { everyMs?: number; tailMs?: number } = {},
) {
  let done = false;
  const settled = attack.finally(() => (done = true));
  const probes: number[] = [];
  let peakRss = rssMb(pid);
  const tailEnd = () => performance.now() + (opts.tailMs ?? 1_000);
  let stopAt = Infinity;
  while (performance.now() < stopAt) {
    if (done && stopAt === Infinity) stopAt = tailEnd();
    probes.push(await probeMs(url));
    peakRss = Math.max(peakRss, rssMb(pid));
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 50));
  }
  await settled;
  const sorted = [...probes].sort((a, b) => a - b);
  const p90ProbeMs = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)]!;
  return { worstProbeMs: sorted.at(-1)!, p90ProbeMs, probes: probes.length, peakRssMb: peakRss };
}

/** The agent's health bar during an attack: the 100 ms. */
export const PROBE_CEILING_MS = 100;
/** A stalled event loop, which is what the attacks caused before their fixes (452 ms to 3.2 s). */
export const PROBE_STALL_MS = 500;

/**
 * Why the agent did not stay responsive during an attack, or undefined when it did: nine probes in
 * ten within PROBE_CEILING_MS and none past PROBE_STALL_MS. Not every single probe within 100 ms:
 * a loaded 2-core machine delays any process (the probing test included) now and then, and one such
 * delay would fail the test while saying nothing about the agent.
 */
export function unresponsive(seen: { worstProbeMs: number; p90ProbeMs: number; probes: number }): string | undefined {
  if (seen.p90ProbeMs < PROBE_CEILING_MS && seen.worstProbeMs < PROBE_STALL_MS) return undefined;
  return (
    `card probes: p90 ${seen.p90ProbeMs.toFixed(1)} ms (bar ${PROBE_CEILING_MS}), ` +
    `worst ${seen.worstProbeMs.toFixed(1)} ms (bar ${PROBE_STALL_MS}) over ${seen.probes} probes`
  );
}

/** A JSON-RPC v1.0 request on a raw socket that is never read afterwards (pauses at once). */
export function nonReadingRpc(url: string, method: string, params: unknown): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.pause();
      socket.write(
        `POST / HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      resolve(socket);
    });
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

export const ANSWER_SCHEMA = { type: 'object', properties: { s: { type: 'string' } } };

/** Starts a task parked on the first of `prompts` prompts; returns its id and open prompt id. */
export async function promptingTask(
  url: string,
  prompts: number,
  firstText = 'start',
): Promise<{ taskId: string; promptId: string }> {
  const steps = [
    ...Array.from({ length: prompts }, (_, i) => ({ prompt: { text: `Q${i}?`, response_schema: ANSWER_SCHEMA } })),
    { complete: {} },
  ];
  const sent = await rpc(url, '1.0', 'SendMessage', {
    message: userMessage('1.0', { text: firstText, data: scriptData(steps) }),
  });
  const task = sent.body.result.task;
  return { taskId: task.id, promptId: envelopeOf(task).prompt_id };
}

/** Answers the open prompt (blocking send); returns the next prompt id and the latency in ms. */
export async function answer(
  url: string,
  taskId: string,
  promptId: string,
  s: string,
): Promise<{ promptId: string; ms: number }> {
  const started = performance.now();
  const reply = await rpc(url, '1.0', 'SendMessage', { message: answerMessage('1.0', taskId, promptId, { s }) });
  const ms = performance.now() - started;
  if (reply.status !== 200) throw new Error(`answer refused: ${JSON.stringify(reply.body).slice(0, 300)}`);
  return { promptId: envelopeOf(reply.body.result.task).prompt_id, ms };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
