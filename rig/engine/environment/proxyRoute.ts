// The run's fault proxy as clients see it: its name on the backend, the card's endpoint pointed at
// it, and whether a scenario's client takes it at all.
import { randomBytes } from 'node:crypto';
import type { AgentDescription } from '../../client/index.ts';

/**
 * The run's proxy is named after the run, `a2a-rig-<run id>`: runs sharing one Toxiproxy never
 * collide, and a leftover of a killed run says whose it was.
 */
export function runProxyName(runId: string | undefined): string {
  return `a2a-rig-${runId ?? randomBytes(4).toString('hex')}`;
}

/** How a scenario's client reaches the agent: through the run's proxy, or through it only for toxics. */
export type ClientRoute = 'proxy' | 'for-toxics';

/**
 * Points the endpoint a card names at the proxy. Only for an endpoint at the agent's own origin
 * (cardEndpoint.ts: a card saying localhost for a --target given as 127.0.0.1 counts): elsewhere the
 * rig's traffic would bypass the proxy and no fault would touch it.
 */
export function throughProxy(agent: AgentDescription, proxyUrl: string): AgentDescription {
  const rpc = new URL(agent.rpcUrl);
  rpc.host = new URL(proxyUrl).host;
  return { ...agent, rpcUrl: rpc.toString() };
}
