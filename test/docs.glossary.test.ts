// The README's metrics glossary and its scenario-context table stay true to the code: every latency
// and counter a built-in scenario declares in `records` is explained in the glossary, the glossary
// names nothing no scenario records, and every `ctx.member` the README documents exists on the
// scenario context. A new metric or a renamed context method fails here until the README says so.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenarios } from '../rig/engine/scenarioCatalog.ts';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const README = read('README.md');

/** The text of a section: from its heading to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l === heading);
  if (start < 0) throw new Error(`no "${heading}" in the README`);
  const level = /^#+/.exec(heading)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level);
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** The backticked names in the first column of the section's tables. */
function firstColumnNames(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split('\n')) {
    const cell = /^\|([^|]*)\|/.exec(line)?.[1];
    if (!cell) continue;
    for (const m of cell.matchAll(/`([^`]+)`/g)) names.add(m[1]!);
  }
  return names;
}

describe('the README metrics glossary', async () => {
  const scenarios = await loadScenarios();
  const declared = new Map<string, string[]>();
  for (const s of scenarios) {
    for (const name of [...s.records.latencies, ...Object.keys(s.records.counters)])
      declared.set(name, [...(declared.get(name) ?? []), s.name]);
  }
  const glossary = firstColumnNames(section(README, '### Metrics'));

  it('reads the built-in scenarios and the glossary', () => {
    expect(scenarios.length).toBeGreaterThan(30);
    expect(declared.size).toBeGreaterThan(40);
    expect(glossary.has('resume_latency')).toBe(true);
  });

  it('explains every latency and counter a scenario declares', () => {
    const missing = [...declared]
      .filter(([name]) => !glossary.has(name))
      .map(([name, by]) => `${name} (${by.join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('names nothing no scenario records (but checks.rate)', () => {
    const stale = [...glossary].filter((name) => !declared.has(name) && name !== 'checks.rate');
    expect(stale).toEqual([]);
  });
});

describe("the README's scenario context table", () => {
  const source = read('rig/engine/kit/scenarioContextInterface.ts');
  const documented = new Set(
    [...section(README, '## Write a scenario').matchAll(/\bctx\.([A-Za-z]+)/g)].map((m) => m[1]!),
  );
  /** A member of ScenarioContext: a method, a getter, or a readonly field (its own or a constructor parameter). */
  const isMember = (name: string) =>
    new RegExp(
      `^\\s+(?:async\\s+)?${name}\\s*[(<]|^\\s+get\\s+${name}\\s*\\(|^\\s+(?:private\\s+)?readonly\\s+${name}\\b`,
      'm',
    ).test(source) && !new RegExp(`^\\s+private\\s+(?:readonly\\s+)?${name}\\b`, 'm').test(source);

  it('documents the context members a scenario uses most', () => {
    for (const name of ['openPrompt', 'usable', 'answerObserved', 'check', 'latency', 'count', 'log', 'skip', 'faults'])
      expect(documented).toContain(name);
  });

  it('names only members the context has', () => {
    expect([...documented].filter((name) => !isMember(name))).toEqual([]);
    // The matcher itself finds a missing one.
    expect(isMember('openPromptly')).toBe(false);
    expect(isMember('synthesizer')).toBe(false);
  });
});
