// `a2a-rig ab` on the real command line: what it refuses before anything starts, a candidate made
// slower by a toxic found as a regression in real rounds, and a Ctrl-C that leaves whole results.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hermeticEnv, runRig } from './support/rigCli.ts';
import { freePort } from './support/localHost.ts';

const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-ab-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const repoRoot = new URL('../', import.meta.url).pathname;
const ab = (name: string) => JSON.parse(readFileSync(join(dir, name, 'ab.json'), 'utf8'));

describe('a2a-rig ab', () => {
  it.each([
    [['--baseline-cmd', 'true'], /--baseline-cmd needs --baseline <url>/],
    [['--budget', 'soon'], /--budget must be a duration/],
    [['--candidate', 'ftp://x'], /--candidate must be an http\(s\) URL/],
    [['--min-rounds', '3', '--max-rounds', '2'], /--max-rounds must be at least --min-rounds/],
    [['--', 'resume-latency', '--out', 'x'], /--out in the run arguments after --: ab sets it/],
    [['--candidate-arg=--target=http://127.0.0.1:1'], /--target in --candidate-arg/],
  ])('refuses %j before anything starts', async (args, message) => {
    const out = join(dir, `refused-${Math.random().toString(36).slice(2)}`);
    const r = await runRig(['ab', '--out', out, ...args]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(existsSync(join(out, 'rounds'))).toBe(false);
  });

  it('finds a candidate slowed by a 30 ms toxic a regression of resume_latency, in paired rounds', async () => {
    const out = join(dir, 'slower');
    const args = ['ab', '--out', out, '--max-rounds', '2', '--tolerance', 'p95=off,p99=off'];
    // A fifth of ab's default measurement (the Ctrl-C test below runs that one): each trial of the
    // candidate waits out the toxic several times, and a 30 ms shift of the median stands out of 100.
    const run = ['resume-latency', '--param', 'resume-latency.trials=100', '--param', 'resume-latency.toxicTrials=0'];
    const r = await runRig([...args, '--candidate-arg=--toxic=latency=30', '--', ...run], 240_000);
    expect(r.stderr).toMatch(/^round 1 \(AB, [\d.]+ s\)/m);
    expect(r.stderr).toMatch(/^round 2 \(BA, [\d.]+ s\)/m);
    const p50Row = /\| resume-latency \| resume\\_latency p50 \|[^\n]*/.exec(r.stdout)?.[0] ?? r.stdout;
    if (r.code === 3) {
      // On a busy box the rig may be saturated in one side's run and not the other's: then the row is
      // undecided, saying so (compareSaturation.ts), never passed. Any other undecided row fails here.
      expect(p50Row, r.stderr).toMatch(
        /\| inconclusive — not judged, the rig may have been the limit in the (current|baseline) run/,
      );
    } else {
      expect(r.code, r.stderr).toBe(1);
      // The outcome may carry a note (both sides saturated alike): the outcome is what is tested.
      expect(p50Row).toMatch(/\| \*\*REGRESSION\*\*( — [^|]*)? \|$/);
    }
    const record = ab('slower');
    expect(record.exit).toBe(r.code);
    expect(record.rounds.map((x: { order: string[] }) => x.order[0])).toEqual(['baseline', 'candidate']);
    expect(record.rounds[1].dirs).toEqual({ baseline: 'rounds/02-baseline', candidate: 'rounds/02-candidate' });
    const candidate = JSON.parse(readFileSync(join(out, 'rounds/01-candidate/results.json'), 'utf8'));
    expect(candidate.toxics).toHaveLength(1);
    const measured = candidate.scenarios.find((x: { name: string }) => x.name === 'resume-latency').metrics;
    expect(Object.keys(measured)).toEqual(['resume_latency']);
    expect(measured.resume_latency.count).toBe(100);
    expect(readFileSync(join(out, 'ab.html'), 'utf8')).toContain('resume-latency resume_latency p50, round by round');
  }, 300_000);

  it('starts each side from its command, waits for its card, and stops both at the end', async () => {
    const ports = [await freePort(), await freePort()];
    const agent = (port: number) => `exec node bin/a2a-rig.js agent --host 127.0.0.1 --port ${port}`;
    const url = (port: number) => `http://127.0.0.1:${port}`;
    const args = ['ab', '--out', join(dir, 'commands'), '--min-rounds', '1', '--max-rounds', '1'];
    const sides = ['--baseline', url(ports[0]!), '--baseline-cmd', agent(ports[0]!)];
    sides.push('--candidate', url(ports[1]!), '--candidate-cmd', agent(ports[1]!));
    // One round of one run a side, without the toxic half (its trials wait out a 100 ms toxic): any
    // gate outcome; what is tested here is the sides' processes.
    const r = await runRig(
      [...args, ...sides, '--', 'resume-latency', '--param', 'resume-latency.toxicTrials=0'],
      120_000,
    );
    expect([0, 1, 3], r.stderr).toContain(r.code);
    expect(r.stderr).toMatch(/^round 1 \(AB, /m);
    const record = ab('commands');
    expect(record.sides.candidate).toEqual({ target: url(ports[1]!), command: agent(ports[1]!), args: [] });
    const run = JSON.parse(readFileSync(join(dir, 'commands/rounds/01-candidate/results.json'), 'utf8'));
    expect(run.target).toMatchObject({ kind: 'url', url: url(ports[1]!) });
    for (const port of ports) await expect(fetch(url(port))).rejects.toThrow();
  }, 150_000);

  it('refuses a side command that exits before its agent answers, with what it said', async () => {
    const port = await freePort();
    const r = await runRig([
      'ab',
      '--out',
      join(dir, 'early-exit'),
      '--baseline',
      `http://127.0.0.1:${port}`,
      '--baseline-cmd',
      'echo no such build >&2; exit 3',
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`baseline command exited before http://127.0.0.1:${port}/.well-known/agent-card.json`);
    expect(r.stderr).toMatch(/answered: no such build/);
  });

  it('on Ctrl-C stops the round in progress, keeps the whole rounds and exits 130', async () => {
    const out = join(dir, 'stopped');
    const child = spawn(process.execPath, ['bin/a2a-rig.js', 'ab', '--out', out], {
      cwd: repoRoot,
      env: hermeticEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Once round 1 is whole and round 2 has started, the signal lands in the middle of round 2.
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/^round 1 /m.test(stderr)) resolve();
      }),
    );
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    const record = ab('stopped');
    expect(record.stop).toBe('interrupted');
    expect(record.rounds).toHaveLength(1);
    expect(record.exit).toBe(130);
    // No run arguments: ab's default measurement, 500 plain resumes a run and no toxic half.
    expect(record.runArgs).toEqual([
      'resume-latency',
      ...['trials=500', 'toxicTrials=0'].flatMap((p) => ['--param', `resume-latency.${p}`]),
    ]);
    const baseline = JSON.parse(readFileSync(join(out, 'rounds/01-baseline/results.json'), 'utf8'));
    const measured = baseline.scenarios.find((x: { name: string }) => x.name === 'resume-latency').metrics;
    expect(Object.keys(measured)).toEqual(['resume_latency']);
    expect(measured.resume_latency.count).toBe(500);
    expect(readFileSync(join(out, 'comparison.md'), 'utf8')).toMatch(/Stopped after 1 round: interrupted by a signal/);
  }, 120_000);
});
