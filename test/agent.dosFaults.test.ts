// Issue 14 item 4: each DoS mitigation of the reference agent holds, and each DoS fault flag removes
// exactly its one mitigation: against an agent started with the flag, that mitigation's check finds
// the guarantee broken and every other check still finds its own holding.
import { describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_LIMITS, withoutStreamBounds } from '../rig/agent/agentLimits.ts';
import { StreamQuota } from '../rig/agent/streamQuota.ts';
import { DOS_FAULTS, FAULTS, type DosFaultName, type FaultName } from '../rig/agent/faults.ts';
import { startAgent } from '../rig/agent/startAgent.ts';
import { tempDbPath } from './support/inProcessAgent.ts';
import {
  DOS_CHECK_OPTIONS,
  bodyLimit,
  connectionBounds,
  headerLimit,
  linearPatterns,
  parseErrors,
  requestTimeouts,
  streamBounds,
  type Check,
} from './support/dosChecks.ts';

/** The mitigation each flag removes. */
const CHECK_OF: Record<DosFaultName, Check> = {
  'no-body-limit': bodyLimit,
  'backtracking-patterns': linearPatterns,
  'parse-errors-500': parseErrors,
  'no-header-limit': headerLimit,
  'no-request-timeouts': requestTimeouts,
  'no-connection-limit': connectionBounds,
  'unbounded-streams': streamBounds,
};

/** Every check against a fresh agent with `faults`: the broken guarantees by the flag of their check. */
async function brokenWith(faults: FaultName[]): Promise<Partial<Record<DosFaultName, string>>> {
  const db = tempDbPath();
  const agent = await startAgent({ dbPath: db.path, faults, ...DOS_CHECK_OPTIONS });
  const broken: Partial<Record<DosFaultName, string>> = {};
  try {
    // One at a time: the backtracking check holds the event loop for seconds when it fails, which
    // would make a timing check beside it fail for a reason of its own.
    for (const [flag, check] of Object.entries(CHECK_OF) as Array<[DosFaultName, Check]>) {
      const verdict = await check(agent.url);
      if (verdict !== undefined) broken[flag] = verdict;
    }
  } finally {
    await agent.close();
    db.cleanup();
  }
  return broken;
}

describe('DoS mitigations and the fault flags that remove them', () => {
  it('a check for every DoS flag in faults.ts', () => {
    expect(Object.keys(CHECK_OF).sort()).toEqual([...DOS_FAULTS].sort());
  });

  it('unbounded-streams lifts the per-reader buffer bound too (not observable from outside: unit)', () => {
    expect(new StreamQuota(DEFAULT_AGENT_LIMITS).bufferBound()).toBe(DEFAULT_AGENT_LIMITS.maxStreamBufferBytes);
    const quota = new StreamQuota(
      withoutStreamBounds({ ...DEFAULT_AGENT_LIMITS, maxStreamsTotal: 1, maxStreamBufferBytes: 10 }),
    );
    for (let i = 0; i < 100; i++) quota.acquire('t');
    expect(quota.bufferBound()).toBe(Infinity);
  });

  it('the correct agent: every mitigation holds', async () => {
    expect(await brokenWith([])).toEqual({});
  }, 30_000);

  for (const flag of DOS_FAULTS) {
    it(`${flag}: ${FAULTS[flag]} (and nothing else)`, async () => {
      const broken = await brokenWith([flag]);
      expect(Object.keys(broken)).toEqual([flag]);
    }, 30_000);
  }
});
