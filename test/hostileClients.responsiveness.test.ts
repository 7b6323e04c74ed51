// How the amplification tests judge "the agent answers its card fast while attacked"
// (test/support/hostileClients.ts judgeResponsiveness): a neighbour's load, which shows as time the
// processes waited for a CPU, may leave it not judged but never broken; a loop that is blocked (its
// own CPU, not a wait) is broken on a quiet machine and a busy one alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonLineChild, type JsonLineChild } from '../rig/engine/jsonLineChild.ts';
import { judgeResponsiveness, watchDuring, type Probe } from './support/hostileClients.ts';

const probes = (n: number, of: (i: number) => Probe) => Array.from({ length: n }, (_, i) => of(i));

describe('judgeResponsiveness', () => {
  it('holds for a quiet correct agent: 40 probes of a few ms', () => {
    const quiet = probes(40, (i) => ({ wallMs: 2 + (i % 5), agentWaitMs: 0, ownWaitMs: 0 }));
    expect(judgeResponsiveness(quiet).verdict).toBe('holds');
  });

  it('never broken for a correct agent on a loaded machine: slow probes that were CPU waits', () => {
    // Every probe 150-400 ms, of which all but a few ms the two processes waited for a CPU: the
    // old rule (p90 of the wall times under 100 ms) failed this agent.
    const loaded = probes(40, (i) => {
      const wallMs = 150 + ((i * 37) % 250);
      return { wallMs, agentWaitMs: wallMs * 0.7, ownWaitMs: wallMs * 0.3 - 3 };
    });
    expect(judgeResponsiveness(loaded).verdict).not.toBe('broken');
  });

  it('broken for a blocked loop: probes slow with no CPU wait, or one past the stall bar', () => {
    const blocked = probes(40, (i) => ({ wallMs: 300 + (i % 7) * 20, agentWaitMs: 1, ownWaitMs: 1 }));
    expect(judgeResponsiveness(blocked).verdict).toBe('broken');
    const oneStall = probes(40, (i) => ({ wallMs: i === 20 ? 700 : 3, agentWaitMs: 0, ownWaitMs: 0 }));
    expect(judgeResponsiveness(oneStall).verdict).toBe('broken');
  });

  it('not judged when the sample cannot say, or the kernel gives no CPU waits', () => {
    const few = probes(10, () => ({ wallMs: 3, agentWaitMs: 0, ownWaitMs: 0 }));
    expect(judgeResponsiveness(few).verdict).toBe('not judged');
    const unknown = probes(40, () => ({ wallMs: 300, agentWaitMs: NaN, ownWaitMs: NaN }));
    expect(judgeResponsiveness(unknown).verdict).toBe('not judged');
  });
});

/**
 * A card server whose loop, while `stall` is set, blocks for 800 ms of its own CPU time every 100 ms
 * (CPU time, so a busy machine lengthens the stall's wall time without shortening its work).
 */
const SERVER = `
const http = require('node:http');
const stall = process.argv[1] === 'stall';
const server = http.createServer((_req, res) => res.end('{}'));
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port, pid: process.pid }));
  const block = () => { const t = process.cpuUsage().user; while (process.cpuUsage().user - t < 800e3); };
  if (stall) setInterval(block, 100);
});`;

async function cardServer(mode: 'stall' | 'quick') {
  return startJsonLineChild<{ url: string; pid: number }>(process.execPath, ['-e', SERVER, mode], {
    name: `a ${mode} card server`,
    timeoutMs: 15_000,
  });
}

describe('judgeResponsiveness on real probes', () => {
  const servers: JsonLineChild<{ url: string; pid: number }>[] = [];
  beforeAll(async () => {
    servers.push(await cardServer('stall'), await cardServer('quick'));
  });
  afterAll(async () => {
    for (const s of servers) await s.stop(2_000);
  });

  it('a loop blocked for 800 ms of CPU at a time is broken; a quick one is not', { timeout: 60_000 }, async () => {
    const window = () => new Promise((r) => setTimeout(r, 1_500));
    const [stalled, quick] = servers.map((s) => s.info);
    const blocked = judgeResponsiveness(
      (await watchDuring(stalled!.url, stalled!.pid, window(), { tailMs: 0 })).probeList,
    );
    console.log(`stalled: ${blocked.detail}`);
    expect(blocked.verdict, blocked.detail).toBe('broken');
    const fine = judgeResponsiveness((await watchDuring(quick!.url, quick!.pid, window(), { tailMs: 0 })).probeList);
    expect(fine.verdict, fine.detail).not.toBe('broken');
  });
});
