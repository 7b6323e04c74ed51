// What makes two runs runs of the same thing: the same agent (target and agent card) measured by
// the same rig. `merge` adds up only such runs; anything else would print one agent's header over
// another agent's numbers.
import { createHash } from 'node:crypto';
import type { RunResult } from './runResult.ts';

/** Canonical JSON: keys sorted, so the same card digests the same however it was serialised. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    // `url` fields are where the agent listens; an embedded agent gets a new port every run.
    const entries = Object.entries(value as Record<string, unknown>).filter(([k]) => k !== 'url');
    const sorted = entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(sorted.map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

/** A digest of the agent card (its listening URLs left out): results.json `target.cardDigest`. */
export function cardDigest(card: unknown): string {
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(canonical(card)))
    .digest('hex')
    .slice(0, 16)}`;
}

const IDENTITY: Array<[field: string, read: (run: RunResult) => unknown]> = [
  ['target.kind', (r) => r.target.kind],
  // An embedded agent listens on a fresh port each run; a --target's URL is what it is.
  ['target.url', (r) => (r.target.kind === 'url' ? r.target.url : undefined)],
  ['target.agentName', (r) => r.target.agentName],
  ['target.agentVersion', (r) => r.target.agentVersion],
  ['target.generation', (r) => r.target.generation],
  ['target.agentFaults', (r) => [...(r.target.agentFaults ?? [])].sort().join(',')],
  ['target.cardDigest', (r) => r.target.cardDigest],
  ['rig.version', (r) => r.rig.version],
];

const shown = (value: unknown) => (value === undefined || value === '' ? '(none)' : JSON.stringify(value));

/**
 * Every identity field on which the runs differ, one line each naming the values and the files:
 * `target.agentVersion: "1.0.0" in a/results.json, "1.1.0" in b/results.json`.
 */
export function identityDifferences(inputs: Array<{ run: RunResult; path: string }>): string[] {
  const differences: string[] = [];
  for (const [field, read] of IDENTITY) {
    const byValue = new Map<string, string[]>();
    for (const { run, path } of inputs) {
      const value = shown(read(run));
      byValue.set(value, [...(byValue.get(value) ?? []), path]);
    }
    if (byValue.size > 1) {
      const where = [...byValue].map(([value, paths]) => `${value} in ${paths.join(', ')}`).join('; ');
      differences.push(`${field}: ${where}`);
    }
  }
  return differences;
}
