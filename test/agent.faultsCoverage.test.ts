// Every fault flag of the reference agent has its proof in exactly one file: the acceptance-* ones in
// agent.acceptanceFaults.test.ts, the DoS ones in agent.dosFaults.test.ts, the rest in the three
// agent.faults*.test.ts files by the lists in support/faultProofs.ts.
import { describe, expect, it } from 'vitest';
import {
  DOS_FAULTS,
  FAULTS,
  type AcceptanceFaultName,
  type DosFaultName,
  type FaultName,
} from '../rig/agent/faults.ts';
import {
  EXTENSION_FAULTS,
  PROMPT_FAULTS,
  REPLAY_FAULTS,
  type ExtensionFaultName,
  type PromptFaultName,
  type ReplayFaultName,
} from './support/faultProofs.ts';

/** Adding a flag to faults.ts without putting it in a list of proofs fails tsc here. */
type Unproven = Exclude<
  FaultName,
  AcceptanceFaultName | DosFaultName | PromptFaultName | ExtensionFaultName | ReplayFaultName
>;
const unproven: [Unproven] extends [never] ? 'none' : Unproven = 'none';

describe('fault flags: each breaks its guarantee, which holds without it', () => {
  it(
    'has a proof for every flag in faults.ts (the acceptance-* ones in agent.acceptanceFaults.test.ts, ' +
      'the DoS ones in agent.dosFaults.test.ts)',
    () => {
      expect(unproven).toBe('none');
      const dos: readonly string[] = DOS_FAULTS;
      expect([...PROMPT_FAULTS, ...EXTENSION_FAULTS, ...REPLAY_FAULTS].sort()).toEqual(
        Object.keys(FAULTS)
          .filter((f) => !f.startsWith('acceptance-') && !dos.includes(f))
          .sort(),
      );
    },
  );
});
