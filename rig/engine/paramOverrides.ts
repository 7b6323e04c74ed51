// `--param <scenario>.<key>=<value>`: change one of a scenario's parameters for a run (e.g. the
// capacity scenario's SLO: `--param capacity.sloP95Ms=500`). The value is read as the type the
// parameter already has in the profile (number, boolean, string; JSON for arrays and objects), so
// a typo or a wrong type is a one-line user error, never a scenario running on nonsense.
import { UserError } from '../protocol/userError.ts';
import type { ProfileName, ScenarioDefinition } from './kit/defineScenario.ts';

export interface ParamArgument {
  scenario: string;
  key: string;
  value: string;
}

/** Parses one `--param` (commander argParser). */
export function parseParamArgument(text: string): ParamArgument {
  const match = /^([a-z0-9][a-z0-9-]*)\.([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(text);
  if (!match) throw new UserError(`--param "${text}" must be SCENARIO.KEY=VALUE, e.g. --param capacity.sloP95Ms=500`);
  return { scenario: match[1], key: match[2], value: match[3] };
}

function coerce(arg: ParamArgument, current: unknown): unknown {
  const where = `--param ${arg.scenario}.${arg.key}`;
  if (typeof current === 'number') {
    const n = Number(arg.value);
    if (arg.value.trim() === '' || !Number.isFinite(n))
      throw new UserError(`${where} must be a number, got "${arg.value}"`);
    return n;
  }
  if (typeof current === 'boolean') {
    if (arg.value !== 'true' && arg.value !== 'false')
      throw new UserError(`${where} must be true or false, got "${arg.value}"`);
    return arg.value === 'true';
  }
  if (typeof current === 'string') return arg.value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(arg.value);
  } catch {
    throw new UserError(
      `${where} must be JSON (it is ${Array.isArray(current) ? 'an array' : 'an object'}), got "${arg.value}"`,
    );
  }
  if (Array.isArray(current) !== Array.isArray(parsed) || typeof parsed !== 'object' || parsed === null) {
    throw new UserError(
      `${where} must be ${Array.isArray(current) ? 'a JSON array' : 'a JSON object'}, got "${arg.value}"`,
    );
  }
  return parsed;
}

/** The overrides per scenario name, checked against the selected scenarios' params for `profile`. */
export function resolveParamOverrides(
  selected: ScenarioDefinition<object>[],
  profile: ProfileName,
  given: ParamArgument[],
): Record<string, Record<string, unknown>> {
  const overrides: Record<string, Record<string, unknown>> = {};
  for (const arg of given) {
    const scenario = selected.find((s) => s.name === arg.scenario);
    if (!scenario)
      throw new UserError(
        `--param ${arg.scenario}.${arg.key}: no scenario "${arg.scenario}" is selected in this run; ` +
          'select it or drop the --param',
      );
    const params = scenario.params[profile] as Record<string, unknown>;
    if (!Object.hasOwn(params, arg.key)) {
      const keys = Object.keys(params);
      throw new UserError(
        `--param ${arg.scenario}.${arg.key}: ${arg.scenario} has no parameter "${arg.key}"; ` +
          (keys.length ? `it has ${keys.join(', ')}` : 'it takes none'),
      );
    }
    const value = coerce(arg, params[arg.key]);
    const choices = (scenario.paramChoices as Record<string, readonly string[]> | undefined)?.[arg.key];
    if (choices && !choices.includes(value as string))
      throw new UserError(
        `--param ${arg.scenario}.${arg.key} must be one of ${choices.join(', ')}, got "${arg.value}"`,
      );
    (overrides[arg.scenario] ??= {})[arg.key] = value;
  }
  return overrides;
}
