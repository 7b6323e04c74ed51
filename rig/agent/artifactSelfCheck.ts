// The agent's own check of its criteria (evaluator `agent`): every JSON part of every artifact
// validates against artifactSchema, and every requiredArtifacts name is present. The schema is the
// client's (untrusted, already guarded by readCriteria); each part is validated under the
// GuardedValidator's per-payload watchdog (VALIDATION_BUDGET_MS) and pattern-work meter, and the whole
// check under CHECK_BUDGET_MS, so a costly schema (a wide oneOf, a 7,000-instruction pattern) costs
// at most a bounded stall. Whatever cannot be checked counts as not met: the check fails closed.
//
// JSON parts: a part with `data` (a DataPart; JSON whatever its mediaType says) and a text part whose
// mediaType is application/json or +json (parsed first; unparseable is a failure). File parts
// (`url`, `raw`) are not looked into.
import { SchemaRejectedError, type CompiledSchema, type GuardedValidator } from '../protocol/guardedValidator.ts';
import { VALIDATION_BUDGET_MS } from '../protocol/hitlPrompt.ts';
import type { Artifact, Part } from '../protocol/a2aTypes.ts';
import type { GateCriteria } from './acceptanceCriteria.ts';
import { ACCEPTANCE_CRITERIA_NOT_MET, ACCEPTANCE_ERROR_MESSAGES, ACCEPTANCE_URI } from '../protocol/acceptance.ts';

/** Failures listed in one verdict; the rest are counted in a last line. */
export const MAX_REPORTED_FAILURES = 20;
/** Wall time for the whole check; parts not reached by then are not checked (→ not met). */
export const CHECK_BUDGET_MS = 4 * VALIDATION_BUDGET_MS;

export type SelfCheck = { met: true } | { met: false; failures: string[] };

const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json\s*(?:;.*)?$/i;

function label(artifact: Artifact): string {
  const name = artifact.name === undefined ? '' : `${JSON.stringify(cut(artifact.name, 64))} `;
  return `artifact ${name}(${cut(String(artifact.artifactId), 64)})`;
}

function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

/** The JSON value a part carries, or why it has none that can be checked; undefined: not a JSON part. */
function jsonOf(part: Part): { value: unknown } | { error: string } | undefined {
  if (part.data !== undefined) return { value: part.data };
  if (typeof part.text === 'string' && typeof part.mediaType === 'string' && JSON_MEDIA.test(part.mediaType)) {
    try {
      return { value: JSON.parse(part.text) };
    } catch (err) {
      return { error: `is ${part.mediaType} text that does not parse as JSON (${cut((err as Error).message, 100)})` };
    }
  }
  return undefined;
}

export function checkArtifacts(artifacts: Artifact[], criteria: GateCriteria, validator: GuardedValidator): SelfCheck {
  const failures: string[] = [];
  const present = new Set(artifacts.map((a) => a.name).filter((n): n is string => typeof n === 'string'));
  for (const name of criteria.requiredArtifacts) {
    if (!present.has(name)) failures.push(`required artifact ${JSON.stringify(cut(name, 64))} is missing`);
  }
  if (criteria.artifactSchema !== undefined) schemaFailures(artifacts, criteria.artifactSchema, validator, failures);
  if (failures.length === 0) return { met: true };
  if (failures.length > MAX_REPORTED_FAILURES) {
    const more = failures.length - (MAX_REPORTED_FAILURES - 1);
    failures.splice(MAX_REPORTED_FAILURES - 1, failures.length, `... and ${more} more failures`);
  }
  return { met: false, failures };
}

function schemaFailures(
  artifacts: Artifact[],
  schema: Record<string, unknown>,
  validator: GuardedValidator,
  failures: string[],
): void {
  let compiled: CompiledSchema;
  try {
    compiled = validator.compile(schema);
  } catch (err) {
    // readCriteria compiled it already; only a schema that skipped it (the fault) or a validator
    // whose cache rotated and whose recompile now overruns can land here.
    const why =
      err instanceof SchemaRejectedError
        ? err.message.replace(/response_schema/g, 'artifactSchema')
        : `artifactSchema could not be compiled: ${(err as Error).message}`;
    failures.push(cut(why, 300));
    return;
  }
  const started = performance.now();
  // The first call of a freshly compiled validator pays V8's lazy compile of Ajv's generated code
  // (a large part of a second for a big oneOf on a loaded box: docs/benchmarks.md), which the
  // watchdog cannot interrupt: paid on a throwaway value, it would otherwise time out the first real part.
  compiled.validate(null);
  let unchecked = 0;
  for (const artifact of artifacts) {
    const parts = Array.isArray(artifact.parts) ? artifact.parts : [];
    parts.forEach((part, i) => {
      const json = jsonOf(part);
      if (json === undefined) return;
      if (performance.now() - started > CHECK_BUDGET_MS) {
        unchecked++;
        return;
      }
      const where = `${label(artifact)} part ${i}`;
      if ('error' in json) {
        failures.push(`${where} ${json.error}`);
        return;
      }
      const errors = compiled.validate(json.value);
      if (errors.length > 0) {
        const shown = errors
          .slice(0, 3)
          .map((e) => `${e.path || '/'} ${e.message}`)
          .join('; ');
        failures.push(
          cut(
            `${where} does not match artifactSchema: ${shown}` +
              (errors.length > 3 ? ` (+${errors.length - 3} more)` : ''),
            400,
          ),
        );
      }
    });
  }
  if (unchecked > 0)
    failures.push(`the self-check ran past ${CHECK_BUDGET_MS} ms; ${unchecked} JSON parts were not checked`);
}

/** Status-message metadata key of a FAILED self-check (the shared issue-12 design). */
export const NOT_MET_KEY = `${ACCEPTANCE_URI}/error`;

/**
 * What the FAILED status message of an unmet self-check carries: metadata
 * `{[NOT_MET_KEY]: {code: -32041, message: 'acceptance_criteria_not_met', details: failures}}` and a
 * text saying why (the message must also list ACCEPTANCE_URI in its `extensions`).
 */
export function notMetStatus(failures: readonly string[]): { text: string; metadata: Record<string, unknown> } {
  const code = ACCEPTANCE_CRITERIA_NOT_MET;
  return {
    text: `acceptance criteria not met: ${failures.join('; ')}`,
    metadata: { [NOT_MET_KEY]: { code, message: ACCEPTANCE_ERROR_MESSAGES[code], details: [...failures] } },
  };
}
