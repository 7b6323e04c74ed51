// A client a worker can rebuild: the options of A2AClient that are data (agent, connections,
// credentials, extensions, limits, the proxied target), without what lives on the caller's thread
// (the event history, the validator's cache, observers, the refusal hook). In the worker, the
// client's connections are its part of the caller's, and its observer and refusal hook forward to
// the caller's (WorkerTools).
import { A2AClient, type A2AClientOptions } from '../../client/a2aClient.ts';
import { EventHistory } from '../../client/eventHistory.ts';
import type { AgentDescription } from '../../client/agentDiscovery.ts';
import { GuardedValidator } from '../../protocol/guardedValidator.ts';
import type { WorkerTools } from './iterationSpec.ts';

// One per thread, for every client it builds: its schemas compile once, not on every run.
let validator: GuardedValidator | undefined;

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

// Kept for the thread's life (its end closes their sockets): a scenario's next load on the same
// client finds its connections open, as it does on the main thread.
const clients = new Map<string, A2AClient>();

/** The client, rebuilt in a worker from what it was sent (the same one for the same data). */
export function clientInWorker(portable: PortableClient, tools: WorkerTools): A2AClient {
  const key = JSON.stringify([portable, tools.workers]);
  let client = clients.get(key);
  if (!client) clients.set(key, (client = newClientInWorker(portable, tools)));
  return client;
}

/** A client of its own (its own connections), not kept: the caller closes it. */
export function newClientInWorker(portable: PortableClient, tools: WorkerTools): A2AClient {
  const { credentials, connections } = portable.options;
  // A Buffer crosses threads as a plain Uint8Array.
  const ca = credentials?.ca ? Buffer.from(credentials.ca) : undefined;
  return A2AClient.forAgent(portable.agent, {
    ...portable.options,
    ...(credentials ? { credentials: { ...credentials, ...(ca ? { ca } : {}) } } : {}),
    // The caller's connections in all: each worker opens its part of them.
    ...(connections ? { connections: Math.max(1, Math.ceil(connections / tools.workers)) } : {}),
    observer: tools.observer,
    onRefused: tools.onRefused,
    // Nothing reads a worker's history back (docs/cli.md): its unary replies are checked and
    // counted, not kept, or a long run would keep every reply of its thread.
    history: new EventHistory({}, false),
    validator: (validator ??= new GuardedValidator()),
  });
}
