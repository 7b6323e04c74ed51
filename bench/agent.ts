// The reference agent's answer path under load, through the embedded Toxiproxy (no toxics), in one
// run, the way `a2a-rig run --toxiproxy embedded` reaches it: the agent in its own process, the
// proxy and the load in this one.
//  1. valid answers per second: prompts parked beforehand are answered by the closed model
//     (rig/load/closedModel.ts, autocannon over CONNECTIONS keep-alive connections), each reply
//     classified; only accepted ones count.
//  2. resume latency at 1,000 answers/s: the open model (rig/load/openModelExecutor.ts) answers
//     parked prompts at a constant 1,000/s for SECONDS; each answer's resume is observed as the
//     capacity scenario observes it (rig/load/hitlRoundTrip.ts: the accepted reply already shows the
//     task out of INPUT_REQUIRED, or a subscription sees it leave). Reported from the answer being
//     sent, and from the intended send time (which also charges any lateness of the rig).
// Prints answers/s, resume p50/p99/p99.9 and the ratio of p99 to the 5 ms goal, then its rows
// (bench/benchRows.ts) for bench/run.ts. A phase that saw rejected answers, failures or drops makes
// its rows invalid: shown, never met.
// Run: npx tsx bench/agent.ts   Env: ANSWERS (5000), CONNECTIONS (32), RATE (1000), SECONDS (5).
import { Environment } from '../rig/engine/environment/environment.ts';
import { userMessage, type A2AClient } from '../rig/client/index.ts';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { answerRequests, classifyRpcResponse, type ParkedPrompt } from '../rig/load/agentOperationRequests.ts';
import { constantArrivals } from '../rig/load/arrivalSchedule.ts';
import { runClosedModel } from '../rig/load/closedModel.ts';
import { hitlRoundTrip } from '../rig/load/hitlRoundTrip.ts';
import { runOpenModel } from '../rig/load/openModelExecutor.ts';
import { printRows, type BenchRow } from './benchRows.ts';
import { describeCost, watchPhase } from './phaseCost.ts';

const ANSWERS = Number(process.env.ANSWERS ?? 5000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const RATE = Number(process.env.RATE ?? 1000);
const SECONDS = Number(process.env.SECONDS ?? 5);
const GOAL_P99_MS = 5;
const GOAL_ANSWERS_PER_SECOND = 3000;

const env = await Environment.open({ toxiproxy: { kind: 'embedded' }, agentFault: [], a2aVersion: 'auto' });
const client = env.client(undefined, CONNECTIONS);
const ms = (milliseconds: number) => milliseconds.toFixed(3);

/** Parks `n` tasks in INPUT_REQUIRED, `CONNECTIONS` at a time; returns their prompts with a valid answer. */
async function park(c: A2AClient, n: number): Promise<ParkedPrompt[]> {
  const parked: ParkedPrompt[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next++ < n) {
        const sent = await c.send(userMessage({ text: 'bench/agent.ts' }));
        if (!sent.ok || !('task' in sent.value))
          throw new Error(`the agent did not park a task: ${JSON.stringify(sent.ok ? sent.value : sent.error)}`);
        const prompt = c.promptOf(sent.value.task);
        if (!prompt?.ok) throw new Error(`no usable prompt: ${prompt ? prompt.reason : 'no envelope'}`);
        parked.push({ taskId: sent.value.task.id, promptId: prompt.envelope.prompt_id, payload: { approved: true } });
      }
    }),
  );
  return parked;
}

try {
  console.log(`agent ${env.directUrl} behind the ${env.proxyRecord?.kind} proxy ${env.url} (A2A ${client.generation})`);
  // Warm-up: compile caches, JIT and connections on both sides, not measured.
  await runClosedModel({
    url: env.url,
    connections: CONNECTIONS,
    amount: 500,
    requests: answerRequests(client.agent, await park(client, 500)),
    classify: classifyRpcResponse,
  });

  const forThroughput = await park(client, ANSWERS);
  const agentSide = { pid: env.embeddedPid, url: env.directUrl };
  const closedWatch = await watchPhase(agentSide);
  const closed = await runClosedModel({
    url: env.url,
    connections: CONNECTIONS,
    amount: forThroughput.length,
    requests: answerRequests(client.agent, forThroughput),
    classify: classifyRpcResponse,
  });
  const accepted = closed.outcomes.accepted ?? 0;
  const closedCost = await closedWatch.end(accepted);
  const validPerSecond = (accepted * 1000) / closed.elapsedMs;

  // The open phase: a short unrecorded run first (its code paths are new to the JIT here), then
  // the measured one.
  const answerAtRate = (seconds: number, parked: ParkedPrompt[], resume?: LatencyHistogram) =>
    runOpenModel({
      arrivals: constantArrivals(RATE, seconds * 1000),
      iteration: hitlRoundTrip({
        client,
        open: async () => {
          const prompt = parked.pop();
          if (!prompt) throw new Error('ran out of parked prompts');
          return prompt;
        },
        resumeLatency: resume,
      }),
      maxInFlight: 512,
      maxBacklog: 100_000,
      iterationTimeoutMs: 5_000,
      drainTimeoutMs: 5_000,
    });
  await answerAtRate(1, await park(client, RATE));
  const resume = new LatencyHistogram();
  const forRate = await park(client, Math.ceil(RATE * SECONDS));
  const openWatch = await watchPhase(agentSide);
  const open = await answerAtRate(SECONDS, forRate, resume);
  const openCost = await openWatch.end(open.succeeded);

  const closedSeconds = `${(closed.elapsedMs / 1000).toFixed(2)} s`;
  const acceptedText = `${accepted}/${forThroughput.length} accepted (${JSON.stringify(closed.outcomes)})`;
  const perSecond = `${validPerSecond.toFixed(0)} valid answers/s (closed model, ${CONNECTIONS} connections)`;
  console.log(`\nvalid answers: ${acceptedText} in ${closedSeconds} = ${perSecond}`);
  const p = (h: { percentileMs(p: number): number }, q: number) => ms(h.percentileMs(q));
  const replyPercentiles = `p50 ${p(closed.latency, 50)} ms, p99 ${p(closed.latency, 99)} ms`;
  console.log(`  answer reply latency: ${replyPercentiles} (folded from autocannon, n=${closed.folded})`);
  console.log(`  ${describeCost(closedCost, 'answer')}`);
  const resumed = `${open.succeeded}/${open.scheduled} resumed`;
  const failed = `${open.failed} failed${open.firstFailure ? ` (${open.firstFailure})` : ''}`;
  const notOnTime = `${open.dropped} dropped, ${open.late} started > 10 ms late`;
  console.log(`\nat ${RATE} answers/s for ${SECONDS} s: ${resumed}, ${failed}, ${notOnTime}`);
  const resumePercentiles =
    `p50 ${p(resume, 50)} ms, p99 ${p(resume, 99)} ms, ` + `p99.9 ${p(resume, 99.9)} ms, max ${p(resume, 100)} ms`;
  console.log(`  resume (answer sent → resume observed): ${resumePercentiles}`);
  const intendedPercentiles =
    `p50 ${p(open.latency, 50)} ms, p99 ${p(open.latency, 99)} ms, ` + `max ${p(open.latency, 100)} ms`;
  console.log(`  from the intended send time:            ${intendedPercentiles}`);
  const toGoal = (p99: number) => (p99 / GOAL_P99_MS).toFixed(3);
  const ratios =
    `${toGoal(resume.percentileMs(99))} (answer sent); ` + `${toGoal(open.latency.percentileMs(99))} (intended send)`;
  console.log(`  p99 / ${GOAL_P99_MS} ms goal: ${ratios}`);
  console.log(`  ${describeCost(openCost, 'answer')}`);

  const answersInvalid =
    accepted < forThroughput.length
      ? `${forThroughput.length - accepted} of ${forThroughput.length} answers not accepted: ` +
        JSON.stringify(closed.outcomes)
      : undefined;
  const openProblems = [
    open.failed ? `${open.failed} failed${open.firstFailure ? ` (${open.firstFailure})` : ''}` : '',
    open.dropped ? `${open.dropped} dropped` : '',
    open.unfinished ? `${open.unfinished} unfinished` : '',
    open.succeeded === 0 ? 'nothing resumed' : '',
  ].filter(Boolean);
  const resumeDetail =
    `${open.succeeded}/${open.scheduled} resumed at ${RATE}/s for ${SECONDS} s, answer sent → resume observed; ` +
    `from the intended send: p99 ${ms(open.latency.percentileMs(99))} ms`;
  const resumeRow = (id: string, label: string, percentile: number, goal?: BenchRow['goal']): BenchRow => ({
    id,
    label,
    value: open.succeeded > 0 ? resume.percentileMs(percentile) : null,
    unit: 'ms',
    ...(goal ? { goal } : {}),
    detail: resumeDetail,
    ...(openProblems.length ? { invalid: openProblems.join(', ') } : {}),
  });
  printRows([
    {
      id: 'agent.answers.validPerSecond',
      label: `valid answers/s (closed model, ${CONNECTIONS} connections, through the embedded proxy)`,
      value: validPerSecond,
      unit: 'answers/s',
      goal: { op: '>=', value: GOAL_ANSWERS_PER_SECOND },
      detail: `${accepted}/${forThroughput.length} accepted in ${closedSeconds}; reply p99 ${p(closed.latency, 99)} ms`,
      ...(answersInvalid ? { invalid: answersInvalid } : {}),
    },
    resumeRow('agent.resume.p50', `resume p50 at ${RATE} answers/s`, 50),
    resumeRow('agent.resume.p99', `resume p99 at ${RATE} answers/s`, 99, { op: '<=', value: GOAL_P99_MS }),
    resumeRow('agent.resume.p999', `resume p99.9 at ${RATE} answers/s`, 99.9),
  ]);
} finally {
  await client.close();
  await env.close();
}
