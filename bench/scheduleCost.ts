// What schedule truth (rig/metrics/scheduleTruth.ts) costs the open model per start, and what it says
// of a run that cannot keep up. Three measures, CPU time rather than rates (the box is shared):
//  1. the recorder alone: µs of CPU per recorded start (due + started), a million of them;
//  2. the executor with an iteration that does nothing, paced at RATE/s for a few seconds: µs of
//     CPU per start, all of the executor (its timers, the iteration's promise, the recording);
//  3. the same executor offered far more than one thread can start (overdue arrivals, one slot,
//     no backlog): the drops and start lag it must then report, so a run that fell behind is seen
//     to say so (its figures are counts, not speeds).
// Prints the figures, then the BENCH_ROWS line (bench/benchRows.ts). Usage: tsx bench/scheduleCost.ts
import { constantArrivals } from '../rig/load/arrivalSchedule.ts';
import { runOpenModel } from '../rig/load/openModelExecutor.ts';
import { ScheduleRecorder, fellBehind, scheduleTotals } from '../rig/metrics/scheduleTruth.ts';
import { printRows, type BenchRow } from './benchRows.ts';

const RATE = Number(process.env.SCHEDULE_COST_RATE ?? 20_000);
const SECONDS = Number(process.env.SCHEDULE_COST_SECONDS ?? 3);
const RECORDS = 1_000_000;

const cpuUs = (u: NodeJS.CpuUsage) => u.user + u.system;

function recorderCost(): number {
  const recorder = new ScheduleRecorder(10);
  // Warm the JIT on a throwaway recorder first.
  const warm = new ScheduleRecorder(10);
  for (let i = 0; i < 100_000; i++) {
    warm.due(0);
    warm.started(0, (i % 50) / 10, false);
  }
  const from = process.cpuUsage();
  for (let i = 0; i < RECORDS; i++) {
    const step = i >> 17; // a new step every 131,072 starts, as a stepped schedule has
    recorder.due(step);
    recorder.started(step, (i % 50) / 10, (i & 1) === 1);
  }
  const used = cpuUs(process.cpuUsage(from));
  recorder.finish();
  warm.finish();
  return used / RECORDS;
}

async function executorCost() {
  const from = process.cpuUsage();
  const result = await runOpenModel({
    arrivals: constantArrivals(RATE, SECONDS * 1000),
    iteration: () => Promise.resolve(),
    maxInFlight: 10_000,
    maxBacklog: 10_000,
    iterationTimeoutMs: 10_000,
    drainTimeoutMs: 10_000,
  });
  return { usPerStart: cpuUs(process.cpuUsage(from)) / Math.max(1, result.started), result };
}

async function overload() {
  const result = await runOpenModel({
    arrivals: constantArrivals(1_000, 1_000),
    origin: performance.now() - 2_000,
    iteration: () => new Promise<void>((resolve) => setImmediate(resolve)),
    maxInFlight: 1,
    iterationTimeoutMs: 10_000,
    drainTimeoutMs: 10_000,
  });
  return result;
}

const perRecord = recorderCost();
const paced = await executorCost();
const behind = await overload();
const t = paced.result.schedule;
const lag = (us: number) => (us / 1000).toFixed(2);
console.log(`schedule truth recorder: ${perRecord.toFixed(3)} µs CPU per start (${RECORDS.toLocaleString()} starts)`);
console.log(
  `open model, no-op iteration at ${RATE}/s for ${SECONDS} s: ${paced.usPerStart.toFixed(2)} µs CPU per start ` +
    `(${paced.result.started} started, ${paced.result.dropped} dropped, ${paced.result.late} late; start lag ` +
    `p50/p99/max ${lag(t.startLag.percentileUs(50))}/${lag(t.startLag.percentileUs(99))}/` +
    `${lag(t.startLag.summary().max)} ms; event-loop delay max ${t.eventLoopDelayMs.max} ms)`,
);
// A paced run that fell behind started its iterations in batches, which costs less per start: not the figure.
const pacedTruth = t.steps.find((s) => fellBehind(s, t.lateAfterMs));
const pacedBehind =
  pacedTruth && `${pacedTruth.dropped} dropped, start lag p99 ${lag(pacedTruth.startLag.percentileUs(99))} ms`;
const o = scheduleTotals(behind.schedule);
const oBehind = behind.schedule.steps.some((s) => fellBehind(s, behind.schedule.lateAfterMs));
console.log(
  `overloaded (1,000 overdue arrivals, one slot, no backlog): ${o.dropped} of ${o.scheduled} dropped, ` +
    `fell behind: ${oBehind}`,
);

const rows: BenchRow[] = [
  {
    id: 'generator.scheduleTruth.cpuPerStart',
    label: 'schedule truth recording, CPU per start (recorder alone)',
    value: Number(perRecord.toFixed(3)),
    unit: 'µs',
    detail: `${RECORDS.toLocaleString()} starts, 1 histogram record each`,
  },
  {
    id: 'generator.openModel.executorCpuPerStart',
    label: `open-model executor, CPU per start, no-op iteration at ${RATE.toLocaleString('en-US')}/s`,
    value: Number(paced.usPerStart.toFixed(2)),
    unit: 'µs',
    detail: `${paced.result.started} starts at ${RATE}/s, ${paced.result.dropped} dropped`,
    ...(pacedBehind
      ? { invalid: `the generator fell behind its schedule (${pacedBehind}): the box was too busy` }
      : {}),
  },
  {
    id: 'generator.scheduleTruth.overloadSeen',
    label: 'an overloaded open model reports its drops and that it fell behind (1 = yes)',
    value: o.dropped > 0 && oBehind ? 1 : 0,
    unit: 'bool',
    goal: { op: '>=', value: 1 },
    detail: `${o.dropped} of ${o.scheduled} dropped`,
  },
];
printRows(rows);
