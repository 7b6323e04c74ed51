// Every attack by its fixed name (issue 14). The engine imports only this module and attackTypes.ts:
//   const target = attackTarget({ baseUrl, endpoint, binding, generation, openPrompt });  // loopback only
//   const schedule = { ratePerSecond, maxRequests, durationMs, signal, onOutcome };
//   const report = await ATTACKS['slowloris'].run(target, { holdMs: 20_000 }, schedule);
// run() merges the params over the attack's `defaults` (numbers, or numbers written as text),
// throws one line for a misuse (unknown param, out of bounds, non-loopback target or source), and
// resolves once every start settled: within durationMs plus the attack's hold bound, or at once
// after the abort. The report's notes say what could not be aimed and the socket cap.
import type { Attack } from './attackTypes.ts';
import type { NumericParams } from './defineAttack.ts';
import { badUtf8 } from './attacks/badUtf8.ts';
import { deepAnswer } from './attacks/deepAnswer.ts';
import { duplicateAnswers } from './attacks/duplicateAnswers.ts';
import { hugeHeaders } from './attacks/hugeHeaders.ts';
import { idleConnections } from './attacks/idleConnections.ts';
import { malformedJson } from './attacks/malformedJson.ts';
import { oversizedAnswer } from './attacks/oversizedAnswer.ts';
import { patternBacktracking } from './attacks/patternBacktracking.ts';
import { slowBody } from './attacks/slowBody.ts';
import { slowloris } from './attacks/slowloris.ts';
import { unknownPrompt } from './attacks/unknownPrompt.ts';
import { unreadReplay } from './attacks/unreadReplay.ts';
import { unreadStreams } from './attacks/unreadStreams.ts';

export type AttackName =
  | 'oversized-answer'
  | 'deep-answer'
  | 'pattern-backtracking'
  | 'duplicate-answers'
  | 'unknown-prompt'
  | 'malformed-json'
  | 'bad-utf8'
  | 'huge-headers'
  | 'slow-body'
  | 'slowloris'
  | 'idle-connections'
  | 'unread-streams'
  | 'unread-replay';

// Each attack's params type is its own, all numbers by name; the engine passes them as plain records.
export const ATTACKS: Record<AttackName, Attack<NumericParams>> = {
  'oversized-answer': oversizedAnswer,
  'deep-answer': deepAnswer,
  'pattern-backtracking': patternBacktracking,
  'duplicate-answers': duplicateAnswers,
  'unknown-prompt': unknownPrompt,
  'malformed-json': malformedJson,
  'bad-utf8': badUtf8,
  'huge-headers': hugeHeaders,
  'slow-body': slowBody,
  slowloris,
  'idle-connections': idleConnections,
  'unread-streams': unreadStreams,
  'unread-replay': unreadReplay,
};
