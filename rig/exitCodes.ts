// The command line's exit codes, in one place so the README's table and the code cannot drift.
// A CI job can tell "the agent broke a guarantee" (1) from "the rig could not run" (2), "nothing
// was tested" (3), "the rig itself broke" (4) and "someone stopped it" (130/143, the shell's
// 128 + signal number).
export const EXIT = {
  /** Every selected scenario passed (some may have been skipped, unless --fail-on-skip). */
  passed: 0,
  /** A check failed, a scenario errored, or a threshold broke. */
  failed: 1,
  /** A usage or environment error: one line on stderr, nothing run. */
  usage: 2,
  /**
   * Nothing was tested (every scenario that tests hitl-prompt/v1 skipped), or any skip with --fail-on-skip,
   * or a scenario inconclusive (a check judged neither way) and none failed, unless --allow-inconclusive;
   * for `compare`, a row it could not judge and no regression (unless --allow-inconclusive).
   */
  notTested: 3,
  /** A bug in the rig: one line on stderr, the stack in error.log of the results directory. */
  internal: 4,
  SIGINT: 130,
  SIGTERM: 143,
} as const;
