// How a client reached through a fault proxy names where it talks in its messages: the agent the
// user gave, then the hop ("http://127.0.0.1:8765/ via fault proxy 127.0.0.1:39019"), so an error
// never points at the proxy's port alone.
import type { AgentDescription } from './agentDiscovery.ts';

/** The endpoint the user's target names, and the hop the client's traffic takes to it. */
export interface ProxiedTarget {
  rpcUrl: string;
  via: string;
}

/**
 * Names the endpoint: the target and the hop when `url` is the proxied endpoint or, on the HTTP+JSON
 * binding, one of its routes below it.
 */
export function endpointName(agent: AgentDescription, target: ProxiedTarget | undefined): (url: string) => string {
  const base = agent.rpcUrl.replace(/\/+$/, '');
  const shown = target?.rpcUrl.replace(/\/+$/, '');
  return (url) => {
    if (!target) return url;
    if (url === agent.rpcUrl) return `${target.rpcUrl} via ${target.via}`;
    return url.startsWith(`${base}/`) ? `${shown}${url.slice(base.length)} via ${target.via}` : url;
  };
}

/** Names a replay socket URL: the target's host, and the hop. */
export function socketName(target: ProxiedTarget | undefined): (url: string) => string {
  return (url) => {
    if (!target) return url;
    const shown = new URL(url);
    shown.host = new URL(target.rpcUrl).host;
    return `${shown} via ${target.via}`;
  };
}
