// The reference agent against the @a2a-js/sdk 1.3.0 agent (test/support/sdkMinimalAgent.ts:
// express, in-memory task store), under the same load, in one run: plain JSON-RPC `SendMessage`
// whose messageId starts with `tck-complete-task-` (the reference agent's TCK script completes
// such a task at once; the SDK agent completes every task at once), a unique messageId per request.
// Each agent runs in its own process; autocannon (CONNECTIONS keep-alive connections, SECONDS
// each) runs here. Every agent is warmed up unmeasured, then the runs alternate round by round
// (sdk, ref, ref --fault volatile-outbox, http floor, sdk, ref, ...) so drift on a shared box hits them alike;
// the row is the ratio of the median req/s. A run with non-2xx replies, transport errors, timeouts
// or a body that is not a completed task makes its row invalid (shown, never met). Each run also
// reads the agent process's CPU (/proc/<pid>/stat) and prints its µs per request: a figure other
// load on the box disturbs much less than req/s (the median is an informational row per agent),
// beside the same figure of a bare node:http server doing only the HTTP part of the work
// (bench/httpFloorProcess.ts, alternated with the agents): the floor no agent on node:http gets under.
// Run: npx tsx bench/sdkComparison.ts   Env: CMP_CONNECTIONS (20), CMP_SECONDS (8), CMP_ROUNDS (2), CMP_WARMUP_S (2)
// (prefixed: bench/run.ts passes one environment to every benchmark).
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { cpuSecondsFromStat } from '../rig/engine/dos/agentResources.ts';
import { startHttpFloor, startReferenceAgent, startSdkAgent, type AgentProcess } from './agentProcess.ts';
import { printRows, type BenchRow } from './benchRows.ts';

const CONNECTIONS = Number(process.env.CMP_CONNECTIONS ?? 20);
const SECONDS = Number(process.env.CMP_SECONDS ?? 8);
const ROUNDS = Number(process.env.CMP_ROUNDS ?? 2);
const WARMUP_S = Number(process.env.CMP_WARMUP_S ?? 2);
const GOAL_RATIO = 2;

// `[<id>]` is autocannon's per-request unique id (idReplacement).
const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: 'tck-complete-task-[<id>]', role: 'ROLE_USER', parts: [{ text: 'bench' }] } },
});

interface Run {
  reqPerSec: number;
  /** The agent process's CPU (user + system) per completed request. */
  cpuUsPerRequest: number;
  p99Ms: number;
  /** Non-2xx + errors + timeouts + bodies that are not a completed task. */
  problems: string[];
}

// A string test, not a parse: the load generator shares the 2 cores with the agent under test.
const completed = (body: string) => body.includes('"TASK_STATE_COMPLETED"') && !body.includes('"error"');

function cpuSeconds(pid: number): number {
  const seconds = cpuSecondsFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  if (seconds === undefined) throw new Error(`cannot read the CPU of process ${pid}`);
  return seconds;
}

async function load(agent: AgentProcess, seconds: number): Promise<Run> {
  const cpuBefore = cpuSeconds(agent.pid);
  const result = await autocannon({
    url: agent.url,
    connections: CONNECTIONS,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: BODY,
    idReplacement: true,
    verifyBody: completed,
  } as autocannon.Options);
  const cpu = cpuSeconds(agent.pid) - cpuBefore;
  const problems: string[] = [];
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx`);
  if (result.errors > 0) problems.push(`${result.errors} errors`);
  if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
  const mismatches = (result as { mismatches?: number }).mismatches ?? 0;
  if (mismatches > 0) problems.push(`${mismatches} replies not a completed task`);
  if (result.requests.total === 0) problems.push('no request completed');
  const cpuUsPerRequest = result.requests.total > 0 ? (cpu * 1e6) / result.requests.total : NaN;
  return { reqPerSec: result.requests.total / seconds, cpuUsPerRequest, p99Ms: result.latency.p99, problems };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const rate = (n: number) => Math.round(n).toLocaleString('en-US');

const agents: AgentProcess[] = [];
try {
  agents.push(
    await startSdkAgent('sdk'),
    await startReferenceAgent('ref'),
    await startReferenceAgent('ref-volatile', ['--fault', 'volatile-outbox']),
    await startHttpFloor('http-floor'),
  );
  for (const agent of agents) await load(agent, WARMUP_S);
  const runs = new Map<string, Run[]>(agents.map((a) => [a.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const agent of agents) {
      const run = await load(agent, SECONDS);
      runs.get(agent.name)!.push(run);
      const problems = run.problems.length ? `  ${run.problems.join(', ')}` : '';
      const cpu = `${run.cpuUsPerRequest.toFixed(1)} µs CPU/request`;
      const measured = `${rate(run.reqPerSec).padStart(6)} req/s  ${cpu}  p99 ${run.p99Ms} ms${problems}`;
      console.log(`round ${round} ${agent.name.padEnd(12)} ${measured}`);
    }
  }
  const figures = (name: string) => runs.get(name)!.map((r) => r.reqPerSec);
  const problems = (names: string[]) =>
    names.flatMap((n) => runs.get(n)!.flatMap((r) => r.problems.map((p) => `${n}: ${p}`)));
  const sdk = median(figures('sdk'));
  const row = (id: string, label: string, name: string, goal: BenchRow['goal']): BenchRow => {
    const bad = problems(['sdk', name]);
    return {
      id,
      label,
      value: sdk > 0 ? median(figures(name)) / sdk : null,
      unit: 'x',
      ...(goal ? { goal } : {}),
      detail:
        `${name} ${figures(name).map(rate).join(', ')} req/s vs sdk ${figures('sdk').map(rate).join(', ')} req/s ` +
        `(medians ${rate(median(figures(name)))} / ${rate(sdk)}; ` +
        `${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS}, alternated)`,
      ...(bad.length ? { invalid: bad.join('; ') } : {}),
    };
  };
  const cpuRow = (id: string, label: string, name: string): BenchRow => {
    const us = runs.get(name)!.map((r) => r.cpuUsPerRequest);
    return {
      id,
      label,
      value: median(us),
      unit: 'µs',
      detail: `${us.map((u) => u.toFixed(1)).join(', ')} µs of the agent process's CPU per request (${name})`,
      ...(problems([name]).length ? { invalid: problems([name]).join('; ') } : {}),
    };
  };
  printRows([
    row(
      'agent.sendMessage.ratioToSdk',
      'reference agent / @a2a-js/sdk agent, plain SendMessage (durable outbox)',
      'ref',
      { op: '>=', value: GOAL_RATIO },
    ),
    row(
      'agent.sendMessage.volatileRatioToSdk',
      'same, reference agent with --fault volatile-outbox',
      'ref-volatile',
      undefined,
    ),
    cpuRow('agent.sendMessage.cpuUsPerRequest', 'reference agent CPU per plain SendMessage', 'ref'),
    cpuRow('agent.sendMessage.sdkCpuUsPerRequest', '@a2a-js/sdk agent CPU per plain SendMessage', 'sdk'),
    cpuRow(
      'agent.sendMessage.httpFloorCpuUsPerRequest',
      "bare node:http doing a SendMessage's HTTP work",
      'http-floor',
    ),
  ]);
} finally {
  for (const agent of agents) await agent.stop();
}
