// `--binding all`: the whole run once per binding the rig speaks, each into a directory of its own
// under the run's (<out>/jsonrpc, <out>/http+json, <out>/grpc), one after the other against the same
// agent. A binding the card does not offer is said and passed over; a card that offers none of them
// is a usage error. The exit is the worst of the runs': a failure on any binding fails the whole.
import { join } from 'node:path';
import { BindingNotOffered } from './client/agentDiscovery.ts';
import { BINDINGS, BINDING_NAMES, type Binding } from './client/cardInterfaces.ts';
import { newRunId } from './engine/runScenarios.ts';
import { EXIT } from './exitCodes.ts';
import { UserError } from './protocol/userError.ts';
import type { RunFlags } from './runOptions.ts';

/** Worst first: what one binding's exit makes of the whole run's. */
const SEVERITY: readonly number[] = [EXIT.internal, EXIT.usage, EXIT.failed, EXIT.notTested, EXIT.passed];

function worse(a: number, b: number): number {
  const rank = (code: number) => (SEVERITY.includes(code) ? SEVERITY.indexOf(code) : -1);
  return rank(a) <= rank(b) ? a : b;
}

export async function runEachBinding(
  flags: RunFlags,
  execute: (flags: RunFlags) => Promise<void>,
  say: (line: string) => void,
): Promise<void> {
  const base = flags.out ?? join('results', newRunId());
  const outcomes: string[] = [];
  let code: number = EXIT.passed;
  let ran = 0;
  for (const binding of BINDINGS) {
    const name = BINDING_NAMES[binding];
    const out = join(base, binding.toLowerCase());
    say(`--binding all: ${name} into ${out}`);
    try {
      process.exitCode = undefined;
      await execute({ ...flags, binding: binding as Binding, out });
    } catch (err) {
      if (!(err instanceof BindingNotOffered)) throw err;
      outcomes.push(`${name} not offered by the card`);
      continue;
    }
    ran++;
    const exit = Number(process.exitCode ?? EXIT.passed);
    outcomes.push(`${name} exit ${exit}`);
    code = worse(code, exit);
  }
  if (ran === 0) throw new UserError(`--binding all: the card offers none of the bindings the rig speaks`);
  say(`--binding all: ${outcomes.join('; ')}`);
  process.exitCode = code;
}
