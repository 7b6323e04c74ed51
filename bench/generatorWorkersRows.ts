// The rows bench/generatorWorkers.ts prints last: the open model's sustainable rate with N worker
// threads over one worker (the goal), both rates, and the box's cores and free cores.
import type { BenchRow } from './benchRows.ts';

export interface WorkerFigures {
  /** Sustainable rates (req/s): one worker (the main thread) and `workers` worker threads. */
  one: number;
  many: number;
  workers: number;
  cores: number;
  /** Cores minus the 1-minute load average when the benchmark started. */
  freeCores: number;
  /** CPU of the whole process per request (µs), median over steps. */
  cpuUs: { one: number; many: number };
  connections: number;
  inFlight: number;
}

/** The goal is stated for a box with at least this many free cores beside the target. */
const FREE_CORES_NEEDED = 2;

export function workerRows(f: WorkerFigures): BenchRow[] {
  const setup = `A2AClient, send/answer/GetTask mix, ${f.connections} connections and ${f.inFlight} in flight in all`;
  const box = `${f.cores} cores, ${f.freeCores.toFixed(1)} free at the start`;
  const scaling: BenchRow = {
    id: 'generator.workers.scaling',
    label: `open model sustainable rate, ${f.workers} worker threads / 1 worker, trivial target`,
    value: f.one > 0 ? Math.round((f.many / f.one) * 1000) / 1000 : null,
    unit: 'x',
    detail: `${f.many} / ${f.one} req/s (${setup}); ${box}`,
  };
  if (f.freeCores < FREE_CORES_NEEDED)
    scaling.invalid = `the box had ${f.freeCores.toFixed(1)} free cores; the goal needs ≥ ${FREE_CORES_NEEDED}`;
  const cpu = `CPU per request ${f.cpuUs.one.toFixed(0)} µs (1 worker), ${f.cpuUs.many.toFixed(0)} µs (all threads)`;
  return [
    scaling,
    {
      id: 'generator.workers.oneRate',
      label: 'open model sustainable rate, 1 worker (main thread)',
      value: f.one,
      unit: 'req/s',
      detail: cpu,
    },
    {
      id: 'generator.workers.manyRate',
      label: `open model sustainable rate, ${f.workers} worker threads`,
      value: f.many,
      unit: 'req/s',
      detail: cpu,
    },
    { id: 'generator.workers.cores', label: 'cores of the box (availableParallelism)', value: f.cores, unit: 'cores' },
    {
      id: 'generator.workers.freeCores',
      label: 'free cores at the start (cores − 1-minute load average)',
      value: Math.round(f.freeCores * 10) / 10,
      unit: 'cores',
    },
  ];
}
