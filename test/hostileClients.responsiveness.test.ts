// How the amplification tests judge "the agent answers its card fast while attacked"
// (test/support/hostileClients.ts judgeResponsiveness): each probe is read as the time the agent's
// loop ran on a CPU while the probe was out, which a neighbour's load stretches in wall time but does
// not add to. A loop that answers only after its own long work is broken on a quiet machine and a
// busy one alike; slow probes the loop did not cause are not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonLineChild, type JsonLineChild } from '../rig/engine/environment/jsonLineChild.ts';
import { judgeResponsiveness, watchDuring, type Probe } from './support/hostileClients.ts';

const probes = (n: number, of: (i: number) => Probe) => Array.from({ length: n }, (_, i) => of(i));

describe('judgeResponsiveness', () => {
  it('holds for a quiet correct agent: 40 probes of a few ms', () => {
    const quiet = probes(40, (i) => ({ wallMs: 3 + (i % 5), agentRunMs: 1 + (i % 5) }));
    expect(judgeResponsiveness(quiet).verdict).toBe('holds');
  });

  it('never broken for a correct agent on a loaded machine: slow probes, little of them its own work', () => {
    // Every probe 150-400 ms of wall time (the old rule, p90 of the wall times under 100 ms, failed
    // this agent), of which the loop ran a few ms.
    const loaded = probes(40, (i) => ({ wallMs: 150 + ((i * 37) % 250), agentRunMs: 2 + (i % 9) }));
    expect(judgeResponsiveness(loaded).verdict).toBe('holds');
  });

  it('broken when the loop ran long before answering, or once past the stall bar', () => {
    const blocked = probes(40, (i) => ({ wallMs: 900, agentRunMs: 300 + (i % 7) * 20 }));
    expect(judgeResponsiveness(blocked).verdict).toBe('broken');
    const oneStall = probes(40, (i) => ({ wallMs: 3, agentRunMs: i === 20 ? 700 : 2 }));
    expect(judgeResponsiveness(oneStall).verdict).toBe('broken');
  });

  it('not judged when the sample cannot say, or the kernel gives no run times', () => {
    const few = probes(10, () => ({ wallMs: 3, agentRunMs: 2 }));
    expect(judgeResponsiveness(few).verdict).toBe('not judged');
    const unknown = probes(40, () => ({ wallMs: 300, agentRunMs: NaN }));
    expect(judgeResponsiveness(unknown).verdict).toBe('not judged');
  });
});

/**
 * A card server that, in `stall` mode, spins 600 ms of its own CPU time before each answer (CPU time,
 * so a busy machine lengthens the stall's wall time without changing its work), as the list and
 * stream amplifications did before their fixes.
 */
const SERVER = `
const http = require('node:http');
const stall = process.argv[1] === 'stall';
const spin = () => { const t = process.cpuUsage().user; while (process.cpuUsage().user - t < 600e3); };
const server = http.createServer((_req, res) => { if (stall) spin(); res.end('{}'); });
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port, pid: process.pid }));
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

  it('a loop that spins 600 ms before each answer is broken; a quick one is not', { timeout: 60_000 }, async () => {
    const window = () => new Promise((r) => setTimeout(r, 1_000));
    const [stalled, quick] = servers.map((s) => s.info);
    const blocked = judgeResponsiveness(
      (await watchDuring(stalled!.url, stalled!.pid, window(), { tailMs: 0 })).probeList,
    );
    expect(blocked.verdict, blocked.detail).toBe('broken');
    const fine = judgeResponsiveness((await watchDuring(quick!.url, quick!.pid, window(), { tailMs: 0 })).probeList);
    expect(fine.verdict, fine.detail).not.toBe('broken');
  });
});
