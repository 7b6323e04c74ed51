// Loads a results.json written by `a2a-rig run` or `merge`, given the file or its directory, and
// refuses anything that is not a2a-rig/results@1 with one line saying what to do. Only the fields
// compare and merge rely on are checked (by hand: a dozen lines, and the schema is still growing
// optional parts that a strict JSON Schema would have to chase).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../protocol/userError.ts';
import { RESULTS_SCHEMA, type RunResult } from '../results/runResult.ts';

export function resultsPath(fileOrDir: string): string {
  let isDir: boolean;
  try {
    isDir = statSync(fileOrDir).isDirectory();
  } catch {
    throw new UserError(`${fileOrDir} does not exist: give a results.json or the directory a run wrote`);
  }
  return isDir ? join(fileOrDir, 'results.json') : fileOrDir;
}

function shapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'not a JSON object';
  const run = value as Partial<RunResult>;
  if (run.schema !== RESULTS_SCHEMA) return `schema is ${JSON.stringify(run.schema)}, expected "${RESULTS_SCHEMA}"`;
  if (!Array.isArray(run.scenarios)) return 'scenarios is not an array';
  for (const s of run.scenarios) {
    if (typeof s?.name !== 'string' || typeof s.verdict !== 'string') return 'a scenario lacks its name or verdict';
    if (typeof s.metrics !== 'object' || s.metrics === null || typeof s.counters !== 'object' || s.counters === null)
      return `scenario ${s.name} lacks metrics or counters`;
    if (!Array.isArray(s.checks)) return `scenario ${s.name} lacks checks`;
    for (const [name, m] of Object.entries(s.metrics))
      if (typeof m?.hdr !== 'string') return `metric ${s.name}/${name} has no hdr histogram`;
  }
  return undefined;
}

export function readRunResult(fileOrDir: string): RunResult {
  const path = resultsPath(fileOrDir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UserError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${path} is not JSON (${(err as Error).message}): give a results.json written by a2a-rig`);
  }
  const problem = shapeProblem(value);
  if (problem) throw new UserError(`${path} is not an a2a-rig results file: ${problem}`);
  return value as RunResult;
}
