// How every report names the wire a run spoke: the generation, and the binding when it is not
// JSON-RPC (the binding runs spoke before there was a choice); and, as the terminal and summary.md
// write it on the same line, the toxics the whole run ran under.
import type { RunResult } from '../results/runResult.ts';

export function targetWire(target: RunResult['target']): string {
  const binding = target.binding && target.binding !== 'JSONRPC' ? ` over ${target.binding}` : '';
  return `A2A ${target.generation ?? '?'}${binding}`;
}

/** The run's toxics as plain text, `type stream k=v …; …` (each writer escapes it); '' without any. */
export function runToxics(run: Pick<RunResult, 'toxics'>): string {
  const toxic = (t: NonNullable<RunResult['toxics']>[number]) =>
    `${t.type} ${t.stream} ${Object.entries(t.attributes)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`;
  return (run.toxics ?? []).map(toxic).join('; ');
}
