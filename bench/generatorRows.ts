// The rows the generator benchmark (bench/generator.ts) prints last for bench/run.ts's table: the
// open model's ratio to autocannon (the goal), to wrk, its sustainable rate, the transport alone,
// the CPU per request and its ratio to autocannon's (a goal), and undici's dispatch beside the rig's
// HTTP client, each with the raw figures it came from.
import type { BenchRow } from './benchRows.ts';

export interface GeneratorFigures {
  /** Sustainable rate of the open model with the rig's A2AClient (req/s). */
  openRate: number;
  /** Sustainable rate with the client's JsonRpcTransport alone (req/s). */
  transportRate: number;
  /** The median of the autocannon runs (req/s). */
  baseline: number;
  autocannonRuns: number[];
  wrkRate: number | null;
  /** How wrk was run, or why it was not. */
  wrkNote: string;
  /** Median CPU of this process per request (µs) under each peer. */
  cpu: { autocannon: number; a2aClient: number; transport: number };
  /**
   * CPU per request (median µs) at one fixed rate, alternated: the A2AClient, its transport alone, and
   * undici's Pool.dispatch doing the transport's work; failed, dropped or unfinished iterations of each.
   */
  fixed: {
    rate: number;
    runs: number;
    a2aClient: number;
    transport: number;
    undiciDispatch: number;
    failures: { a2aClient: number; transport: number; undiciDispatch: number };
  };
  inFlight: number;
  connections: number;
  goal: number;
}

export function generatorRows(f: GeneratorFigures): BenchRow[] {
  const { openRate, transportRate, baseline, wrkRate, wrkNote, cpu, fixed } = f;
  const mix = `A2AClient, SendMessage/answer/GetTask mix, ${f.inFlight} in flight, ${f.connections} connections`;
  const detail = `open model ${openRate} req/s (${mix})`;
  const autocannonRuns = f.autocannonRuns.map((r) => r.toFixed(0)).join(', ');
  return [
    {
      id: 'generator.openModel.ratioToAutocannon',
      label: "open model with the rig's A2AClient / raw autocannon, trivial A2A target",
      value: Number((openRate / baseline).toFixed(3)),
      unit: 'x',
      goal: { op: '>=', value: f.goal },
      detail: `${detail}; autocannon ${baseline.toFixed(0)} req/s (median of ${autocannonRuns})`,
    },
    {
      id: 'generator.openModel.ratioToWrk',
      label: "open model with the rig's A2AClient / raw wrk (informational)",
      value: wrkRate === null ? null : Number((openRate / wrkRate).toFixed(3)),
      unit: 'x',
      detail: wrkRate === null ? wrkNote : `${detail}; wrk ${wrkRate.toFixed(0)} req/s (${wrkNote})`,
    },
    {
      id: 'generator.openModel.rate',
      label: "open model sustainable rate, rig's A2AClient",
      value: openRate,
      unit: 'req/s',
      detail,
    },
    {
      id: 'generator.openModel.transportRatioToAutocannon',
      label: "open model with the client's JsonRpcTransport alone (no A2A layer) / raw autocannon (informational)",
      value: Number((transportRate / baseline).toFixed(3)),
      unit: 'x',
      detail: `transport alone ${transportRate} req/s, same request bodies`,
    },
    {
      id: 'generator.cpuPerRequest.a2aClient',
      label: 'CPU per request, open model with A2AClient (informational)',
      value: Number(cpu.a2aClient.toFixed(1)),
      unit: 'µs',
      detail:
        `autocannon ${cpu.autocannon.toFixed(1)} µs, transport alone ${cpu.transport.toFixed(1)} µs, ` +
        'in the same process',
    },
    {
      id: 'generator.cpuPerRequest.ratioToAutocannon',
      label: "CPU per request, open model with the rig's A2AClient at ¼ of autocannon's rate / raw autocannon",
      value: Number((fixed.a2aClient / cpu.autocannon).toFixed(3)),
      unit: 'x',
      goal: { op: '<=', value: 2 },
      detail:
        `A2AClient ${fixed.a2aClient.toFixed(1)} µs at ${fixed.rate} req/s (median of ${fixed.runs} runs), ` +
        `autocannon ${cpu.autocannon.toFixed(1)} µs (median of its runs)`,
      ...invalidOf(fixed.failures.a2aClient),
    },
    {
      id: 'generator.cpuPerRequest.undiciDispatch',
      label: "CPU per request, undici Pool.dispatch doing the transport's work (informational)",
      value: Number(fixed.undiciDispatch.toFixed(1)),
      unit: 'µs',
      detail:
        `the rig's JsonRpcTransport ${fixed.transport.toFixed(1)} µs at the same ${fixed.rate} req/s ` +
        `(medians of ${fixed.runs} alternated runs each)`,
      ...invalidOf(fixed.failures.undiciDispatch + fixed.failures.transport),
    },
  ];
}

function invalidOf(failures: number): Pick<BenchRow, 'invalid'> {
  return failures > 0 ? { invalid: `${failures} failed, dropped or unfinished iterations at the fixed rate` } : {};
}
