// The acceptance-criteria extension's declaration on an agent card: an entry of
// `capabilities.extensions[]` with `uri` ACCEPTANCE_URI, `required` (SHOULD be false) and `params`
// `{evaluators, supportsArtifactSchema, maxRejectionsCap}`. A v1.0 card is ProtoJSON, and agents
// that build `params` from a proto message leave out what holds its default: an absent
// `required` reads false, absent `evaluators` an empty list, absent `supportsArtifactSchema`
// false; an absent `maxRejectionsCap` is left undefined (the draft gives it no default: the
// agent's own cap applies). What breaks the draft is listed in the card's problems, not thrown:
// a foreign agent's odd card should let the scenarios that do not need the gate run.
import type { JsonObject } from '../protocol/a2aTypes.ts';
import { ACCEPTANCE_URI, EVALUATORS, type Evaluator } from '../protocol/acceptance.ts';

export interface AcceptanceDeclaration {
  declared: boolean;
  /** `required` as declared; absent reads false (the default). Undefined when not a boolean or not declared. */
  required: boolean | undefined;
  /** True when `required` was left out (ProtoJSON omits a false). */
  requiredAbsent?: boolean;
  /** The known evaluators declared, in order (unknown names are dropped and listed as problems). */
  evaluators: Evaluator[];
  supportsArtifactSchema: boolean;
  /** Undefined when absent or not a non-negative integer. */
  maxRejectionsCap: number | undefined;
  /** `params` as the card has it (untrusted). */
  params: unknown;
}

/** What an acceptance scenario needs of the agent; `acceptanceSkipReason` says why it is not there. */
export interface AcceptanceNeeds {
  evaluator?: Evaluator;
  artifactSchema?: boolean;
  /** The scenario asks for this many rejections (checked against `maxRejectionsCap` when declared). */
  maxRejections?: number;
}

function notDeclared(): AcceptanceDeclaration {
  return {
    declared: false,
    required: undefined,
    evaluators: [],
    supportsArtifactSchema: false,
    maxRejectionsCap: undefined,
    params: undefined,
  };
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function shown(v: unknown): string {
  return (JSON.stringify(v) ?? String(v)).slice(0, 80);
}

const WHAT = 'the acceptance-criteria extension';

/** The known evaluators `params.evaluators` names, in order and once each; the rest are problems. */
function evaluatorsOf(params: JsonObject, problems: string[]): Evaluator[] {
  const evaluators: Evaluator[] = [];
  const rawEvaluators = params.evaluators ?? [];
  if (!Array.isArray(rawEvaluators)) {
    problems.push(`${WHAT}: params.evaluators is ${shown(rawEvaluators)}, not a list`);
    return evaluators;
  }
  for (const e of rawEvaluators) {
    if ((EVALUATORS as readonly unknown[]).includes(e)) {
      if (!evaluators.includes(e as Evaluator)) evaluators.push(e as Evaluator);
    } else problems.push(`${WHAT}: params.evaluators names ${shown(e)}, not one of ${EVALUATORS.join(', ')}`);
  }
  return evaluators;
}

/** `params.maxRejectionsCap` when it is a non-negative integer; anything else but absence is a problem. */
function rejectionsCapOf(params: JsonObject, problems: string[]): number | undefined {
  const rawCap = params.maxRejectionsCap;
  const capOk = typeof rawCap === 'number' && Number.isInteger(rawCap) && rawCap >= 0;
  if (rawCap !== undefined && rawCap !== null && !capOk)
    problems.push(`${WHAT}: params.maxRejectionsCap is ${shown(rawCap)}, not a non-negative integer`);
  return capOk ? (rawCap as number) : undefined;
}

/** Reads the declaration from a card (pure); findings that break the draft go to `problems`. */
export function acceptanceDeclaration(card: JsonObject, problems: string[]): AcceptanceDeclaration {
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  const extensions = Array.isArray(capabilities.extensions) ? capabilities.extensions : [];
  const entry = extensions.find((e): e is JsonObject => isObject(e) && e.uri === ACCEPTANCE_URI);
  if (!entry) return notDeclared();
  const requiredAbsent = entry.required === undefined || entry.required === null;
  const required = requiredAbsent ? false : typeof entry.required === 'boolean' ? entry.required : undefined;
  if (required !== false)
    problems.push(`${WHAT} is declared with required: ${shown(entry.required)}; the draft says it SHOULD NOT be true`);
  const declared = { declared: true, required, ...(requiredAbsent ? { requiredAbsent } : {}) };
  // ProtoJSON may leave out an empty Struct, and with it every param.
  const params = entry.params === undefined || entry.params === null ? {} : entry.params;
  if (!isObject(params)) {
    problems.push(`${WHAT} is declared with params ${shown(params)}, not an object`);
    return {
      ...declared,
      evaluators: [],
      supportsArtifactSchema: false,
      maxRejectionsCap: undefined,
      params: entry.params,
    };
  }
  const evaluators = evaluatorsOf(params, problems);
  const rawSchema = params.supportsArtifactSchema ?? false;
  if (typeof rawSchema !== 'boolean')
    problems.push(`${WHAT}: params.supportsArtifactSchema is ${shown(rawSchema)}, not a boolean`);
  const maxRejectionsCap = rejectionsCapOf(params, problems);
  return {
    ...declared,
    evaluators,
    supportsArtifactSchema: rawSchema === true,
    maxRejectionsCap,
    params: entry.params,
  };
}

/**
 * Why an acceptance scenario cannot run against this agent, in one line; undefined when it can.
 * An agent that does not declare the extension is skipped, never failed: the extension is optional.
 */
export function acceptanceSkipReason(
  declaration: AcceptanceDeclaration,
  needs: AcceptanceNeeds = {},
): string | undefined {
  if (!declaration.declared)
    return `the agent card does not declare the acceptance-criteria extension (${ACCEPTANCE_URI})`;
  const evaluator = needs.evaluator ?? 'client';
  if (!declaration.evaluators.includes(evaluator)) {
    const declared = declaration.evaluators.join(', ') || 'none';
    return (
      `the agent declares the acceptance-criteria extension without the "${evaluator}" evaluator ` +
      `(declared: ${declared})`
    );
  }
  if (needs.artifactSchema && !declaration.supportsArtifactSchema)
    return 'the agent declares the acceptance-criteria extension with supportsArtifactSchema false';
  const cap = declaration.maxRejectionsCap;
  if (needs.maxRejections !== undefined && cap !== undefined && needs.maxRejections > cap) {
    return `the scenario needs maxRejections ${needs.maxRejections}; the agent declares maxRejectionsCap ${cap}`;
  }
  return undefined;
}
