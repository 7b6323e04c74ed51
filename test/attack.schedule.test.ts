// The attack runner's open model (rig/attack/attackSchedule.ts): it keeps its rate without waiting
// for replies, stops at maxRequests and at durationMs, refuses anything not loopback, caps its
// sockets by the fd limit, and an abort closes every socket at once.
import { execFileSync } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { attackSocketCap, fdSoftLimit, socketBudget } from '../rig/attack/attackLimits.ts';
import { ATTACKS } from '../rig/attack/attackRegistry.ts';
import { runOnSchedule } from '../rig/attack/attackSchedule.ts';
import { attackTarget } from '../rig/attack/attackTarget.ts';
import { UserError } from '../rig/protocol/userError.ts';
import type { AttackOutcome, AttackSchedule } from '../rig/attack/attackTypes.ts';

const servers: Server[] = [];
afterEach(async () => {
  socketBudget.capAt(undefined);
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A TCP server that accepts and never answers, counting the connections open on its side. */
async function silentServer(): Promise<{ url: string; open: () => number; seen: () => number }> {
  const sockets = new Set<Socket>();
  let seen = 0;
  const server = createServer((s) => {
    seen++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  const origClose = server.close.bind(server);
  server.close = ((cb?: (err?: Error) => void) => {
    sockets.forEach((s) => s.destroy());
    return origClose(cb);
  }) as typeof server.close;
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    open: () => sockets.size,
    seen: () => seen,
  };
}

function schedule(overrides: Partial<AttackSchedule>, outcomes: AttackOutcome[] = []): AttackSchedule {
  return {
    ratePerSecond: 10,
    maxRequests: 10,
    durationMs: 1000,
    signal: new AbortController().signal,
    onOutcome: (o) => outcomes.push(o),
    ...overrides,
  };
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const target = attackTarget({ baseUrl: 'http://127.0.0.1:9' });
const done = (i: number): Promise<AttackOutcome> =>
  Promise.resolve({ startedAt: performance.now(), latencyMs: 0, kind: 'accepted', detail: String(i) });

describe('attack schedule', () => {
  it(
    'keeps its rate on an absolute schedule without waiting for replies, ' + 'and starts nothing after the duration',
    async () => {
      const startsAt: number[] = [];
      const t0 = performance.now();
      // Each start "replies" only after 5 s: an open model does not care.
      const pending: Array<() => void> = [];
      const run = runOnSchedule(target, schedule({ ratePerSecond: 50, maxRequests: 10_000, durationMs: 1000 }), (i) => {
        startsAt.push(performance.now() - t0);
        return new Promise((resolve) =>
          pending.push(() => resolve({ startedAt: 0, latencyMs: 0, kind: 'accepted', detail: String(i) })),
        );
      });
      await until(() => performance.now() - t0 > 1100, 3000);
      const startedBeforeReplies = startsAt.length;
      pending.forEach((r) => r());
      const report = await run;
      expect(startedBeforeReplies).toBeGreaterThanOrEqual(40);
      expect(startedBeforeReplies).toBeLessThanOrEqual(50);
      expect(report).toMatchObject({ started: startedBeforeReplies, settled: startedBeforeReplies });
      expect(Math.max(...startsAt)).toBeLessThan(1000 + 50);
    },
  );

  it('stops at maxRequests', async () => {
    const outcomes: AttackOutcome[] = [];
    const report = await runOnSchedule(
      target,
      schedule({ ratePerSecond: 1000, maxRequests: 7, durationMs: 5000 }, outcomes),
      done,
    );
    expect(report.started).toBe(7);
    expect(outcomes).toHaveLength(7);
  });

  it('refuses a target or source that is not loopback, before anything starts', async () => {
    expect(() => attackTarget({ baseUrl: 'http://10.0.0.1:80' })).toThrow(/not a loopback IP address/);
    expect(() => attackTarget({ baseUrl: 'http://10.0.0.1:80' })).toThrow(UserError);
    expect(attackTarget({ baseUrl: 'http://localhost:80' }).baseUrl.hostname).toBe('127.0.0.1');
    await expect(
      runOnSchedule({ ...target, baseUrl: new URL('http://localhost:80') }, schedule({}), done),
    ).rejects.toThrow(/not a loopback IP address/);
    expect(() => attackTarget({ baseUrl: 'http://127.0.0.1:80', sourceAddress: '192.168.1.2' })).toThrow(
      /source address .* not a loopback/,
    );
    expect(() => attackTarget({ baseUrl: 'http://127.0.0.1:80', sourceAddress: '::1' })).toThrow(/same IP family/);
    expect(attackTarget({ baseUrl: 'http://[::1]:80' }).sourceAddress).toBe('::1');
    let started = 0;
    const far = { ...target, baseUrl: new URL('http://93.184.216.34/') };
    await expect(runOnSchedule(far, schedule({}), (i) => (started++, done(i)))).rejects.toThrow(/not a loopback/);
    await expect(
      ATTACKS['idle-connections'].run({ ...target, sourceAddress: '10.1.1.1' }, {}, schedule({})),
    ).rejects.toThrow(/not a loopback/);
    expect(started).toBe(0);
  });

  it('an abort ends every open connection at once and no socket stays open', async () => {
    const server = await silentServer();
    const t = attackTarget({ baseUrl: server.url });
    const controller = new AbortController();
    const outcomes: AttackOutcome[] = [];
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const run = ATTACKS['idle-connections'].run(
      t,
      { holdMs: 60_000 },
      schedule({ ratePerSecond: 200, maxRequests: 40, durationMs: 10_000, signal: controller.signal }, outcomes),
    );
    await until(() => server.open() >= 10, 5000);
    const abortedAt = performance.now();
    controller.abort();
    const report = await run;
    expect(performance.now() - abortedAt).toBeLessThan(1000);
    expect(report.aborted).toBe(report.started);
    expect(report.settled).toBe(report.started);
    expect(outcomes).toHaveLength(0);
    expect(socketBudget.open).toBe(0);
    await until(() => server.open() === 0, 2000);
    process.off('warning', onWarning);
    // Tens of open exchanges wait on one abort: no listener-leak warning for the caller's signal.
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('caps open sockets by the fd soft limit and says so', async () => {
    const soft = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim());
    if (Number.isFinite(soft)) expect(fdSoftLimit()).toBe(soft);
    expect(attackSocketCap()).toBeLessThanOrEqual(fdSoftLimit() / 2);
    expect(attackSocketCap()).toBeGreaterThanOrEqual(16);
    const server = await silentServer();
    socketBudget.capAt(3);
    const outcomes: AttackOutcome[] = [];
    const report = await ATTACKS['idle-connections'].run(
      attackTarget({ baseUrl: server.url }),
      { holdMs: 300 },
      schedule({ ratePerSecond: 1000, maxRequests: 8, durationMs: 1000 }, outcomes),
    );
    expect(outcomes.filter((o) => o.kind === 'connect-failed')).toHaveLength(5);
    expect(outcomes.filter((o) => o.kind === 'held')).toHaveLength(3);
    expect(server.seen()).toBe(3);
    expect(report.notes.join('\n')).toMatch(/capped at 3 .*\n.*5 starts found the socket cap reached/);
  });

  it("checks params against each attack's bounds in one line, and takes numbers written as text", async () => {
    const run = (params: Record<string, unknown>) =>
      ATTACKS['idle-connections'].run(target, params as never, schedule({ maxRequests: 0 }));
    await expect(run({ holdMs: -1 })).rejects.toThrow(
      /^attack idle-connections: param holdMs must be a number from 1 to 600000, not -1$/,
    );
    await expect(run({ holdMs: -1 })).rejects.toBeInstanceOf(UserError);
    await expect(run({ nope: 1 })).rejects.toThrow(/has no param "nope" \(it has holdMs\)/);
    await expect(run({ holdMs: '250' })).resolves.toMatchObject({ started: 0 });
    await expect(runOnSchedule(target, schedule({ ratePerSecond: 0 }), done)).rejects.toThrow(
      /rate must be a positive number/,
    );
  });

  it('every attack has its fixed name, a family and an expected line', () => {
    expect(Object.keys(ATTACKS).sort()).toEqual([
      'bad-utf8',
      'deep-answer',
      'duplicate-answers',
      'huge-headers',
      'idle-connections',
      'malformed-json',
      'oversized-answer',
      'pattern-backtracking',
      'slow-body',
      'slowloris',
      'unknown-prompt',
      'unread-replay',
      'unread-streams',
    ]);
    for (const [name, a] of Object.entries(ATTACKS)) {
      expect(a.name).toBe(name);
      expect(a.expected.length).toBeGreaterThan(10);
    }
  });
});
