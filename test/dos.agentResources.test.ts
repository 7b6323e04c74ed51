// The agent-resource sampler (rig/engine/dos/agentResources.ts): /proc parsing on a fake /proc tree
// (a command name with spaces and parentheses, sockets among other fds), Prometheus text from a
// local /metrics (prefixed names, labels, comments), CPU % from consecutive samples, the source
// choice and its reasons; and the attack target's loopback rule (rig/engine/dos/loopbackTarget.ts).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cpuSecondsFromStat,
  metricsSource,
  parsePrometheusResources,
  procSource,
  ResourceSampler,
  resourceSource,
  rssBytesFromStatus,
} from '../rig/engine/dos/agentResources.ts';
import { attackTargetOf, isLoopbackHost } from '../rig/engine/dos/loopbackTarget.ts';
import { freePort } from './support/localHost.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

// utime 250 ticks, stime 50 ticks → 3 s; the command holds ") " to trip a naive split.
const STAT = '4242 (node (a) b) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 50 0 0 20 0 11 0 100 1000000 5000';

function fakeProc(pid: number): string {
  const root = mkdtempSync(join(tmpdir(), 'fake-proc-'));
  dirs.push(root);
  mkdirSync(join(root, String(pid), 'fd'), { recursive: true });
  writeFileSync(join(root, String(pid), 'status'), 'Name:\tnode\nVmPeak:\t  999 kB\nVmRSS:\t  2048 kB\nThreads: 11\n');
  writeFileSync(join(root, String(pid), 'stat'), STAT);
  symlinkSync('socket:[100]', join(root, String(pid), 'fd', '3'));
  symlinkSync('socket:[101]', join(root, String(pid), 'fd', '4'));
  symlinkSync('/tmp/outbox.db', join(root, String(pid), 'fd', '5'));
  symlinkSync('pipe:[7]', join(root, String(pid), 'fd', '6'));
  return root;
}

describe('agent resources', () => {
  it('reads RSS, CPU seconds and sockets from /proc/<pid>', async () => {
    expect(cpuSecondsFromStat(STAT)).toBe(3);
    expect(rssBytesFromStatus('VmRSS:\t  2048 kB\n')).toBe(2048 * 1024);
    const sample = await procSource(4242, fakeProc(4242)).sample(new AbortController().signal);
    expect(sample).toMatchObject({ rssBytes: 2048 * 1024, cpuSeconds: 3, connections: 2 });
  });

  it('reads the process metrics and the open-connections gauge from Prometheus text, whatever the prefix', () => {
    const text = [
      '# HELP a2a_agent_process_resident_memory_bytes Resident memory size in bytes.',
      '# TYPE a2a_agent_process_resident_memory_bytes gauge',
      'a2a_agent_process_resident_memory_bytes 104857600',
      'process_cpu_seconds_total 12.5',
      'a2a_agent_open_connections{client="127.0.0.1"} 3',
      'a2a_agent_open_connections{client="127.0.0.2"} 512',
      'a2a_agent_process_resident_memory_bytes_other 1',
    ].join('\n');
    expect(parsePrometheusResources(text, 1)).toEqual({
      at: 1,
      rssBytes: 104857600,
      cpuSeconds: 12.5,
      connections: 515,
    });
    expect(parsePrometheusResources('# nothing\n', 1)).toEqual({
      at: 1,
      rssBytes: undefined,
      cpuSeconds: undefined,
      connections: undefined,
    });
  });

  it('turns consecutive CPU seconds into a CPU %, and RSS into MB', () => {
    const sampler = new ResourceSampler({ label: 'x', sample: async () => ({ at: 0 }) }, 250);
    sampler.add({ at: 1_000, cpuSeconds: 10, rssBytes: 100 * 1024 * 1024 });
    sampler.add({ at: 1_500, cpuSeconds: 10.25, rssBytes: 101 * 1024 * 1024, connections: 7 });
    expect(sampler.points).toEqual([
      { at: 1_000, rssMb: 100 },
      { at: 1_500, rssMb: 101, cpuPct: 50, connections: 7 },
    ]);
  });

  it('samples a remote agent through its /metrics, and says why when it cannot', async () => {
    const port = await freePort();
    let body = 'process_resident_memory_bytes 2097152\nprocess_cpu_seconds_total 1\n';
    const server = createServer((req, res) =>
      req.url === '/metrics' ? res.end(body) : ((res.statusCode = 404), res.end()),
    );
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    try {
      const signal = new AbortController().signal;
      const url = `http://127.0.0.1:${port}/metrics`;
      expect((await metricsSource(url).sample(signal)).rssBytes).toBe(2097152);
      const chosen = await resourceSource({ metricsUrl: url, signal });
      expect('label' in chosen && chosen.label).toBe(url);
      // A pid that cannot be read falls back to /metrics.
      expect('label' in (await resourceSource({ pid: 2 ** 30, metricsUrl: url, signal }))).toBe(true);
      body = 'http_requests_total 5\n';
      expect(await resourceSource({ metricsUrl: url, signal })).toEqual({
        unavailable: expect.stringContaining('has no process_resident_memory_bytes'),
      });
      expect(await resourceSource({ metricsUrl: `http://127.0.0.1:${port}/nothing`, signal })).toEqual({
        unavailable: expect.stringContaining('HTTP 404'),
      });
      expect(await resourceSource({ signal })).toEqual({ unavailable: expect.stringContaining('not a local process') });
      const sampler = new ResourceSampler(metricsSource(url.replace('/metrics', '/gone')), 20);
      sampler.start();
      await new Promise((r) => setTimeout(r, 100));
      await sampler.stop();
      expect(sampler.points).toEqual([]);
      expect(sampler.failures).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });

  it('aims attacks at loopback only, with the A2A headers of the generation', () => {
    expect(['127.0.0.1', '127.0.0.2', 'localhost', '[::1]', '::1'].every(isLoopbackHost)).toBe(true);
    expect(['10.0.0.1', 'example.com', '127.0.0.1.example.com', '0.0.0.0'].some(isLoopbackHost)).toBe(false);
    const base = {
      directUrl: 'http://127.0.0.1:4000',
      directRpcUrl: 'http://127.0.0.1:4000/',
      generation: '1.0' as const,
      binding: 'JSONRPC' as const,
      hitlDeclared: true,
      sourceAddress: '127.0.0.2',
    };
    const target = attackTargetOf(base);
    expect(target).toMatchObject({ binding: 'JSONRPC', generation: '1.0', sourceAddress: '127.0.0.2' });
    expect(
      Object.fromEntries(
        Object.entries('headers' in target ? target.headers : {}).map(([k, v]) => [k.toLowerCase(), v]),
      ),
    ).toMatchObject({ 'a2a-version': '1.0' });
    expect(Object.keys('headers' in target ? target.headers : {}).map((k) => k.toLowerCase())).toContain(
      'a2a-extensions',
    );
    expect(attackTargetOf({ ...base, directUrl: 'http://10.1.2.3:4000' })).toEqual({
      refused: expect.stringContaining('not a loopback address'),
    });
    expect(attackTargetOf({ ...base, sourceAddress: '192.168.1.5' })).toEqual({
      refused: expect.stringContaining('192.168.1.5'),
    });
  });
});
