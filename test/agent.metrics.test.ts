// The agent's GET /metrics moves with what it does: tasks by state, open prompts, answers by
// outcome, the resume-latency histogram and the outbox events counter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { METHOD, answerMessage, envelopeOf, rpc, taskOf, userMessage } from './support/rpcClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent.cleanup());

/** Samples of the Prometheus text format: `name{labels}` → value. */
async function scrape(): Promise<Map<string, number>> {
  const res = await fetch(`${agent.url}/metrics`, { signal: AbortSignal.timeout(10_000) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const gen = '1.0';

describe('agent /metrics', () => {
  it('counts tasks, prompts, answers by outcome, resumes and outbox events as tasks run', async () => {
    const before = await scrape();
    expect(before.get('a2a_agent_tasks{state="TASK_STATE_INPUT_REQUIRED"}')).toBe(0);
    expect(before.get('a2a_agent_open_prompts')).toBe(0);
    for (const outcome of ['accepted', 'conflict', 'invalid', 'error'])
      expect(before.get(`a2a_agent_answers_total{outcome="${outcome}"}`)).toBe(0);
    expect(before.get('a2a_agent_resume_latency_seconds_count')).toBe(0);
    expect(before.get('a2a_agent_outbox_events_total')).toBe(0);
    expect(before.has('a2a_agent_process_resident_memory_bytes')).toBe(true);

    const sent = await rpc(agent.url, gen, METHOD[gen].send, { message: userMessage(gen) });
    const task = taskOf(gen, sent.body.result);
    const promptId = envelopeOf(task).prompt_id as string;
    const parked = await scrape();
    expect(parked.get('a2a_agent_tasks{state="TASK_STATE_INPUT_REQUIRED"}')).toBe(1);
    expect(parked.get('a2a_agent_open_prompts')).toBe(1);
    // Created, WORKING, INPUT_REQUIRED.
    expect(parked.get('a2a_agent_outbox_events_total')).toBe(3);

    const answer = (payload: unknown) =>
      rpc(agent.url, gen, METHOD[gen].send, { message: answerMessage(gen, task.id, promptId, payload) });
    expect((await answer({ approved: 'yes' })).status).toBe(422);
    const malformed = userMessage(gen, {
      taskId: task.id,
      text: 'answer',
      metadata: { hitl_response_for: { payload: {} } },
    });
    expect((await rpc(agent.url, gen, METHOD[gen].send, { message: malformed })).body.error.code).toBe(-32602);
    expect((await answer({ approved: true })).status).toBe(200);
    expect((await answer({ approved: false })).status).toBe(409);

    const after = await scrape();
    expect(after.get('a2a_agent_answers_total{outcome="accepted"}')).toBe(1);
    expect(after.get('a2a_agent_answers_total{outcome="invalid"}')).toBe(1);
    expect(after.get('a2a_agent_answers_total{outcome="conflict"}')).toBe(1);
    expect(after.get('a2a_agent_answers_total{outcome="error"}')).toBe(1);
    expect(after.get('a2a_agent_resume_latency_seconds_count')).toBe(1);
    const sum = after.get('a2a_agent_resume_latency_seconds_sum')!;
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(5);
    expect(after.get('a2a_agent_resume_latency_seconds_bucket{le="+Inf"}')).toBe(1);
    expect(after.get('a2a_agent_tasks{state="TASK_STATE_INPUT_REQUIRED"}')).toBe(0);
    expect(after.get('a2a_agent_tasks{state="TASK_STATE_COMPLETED"}')).toBe(1);
    expect(after.get('a2a_agent_open_prompts')).toBe(0);
    // + WORKING, the artifact, COMPLETED.
    expect(after.get('a2a_agent_outbox_events_total')).toBe(6);
  });

  it('keeps its registry to itself: a second agent in the same process starts from zero', async () => {
    const other = await inProcessAgent();
    try {
      const text = await (await fetch(`${other.url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
      expect(text).toMatch(/^a2a_agent_answers_total\{outcome="accepted"\} 0$/m);
      expect(text).toMatch(/^a2a_agent_outbox_events_total 0$/m);
    } finally {
      await other.cleanup();
    }
  });
});
