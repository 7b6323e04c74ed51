// Finds the scenarios: every file under scenarios/ that default-exports a defineScenario() value.
// Nothing imports scenarios/ statically; the engine discovers them, in path order (so the
// conformance suite runs first, CF-1 to CF-7).
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UserError } from '../protocol/userError.ts';
import type { ScenarioDefinition } from './defineScenario.ts';

export const SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

function scenarioFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return scenarioFiles(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    })
    .sort((a, b) => relative(SCENARIOS_DIR, a).localeCompare(relative(SCENARIOS_DIR, b), 'en', { numeric: true }));
}

export async function loadScenarios(dir = SCENARIOS_DIR): Promise<ScenarioDefinition<object>[]> {
  const found: ScenarioDefinition<object>[] = [];
  const names = new Set<string>();
  for (const file of scenarioFiles(dir)) {
    const module = (await import(pathToFileURL(file).href)) as { default?: ScenarioDefinition<object> };
    const scenario = module.default;
    if (!scenario || typeof scenario.run !== 'function') throw new Error(`${relative(dir, file)} does not default-export a defineScenario() value`);
    if (names.has(scenario.name)) throw new Error(`two scenarios are named ${scenario.name}`);
    names.add(scenario.name);
    found.push(scenario);
  }
  return found;
}

/**
 * The scenarios a run selects, in catalog order: by name or by tag; none selects all. Scenarios
 * another one requires are added. Unknown names are a user error listing what exists.
 */
export function selectScenarios(all: ScenarioDefinition<object>[], selectors: string[]): ScenarioDefinition<object>[] {
  if (selectors.length === 0) return all;
  const chosen = new Set<string>();
  for (const selector of selectors) {
    const matches = all.filter((s) => s.name === selector || s.tags.includes(selector));
    if (matches.length === 0) {
      throw new UserError(`no scenario or tag named "${selector}"; run "a2a-rig list" to see them`);
    }
    for (const m of matches) chosen.add(m.name);
  }
  let added = true;
  while (added) {
    added = false;
    for (const s of all) {
      if (!chosen.has(s.name)) continue;
      for (const r of s.requires ?? []) {
        if (!chosen.has(r)) {
          chosen.add(r);
          added = true;
        }
      }
    }
  }
  return all.filter((s) => chosen.has(s.name));
}
