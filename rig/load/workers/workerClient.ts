// A client a worker can rebuild: the options of A2AClient that are data (agent, connections,
// credentials, extensions, limits, the proxied target), without what lives on the caller's thread
// (the event history, the validator's cache, observers, the refusal hook). In the worker, the
// client's observer is the one forwarding its exchanges to the caller's (WorkerTools.observer).
import { A2AClient, type A2AClientOptions } from '../../client/a2aClient.ts';
import type { AgentDescription } from '../../client/agentDiscovery.ts';
import type { WorkerTools } from './iterationSpec.ts';

export type PortableClientOptions = Omit<A2AClientOptions, 'history' | 'validator' | 'observer' | 'onRefused'>;

export interface PortableClient {
  agent: AgentDescription;
  options: PortableClientOptions;
}

/** The data part of a client's options (what a worker can be sent). */
export function portableOptions(options: A2AClientOptions): PortableClientOptions {
  const { history: _h, validator: _v, observer: _o, onRefused: _r, ...portable } = options;
  return portable;
}

/** The client, rebuilt in a worker from what it was sent. */
export function clientInWorker(portable: PortableClient, tools: WorkerTools): A2AClient {
  const { credentials } = portable.options;
  // A Buffer crosses threads as a plain Uint8Array.
  const ca = credentials?.ca ? Buffer.from(credentials.ca) : undefined;
  return A2AClient.forAgent(portable.agent, {
    ...portable.options,
    ...(credentials ? { credentials: { ...credentials, ...(ca ? { ca } : {}) } } : {}),
    ...(tools.observer ? { observer: tools.observer } : {}),
  });
}
