// How every report names the wire a run spoke: the generation, and the binding when it is not
// JSON-RPC (the binding runs spoke before there was a choice).
import type { RunResult } from '../results/runResult.ts';

export function targetWire(target: RunResult['target']): string {
  const binding = target.binding && target.binding !== 'JSONRPC' ? ` over ${target.binding}` : '';
  return `A2A ${target.generation ?? '?'}${binding}`;
}
