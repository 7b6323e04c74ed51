// Synchronous work timed by the CPU this process spent on it, not by the wall clock: on a shared
// machine a neighbour stretches the wall time of a computation but not the work it does
// (docs/testing.md, "What a test may assert about time").

/** Runs `fn` and returns its value with the user + system CPU time it took, in ms. */
export function cpuTimed<T>(fn: () => T): { value: T; ms: number } {
  const before = process.cpuUsage();
  const value = fn();
  const used = process.cpuUsage(before);
  return { value, ms: (used.user + used.system) / 1000 };
}
