// What the fault-flag proofs (test/agent.faults*.test.ts) share: which file proves which flag, and the
// moves every proof makes against an agent (start a task, answer its prompt, read its replay).
import { expect } from 'vitest';
import type { FaultName } from '../../rig/agent/faults.ts';
import { inProcessAgent } from './inProcessAgent.ts';
import {
  METHOD,
  answerMessage,
  envelopeOf,
  replay,
  rpc,
  scriptData,
  taskOf,
  userMessage,
  type ReplayFrame,
} from './rpcClient.ts';

/** The flags of answering a prompt (validation, bounds, timing, prompt ids): agent.faultsPrompt.test.ts. */
export const PROMPT_FAULTS = [
  'accept-duplicates',
  'skip-validation',
  'answer-202',
  'validation-errors-elsewhere',
  'rejection-data-bare',
  'rejection-detail-only',
  'keep-input-required',
  'slow-resume',
  'emit-oversized-schema',
  'no-depth-limit',
  'reuse-prompt-id',
  'prompt-id-v7',
] as const satisfies readonly FaultName[];

/** The flags of activating hitl-prompt/v1 (echo, envelope, card): agent.faultsExtension.test.ts. */
export const EXTENSION_FAULTS = [
  'no-extension-echo',
  'envelope-extra-field',
  'envelope-without-activation',
  'declare-required-extension',
] as const satisfies readonly FaultName[];

/** The flags of the event replay and its outbox: agent.faultsReplay.test.ts. */
export const REPLAY_FAULTS = [
  'drop-replay',
  'silent-resubscribe',
  'reorder-replay',
  'volatile-outbox',
] as const satisfies readonly FaultName[];

export type PromptFaultName = (typeof PROMPT_FAULTS)[number];
export type ExtensionFaultName = (typeof EXTENSION_FAULTS)[number];
export type ReplayFaultName = (typeof REPLAY_FAULTS)[number];

export type Proof = () => Promise<void>;

export const gen = '1.0' as const;
export const INPUT_REQUIRED = 'TASK_STATE_INPUT_REQUIRED';

/** Runs `observe` against a fresh in-process agent with `fault` set, then tears it down. */
export async function withFault<T>(fault: FaultName, observe: (url: string) => Promise<T>): Promise<T> {
  const agent = await inProcessAgent([fault]);
  try {
    return await observe(agent.url);
  } finally {
    await agent.cleanup();
  }
}

/** Starts a task (the default approve-prompt script unless `steps` is given) with a blocking send. */
export async function start(url: string, steps?: unknown[]): Promise<{ task: any; envelope: any }> {
  const sent = await rpc(url, gen, METHOD[gen].send, {
    message: userMessage(gen, steps ? { data: scriptData(steps) } : {}),
  });
  expect(sent.status).toBe(200);
  const task = taskOf(gen, sent.body.result);
  return { task, envelope: envelopeOf(task) };
}

export function answer(url: string, taskId: string, promptId: string, payload: unknown, configuration?: object) {
  return rpc(url, gen, METHOD[gen].send, {
    message: answerMessage(gen, taskId, promptId, payload),
    ...(configuration ? { configuration } : {}),
  });
}

export function frameState(frame: ReplayFrame): string | undefined {
  return frame.event.statusUpdate?.status.state ?? frame.event.task?.status.state;
}

export const replayFrames = (url: string, taskId: string, opts: Parameters<typeof replay>[3] = {}) =>
  replay(url, taskId, 0, { version: gen, ...opts });
