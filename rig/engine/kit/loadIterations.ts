// The engine's side of load: open-model runs bounded by a scenario's budget and signal, and the HITL
// round trip wired to the engine's way of opening a prompt (promptOpener: a script for agents that
// follow them, a plain message otherwise; S-2 checked; a valid answer synthesized from the schema).
import type { A2AClient, AnswerSynthesizer } from '../../client/index.ts';
import type { LatencyHistogram } from '../../metrics/latencyHistogram.ts';
import { hitlRoundTrip, RoundTripFailure, type PromptOpener } from '../../load/hitlRoundTrip.ts';
import { acceptanceRoundTrip } from '../../load/acceptanceRoundTrip.ts';
import {
  runOpenModel,
  type Iteration,
  type OpenModelOptions,
  type OpenModelResult,
} from '../../load/openModelExecutor.ts';
import { parkTask, type PromptDeps } from './promptOpener.ts';

export interface RoundTripChoice {
  /** Default: the scenario's client (a load usually wants its own, from ctx.newClient(n)). */
  client?: A2AClient;
  /** a2a-rig script steps for agents that follow scripts (default: the agent's default prompt). */
  steps?: unknown[];
  resumeTimeoutMs?: number;
  promptLatency?: LatencyHistogram;
  resumeLatency?: LatencyHistogram;
}

/**
 * Runs `options` and stops it with the scenario: its signal, and its drain cut to the budget left.
 * `run`: the executor on this thread, or the worker pool's (scenarioLoad.ts).
 */
export function runWithinBudget(
  options: OpenModelOptions,
  scenarioSignal: AbortSignal,
  remainingMs: number,
  run: (options: OpenModelOptions) => Promise<OpenModelResult> = runOpenModel,
): Promise<OpenModelResult> {
  const signal = options.signal ? AbortSignal.any([scenarioSignal, options.signal]) : scenarioSignal;
  return run({
    ...options,
    signal,
    drainTimeoutMs: Math.max(0, Math.min(options.drainTimeoutMs, remainingMs)),
  });
}

function promptOpener(deps: Omit<PromptDeps, 'signal'>, steps: unknown[] | undefined): PromptOpener {
  return async (signal) => {
    const attempt = await parkTask({ ...deps, signal }, steps);
    switch (attempt.kind) {
      case 'parked': {
        const { prompt, task } = attempt;
        if (!prompt.ok) throw new RoundTripFailure('malformed envelope', prompt.reason);
        // The round trip sends the valid answer alone: the invalid ones are built and verified
        // (remembered per schema) but not copied for it.
        const answer = deps.synthesizer.validAnswer(prompt.envelope.response_schema);
        if (!answer.ok) throw new RoundTripFailure('no answer synthesized', answer.reason);
        return { taskId: task.id, promptId: prompt.envelope.prompt_id, payload: answer.valid };
      }
      case 'refused':
        throw new RoundTripFailure('send refused', attempt.reason);
      case 'message':
        throw new RoundTripFailure('no task', 'the agent answered with a Message, not a Task');
      case 'not-parked':
        throw new RoundTripFailure(
          'not parked',
          `the task is ${attempt.task.status.state}, not INPUT_REQUIRED` +
            (attempt.statusText ? `: ${attempt.statusText}` : ''),
        );
      case 'no-envelope':
        throw new RoundTripFailure('no envelope', 'the task parked without a hitl-prompt/v1 envelope');
    }
  };
}

/** One HITL round trip per call (rig/load/hitlRoundTrip.ts), its prompt opened the engine's way. */
export function roundTripIteration(
  deps: { client: A2AClient; scripts: boolean; synthesizer: AnswerSynthesizer; remainingMs: () => number },
  choice: RoundTripChoice = {},
): Iteration {
  const client = choice.client ?? deps.client;
  return hitlRoundTrip({
    client,
    open: promptOpener(
      { client, scripts: deps.scripts, synthesizer: deps.synthesizer, remainingMs: deps.remainingMs },
      choice.steps,
    ),
    resumeTimeoutMs: choice.resumeTimeoutMs,
    promptLatency: choice.promptLatency,
    resumeLatency: choice.resumeLatency,
  });
}

export interface AcceptanceRoundTripChoice {
  /** Default: the scenario's client (a load usually wants its own, from ctx.newClient(n)). */
  client?: A2AClient;
  /** a2a-rig script steps for agents that follow scripts (default: one artifact, then complete). */
  steps?: readonly unknown[];
  /** Send the creating message non-blocking and watch the task park on a subscription. */
  returnImmediately?: boolean;
  /** Bound on the wait for the pending gate, and on the wait for the terminal state (default 10 s each). */
  timeoutMs?: number;
  /** Intended start → pending gate observed. */
  pendingLatency?: LatencyHistogram;
  /** Decision about to be sent → terminal state observed (acceptance latency). */
  acceptanceLatency?: LatencyHistogram;
}

/** One acceptance-criteria round trip per call (rig/load/acceptanceRoundTrip.ts): the same contract as the HITL one. */
export function acceptanceIteration(
  deps: { client: A2AClient; scripts: boolean },
  choice: AcceptanceRoundTripChoice = {},
): Iteration {
  return acceptanceRoundTrip({
    client: choice.client ?? deps.client,
    scripts: deps.scripts,
    steps: choice.steps,
    returnImmediately: choice.returnImmediately,
    timeoutMs: choice.timeoutMs,
    pendingLatency: choice.pendingLatency,
    acceptanceLatency: choice.acceptanceLatency,
  });
}
