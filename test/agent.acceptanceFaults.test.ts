// Every acceptance-* fault flag of the reference agent, proven to bite: each proof makes one
// observation against an agent started with the flag (the guarantee breaks) and the same one
// against a correct agent (the guarantee holds), so a flag that silently stopped working fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, type AcceptanceFaultName, type FaultName } from '../rig/agent/faults.ts';
import { startAgent } from '../rig/agent/startAgent.ts';
import { inProcessAgent, tempDbPath } from './support/inProcessAgent.ts';
import { replay, stateOf, type ReplayFrame } from './support/rpcClient.ts';
import {
  ACCEPT,
  PENDING_KEY,
  REJECT,
  createGated,
  decide,
  fetchTask,
  isPending,
  taskIn,
  type GatedTaskSpec,
} from './support/acceptanceClient.ts';

const gen = '1.0' as const;
let correct: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  correct = await inProcessAgent();
});
afterAll(async () => correct?.cleanup());

/** Runs `observe` against the correct agent and a fresh one with `fault`: [broken, holds]. */
async function both<T>(fault: FaultName, observe: (url: string) => Promise<T>): Promise<[T, T]> {
  const faulty = await inProcessAgent([fault]);
  try {
    return await Promise.all([observe(faulty.url), observe(correct.url)]);
  } finally {
    await faulty.cleanup();
  }
}

const create = async (url: string, spec: GatedTaskSpec = {}, token?: string) =>
  taskIn(gen, await createGated(url, gen, spec, token === undefined ? {} : { token }));
const state = (task: any) => stateOf(gen, task);
const PENDING = 'TASK_STATE_INPUT_REQUIRED';

/** One letter per event: T task, W working, A artifact, P pending, C completed, F failed. */
function shape(f: ReplayFrame): string {
  if (f.event.task) return 'T';
  if (f.event.artifactUpdate) return 'A';
  const status = f.event.statusUpdate?.status;
  return (
    ({ TASK_STATE_WORKING: 'W', TASK_STATE_COMPLETED: 'C', TASK_STATE_FAILED: 'F' } as Record<string, string>)[
      status?.state
    ] ?? (status?.message?.metadata?.[PENDING_KEY] === true ? 'P' : '?')
  );
}

/** Decides, reopens the agent on the same database (the faulty one with its flag), decides again. */
async function rejectAcrossRestart(faults: FaultName[]): Promise<string> {
  const db = tempDbPath();
  let agent = await startAgent({ dbPath: db.path, faults });
  try {
    const task = await create(agent.url, { criteria: { maxRejections: 1 } });
    expect(isPending(taskIn(gen, await decide(agent.url, gen, task.id, REJECT)))).toBe(true);
    await agent.close();
    agent = await startAgent({ dbPath: db.path, faults });
    return state(taskIn(gen, await decide(agent.url, gen, task.id, REJECT)));
  } finally {
    await agent.close();
    db.cleanup();
  }
}

type Proof = () => Promise<void>;

const proofs = {
  'acceptance-completes-without-waiting': async () => {
    const [broken, holds] = await both('acceptance-completes-without-waiting', (url) => create(url));
    expect(state(broken)).toBe('TASK_STATE_COMPLETED');
    expect(state(holds)).toBe(PENDING);
    expect(isPending(holds)).toBe(true);
  },

  'acceptance-accepts-second-decision': async () => {
    const [broken, holds] = await both('acceptance-accepts-second-decision', async (url) => {
      const task = await create(url);
      await decide(url, gen, task.id, ACCEPT);
      return decide(url, gen, task.id, ACCEPT);
    });
    expect(broken.body.result).toBeDefined();
    expect(holds.body.error.code).toBe(-32042);
    // And in a flood, more than one decision "wins".
    const [floodBroken, floodHolds] = await both('acceptance-accepts-second-decision', async (url) => {
      const task = await create(url);
      const replies = await Promise.all(Array.from({ length: 8 }, () => decide(url, gen, task.id, ACCEPT)));
      return replies.filter((r) => r.body.result !== undefined).length;
    });
    expect(floodBroken).toBeGreaterThan(1);
    expect(floodHolds).toBe(1);
  },

  'acceptance-forgets-rejections': async () => {
    const [broken, holds] = await Promise.all([
      rejectAcrossRestart(['acceptance-forgets-rejections']),
      rejectAcrossRestart([]),
    ]);
    expect(broken).toBe(PENDING);
    expect(holds).toBe('TASK_STATE_FAILED');
  },

  'acceptance-skips-criteria-validation': async () => {
    const [broken, holds] = await both('acceptance-skips-criteria-validation', (url) =>
      createGated(url, gen, { criteria: { maxRejections: -1, evaluator: 'nobody' } }),
    );
    expect(broken.body.result).toBeDefined();
    expect(holds.body.error.code).toBe(-32040);
    // A hostile artifactSchema (a remote $ref, 40 levels deep) too.
    let deep: Record<string, unknown> = { $ref: 'https://attacker.example/schema.json' };
    for (let i = 0; i < 40; i += 1) deep = { type: 'object', properties: { x: deep } };
    const [hostileBroken, hostileHolds] = await both('acceptance-skips-criteria-validation', (url) =>
      createGated(url, gen, { criteria: { artifactSchema: deep } }),
    );
    expect(hostileBroken.body.result).toBeDefined();
    expect(hostileHolds.body.error.code).toBe(-32040);
  },

  'acceptance-parks-before-artifacts': async () => {
    const [broken, holds] = await both('acceptance-parks-before-artifacts', async (url) => {
      const task = await create(url);
      const { frames } = await replay(url, task.id, 0, {
        version: gen,
        until: (fs) => fs.some((f) => shape(f) === 'A') && fs.some((f) => shape(f) === 'P'),
      });
      return frames.map(shape).join('');
    });
    expect(broken).toBe('TWPA');
    expect(holds).toBe('TWAP');
  },

  'acceptance-ignores-authorization': async () => {
    const [broken, holds] = await both('acceptance-ignores-authorization', async (url) => {
      const task = await create(url, {}, 'owner');
      return decide(url, gen, task.id, ACCEPT, { token: 'stranger' });
    });
    expect(state(taskIn(gen, broken))).toBe('TASK_STATE_COMPLETED');
    expect(holds.body.error.code).toBe(-32043);
  },

  'acceptance-ignores-max-rejections': async () => {
    const [broken, holds] = await both('acceptance-ignores-max-rejections', async (url) => {
      const task = await create(url, { criteria: { maxRejections: 0 } });
      return state(taskIn(gen, await decide(url, gen, task.id, REJECT)));
    });
    expect(broken).toBe(PENDING);
    expect(holds).toBe('TASK_STATE_FAILED');
  },

  'acceptance-ignores-retry-false': async () => {
    const [broken, holds] = await both('acceptance-ignores-retry-false', async (url) => {
      const task = await create(url);
      return state(taskIn(gen, await decide(url, gen, task.id, { ...REJECT, retry: false })));
    });
    expect(broken).toBe(PENDING);
    expect(holds).toBe('TASK_STATE_FAILED');
  },

  'acceptance-no-timeout': async () => {
    const faulty = await inProcessAgent(['acceptance-no-timeout']);
    try {
      const spec = { criteria: { acceptanceTimeoutSeconds: 1 } };
      const [late, timed] = await Promise.all([create(faulty.url, spec), create(correct.url, spec)]);
      // The correct agent's deadline passes first; by then (plus a margin) the faulty one's has too.
      const { frames } = await replay(correct.url, timed.id, 0, {
        version: gen,
        until: (fs) => fs.some((f) => shape(f) === 'F'),
        timeoutMs: 8_000,
      });
      expect(frames.map(shape)).toContain('F');
      await new Promise((resolve) => setTimeout(resolve, 500));
      const still = await fetchTask(faulty.url, gen, late.id);
      expect(state(still)).toBe(PENDING);
      expect(isPending(still)).toBe(true);
    } finally {
      await faulty.cleanup();
    }
  },

  'acceptance-drops-feedback': async () => {
    const [broken, holds] = await both('acceptance-drops-feedback', async (url) => {
      const task = await create(url);
      await decide(url, gen, task.id, REJECT, { feedback: 'needs sources' });
      const history = (await fetchTask(url, gen, task.id)).history as any[];
      return history.some((m) => m.parts.some((p: any) => p.text === 'needs sources'));
    });
    expect(broken).toBe(false);
    expect(holds).toBe(true);
  },
} satisfies Record<AcceptanceFaultName, Proof>;

describe('acceptance fault flags: each breaks its guarantee, which holds without it', () => {
  it('has a proof for every acceptance-* flag in faults.ts', () => {
    expect(Object.keys(proofs).sort()).toEqual(
      Object.keys(FAULTS)
        .filter((f) => f.startsWith('acceptance-'))
        .sort(),
    );
    expect(Object.keys(proofs)).toHaveLength(10);
  });
  for (const [fault, proof] of Object.entries(proofs)) {
    it(`${fault}: ${FAULTS[fault as FaultName]}`, proof);
  }
});
