// The generator benchmarks' iteration as a worker spec (rig/load/workers/iterationSpec.ts): iteration
// i sends, answers or gets (i mod 3) with the rig's A2AClient, passing the iteration's signal as
// scenarios do (generatorIterations.ts); the client parses and checks each reply, keeping none. A
// worker rebuilds it (and its client) from the agent and the connection count.
import type { AgentDescription } from '../rig/client/agentDiscovery.ts';
import type { A2AClient } from '../rig/client/a2aClient.ts';
import type { Iteration } from '../rig/load/openModelExecutor.ts';
import type { BuiltIteration, IterationSpec, WorkerTools } from '../rig/load/workers/iterationSpec.ts';
import { clientInWorker } from '../rig/load/workers/workerClient.ts';
import { a2aIteration } from './generatorIterations.ts';

export const MIX_PROMPT = { taskId: 'bench-task-1', promptId: 'bench-prompt-1', payload: { approved: true } };

export interface MixArgs {
  agent: AgentDescription;
  connections: number;
}

export function mixIterationOf(client: A2AClient): Iteration {
  return a2aIteration(client, MIX_PROMPT);
}

/** One of each call first: the connection and the client's lazy parts are ready when the clock starts. */
export async function warmedUp(iteration: Iteration): Promise<Iteration> {
  for (let index = 0; index < 3; index++)
    await iteration({ index, step: 0, intendedAt: 0, startedAt: 0, signal: new AbortController().signal });
  return iteration;
}

/** The factory a worker calls (IterationSpec.export); `warm` runs one of each call before the schedule. */
export async function mixIteration(args: MixArgs & { warm?: boolean }, tools: WorkerTools): Promise<BuiltIteration> {
  const client = clientInWorker({ agent: args.agent, options: { connections: args.connections } }, tools);
  const iteration = mixIterationOf(client);
  return { iteration: args.warm ? await warmedUp(iteration) : iteration };
}

export function mixSpec(args: MixArgs & { warm?: boolean }): IterationSpec {
  return { module: import.meta.url, export: 'mixIteration', args };
}
