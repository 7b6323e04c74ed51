// The garbage collector's pauses over a stretch of a benchmark (perf_hooks 'gc' entries: wall time
// of each pause on the main thread), and the V8 flags that size its heap, so that a run with a
// larger young generation (node --max-semi-space-size=N) says what it changed.
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

export interface GcPauses {
  count: number;
  /** Young-generation collections (scavenges) among them. */
  minor: number;
  totalMs: number;
  maxMs: number;
}

const MINOR = 1; // perf_hooks.constants.NODE_PERFORMANCE_GC_MINOR

/** Starts counting pauses; the function returned stops and says what it saw. */
export function watchGc(): () => GcPauses {
  const seen: GcPauses = { count: 0, minor: 0, totalMs: 0, maxMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) count(seen, entry);
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    // Entries are delivered asynchronously: take what is buffered before disconnecting.
    for (const entry of observer.takeRecords()) count(seen, entry);
    observer.disconnect();
    return seen;
  };
}

function count(seen: GcPauses, entry: PerformanceEntry): void {
  seen.count++;
  if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === MINOR) seen.minor++;
  seen.totalMs += entry.duration;
  if (entry.duration > seen.maxMs) seen.maxMs = entry.duration;
}

/** The heap-sizing V8 flags this process was given (command line or NODE_OPTIONS), or "V8's defaults". */
export function heapFlags(): string {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].filter((a) =>
    /^--max-(semi|old)-space-size/.test(a),
  );
  return given.length > 0 ? given.join(' ') : "V8's defaults";
}

export const describeGc = (g: GcPauses): string =>
  `GC ${g.count} pauses (${g.minor} scavenges), ${g.totalMs.toFixed(0)} ms in all, longest ${g.maxMs.toFixed(1)} ms`;
