// Whether an open-model run reached the agent at all. A round trip that never got a connection
// (refused, unreachable, a failed TLS handshake: isReachFailure, which transportFailure counts as
// UNREACHED) says nothing about the agent: a run of only those is the rig's limit, nothing to judge.
import { TransportError } from '../client/index.ts';
import type { OpenModelResult } from './openModelExecutor.ts';

/** The failure kind (OpenModelResult.failures) of an iteration that never got a connection to the agent. */
export const UNREACHED = 'unreached';

/** Throws a reach failure when every iteration of `result` failed without a connection to the agent. */
export function assertReached(result: OpenModelResult, what: string): void {
  const unreached = result.failures[UNREACHED] ?? 0;
  if (result.succeeded > 0 || unreached === 0 || unreached < result.failed) return;
  throw new TransportError(
    'connect',
    `${what}: none of ${result.failed} round trips got a connection to the agent (first: ${result.firstFailure})`,
  );
}
