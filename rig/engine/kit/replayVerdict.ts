// Gathers what the replay checker compares for a task: the agent's full replay from since=0, read
// straight from the agent (no toxic in the way) until it reaches the highest seq the rig has seen,
// and the rig's stitched history of that task; then runs the checker.
import type { A2AClient, EventHistory, ReplaySocket } from '../../client/index.ts';
import { checkReplay, type ReplayedEvent, type ReplayFinding } from './replayChecker.ts';

const FULL_REPLAY_WAIT_MS = 2_000;

export async function fullReplay(
  direct: A2AClient,
  history: EventHistory,
  taskId: string,
  signal?: AbortSignal,
): Promise<ReplayedEvent[]> {
  const seenMax = Math.max(0, ...history.entries({ taskId }).map((e) => e.seq ?? 0));
  const socket: ReplaySocket = await direct.replay(taskId, { since: 0 });
  try {
    if (seenMax > 0) {
      await Promise.race([
        socket.waitFor((e) => (e.seq ?? 0) >= seenMax, FULL_REPLAY_WAIT_MS).catch(() => undefined),
        socket.ended,
        new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true })),
      ]);
    } else {
      await socket.waitFor(() => true, FULL_REPLAY_WAIT_MS).catch(() => undefined);
    }
    return socket.events
      .filter((e) => e.seq !== undefined)
      .map((e) => ({ seq: e.seq!, eventId: e.eventId ?? '', event: e.event }));
  } finally {
    await socket.close();
  }
}

/** Findings for one task, comparing the rig's history with the agent's full replay. */
export async function replayFindings(
  direct: A2AClient,
  history: EventHistory,
  taskId: string,
  signal?: AbortSignal,
): Promise<ReplayFinding[]> {
  const full = await fullReplay(direct, history, taskId, signal);
  const seen = history
    .entries({ taskId })
    .filter((e) => e.kind !== 'response')
    .map((e) => ({ connectionId: e.connectionId, kind: e.kind, seq: e.seq, eventId: e.eventId, event: e.event }));
  return checkReplay({ taskId, fullReplay: full, seen, replayCursors: history.replayCursors(taskId) });
}

/** Each kind of finding the replay checker reports, with the check a scenario records for it. */
const REPLAY_CHECKS: Array<[ReplayFinding['check'], string]> = [
  ['full-replay-contiguous', 'the full replay is gap-free and ordered from seq 1'],
  ['connection-contiguous', 'every replay connection delivers seq since+1, since+2, ... (no gap, no repeat, in order)'],
  ['seen-matches-replay', 'every event seen equals the stored event at its seq'],
  ['coverage', 'the events seen across reconnects cover every seq'],
  ['envelope-identical', 'every sighting of a prompt carries the same response_schema'],
];

/** One check per kind of finding over `tasks` tasks, named under `label`: passed when that kind has none. */
export function replayChecks(
  findings: ReplayFinding[],
  tasks: number,
  label: string,
): Array<{ name: string; ok: boolean; detail: string }> {
  return REPLAY_CHECKS.map(([kind, name]) => {
    const hits = findings.filter((f) => f.check === kind);
    return {
      name: `${label}: ${name}`,
      ok: hits.length === 0,
      detail: hits.length ? `${hits.length} finding(s), first: ${hits[0].detail}` : `${tasks} task(s)`,
    };
  });
}
