// PLACEHOLDER written by the engine's branch only so it compiles before the attack generators
// land: the real registry (dos-attacks) replaces this file whole at the merge. The engine reads
// ATTACKS[name] and treats a missing entry as "not built here" (the scenario says so and skips).
import type { Attack } from './attackTypes.ts';

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

export const ATTACKS = {} as Record<AttackName, Attack<any>>;
