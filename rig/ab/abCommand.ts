// `a2a-rig ab`: a baseline and a candidate agent measured in interleaved rounds until the paired
// comparison decides every gated row or the time budget ends (abRounds.ts). Each side is a URL, or
// the embedded reference agent (the default), optionally started by a shell command and given its
// own extra `run` flags; what follows `--` is the `run` command line both sides share (scenarios,
// --profile, --toxiproxy…), so both get the same fault backend and profile. Exit: 1 on a
// regression, 3 when a row is still undecided (unless --allow-inconclusive), 0 otherwise.
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { EXIT } from '../exitCodes.ts';
import { UserError } from '../protocol/userError.ts';
import { compareExit } from '../report/compare/compareMarkdown.ts';
import { parseConfidence } from '../report/compare/compareCommand.ts';
import { DEFAULT_COMPARE_OPTIONS, parseTolerances, type CompareOptions } from '../report/compare/compareRuns.ts';
import { prepareOutDir } from '../report/outDir.ts';
import { printableLine } from '../report/terminal/terminalText.ts';
import { RoundInterrupted, runRounds, type RoundsSettings, type Side } from './abRounds.ts';
import { abMarkdown, roundLine, stopText, writeAbResults, type SideSpec } from './abResults.ts';
import { interruptRound, runRound, startSideAgent, type SideAgent } from './sideProcesses.ts';

interface AbFlags {
  baseline?: string;
  candidate?: string;
  baselineCmd?: string;
  candidateCmd?: string;
  baselineArg: string[];
  candidateArg: string[];
  budget: number;
  minRounds: number;
  maxRounds: number;
  tolerance: string[];
  confidence: number;
  allowInconclusive?: boolean;
  out?: string;
}

const SIDES: readonly Side[] = ['baseline', 'candidate'];
// The default measurement: resume latency alone, 500 answers a run (about 3 s) and no toxic half
// (its trials wait out a 100 ms toxic and check the rig, not the agent). A p99 that can tell ±30 %
// from noise needs thousands of resumes a side; smoke's 20 a run leave p95 and p99 undecided for
// the whole default budget (docs/cli.md, "How many rounds").
const DEFAULT_RUN = [
  'resume-latency',
  '--param',
  'resume-latency.trials=500',
  '--param',
  'resume-latency.toxicTrials=0',
];
/** Flags ab sets itself on each side's run. */
const OWN_FLAGS = ['--out', '--target', '--baseline'];

const repeatable = (v: string, prev: string[]) => [...prev, v];

/** `90s`, `10m`, `1h` or plain seconds, as milliseconds. */
export function parseBudget(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(value.trim());
  if (!m || Number(m[1]) <= 0)
    throw new UserError(`--budget must be a duration such as 90s, 10m or 1h, got "${value}"`);
  return Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 's' | 'm' | 'h'];
}

function count(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1) throw new UserError(`${flag} must be a whole number ≥ 1, got "${value}"`);
    return n;
  };
}

function target(flag: string) {
  return (value: string): string => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new UserError(`${flag} must be an http(s) URL of an A2A agent, got "${value}"`);
    return value;
  };
}

function ownFlag(args: string[], where: string): void {
  const taken = args.find((a) => OWN_FLAGS.some((f) => a === f || a.startsWith(`${f}=`)));
  if (taken)
    throw new UserError(
      `${taken.split('=')[0]} in ${where}: ab sets it on each side's run itself ` +
        '(use --baseline/--candidate for the agents, --out for the A/B directory)',
    );
}

function sidesOf(flags: AbFlags): Record<Side, SideSpec> {
  const sides = {} as Record<Side, SideSpec>;
  for (const side of SIDES) {
    const command = flags[`${side}Cmd`];
    const url = flags[side];
    if (command && !url) throw new UserError(`--${side}-cmd needs --${side} <url>: the URL its agent serves`);
    ownFlag(flags[`${side}Arg`], `--${side}-arg`);
    sides[side] = { ...(url ? { target: url } : {}), ...(command ? { command } : {}), args: flags[`${side}Arg`] };
  }
  return sides;
}

const stamp = (d = new Date()) => d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

async function startAgents(sides: Record<Side, SideSpec>, dir: string): Promise<SideAgent[]> {
  const agents: SideAgent[] = [];
  try {
    for (const side of SIDES) {
      const { command, target: url } = sides[side];
      if (command && url) agents.push(await startSideAgent(command, url, join(dir, `${side}-agent.log`), side));
    }
  } catch (err) {
    await Promise.all(agents.map((a) => a.stop()));
    throw err;
  }
  return agents;
}

async function execute(runArgs: string[], flags: AbFlags): Promise<void> {
  const sides = sidesOf(flags);
  const shared = runArgs.length > 0 ? runArgs : DEFAULT_RUN;
  ownFlag(shared, 'the run arguments after --');
  if (flags.maxRounds < flags.minRounds) throw new UserError('--max-rounds must be at least --min-rounds');
  const compare: CompareOptions = {
    ...DEFAULT_COMPARE_OPTIONS,
    tolerances: parseTolerances(flags.tolerance),
    confidence: flags.confidence,
    paired: true,
  };
  const settings: RoundsSettings = {
    minRounds: flags.minRounds,
    maxRounds: flags.maxRounds,
    budgetMs: flags.budget,
    compare,
  };
  const out = prepareOutDir(flags.out ?? join('results', `ab-${stamp()}`)).path;
  mkdirSync(join(out, 'rounds'), { recursive: true });
  const dirs: Record<Side, string[]> = { baseline: [], candidate: [] };
  let signal: NodeJS.Signals | undefined;
  const onSignal = (s: NodeJS.Signals) => {
    signal ??= s;
    interruptRound(signal);
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  const agents = await startAgents(sides, out);
  try {
    const outcome = await runRounds(settings, {
      now: () => performance.now(),
      onRound: (record) => process.stderr.write(`${printableLine(roundLine(record))}\n`),
      runSide: async (side, round) => {
        if (signal) throw new RoundInterrupted(`stopped by ${signal}`);
        const dir = join(out, 'rounds', `${String(round).padStart(2, '0')}-${side}`);
        const { target: url, args } = sides[side];
        const result = await runRound([...shared, ...(url ? ['--target', url] : []), ...args], dir, `${dir}.log`, dir);
        dirs[side].push(relative(out, dir));
        return result;
      },
    });
    const last = outcome.rounds.at(-1);
    const exit = signal
      ? EXIT[signal as 'SIGINT' | 'SIGTERM']
      : last
        ? compareExit(last.comparison, flags.allowInconclusive === true)
        : EXIT.notTested;
    const input = { sides, runArgs: shared, settings, outcome, dirs, exit };
    writeAbResults(out, input, compare);
    process.stdout.write(abMarkdown(input, compare));
    process.stderr.write(`${printableLine(`ab: ${stopText(outcome.stop)}; results in ${out} — exit ${exit}`)}\n`);
    process.exitCode = exit;
  } finally {
    await Promise.all(agents.map((a) => a.stop()));
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
}

export function registerAbCommand(program: Command): void {
  const side = (c: Command, s: Side, what: string) =>
    c
      .option(`--${s} <url>`, `the ${what} agent (default: the embedded reference agent)`, target(`--${s}`))
      .option(`--${s}-cmd <shell>`, `a command that starts the ${what} agent at --${s} (stopped at the end)`)
      .option(
        `--${s}-arg <flag>`,
        `a run flag for the ${what} side alone, e.g. --${s}-arg=--toxic=latency=3`,
        repeatable,
        [],
      );
  const command = program
    .command('ab')
    .description(
      'A/B rounds: measure a baseline and a candidate agent interleaved (ABBA…) until every gated row is ' +
        'decided or the budget ends; exit 1 on a regression, 3 when undecided',
    )
    .argument('[run...]', `after --: the run command line both sides share (default: ${DEFAULT_RUN.join(' ')})`);
  side(side(command, 'baseline', 'baseline'), 'candidate', 'candidate')
    .option('--budget <duration>', 'wall time for all rounds (90s, 10m, 1h)', parseBudget, parseBudget('10m'))
    .option('--min-rounds <n>', 'rounds before it may stop', count('--min-rounds'), 2)
    .option('--max-rounds <n>', 'rounds at most', count('--max-rounds'), 40)
    .option('--tolerance <spec>', 'as compare: the smallest change that matters, e.g. p95=+20%', repeatable, [])
    .option('--confidence <pct>', 'of every interval', parseConfidence, DEFAULT_COMPARE_OPTIONS.confidence)
    .option('--allow-inconclusive', 'exit 0 instead of 3 when rows are still undecided at the end')
    .option('--out <dir>', 'the A/B directory (default results/ab-<time>): new or empty')
    .action((runArgs: string[], flags: AbFlags) => execute(runArgs, flags));
}
