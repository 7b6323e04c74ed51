// The two waits a scenario needs besides its clients' own bounds, both ended early by its abort
// signal (the budget ran out, or the run was interrupted) and leaving no timer or listener behind.

/** Waits `ms`; true when the time passed, false when `signal` aborted first. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted);
      resolve(true);
    }, ms);
    const aborted = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', aborted, { once: true });
  });
}

/**
 * What `promise` settles to within `ms`, or undefined when `ms` passes (or `signal` aborts) first. A
 * rejection passes through.
 */
export async function within<T>(promise: Promise<T>, ms: number, signal: AbortSignal): Promise<T | undefined> {
  const gate = new AbortController();
  const stop = () => gate.abort();
  if (signal.aborted) gate.abort();
  else signal.addEventListener('abort', stop, { once: true });
  try {
    return await Promise.race([promise, sleep(ms, gate.signal).then(() => undefined)]);
  } finally {
    signal.removeEventListener('abort', stop);
    gate.abort();
  }
}
