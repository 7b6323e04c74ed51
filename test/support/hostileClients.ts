// Hostile-client helpers for the agent's amplification tests (issue 9 items 11 and 12): raw
// readers that never read, a health probe timed against the agent card, the RSS of a child
// process, and a big task built through the public API. Loopback only, bounded in count and time.
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { judgeAgainstBound, quantileInterval, type BoundJudgement } from '../../rig/stats/quantileInterval.ts';
import { sampleOf } from '../../rig/stats/sampleSet.ts';
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
 * Milliseconds a thread has spent on a CPU and runnable but waiting for one (Linux schedstat, first
 * two fields). `path` is /proc/<pid>/schedstat (a process's main thread) or
 * /proc/thread-self/schedstat (the caller's). NaN where the kernel does not say.
 */
export function schedMs(path: string): { runMs: number; waitMs: number } {
  try {
    const [run, wait] = readFileSync(path, 'utf8').split(' ');
    return { runMs: Number(run) / 1e6, waitMs: Number(wait) / 1e6 };
  } catch {
    return { runMs: NaN, waitMs: NaN };
  }
}

/** One card probe: its wall time, and how long the agent's loop ran on a CPU meanwhile. */
export interface Probe {
  wallMs: number;
  agentRunMs: number;
}

/** Probes the agent card of the agent whose main thread (its event loop) is `pid`. */
export async function probe(url: string, pid: number): Promise<Probe> {
  const path = `/proc/${pid}/schedstat`;
  const before = schedMs(path).runMs;
  const wallMs = await probeMs(url);
  return { wallMs, agentRunMs: schedMs(path).runMs - before };
}

/**
 * Probes the card and samples the RSS of `pid` every `everyMs` until `attack` settles, then
 * `tailMs` more; returns the probes, the worst and p90 wall times, and the peak RSS seen.
 */
export async function watchDuring(
  url: string,
  pid: number,
  attack: Promise<unknown>,
  opts: { everyMs?: number; tailMs?: number } = {},
) {
  let done = false;
  const settled = attack.finally(() => (done = true));
  const probes: Probe[] = [];
  let peakRss = rssMb(pid);
  const tailEnd = () => performance.now() + (opts.tailMs ?? 1_000);
  let stopAt = Infinity;
  while (performance.now() < stopAt) {
    if (done && stopAt === Infinity) stopAt = tailEnd();
    probes.push(await probe(url, pid));
    peakRss = Math.max(peakRss, rssMb(pid));
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 20));
  }
  await settled;
  const sorted = probes.map((p) => p.wallMs).sort((a, b) => a - b);
  const p90ProbeMs = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)]!;
  return { probeList: probes, worstProbeMs: sorted.at(-1)!, p90ProbeMs, probes: probes.length, peakRssMb: peakRss };
}

/** The agent's health bar during an attack: the issue's 100 ms, on the probes' p90. */
export const PROBE_CEILING_MS = 100;
/** A stalled event loop, which is what the attacks caused before their fixes (docs/testing.md). */
export const PROBE_STALL_MS = 500;

/**
 * Whether the agent stayed responsive during an attack, judged so that a neighbour's load can make
 * it "not judged" but not "broken". Each probe is read as the time the agent's loop ran while the
 * probe was out: what it did before answering. A busy machine stretches the wall time of that work,
 * not the work, so the reading is the agent's. "holds": the p90's 95 % interval all under
 * PROBE_CEILING_MS and no probe past PROBE_STALL_MS; "broken": the interval all above the ceiling,
 * or one probe past the stall bar; anything else (or no schedstat) "not judged".
 */
export function judgeResponsiveness(probes: readonly Probe[]): { verdict: BoundJudgement; detail: string } {
  const ran = probes.map((p) => p.agentRunMs).filter(Number.isFinite);
  const p90 = quantileInterval(sampleOf(ran), 0.9);
  const worst = ran.length ? Math.max(...ran) : undefined;
  const judged = judgeAgainstBound(p90, '<', PROBE_CEILING_MS);
  const broken = judged === 'broken' || (worst !== undefined && worst >= PROBE_STALL_MS);
  const held = judged === 'holds' && worst !== undefined && worst < PROBE_STALL_MS;
  const ms = (v: number | null | undefined) => (v === null || v === undefined ? '?' : v.toFixed(1));
  const detail =
    `the agent's loop ran, per card probe: p90 ${ms(p90.estimate)} in [${ms(p90.lo)}, ${ms(p90.hi)}] ms ` +
    `(bar ${PROBE_CEILING_MS}), worst ${ms(worst)} ms (bar ${PROBE_STALL_MS}) over ${ran.length} of ` +
    `${probes.length} probes`;
  return { verdict: broken ? 'broken' : held ? 'holds' : 'not judged', detail };
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
