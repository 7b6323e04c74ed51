// Where the agent card sends the rig's JSON-RPC traffic, against what the user named. The user names
// one URL (--target, or the embedded agent's own); the card names the JSON-RPC endpoint, and a
// hostile or misconfigured card can name any host or path. The rule, as a load tool owes its user:
// - the endpoint at the URL the user gave (same origin, same path): nothing to say;
// - the same origin (scheme, host, port; localhost, 127.0.0.1 and [::1] on one port count as one
// - another origin: never contacted unless the user opts in with --follow-card-endpoint; then said
// The replay plane (/events) is resolved against the endpoint's origin, so it follows the same rule.

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export const FOLLOW_FLAG = '--follow-card-endpoint';

export interface CardEndpoint {
  /** 'target': the URL the user gave; 'other-path': its origin, another path; 'other-origin': elsewhere. */
  placement: 'target' | 'other-path' | 'other-origin';
  /** The card's JSON-RPC endpoint, as the card gives it (resolved against the card's URL). */
  rpcUrl: string;
  /**
   * The endpoint at the user's own address (loopback aliases folded to the user's spelling); the card's
   * endpoint when elsewhere.
   */
  directRpcUrl: string;
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** Same scheme and port, and the same host (or two loopback names of it). */
export function sameOrigin(a: URL, b: URL): boolean {
  if (a.protocol !== b.protocol || defaultPort(a) !== defaultPort(b)) return false;
  return a.hostname === b.hostname || (LOOPBACK.has(a.hostname) && LOOPBACK.has(b.hostname));
}

function trimmedPath(url: URL): string {
  return url.pathname.replace(/\/+$/, '') || '/';
}

export function placeCardEndpoint(rpcUrl: string, targetUrl: string): CardEndpoint {
  const rpc = new URL(rpcUrl);
  const target = new URL(targetUrl);
  if (!sameOrigin(rpc, target)) return { placement: 'other-origin', rpcUrl, directRpcUrl: rpcUrl };
  const direct = new URL(rpc);
  direct.host = target.host;
  return {
    placement: trimmedPath(rpc) === trimmedPath(target) ? 'target' : 'other-path',
    rpcUrl,
    directRpcUrl: direct.toString(),
  };
}

/**
 * A gRPC endpoint: a server of its own beside the HTTP one that serves the card, so another port of
 * the target's host (or a loopback name of it) is the agent the user named; another host is not.
 */
export function placeGrpcEndpoint(rpcUrl: string, targetUrl: string): CardEndpoint {
  const rpc = new URL(rpcUrl);
  const target = new URL(targetUrl);
  const sameHost = rpc.hostname === target.hostname || (LOOPBACK.has(rpc.hostname) && LOOPBACK.has(target.hostname));
  if (!sameHost) return { placement: 'other-origin', rpcUrl, directRpcUrl: rpcUrl };
  const direct = new URL(rpc);
  direct.hostname = target.hostname;
  return { placement: 'target', rpcUrl, directRpcUrl: direct.toString() };
}

/** Where the endpoint of the binding spoken is, against the target (gRPC's is a server of its own). */
export function placeEndpoint(binding: string, rpcUrl: string, targetUrl: string): CardEndpoint {
  return binding === 'GRPC' ? placeGrpcEndpoint(rpcUrl, targetUrl) : placeCardEndpoint(rpcUrl, targetUrl);
}

/** How the user named the agent, for messages: "--target <url>" or "the embedded agent at <url>". */
export function targetLabel(targetUrl: string, embedded: boolean): string {
  return embedded ? `the embedded agent at ${targetUrl}` : `--target ${targetUrl}`;
}

/**
 * The one-line usage error when the rig must not call the endpoint: elsewhere and the user did not
 * opt in, or not http(s) at all (a JSON-RPC binding is HTTP; `file:` or `ws:` is a hostile card's
 * doing, and no flag makes it one). Undefined when the endpoint may be called.
 */
export function refusalLine(
  endpoint: CardEndpoint,
  cardUrl: string,
  target: string,
  follow: boolean,
): string | undefined {
  const scheme = new URL(endpoint.rpcUrl).protocol;
  if (scheme !== 'http:' && scheme !== 'https:')
    return (
      `the agent card at ${cardUrl} names ${endpoint.rpcUrl} as its JSON-RPC endpoint, ` + 'which is not an http(s) URL'
    );
  if (endpoint.placement !== 'other-origin' || follow) return undefined;
  return (
    `the agent card at ${cardUrl} sends JSON-RPC to ${endpoint.rpcUrl}, which is not ${target}; ` +
    `the rig sends nothing to an endpoint you did not name: pass ${FOLLOW_FLAG} to run against it ` +
    '(no network faults can be injected there)'
  );
}

/** What is said before the first request when the endpoint is not the URL the user gave; undefined when it is. */
export function endpointNote(endpoint: CardEndpoint, target: string): string | undefined {
  if (endpoint.placement === 'target') return undefined;
  if (endpoint.placement === 'other-path')
    return (
      `the agent card sends JSON-RPC to ${endpoint.rpcUrl}, another path than ${target}; ` +
      "the rig's traffic goes there"
    );
  return (
    `the agent card sends JSON-RPC to ${endpoint.rpcUrl}, not ${target}; ` +
    `the rig's traffic goes there (${FOLLOW_FLAG}), and no network faults can be injected there`
  );
}

/** Why faults are unavailable when the endpoint is elsewhere (the skip reason of every scenario needing them). */
export function faultsElsewhereReason(endpoint: CardEndpoint, target: string): string {
  return (
    `the card's JSON-RPC endpoint ${endpoint.rpcUrl} is not at ${target}, ` + 'so no fault proxy can sit in front of it'
  );
}
