// Every attack by its fixed name (issue 14). The engine imports only this module and attackTypes.ts;
// attackTarget.ts builds the AttackTarget it passes to run().
import type { Attack } from './attackTypes.ts';
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

// Attack<any>: each attack's params type is its own; the engine passes them as plain records.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const ATTACKS: Record<AttackName, Attack<any>> = {
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

export function isAttackName(name: string): name is AttackName {
  return Object.hasOwn(ATTACKS, name);
}

export { attackTarget, scriptedPromptOpener, DEFAULT_SOURCE_ADDRESS, type AttackTargetOptions } from './attackTarget.ts';
