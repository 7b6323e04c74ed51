// What the readCriteria tests (test/agent.acceptanceCriteria*.test.ts) share: the validator they
// read with, the criteria an empty object reads as, and the reason of criteria that must be refused.
import { expect } from 'vitest';
import { readCriteria, type GateCriteria } from '../../rig/agent/acceptanceCriteria.ts';
import { A2AError } from '../../rig/protocol/errorCodes.ts';
import { GuardedValidator } from '../../rig/protocol/guardedValidator.ts';
import {
  ACCEPTANCE_CRITERIA_INVALID,
  ACCEPTANCE_URI,
  DEFAULT_ACCEPTANCE_TIMEOUT_S,
  DEFAULT_MAX_REJECTIONS,
} from '../../rig/protocol/acceptance.ts';

export const validator = new GuardedValidator();
export const DEFAULT_CRITERIA: GateCriteria = {
  requiredArtifacts: [],
  evaluator: 'client',
  acceptanceTimeoutSeconds: DEFAULT_ACCEPTANCE_TIMEOUT_S,
  maxRejections: DEFAULT_MAX_REJECTIONS,
};

/** The reason readCriteria refuses `raw` with (an acceptance_criteria_invalid error, checked); fails if it reads it. */
export function refusal(raw: unknown, v = validator): string {
  try {
    readCriteria(raw, v);
  } catch (err) {
    expect(err).toBeInstanceOf(A2AError);
    const e = err as A2AError;
    expect(e.code).toBe(ACCEPTANCE_CRITERIA_INVALID);
    expect(e.message).toBe('acceptance_criteria_invalid');
    const data = e.data as { extension: string; reason: string };
    expect(data.extension).toBe(ACCEPTANCE_URI);
    expect(data.reason).not.toMatch(/[\r\n]/);
    expect(data.reason.length).toBeLessThanOrEqual(400);
    return data.reason;
  }
  throw new Error(`accepted ${JSON.stringify(raw).slice(0, 200)}`);
}
