// Durability of the reference agent across a crash: kill -9 the spawned agent and start it again on
// the same outbox database. Open prompts stay open (same prompt_id and response_schema), answered
// ones stay answered, every stored event replays byte-for-byte, a task caught in the middle of a
// work step finishes, and a deadline that passed while the agent was down is signalled after the
// restart without closing the prompt (S-4). SIGTERM, in contrast, is a clean exit.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEADLINE_ELAPSED_KEY } from '../rig/protocol/rigScript.ts';
import { spawnAgent, tempDbPath, type AgentChild, ownedAgents } from './support/agentFixture.ts';
import {
  METHOD,
  answerMessage,
  envelopeOf,
  headersFor,
  readSse,
  replay,
  rpc,
  scriptData,
  stateOf,
  taskOf,
  userMessage,
  type ReplayFrame,
} from './support/rpcClient.ts';

const gen = '1.0' as const;
const INPUT_REQUIRED = 'TASK_STATE_INPUT_REQUIRED';
const COMPLETED = 'TASK_STATE_COMPLETED';

// Every child and temp database of a test, reaped whatever the outcome.
const owned = ownedAgents();

async function spawnOwned(args: string[]): Promise<AgentChild> {
  const agent = await spawnAgent(args);
  owned.children.push(agent);
  return agent;
}

function withinMs<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function start(url: string, steps?: unknown[], configuration?: object): Promise<{ task: any; envelope: any }> {
  const message = userMessage(gen, steps ? { data: scriptData(steps) } : {});
  const sent = await rpc(url, gen, METHOD[gen].send, { message, ...(configuration ? { configuration } : {}) });
  expect(sent.status).toBe(200);
  const task = taskOf(gen, sent.body.result);
  return { task, envelope: envelopeOf(task) };
}

async function answer(url: string, taskId: string, promptId: string, payload: unknown) {
  const res = await rpc(url, gen, METHOD[gen].send, { message: answerMessage(gen, taskId, promptId, payload) });
  return { status: res.status, body: res.body, task: res.status === 200 ? taskOf(gen, res.body.result) : undefined };
}

async function getTask(url: string, taskId: string): Promise<any> {
  const got = await rpc(url, gen, METHOD[gen].get, { id: taskId });
  expect(got.status).toBe(200);
  return got.body.result;
}

function frameState(frame: ReplayFrame): string | undefined {
  return frame.event.statusUpdate?.status.state ?? frame.event.task?.status.state;
}

const countState = (frames: ReplayFrame[], state: string) =>
  frames.filter((f) => f.event.statusUpdate && frameState(f) === state).length;
const deadlineSignal = (f: ReplayFrame) => f.event.statusUpdate?.metadata?.[DEADLINE_ELAPSED_KEY];

/** Replays a task from since=0 until `until` holds or the socket closes (bounded). */
async function replayUntil(
  url: string,
  taskId: string,
  until: (frames: ReplayFrame[]) => boolean,
  timeoutMs = 5_000,
): Promise<ReplayFrame[]> {
  const { frames, closeCode } = await replay(url, taskId, 0, { version: gen, until, timeoutMs });
  if (!until(frames) && closeCode === undefined)
    throw new Error(`replay of ${taskId} did not reach its condition within ${timeoutMs} ms`);
  return frames;
}

const isContiguousFromOne = (frames: ReplayFrame[]) => frames.every((f, i) => f.seq === i + 1);

describe('agent restart on the same database', () => {
  it('kill -9: prompts, answers and events survive; work resumes; a missed deadline is signalled late', async () => {
    const db = tempDbPath();
    owned.cleanups.push(db.cleanup);
    const args = ['--db', db.path];
    const first = await spawnOwned(args);
    let url = first.url;

    // open: one open prompt.
    const open = await start(url);
    expect(stateOf(gen, open.task)).toBe(INPUT_REQUIRED);
    // twoStep: first prompt answered, second one open.
    const secondSchema = {
      type: 'object',
      additionalProperties: false,
      required: ['n'],
      properties: { n: { type: 'integer' } },
    };
    const twoStep = await start(url, [
      {
        prompt: {
          text: 'First?',
          response_schema: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } },
        },
      },
      { prompt: { text: 'Second?', response_schema: secondSchema } },
      { complete: { text: 'both answered' } },
    ]);
    const firstAnswer = await answer(url, twoStep.task.id, twoStep.envelope.prompt_id, { ok: true });
    expect(stateOf(gen, firstAnswer.task)).toBe(INPUT_REQUIRED);
    const secondPrompt = envelopeOf(firstAnswer.task);
    expect(secondPrompt.prompt_id).not.toBe(twoStep.envelope.prompt_id);
    // done: answered and completed.
    const done = await start(url);
    expect(stateOf(gen, (await answer(url, done.task.id, done.envelope.prompt_id, { approved: true })).task)).toBe(
      COMPLETED,
    );
    // late: a prompt whose deadline will pass while the agent is down.
    const late = await start(url, [
      { prompt: { text: 'Soon?', response_schema: { type: 'object' }, deadline_ms: 2_000 } },
      { complete: {} },
    ]);
    const deadline = Date.parse(late.envelope.deadline);
    // working: in the middle of a work step when the agent dies.
    const working = await start(url, [{ work: { ms: 1_500 } }, { complete: { text: 'worked' } }], {
      returnImmediately: true,
    });

    const tasks = { open, twoStep, done, late, working };
    const reached: Record<keyof typeof tasks, (fs: ReplayFrame[]) => boolean> = {
      open: (fs) => countState(fs, INPUT_REQUIRED) === 1,
      twoStep: (fs) => countState(fs, INPUT_REQUIRED) === 2,
      done: (fs) => countState(fs, COMPLETED) === 1,
      late: (fs) => countState(fs, INPUT_REQUIRED) === 1,
      working: (fs) => countState(fs, 'TASK_STATE_WORKING') === 1,
    };
    const before = Object.fromEntries(
      await Promise.all(
        Object.entries(tasks).map(async ([name, t]) => [
          name,
          await replayUntil(url, t.task.id, reached[name as keyof typeof tasks]),
        ]),
      ),
    ) as Record<keyof typeof tasks, ReplayFrame[]>;
    const openBefore = envelopeOf(await getTask(url, open.task.id));
    const twoStepBefore = envelopeOf(await getTask(url, twoStep.task.id));

    const killedAt = Date.now();
    first.child.kill('SIGKILL');
    expect(await withinMs(first.exited, 5_000, 'exit after SIGKILL')).toBeNull();
    expect(first.child.signalCode).toBe('SIGKILL');
    // Killed before the deadline, so no deadline signal can have been stored before the crash.
    expect(killedAt).toBeLessThan(deadline);
    // The scenario needs the deadline to pass while nothing runs: wait it out (bounded: 2 s).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now() + 50)));

    const second = await spawnOwned(args);
    url = second.url;

    // Every pre-crash event replays identically (seq, eventId and body).
    for (const [name, frames] of Object.entries(before)) {
      const after = await replayUntil(
        url,
        tasks[name as keyof typeof tasks].task.id,
        (fs) => fs.length >= frames.length,
      );
      expect(after.slice(0, frames.length), name).toEqual(frames);
    }

    // The open prompt is still open, same prompt_id and response_schema, in replay and in tasks/get.
    const replayedPrompt = before.open.filter((f) => frameState(f) === INPUT_REQUIRED).at(-1)!.event.statusUpdate.status
      .message.metadata;
    const openAfter = await getTask(url, open.task.id);
    expect(stateOf(gen, openAfter)).toBe(INPUT_REQUIRED);
    for (const envelope of [envelopeOf(openAfter), Object.values(replayedPrompt)[0] as any]) {
      expect(envelope.prompt_id).toBe(open.envelope.prompt_id);
      expect(envelope.response_schema).toEqual(openBefore.response_schema);
    }
    const openAnswered = await answer(url, open.task.id, open.envelope.prompt_id, {
      approved: true,
      comment: 'after the crash',
    });
    expect(openAnswered.status).toBe(200);
    expect(stateOf(gen, openAnswered.task)).toBe(COMPLETED);
    expect(JSON.stringify(openAnswered.task.artifacts)).toContain('after the crash');

    // Answered prompts stay answered; the second prompt of the same task is still open.
    expect((await answer(url, twoStep.task.id, twoStep.envelope.prompt_id, { ok: false })).status).toBe(409);
    expect((await answer(url, done.task.id, done.envelope.prompt_id, { approved: false })).status).toBe(409);
    const twoStepAfter = await getTask(url, twoStep.task.id);
    expect(stateOf(gen, twoStepAfter)).toBe(INPUT_REQUIRED);
    expect(envelopeOf(twoStepAfter)).toEqual(twoStepBefore);
    expect(twoStepBefore.prompt_id).toBe(secondPrompt.prompt_id);
    const secondAnswered = await answer(url, twoStep.task.id, secondPrompt.prompt_id, { n: 2 });
    expect(secondAnswered.status).toBe(200);
    expect(stateOf(gen, secondAnswered.task)).toBe(COMPLETED);

    // The missed deadline is signalled once after the restart, and the prompt stays answerable (S-4).
    const lateFrames = await replayUntil(url, late.task.id, (fs) => fs.some(deadlineSignal));
    const signal = lateFrames.find(deadlineSignal)!;
    expect(signal.seq).toBeGreaterThan(before.late.at(-1)!.seq);
    expect(deadlineSignal(signal)).toEqual({ prompt_id: late.envelope.prompt_id, deadline: late.envelope.deadline });
    expect(signal.event.statusUpdate.status.state).toBe(INPUT_REQUIRED);
    expect(stateOf(gen, await getTask(url, late.task.id))).toBe(INPUT_REQUIRED);
    const lateAnswered = await answer(url, late.task.id, late.envelope.prompt_id, { any: 'thing' });
    expect(lateAnswered.status).toBe(200);
    expect(stateOf(gen, lateAnswered.task)).toBe(COMPLETED);

    // The interrupted work step runs again and the task completes, after the crash.
    const workingFrames = await replayUntil(url, working.task.id, (fs) => countState(fs, COMPLETED) === 1, 10_000);
    const completed = workingFrames.find((f) => frameState(f) === COMPLETED)!;
    expect(Date.parse(completed.event.statusUpdate.status.timestamp)).toBeGreaterThan(killedAt);

    // Terminal now, every task replays its whole history gap-free, with one deadline signal.
    for (const [name, t] of Object.entries(tasks)) {
      const { frames, closeCode } = await replay(url, t.task.id, 0, { version: gen });
      expect(closeCode, name).toBe(1000);
      expect(isContiguousFromOne(frames), name).toBe(true);
      expect(frames.filter(deadlineSignal), name).toHaveLength(name === 'late' ? 1 : 0);
    }
  });

  it('without --db the outbox is scratch: there while it runs, removed with its directory at SIGTERM', async () => {
    const agent = await spawnOwned([]);
    expect(agent.db).toMatch(/\/a2a-rig-agent-[^/]+\/outbox\.db$/);
    await start(agent.url);
    expect(existsSync(agent.db)).toBe(true);
    agent.child.kill('SIGTERM');
    expect(await withinMs(agent.exited, 10_000, 'exit after SIGTERM')).toBe(0);
    expect(existsSync(dirname(agent.db))).toBe(false);
  });

  it('SIGTERM ends open streams and sockets and exits with code 0, leaving the outbox usable', async () => {
    const db = tempDbPath();
    owned.cleanups.push(db.cleanup);
    const args = ['--db', db.path];
    const agent = await spawnOwned(args);
    const { task, envelope } = await start(agent.url);

    const ws = new WebSocket(`${agent.url.replace(/^http/, 'ws')}/events?task=${task.id}&since=0&version=${gen}`);
    const wsClosed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.on('error', () => {});
    await withinMs(new Promise((resolve) => ws.once('message', resolve)), 5_000, 'first replay frame');
    const sse = await fetch(agent.url, {
      method: 'POST',
      headers: { ...headersFor(gen), accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: METHOD[gen].subscribe, params: { id: task.id } }),
    });
    expect(sse.headers.get('content-type')).toContain('text/event-stream');
    const sseEnded = readSse(sse, 10_000).then(
      () => 'ended',
      () => 'ended',
    );

    agent.child.kill('SIGTERM');
    expect(await withinMs(agent.exited, 10_000, 'exit after SIGTERM')).toBe(0);
    await withinMs(wsClosed, 5_000, 'replay socket close');
    expect(await withinMs(sseEnded, 5_000, 'SSE stream end')).toBe('ended');

    const again = await spawnOwned(args);
    const after = await getTask(again.url, task.id);
    expect(stateOf(gen, after)).toBe(INPUT_REQUIRED);
    expect(envelopeOf(after).prompt_id).toBe(envelope.prompt_id);
    expect((await answer(again.url, task.id, envelope.prompt_id, { approved: true })).status).toBe(200);
  });
});
