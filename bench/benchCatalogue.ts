// The rows of issue 13's table, by the benchmark that measures them, with the goals that count
// (a benchmark cannot loosen its own goal: the runner applies these). A benchmark may print more
// rows than listed; a listed row it does not print shows as NOT MEASURED, never as met.
import type { BenchmarkSpec } from './benchTable.ts';

const MINUTE = 60_000;

export const BENCHMARKS: BenchmarkSpec[] = [
  {
    name: 'sdkComparison',
    script: 'bench/sdkComparison.ts',
    timeoutMs: 5 * MINUTE,
    rows: [
      {
        id: 'agent.sendMessage.ratioToSdk',
        label: 'reference agent / @a2a-js/sdk agent, plain SendMessage (durable outbox)',
        unit: 'x',
        goal: { op: '>=', value: 2 },
      },
      {
        id: 'agent.sendMessage.volatileRatioToSdk',
        label: 'same, reference agent with --fault volatile-outbox',
        unit: 'x',
      },
      { id: 'agent.sendMessage.cpuUsPerRequest', label: 'reference agent CPU per plain SendMessage', unit: 'µs' },
      {
        id: 'agent.sendMessage.sdkCpuUsPerRequest',
        label: '@a2a-js/sdk agent CPU per plain SendMessage',
        unit: 'µs',
      },
      {
        id: 'agent.sendMessage.httpFloorCpuUsPerRequest',
        label: "bare node:http doing a SendMessage's HTTP work",
        unit: 'µs',
      },
    ],
  },
  {
    name: 'agent',
    script: 'bench/agent.ts',
    timeoutMs: 10 * MINUTE,
    rows: [
      {
        id: 'agent.answers.validPerSecond',
        label: 'valid answers/s (closed model, 32 connections)',
        unit: 'answers/s',
        goal: { op: '>=', value: 3000 },
      },
      { id: 'agent.resume.p50', label: 'resume p50 at 1000 answers/s', unit: 'ms' },
      { id: 'agent.resume.p99', label: 'resume p99 at 1000 answers/s', unit: 'ms', goal: { op: '<=', value: 5 } },
      { id: 'agent.resume.p999', label: 'resume p99.9 at 1000 answers/s', unit: 'ms' },
    ],
  },
  {
    name: 'generator',
    script: 'bench/generator.ts',
    timeoutMs: 15 * MINUTE,
    rows: [
      {
        // Issue 25's goal for one worker (issue 13 asked for 0.9, from one event loop).
        id: 'generator.openModel.ratioToAutocannon',
        label: "open model (the rig's client) / raw autocannon, trivial target",
        unit: 'x',
        goal: { op: '>=', value: 0.5 },
      },
      {
        id: 'generator.cpuPerRequest.ratioToAutocannon',
        label: "CPU per request, open model with the rig's client at ¼ of autocannon's rate / raw autocannon",
        unit: 'x',
        goal: { op: '<=', value: 2 },
      },
      // The HTTP client not kept (issue 25): undici's Pool with dispatch, measured beside the rig's own.
      {
        id: 'generator.cpuPerRequest.undiciDispatch',
        label: "CPU per request, undici Pool.dispatch doing the transport's work (informational)",
        unit: 'µs',
      },
      // wrk is a C load generator, the second peer: informational until a goal is agreed.
      { id: 'generator.openModel.ratioToWrk', label: "open model (the rig's client) / wrk, trivial target", unit: 'x' },
    ],
  },
  {
    // Issue 25: the rig must cost much less than the agent it measures (bench/capacityCost.ts): two
    // `capacity --profile full` runs against the embedded agent, the second through a proxy apart.
    name: 'capacityCost',
    script: 'bench/capacityCost.ts',
    timeoutMs: 45 * MINUTE,
    rows: [
      {
        id: 'capacity.rigCpuPerRoundTrip.ratioToAgent',
        label: "rig CPU / agent CPU per HITL round trip at the capacity knee (rig's process; no toxic, no proxy)",
        unit: 'x',
        goal: { op: '<=', value: 0.5 },
      },
      { id: 'capacity.rigCpuPerRoundTrip', label: 'rig CPU per round trip at the knee', unit: 'µs' },
      { id: 'capacity.agentCpuPerRoundTrip', label: 'agent CPU per round trip at the knee', unit: 'µs' },
      { id: 'capacity.kneeRoundTripsPerSecond', label: 'round trips/s achieved at the knee', unit: 'round trips/s' },
      {
        id: 'capacity.proxyCpuPerRoundTrip',
        label: 'fault proxy CPU per round trip under --toxic latency=0, in its own process (whole run)',
        unit: 'µs',
      },
      {
        id: 'capacity.rigCpuPerRoundTrip.proxyApart',
        label: 'rig CPU per round trip at the knee, the load through a proxy in its own process',
        unit: 'µs',
      },
    ],
  },
  {
    // Issue 25, item 1: the open model on worker threads, against the same target and mix.
    name: 'generatorWorkers',
    script: 'bench/generatorWorkers.ts',
    timeoutMs: 15 * MINUTE,
    rows: [
      {
        id: 'generator.workers.scaling',
        label: 'open model sustainable rate, 2 worker threads / 1 worker, trivial target',
        unit: 'x',
        goal: { op: '>=', value: 1.7 },
      },
      { id: 'generator.workers.oneRate', label: 'open model sustainable rate, 1 worker (main thread)', unit: 'req/s' },
      { id: 'generator.workers.manyRate', label: 'open model sustainable rate, 2 worker threads', unit: 'req/s' },
      { id: 'generator.workers.cores', label: 'cores of the box (availableParallelism)', unit: 'cores' },
      {
        id: 'generator.workers.freeCores',
        label: 'free cores at the start (cores − 1-minute load average)',
        unit: 'cores',
      },
    ],
  },
  {
    // Issue 23: the regression gate on a shared box; 18 whole runs of four scenarios (bench/gate.ts).
    name: 'gate',
    script: 'bench/gate.ts',
    timeoutMs: 30 * MINUTE,
    rows: [
      {
        id: 'gate.falseAlarms.quiet.1v1',
        label: 'regression rows, identical runs, 1 vs 1, as the box is',
        unit: 'rows',
        goal: { op: '<=', value: 0 },
      },
      {
        id: 'gate.falseAlarms.quiet.3v3',
        label: 'regression rows, identical runs, 3 vs 3, as the box is',
        unit: 'rows',
        goal: { op: '<=', value: 0 },
      },
      {
        id: 'gate.falseAlarms.hog.1v1',
        label: 'regression rows, identical runs, 1 vs 1, stress-ng --cpu 1 beside',
        unit: 'rows',
        goal: { op: '<=', value: 0 },
      },
      {
        id: 'gate.falseAlarms.hog.3v3',
        label: 'regression rows, identical runs, 3 vs 3, stress-ng --cpu 1 beside',
        unit: 'rows',
        goal: { op: '<=', value: 0 },
      },
      {
        id: 'gate.power.latency3.1v1',
        label: 'resume_latency p50 flagged, +3 ms toxic, 1 vs 1',
        unit: 'share',
        goal: { op: '>=', value: 0.95 },
      },
      {
        id: 'gate.power.latency3.3v3',
        label: 'resume_latency p50 flagged, +3 ms toxic, 3 quiet vs 3 toxic',
        unit: 'share',
        goal: { op: '>=', value: 0.95 },
      },
      {
        id: 'gate.power.latency10.1v1',
        label: 'resume_latency p50 flagged, +10 ms toxic, 1 vs 1',
        unit: 'share',
        goal: { op: '>=', value: 1 },
      },
      {
        id: 'gate.power.latency10.3v3',
        label: 'resume_latency p50 flagged, +10 ms toxic, 3 quiet vs 3 toxic',
        unit: 'share',
        goal: { op: '>=', value: 1 },
      },
    ],
  },
  {
    // Issue 23: the same gate in A/B mode, as the README recommends it (bench/abGate.ts): 30 short ab runs.
    name: 'abGate',
    script: 'bench/abGate.ts',
    timeoutMs: 40 * MINUTE,
    rows: [
      {
        id: 'abGate.falseAlarms',
        label: 'regression rows, ab between identical agents (≤ 3 rounds)',
        unit: 'rows',
        goal: { op: '<=', value: 0 },
      },
      {
        id: 'abGate.power.latency3',
        label: 'resume_latency p50 a regression, ab +3 ms toxic (≤ 3 rounds)',
        unit: 'share',
        goal: { op: '>=', value: 0.95 },
      },
      {
        id: 'abGate.power.latency10',
        label: 'resume_latency p50 a regression, ab +10 ms toxic (≤ 3 rounds)',
        unit: 'share',
        goal: { op: '>=', value: 1 },
      },
    ],
  },
  {
    // Issue 23: the attack tax beside a CPU hog (bench/dosTax.ts): two smoke runs of the six dos-*
    // scenarios against the correct agent, then each DoS fault flag against its family.
    name: 'dosTax',
    script: 'bench/dosTax.ts',
    timeoutMs: 40 * MINUTE,
    rows: [
      {
        id: 'dosTax.correctAgent.notPassed',
        label: 'dos-* scenarios not passed, correct agent, stress-ng --cpu 1 beside',
        unit: 'scenarios',
        goal: { op: '<=', value: 0 },
      },
      {
        id: 'dosTax.faults.caught',
        label: 'DoS fault flags whose family fails on the attack they let through, stress-ng --cpu 1 beside',
        unit: 'share',
        goal: { op: '>=', value: 1 },
      },
    ],
  },
  {
    // Issue 25, schedule truth (bench/scheduleCost.ts): what recording it costs per start, and that an
    // overloaded open model reports it fell behind. CPU time, seconds long.
    name: 'scheduleCost',
    script: 'bench/scheduleCost.ts',
    timeoutMs: 2 * MINUTE,
    rows: [
      {
        id: 'generator.scheduleTruth.cpuPerStart',
        label: 'schedule truth recording, CPU per start (recorder alone)',
        unit: 'µs',
      },
      {
        id: 'generator.openModel.executorCpuPerStart',
        label: 'open-model executor, CPU per start, no-op iteration at 20,000/s',
        unit: 'µs',
      },
      {
        id: 'generator.scheduleTruth.overloadSeen',
        label: 'an overloaded open model reports its drops and that it fell behind (1 = yes)',
        unit: 'bool',
        goal: { op: '>=', value: 1 },
      },
    ],
  },
  {
    // Issue 26: what a rig process costs before it does anything (bench/startup.ts): the CLI compiled
    // into dist/, each verb's modules loaded only for that verb. Wall times are the goals, CPU the
    // figure a busy machine does not inflate.
    name: 'startup',
    script: 'bench/startup.ts',
    timeoutMs: 2 * MINUTE,
    rows: [
      {
        id: 'startup.version.wall',
        label: 'a2a-rig --version until exit, wall',
        unit: 'ms',
        goal: { op: '<=', value: 300 },
      },
      { id: 'startup.version.cpu', label: 'a2a-rig --version until exit, CPU', unit: 'ms' },
      {
        id: 'startup.agentReady.wall',
        label: 'a2a-rig agent until ready, wall',
        unit: 'ms',
        goal: { op: '<=', value: 500 },
      },
      { id: 'startup.agentReady.cpu', label: 'a2a-rig agent until ready, CPU', unit: 'ms' },
    ],
  },
  {
    // Issue 25, item 1 for the attacks: a burst on the main thread and on 2 worker threads.
    name: 'attackWorkers',
    script: 'bench/attackWorkers.ts',
    timeoutMs: 5 * MINUTE,
    rows: [
      {
        id: 'attack.workers.cpuUsPerRequest.one',
        label: 'attack generator CPU per request, malformed-json, main thread',
        unit: 'µs',
      },
      {
        id: 'attack.workers.cpuUsPerRequest.two',
        label: 'attack generator CPU per request, malformed-json, 2 worker threads',
        unit: 'µs',
      },
      { id: 'attack.workers.rate.two', label: 'attack rate reached on 2 worker threads / asked', unit: 'x' },
    ],
  },
];
