// The engine's round-trip iterations (loadIterations.ts) as worker specs (rig/load/workers/): what
// ctx.hitlRoundTrip and ctx.acceptanceRoundTrip return carries the data to rebuild it in a worker
// thread (the client's agent and options, the scenario's script steps, timeouts, the scenario's
// deadline), and the caller's histograms and traffic observer as sinks. The factories below are
// what a worker calls; the client's event history stays its own (the scenario's does not see the
// workers' exchanges).
import { AnswerSynthesizer, type A2AClient } from '../client/index.ts';
import type { BuiltIteration, WorkerTools } from '../load/workers/iterationSpec.ts';
import { withWorkerSpec } from '../load/workers/iterationSpec.ts';
import { clientInWorker, portableOptions, type PortableClient } from '../load/workers/workerClient.ts';
import type { Iteration } from '../load/openModelExecutor.ts';
import {
  acceptanceIteration,
  roundTripIteration,
  type AcceptanceRoundTripChoice,
  type RoundTripChoice,
} from './kit/loadIterations.ts';

interface RoundTripArgs {
  client: PortableClient;
  scripts: boolean;
}

export interface HitlArgs extends RoundTripArgs {
  /** The scenario's deadline, epoch ms (a prompt is not opened with less budget than it needs). */
  deadline: number;
  steps?: unknown[];
  resumeTimeoutMs?: number;
}

export interface AcceptanceArgs extends RoundTripArgs {
  steps?: readonly unknown[];
  returnImmediately?: boolean;
  timeoutMs?: number;
}

/** The worker's side of ctx.hitlRoundTrip. */
export function hitlRoundTripInWorker(args: HitlArgs, tools: WorkerTools): BuiltIteration {
  const client = clientInWorker(args.client, tools);
  const deps = {
    client,
    scripts: args.scripts,
    synthesizer: new AnswerSynthesizer(client.guard.validator),
    remainingMs: () => Math.max(0, args.deadline - performance.timeOrigin - performance.now()),
  };
  const iteration = roundTripIteration(deps, {
    ...(args.steps ? { steps: args.steps } : {}),
    ...(args.resumeTimeoutMs !== undefined ? { resumeTimeoutMs: args.resumeTimeoutMs } : {}),
    promptLatency: tools.histogram('promptLatency'),
    resumeLatency: tools.histogram('resumeLatency'),
  });
  return { iteration };
}

/** The worker's side of ctx.acceptanceRoundTrip. */
export function acceptanceRoundTripInWorker(args: AcceptanceArgs, tools: WorkerTools): BuiltIteration {
  const client = clientInWorker(args.client, tools);
  const iteration = acceptanceIteration(
    { client, scripts: args.scripts },
    {
      ...(args.steps ? { steps: args.steps } : {}),
      ...(args.returnImmediately !== undefined ? { returnImmediately: args.returnImmediately } : {}),
      ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
      pendingLatency: tools.histogram('pendingLatency'),
      acceptanceLatency: tools.histogram('acceptanceLatency'),
    },
  );
  return { iteration };
}

/** `performance.now()` deadline as the epoch ms a worker reads. */
const epoch = (at: number): number => performance.timeOrigin + at;

function portable(client: A2AClient): PortableClient {
  return { agent: client.agent, options: portableOptions(client.options) };
}

const sinksOf = (client: A2AClient) => ({ observer: client.options.observer, onRefused: client.options.onRefused });

/** ctx.hitlRoundTrip's iteration, marked so that a worker can rebuild it. */
export function hitlWithSpec(
  iteration: Iteration,
  deps: { client: A2AClient; scripts: boolean; deadline: number },
  choice: RoundTripChoice,
): Iteration {
  const client = choice.client ?? deps.client;
  const args: HitlArgs = {
    client: portable(client),
    scripts: deps.scripts,
    deadline: epoch(deps.deadline),
    ...(choice.steps ? { steps: choice.steps } : {}),
    ...(choice.resumeTimeoutMs !== undefined ? { resumeTimeoutMs: choice.resumeTimeoutMs } : {}),
  };
  return withWorkerSpec(
    iteration,
    { module: import.meta.url, export: 'hitlRoundTripInWorker', args },
    { ...sinksOf(client), histograms: { promptLatency: choice.promptLatency, resumeLatency: choice.resumeLatency } },
  );
}

/** ctx.acceptanceRoundTrip's iteration, marked so that a worker can rebuild it. */
export function acceptanceWithSpec(
  iteration: Iteration,
  deps: { client: A2AClient; scripts: boolean },
  choice: AcceptanceRoundTripChoice,
): Iteration {
  const client = choice.client ?? deps.client;
  const args: AcceptanceArgs = {
    client: portable(client),
    scripts: deps.scripts,
    ...(choice.steps ? { steps: choice.steps } : {}),
    ...(choice.returnImmediately !== undefined ? { returnImmediately: choice.returnImmediately } : {}),
    ...(choice.timeoutMs !== undefined ? { timeoutMs: choice.timeoutMs } : {}),
  };
  const histograms = { pendingLatency: choice.pendingLatency, acceptanceLatency: choice.acceptanceLatency };
  return withWorkerSpec(
    iteration,
    { module: import.meta.url, export: 'acceptanceRoundTripInWorker', args },
    { ...sinksOf(client), histograms },
  );
}
