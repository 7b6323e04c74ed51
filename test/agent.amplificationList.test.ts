// Issue 9 item 12: ListTasks over big tasks must not amplify a ~200-byte request into hundreds of
// MB. 40 tasks of ~200-900 KB history each, then 16 concurrent ListTasks with no parameters (and 16
// asking for history) against a child agent: the agent stays up, answers its card fast (judged on
// the probes less the time the machine kept the processes off a CPU), keeps RSS bounded, and
// every page is bounded in bytes and carries no history unless asked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAgent, type AgentChild } from './support/agentFixture.ts';
import { judgeResponsiveness, promptingTask, rssMb, watchDuring } from './support/hostileClients.ts';
import { processAlive } from './support/localHost.ts';
import { headersFor } from './support/rpcClient.ts';

const RSS_CEILING_MB = 400;
/** The agent's listMaxBytes (1 MiB) plus the envelope of the page. */
const PAGE_CEILING_BYTES = 1024 * 1024 + 64 * 1024;
const TASKS = 40;

let agent: AgentChild;

beforeAll(async () => {
  agent = await spawnAgent([]);
  // The first message of each task is its history: ~900 KB (more than one task view carries) on
  // half the tasks, ~200 KB (which a view does carry, so pages fill up) on the other half.
  for (let i = 0; i < TASKS; i++) await promptingTask(agent.url, 1, 'h'.repeat(i % 2 === 0 ? 900_000 : 200_000));
}, 180_000);

afterAll(async () => {
  agent?.child.kill('SIGKILL');
  await agent?.exited;
});

/** One ListTasks of ~200 bytes; returns the raw reply (parsed later, so that parsing in this
 * process does not delay the probes it times). */
async function listTasksRaw(params: Record<string, unknown>): Promise<Buffer> {
  const res = await fetch(agent.url, {
    method: 'POST',
    headers: headersFor('1.0'),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params }),
    signal: AbortSignal.timeout(60_000),
  });
  return Buffer.from(await res.arrayBuffer());
}

function parsed(raw: Buffer): { bytes: number; body: any } {
  return { bytes: raw.length, body: JSON.parse(raw.toString('utf8')) };
}

async function listTasks(params: Record<string, unknown>): Promise<{ bytes: number; body: any }> {
  return parsed(await listTasksRaw(params));
}

describe('ListTasks over big tasks (item 12)', () => {
  it.each<[string, { historyLength?: number; pageSize?: number }]>([
    ['no parameters', {}],
    ['historyLength 100, pageSize 1000', { historyLength: 100, pageSize: 1000 }],
  ])(
    '16 concurrent requests with %s: bounded pages, fast card, bounded RSS',
    async (_label, params) => {
      const before = rssMb(agent.pid);
      const raw: Buffer[] = [];
      const attack = Promise.all(Array.from({ length: 16 }, () => listTasksRaw(params).then((r) => raw.push(r))));
      const seen = await watchDuring(agent.url, agent.pid, attack, { tailMs: 500 });
      const replies = raw.map(parsed);
      const largest = Math.max(...replies.map((r) => r.bytes));
      const responsive = judgeResponsiveness(seen.probeList);
      console.log(
        `ListTasks ${_label} x16: RSS ${before.toFixed(0)} MB before, peak ${seen.peakRssMb.toFixed(0)} MB; ` +
          `card probes p90 ${seen.p90ProbeMs.toFixed(1)} ms, worst ${seen.worstProbeMs.toFixed(1)} ms ` +
          `over ${seen.probes} probes; ${responsive.detail}: ${responsive.verdict}; largest reply ${largest} bytes`,
      );
      expect(processAlive(agent.pid)).toBe(true);
      // Held, or not judged where the machine's load hides the answer: never broken.
      expect(responsive.verdict, responsive.detail).not.toBe('broken');
      expect(seen.peakRssMb).toBeLessThan(RSS_CEILING_MB);
      expect(largest).toBeLessThan(PAGE_CEILING_BYTES);
      for (const { body } of replies) {
        expect(body.result.tasks.length).toBeGreaterThan(0);
        expect(body.result.totalSize).toBe(TASKS);
        if (params.historyLength === undefined) for (const t of body.result.tasks) expect(t.history ?? []).toEqual([]);
      }
    },
    120_000,
  );

  it('a page cut short by its byte bound says where the next one starts, and the pages cover every task', async () => {
    const ids = new Set<string>();
    let pageToken = '';
    let pages = 0;
    while (pages++ < TASKS) {
      const { body, bytes } = await listTasks({
        historyLength: 100,
        pageSize: 100,
        ...(pageToken ? { pageToken } : {}),
      });
      expect(bytes).toBeLessThan(PAGE_CEILING_BYTES);
      for (const t of body.result.tasks) ids.add(t.id);
      pageToken = body.result.nextPageToken;
      if (!pageToken) break;
    }
    // 20 views of ~200 KB do not fit one 1 MiB page: it takes more than one.
    expect(pages).toBeGreaterThan(1);
    expect(ids.size).toBe(TASKS);
  }, 60_000);
});
