// CF-7 is green when CF-1..CF-6 are. It fails only on a member that failed: one that errored or
// skipped (the rig could not reach the agent, say) judged nothing, so it neither passes nor fails
// CF-7 (issue 24, item 4: it used to fail "cf1 passed: errored" when nothing had been tested).
import { describe, expect, it } from 'vitest';
import cf7 from '../scenarios/conformance/cf7.ts';

describe('cf7 over members that were not judged', () => {
  function runCf7(verdicts: Record<string, string>) {
    const checks: [string, boolean, string | undefined][] = [];
    const notes: string[] = [];
    const fake = {
      verdictOf: (name: string) => verdicts[name],
      check: (name: string, ok: boolean, detail?: string) => (checks.push([name, ok, detail]), ok),
      note: (line: string) => notes.push(line),
    };
    return { done: cf7.run(fake as never, {} as never), checks, notes };
  }
  const all = (verdict: string) =>
    Object.fromEntries(['cf1', 'cf2', 'cf3', 'cf4', 'cf5', 'cf6'].map((n) => [n, verdict]));

  it('has no verdict when no member was judged', async () => {
    const { done, checks } = runCf7({ ...all('errored'), cf6: 'skipped' });
    await expect(done).rejects.toThrow(
      'CF-7 not judged: cf1 errored, cf2 errored, cf3 errored, cf4 errored, cf5 errored, cf6 skipped, ' +
        'so the suite has no verdict on the agent',
    );
    expect(checks).toEqual([]);
  });

  it('fails on a member that failed, noting the ones not judged; passes when all passed', async () => {
    const mixed = runCf7({ ...all('passed'), cf3: 'failed', cf6: 'errored' });
    await mixed.done;
    expect(mixed.checks.filter(([, ok]) => !ok)).toEqual([['cf3 passed', false, 'failed']]);
    expect(mixed.notes).toEqual(['CF-7 fails on the members judged; not judged: cf6 errored']);
    const green = runCf7(all('passed'));
    await green.done;
    expect(green.checks.every(([, ok]) => ok)).toBe(true);
  });
});
