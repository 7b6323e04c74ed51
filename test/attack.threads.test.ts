// An attack burst on the load worker threads (rig/engine/dos/attackThreads.ts): the threads together
// make exactly the one schedule's starts (maxRequests in all, each start index once), every outcome
// comes back once, the prompts an answer attack needs are opened by the caller, and the caller's
// abort ends every thread's held connections.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attackTarget } from '../rig/attack/attackTarget.ts';
import type { AttackOutcome, AttackSchedule, AttackTarget, LivePrompt } from '../rig/attack/attackTypes.ts';
import { attackOnThreads } from '../rig/engine/dos/attackThreads.ts';
import { LoadWorkerPool } from '../rig/load/workers/workerPool.ts';
import { ScenarioLoad } from '../rig/engine/scenarioLoad.ts';
import type { LoadObserver } from '../rig/load/openModelExecutor.ts';

/** Counts what reaches it by body; answers 400, or (`hold`) never answers. */
async function countingServer(): Promise<{
  url: string;
  bodies: string[];
  sockets: Set<Socket>;
  hold: { on: boolean; ok?: boolean };
  close: () => Promise<void>;
}> {
  const bodies: string[] = [];
  const sockets = new Set<Socket>();
  const hold: { on: boolean; ok?: boolean } = { on: false };
  const server: Server = createServer({ headersTimeout: 0, requestTimeout: 0 }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('latin1')));
    req.on('end', () => {
      bodies.push(body);
      if (hold.on) return;
      if (hold.ok) return void res.writeHead(200).end('{"jsonrpc":"2.0","id":1,"result":{}}');
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"no"}');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    bodies,
    sockets,
    hold,
    close: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => server.close(r));
    },
  };
}

function schedule(over: Partial<AttackSchedule> & { outcomes: AttackOutcome[] }): AttackSchedule {
  const { outcomes, ...rest } = over;
  return {
    ratePerSecond: 200,
    maxRequests: 12,
    durationMs: 2_000,
    signal: new AbortController().signal,
    onOutcome: (o) => outcomes.push(o),
    ...rest,
  };
}

/** Resolves once `done()` holds, checking on every turn of the event loop (no fixed sleep). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setImmediate(r));
}

describe('an attack on 2 worker threads', () => {
  const pool = new LoadWorkerPool(2);
  let server: Awaited<ReturnType<typeof countingServer>>;
  let target: AttackTarget;
  beforeAll(async () => {
    server = await countingServer();
    target = attackTarget({ baseUrl: server.url });
  });
  afterAll(async () => {
    await pool.close();
    await server.close();
  });

  it('sends exactly maxRequests in all, each start once, every outcome back once', async () => {
    server.bodies.length = 0;
    const outcomes: AttackOutcome[] = [];
    const report = await attackOnThreads(pool, 'malformed-json', {}, target, schedule({ outcomes }));
    expect(report).toMatchObject({ started: 12, settled: 12 });
    expect(report.aborted).toBeUndefined();
    expect(server.bodies).toHaveLength(12);
    expect(outcomes).toHaveLength(12);
    expect(outcomes.every((o) => o.kind === 'refused' && o.status === 400)).toBe(true);
    // malformed-json sends its six bodies in turn by start index: each twice means each index once.
    const counts = new Map<string, number>();
    for (const b of server.bodies) counts.set(b, (counts.get(b) ?? 0) + 1);
    expect([...counts.values()]).toEqual([2, 2, 2, 2, 2, 2]);
    // Outcome times are the caller's performance.now() time.
    for (const o of outcomes) expect(Math.abs(o.startedAt - performance.now())).toBeLessThan(60_000);
    expect(report.notes.filter((n) => n.startsWith('attack sockets are capped'))).toHaveLength(1);
  });

  it('splits an odd maxRequests exactly (never over) and opens prompts on the caller', async () => {
    server.bodies.length = 0;
    let opened = 0;
    const withPrompts: AttackTarget = {
      ...target,
      openPrompt: async (): Promise<LivePrompt> => {
        opened++;
        return { taskId: `t${opened}`, promptId: `p${opened}`, responseSchema: undefined, validPayload: { ok: 1 } };
      },
    };
    const outcomes: AttackOutcome[] = [];
    server.hold.ok = true;
    try {
      const report = await attackOnThreads(
        pool,
        'duplicate-answers',
        { prompts: 1 },
        withPrompts,
        schedule({ outcomes, maxRequests: 7 }),
      );
      expect(report).toMatchObject({ started: 7, settled: 7 });
    } finally {
      server.hold.ok = false;
    }
    expect(outcomes).toHaveLength(7);
    // Each thread opens its own prompt (here, on the caller) and answers it once before its share.
    expect(opened).toBe(2);
    expect(server.bodies).toHaveLength(7 + opened);
    expect(server.bodies.every((b) => /"p[12]"/.test(b))).toBe(true);
  });

  it('a misuse is the attack run’s error, as on one thread', async () => {
    await expect(
      attackOnThreads(pool, 'malformed-json', { nope: 1 }, target, schedule({ outcomes: [] })),
    ).rejects.toThrow('attack malformed-json has no param "nope"');
  });

  it('the caller’s abort ends every thread’s held connections', async () => {
    server.hold.on = true;
    try {
      const stop = new AbortController();
      const outcomes: AttackOutcome[] = [];
      const running = attackOnThreads(
        pool,
        'slow-body',
        { holdMs: 600_000 },
        target,
        schedule({ outcomes, maxRequests: 6, signal: stop.signal }),
      );
      await until(() => server.sockets.size >= 6);
      stop.abort(new Error('test abort'));
      const report = await running;
      expect(report).toMatchObject({ started: 6, settled: 6, aborted: 6 });
      await until(() => server.sockets.size === 0);
      expect(pool.busy).toBe(false);
    } finally {
      server.hold.on = false;
    }
  });
});

describe('an attack of a scenario’s own with --workers 2', () => {
  it('runs on this thread, and the log says why, once', async () => {
    const lines: string[] = [];
    const load = new ScenarioLoad({
      workers: 2,
      signal: new AbortController().signal,
      remainingMs: () => 60_000,
      run: undefined,
      traffic: {} as LoadObserver,
      log: (line) => lines.push(line),
      share: undefined,
    });
    let ranHere = 0;
    const own = {
      name: 'my-attack',
      family: 'payloads' as const,
      description: 'a user’s own',
      expected: 'refused',
      defaults: {},
      run: async () => ({ started: ++ranHere, settled: ranHere, notes: [] }),
    };
    const target = attackTarget({ baseUrl: 'http://127.0.0.1:1' });
    for (let i = 0; i < 2; i++)
      await load.attack({ name: 'my-attack', attack: own, params: {}, ratePerSecond: 1, maxRequests: 1 }, target, {
        ...schedule({ outcomes: [] }),
      });
    expect(ranHere).toBe(2);
    expect(lines).toEqual([
      "attack my-attack is not one of the rig's registered attacks (rig/attack/attackRegistry.ts), " +
        'which a worker thread loads by name: it ran on this thread',
    ]);
    await load.close();
  });
});
