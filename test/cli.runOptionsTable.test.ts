// rig/runOptions.ts: the table's flags parsed by commander, then read once into the options the
// engine and the writers get: frozen all the way down, under the flags' own names, conform's
// run-only flags at the table's defaults, and the same errors for bad input as before.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addRunOptions, readRunOptions, type RunFlags } from '../rig/runOptions.ts';
import { UserError } from '../rig/protocol/userError.ts';
import { defineScenario, type ScenarioDefinition } from '../rig/engine/kit/defineScenario.ts';

const probe = defineScenario({
  name: 'probe',
  description: 'a scenario with one parameter',
  tags: [],
  needs: {},
  params: { smoke: { trials: 3 }, ci: { trials: 3 }, full: { trials: 3 } },
  budgetMs: { smoke: 1_000, ci: 1_000, full: 1_000 },
  records: { latencies: [], counters: {} },
  async run(ctx) {
    ctx.check('ran', true);
  },
}) as ScenarioDefinition<object>;

/** The flags commander gives `verb`'s action for `args`. */
function parsed(verb: 'run' | 'conform', args: string[]): RunFlags {
  const command = addRunOptions(new Command(verb).exitOverride(), verb);
  command.parse(args, { from: 'user' });
  return command.opts<RunFlags>();
}

const select = async () => [probe];

describe('readRunOptions', () => {
  it('gives frozen options under the flags names, --param resolved and --workers defaulted', async () => {
    const flags = parsed('run', ['--agent-fault', 'slow-resume', '--toxic', 'latency=50', '--param', 'probe.trials=7']);
    const { options, scenarios } = await readRunOptions(flags, select);
    expect(scenarios).toEqual([probe]);
    expect(options).toMatchObject({
      profile: 'smoke',
      agentFault: ['slow-resume'],
      a2aVersion: 'auto',
      toxic: [{ type: 'latency', attributes: { latency: 50 } }],
      param: { probe: { trials: 7 } },
      threshold: [],
    });
    expect(options.workers).toBeGreaterThanOrEqual(1);
    for (const frozen of [options, options.agentFault, options.toxic, options.toxic![0], options.param, options.access])
      expect(Object.isFrozen(frozen)).toBe(true);
    expect(() => (options.agentFault as string[]).push('answer-202')).toThrow(TypeError);
    // The flags that became `access` and `threshold` are not there twice.
    expect(Object.keys(options)).not.toContain('header');
    expect(Object.keys(options)).not.toContain('thresholdsFile');
  });

  it("gives conform the table's defaults of the flags it does not take", async () => {
    const { options } = await readRunOptions(parsed('conform', ['--target', 'http://127.0.0.1:9']), select);
    expect(options).toMatchObject({ agentFault: [], agentImage: 'a2a-rig:local', target: 'http://127.0.0.1:9' });
  });

  it('refuses bad input with the same errors as before, before anything is selected', async () => {
    let selected = false;
    const counting = async () => {
      selected = true;
      return [probe];
    };
    const flags = parsed('run', ['--target', 'http://127.0.0.1:9', '--agent-fault', 'slow-resume']);
    await expect(readRunOptions(flags, counting)).rejects.toThrow(
      new UserError('--agent-fault applies to the embedded agent only, not to --target'),
    );
    await expect(readRunOptions(parsed('run', ['--threshold', 'nonsense']), counting)).rejects.toThrow(UserError);
    expect(selected).toBe(false);
    await expect(readRunOptions(parsed('run', ['--param', 'probe.none=1']), select)).rejects.toThrow(
      '--param probe.none: probe has no parameter "none"; it has trials',
    );
  });
});
