// The replay-correctness verdict for one task. It compares what the rig saw, stitched across every
// connection (SSE streams, replay sockets), with the agent's own full replay from since=0, and
// reports findings instead of booleans so a failure says exactly which seq went wrong.
//   - the full replay is gap-free, duplicate-free and ascending from seq 1;
//   - every replay connection delivers seq since+1, since+2, ... without a hole or a repeat;
//   - every event the rig saw with a seq is, byte for byte, the event the full replay holds there;
//   - the seqs seen across connections cover 1..N (a reconnecting client lost nothing);
//   - every sighting of a prompt carries the same response_schema (prompt_id correlation, AC-6).
import { isDeepStrictEqual } from 'node:util';
import type { StreamResponse } from '../../protocol/a2aTypes.ts';
import { HITL_PROMPT_URI } from '../../protocol/hitlPrompt.ts';

export interface ReplayedEvent {
  seq: number;
  eventId: string;
  event: StreamResponse;
}

export interface SeenEvent {
  connectionId: string;
  kind: 'sse' | 'replay' | 'response';
  seq: number | undefined;
  eventId: string | undefined;
  event: StreamResponse;
}

export interface ReplayFinding {
  check: 'full-replay-contiguous' | 'connection-contiguous' | 'seen-matches-replay' | 'coverage' | 'envelope-identical';
  detail: string;
}

/** The envelope a status event carries, if any. */
export function envelopeIn(event: StreamResponse): { prompt_id: string; response_schema: unknown } | undefined {
  const message =
    'statusUpdate' in event
      ? event.statusUpdate.status.message
      : 'task' in event
        ? event.task.status.message
        : undefined;
  const envelope = message?.metadata?.[HITL_PROMPT_URI] as
    { prompt_id?: unknown; response_schema?: unknown } | undefined;
  if (!envelope || typeof envelope.prompt_id !== 'string') return undefined;
  return { prompt_id: envelope.prompt_id, response_schema: envelope.response_schema };
}

export interface ReplayCheckInput {
  taskId: string;
  /** The agent's replay from since=0, in the order received. */
  fullReplay: ReplayedEvent[];
  /** Every event the rig saw for this task, in receive order. */
  seen: SeenEvent[];
  /** For each replay connection of this task: the cursor it asked for. */
  replayCursors: Map<string, number>;
}

/** The full replay holds seq 1, 2, 3, ... in order: one finding per position that does not. */
function fullReplayGaps(taskId: string, fullReplay: readonly ReplayedEvent[]): ReplayFinding[] {
  return fullReplay.flatMap((e, i) =>
    e.seq === i + 1
      ? []
      : [
          {
            check: 'full-replay-contiguous',
            detail: `task ${taskId}: full replay position ${i + 1} holds seq ${e.seq}`,
          },
        ],
  );
}

/**
 * Each connection's seqs run on without a hole or a repeat, from its cursor + 1 (a replay) or from its
 * first seq (a stream).
 */
function connectionGaps(taskId: string, seen: readonly SeenEvent[], cursors: Map<string, number>): ReplayFinding[] {
  const findings: ReplayFinding[] = [];
  const perConnection = new Map<string, SeenEvent[]>();
  for (const s of seen) {
    if (s.seq === undefined) continue;
    let list = perConnection.get(s.connectionId);
    if (!list) perConnection.set(s.connectionId, (list = []));
    list.push(s);
  }
  for (const [connectionId, events] of perConnection) {
    const cursor = cursors.get(connectionId);
    let expected = cursor === undefined ? events[0].seq! : cursor + 1;
    for (const e of events) {
      if (e.seq === expected) {
        expected += 1;
        continue;
      }
      const what =
        e.seq! < expected ? 'a repeat or out-of-order event' : `a gap (seq ${expected}..${e.seq! - 1} missing)`;
      findings.push({
        check: 'connection-contiguous',
        detail: `task ${taskId}, ${connectionId}: expected seq ${expected}, got ${e.seq}: ${what}`,
      });
      expected = Math.max(expected, e.seq! + 1);
    }
  }
  return findings;
}

/** An event the rig saw with a seq is the one the full replay holds there (a replay's event id too). */
function seenMismatch(taskId: string, s: SeenEvent, bySeq: Map<number, ReplayedEvent>): ReplayFinding[] {
  if (s.seq === undefined) return [];
  const stored = bySeq.get(s.seq);
  if (!stored)
    return [
      {
        check: 'seen-matches-replay',
        detail: `task ${taskId}: ${s.connectionId} saw seq ${s.seq}, which the full replay lacks`,
      },
    ];
  const idDiffers = s.eventId !== undefined && s.eventId !== stored.eventId && s.kind === 'replay';
  if (!idDiffers && isDeepStrictEqual(s.event, stored.event)) return [];
  return [
    {
      check: 'seen-matches-replay',
      detail: `task ${taskId}: seq ${s.seq} on ${s.connectionId} differs from the full replay`,
    },
  ];
}

/** A prompt seen again with another response_schema than its first sighting (`schemas` keeps the first). */
function envelopeDrift(taskId: string, event: StreamResponse, schemas: Map<string, unknown>): ReplayFinding[] {
  const envelope = envelopeIn(event);
  if (!envelope) return [];
  if (!schemas.has(envelope.prompt_id)) {
    schemas.set(envelope.prompt_id, envelope.response_schema);
    return [];
  }
  if (isDeepStrictEqual(schemas.get(envelope.prompt_id), envelope.response_schema)) return [];
  return [
    {
      check: 'envelope-identical',
      detail: `task ${taskId}: prompt ${envelope.prompt_id} arrived with two different response_schemas`,
    },
  ];
}

/** A replayed prompt whose response_schema differs from the one first seen live. */
function replayedEnvelopeDrift(
  taskId: string,
  fullReplay: readonly ReplayedEvent[],
  schemas: Map<string, unknown>,
): ReplayFinding[] {
  return fullReplay.flatMap((e): ReplayFinding[] => {
    const envelope = envelopeIn(e.event);
    if (
      !envelope ||
      !schemas.has(envelope.prompt_id) ||
      isDeepStrictEqual(schemas.get(envelope.prompt_id), envelope.response_schema)
    )
      return [];
    return [
      {
        check: 'envelope-identical',
        detail: `task ${taskId}: replayed prompt ${envelope.prompt_id} has a different response_schema than first seen`,
      },
    ];
  });
}

/** The first seq up to the replay's last that no connection delivered, if any. */
function coverageGap(taskId: string, seen: readonly SeenEvent[], lastSeq: number): ReplayFinding[] {
  const covered = new Set(seen.flatMap((s) => (s.seq === undefined ? [] : [s.seq])));
  const firstSeen = covered.size === 0 ? 1 : Math.min(...covered);
  for (let seq = Math.min(firstSeen, 1); seq <= lastSeq; seq++) {
    if (!covered.has(seq))
      return [{ check: 'coverage', detail: `task ${taskId}: seq ${seq} of ${lastSeq} was never delivered to the rig` }];
  }
  return [];
}

export function checkReplay(input: ReplayCheckInput): ReplayFinding[] {
  const { fullReplay, seen, taskId } = input;
  const bySeq = new Map(fullReplay.map((e) => [e.seq, e]));
  const lastSeq = fullReplay.length === 0 ? 0 : Math.max(...fullReplay.map((e) => e.seq));
  // The first response_schema each prompt was seen with, filled in receive order.
  const schemas = new Map<string, unknown>();
  return [
    ...fullReplayGaps(taskId, fullReplay),
    ...connectionGaps(taskId, seen, input.replayCursors),
    // Per event in receive order, as a reader of the findings follows the stream.
    ...seen.flatMap((s) => [...seenMismatch(taskId, s, bySeq), ...envelopeDrift(taskId, s.event, schemas)]),
    ...replayedEnvelopeDrift(taskId, fullReplay, schemas),
    ...coverageGap(taskId, seen, lastSeq),
  ];
}
