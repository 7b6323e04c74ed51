// ctx.answerFlood: K valid answers to one prompt fired at once over several clients (each its own
// keep-alive pool), answer i through client i mod C — duplicate-flood's contention. With several
// load worker threads (`--workers N`) the flood runs on them: thread j of T = min(N, C) fires the
// answers k with k mod T = j through its share of the C clients (so the connections add up to
// C × connectionsPerClient), all threads at once after every one built its clients; each answer's
// outcome comes back with its latency, in the caller's clock and in answer order.
import type { A2AClient, AnswerOutcome } from '../../client/index.ts';
import type { JobChannel } from '../../load/workers/iterationSpec.ts';
import { newClientInWorker, portableOptions, type PortableClient } from '../../load/workers/workerClient.ts';
import type { LoadWorkerPool } from '../../load/workers/workerPool.ts';
import { shareOfBound } from '../../load/workers/workerShares.ts';

export interface AnswerFlood {
  taskId: string;
  promptId: string;
  /** The answer each of them carries. */
  payload: unknown;
  answers: number;
  clients: number;
  connectionsPerClient: number;
  /** Each answer's own bound. */
  timeoutMs: number;
}

/** What the flood needs of the scenario context. */
export interface FloodDeps {
  newClient(connections: number): A2AClient;
  signal: AbortSignal;
  log(line: string): void;
}

interface FloodArgs {
  flood: AnswerFlood;
  client: PortableClient;
  threads: number;
}

function fire(flood: AnswerFlood, clients: A2AClient[], count: number, signal: AbortSignal): Promise<AnswerOutcome[]> {
  const { taskId, promptId, payload, timeoutMs } = flood;
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      clients[i % clients.length].answer(taskId, promptId, payload, { signal, timeoutMs }),
    ),
  );
}

/** The job (workerPool.ts runJob): this thread's answers, startedAt as epoch ms. */
export async function answerFloodInWorker(args: FloodArgs, channel: JobChannel): Promise<AnswerOutcome[]> {
  const { index } = channel.share;
  if (index >= args.threads) return [];
  const share = { index, count: args.threads };
  const tools = { workers: 1, observer: channel.observer, onRefused: channel.onRefused, histogram: () => undefined };
  const clients = Array.from({ length: shareOfBound(args.flood.clients, share) }, () =>
    newClientInWorker(args.client, tools),
  );
  try {
    await new Promise<void>((resolve) => {
      channel.onMessage(() => resolve());
      channel.signal.addEventListener('abort', () => resolve(), { once: true });
      channel.post('ready');
    });
    const outcomes = await fire(args.flood, clients, shareOfBound(args.flood.answers, share), channel.signal);
    return outcomes.map((o) => ({ ...o, startedAt: performance.timeOrigin + o.startedAt }));
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}

/** The flood, on `pool`'s threads when given (and the clients are at least 2). */
export async function answerFlood(
  flood: AnswerFlood,
  pool: LoadWorkerPool | undefined,
  deps: FloodDeps,
): Promise<AnswerOutcome[]> {
  const template = deps.newClient(flood.connectionsPerClient);
  const threads = Math.min(pool?.size ?? 1, flood.clients);
  if (!pool || threads < 2) {
    const clients = [
      template,
      ...Array.from({ length: flood.clients - 1 }, () => deps.newClient(flood.connectionsPerClient)),
    ];
    return fire(flood, clients, flood.answers, deps.signal);
  }
  deps.log(`the flood ran on ${threads} worker threads`);
  const args: FloodArgs = {
    flood,
    client: { agent: template.agent, options: portableOptions(template.options) },
    threads,
  };
  let ready = 0;
  const results = (await pool.runJob(
    { module: import.meta.url, export: 'answerFloodInWorker', args },
    (send) => ({
      heard() {
        if (++ready === threads) for (let i = 0; i < pool.size; i++) send(i, 'go');
      },
      // The threads' exchanges join the scenario's traffic record, as its own clients' do.
      sinks: { observer: template.options.observer, onRefused: template.options.onRefused },
    }),
    deps.signal,
  )) as AnswerOutcome[][];
  // Answer k was thread k mod T's answer ⌊k / T⌋.
  return Array.from({ length: flood.answers }, (_, k) => {
    const o = results[k % threads][Math.floor(k / threads)];
    return { ...o, startedAt: o.startedAt - performance.timeOrigin };
  });
}
