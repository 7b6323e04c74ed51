// The agent's resources over a mixed run (issue 14): resident memory, CPU and open connections,
// sampled every few hundred ms so a DoS scenario can show (and gate) how the agent held up.
// Two sources, the better first:
// Neither: no samples, and `unavailable` says why (the scenario then skips what needs them rather
// than passing on nothing).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ResourceSample {
  /** performance.now() of the sample. */
  at: number;
  rssBytes?: number;
  /** CPU seconds used so far (user + system). */
  cpuSeconds?: number;
  connections?: number;
}

export interface ResourceSource {
  /** Where the samples come from, for the log: `/proc/123`, `http://127.0.0.1:4000/metrics`. */
  readonly label: string;
  sample(signal: AbortSignal): Promise<ResourceSample>;
}

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat (100 on every Linux the rig runs on). */
const CLOCK_TICKS_PER_S = 100;

/**
 * utime + stime of /proc/<pid>/stat, in seconds. The command (field 2) may hold spaces and ')', so
 * fields count from the last ')'.
 */
export function cpuSecondsFromStat(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / CLOCK_TICKS_PER_S : undefined;
}

export function rssBytesFromStatus(status: string): number | undefined {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return m ? Number(m[1]) * 1024 : undefined;
}

/** Resident memory of process `pid` in bytes (Linux /proc/<pid>/status); undefined when it cannot be read. */
export function residentMemoryBytes(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The process's memory, CPU and open sockets (every fd that is a socket: listening ones too, a constant few). */
export function procSource(pid: number, root = '/proc'): ResourceSource {
  const dir = `${root}/${pid}`;
  return {
    label: dir,
    async sample() {
      const at = performance.now();
      const rssBytes = rssBytesFromStatus(readFileSync(`${dir}/status`, 'utf8'));
      const cpuSeconds = cpuSecondsFromStat(readFileSync(`${dir}/stat`, 'utf8'));
      let connections: number | undefined;
      try {
        connections = readdirSync(`${dir}/fd`).filter((fd) => {
          try {
            return readlinkSync(`${dir}/fd/${fd}`).startsWith('socket:');
          } catch {
            return false; // closed between the listing and the link
          }
        }).length;
      } catch {
        connections = undefined;
      }
      return { at, rssBytes, cpuSeconds, connections };
    },
  };
}

/** Reads the first sample (summing labelled series) of each metric name that ends in `suffix`. */
function promValue(text: string, suffix: string): number | undefined {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.length === 0) continue;
    const m = /^([A-Za-z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m || !m[1]!.endsWith(suffix)) continue;
    const v = Number(m[3]);
    if (Number.isFinite(v)) total = (total ?? 0) + v;
  }
  return total;
}

export const OPEN_CONNECTIONS_METRIC = 'a2a_agent_open_connections';

export function parsePrometheusResources(text: string, at: number): ResourceSample {
  return {
    at,
    rssBytes: promValue(text, 'process_resident_memory_bytes'),
    cpuSeconds: promValue(text, 'process_cpu_seconds_total'),
    connections: promValue(text, OPEN_CONNECTIONS_METRIC),
  };
}

/** Bound on one scrape: a /metrics slower than this is a sample lost, not a stalled sampler. */
const SCRAPE_TIMEOUT_MS = 1_000;
const MAX_SCRAPE_BYTES = 4 * 1024 * 1024;

export function metricsSource(url: string): ResourceSource {
  return {
    label: url,
    async sample(signal) {
      const res = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(SCRAPE_TIMEOUT_MS)]) });
      if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
      const text = await res.text();
      if (text.length > MAX_SCRAPE_BYTES) throw new Error(`GET ${url}: over ${MAX_SCRAPE_BYTES} bytes`);
      return parsePrometheusResources(text, performance.now());
    },
  };
}

/**
 * Picks the source: /proc for a local process, else /metrics when it answers with process
 * metrics. Returns the reason when there is none.
 */
export async function resourceSource(options: {
  pid?: number;
  metricsUrl?: string;
  signal: AbortSignal;
}): Promise<ResourceSource | { unavailable: string }> {
  if (options.pid) {
    try {
      const source = procSource(options.pid);
      await source.sample(options.signal);
      return source;
    } catch (err) {
      if (!options.metricsUrl)
        return { unavailable: `/proc/${options.pid} cannot be read (${(err as Error).message})` };
    }
  }
  if (!options.metricsUrl)
    return { unavailable: 'the agent is not a local process the rig started, and no /metrics URL is known' };
  try {
    const source = metricsSource(options.metricsUrl);
    const first = await source.sample(options.signal);
    if (first.rssBytes === undefined && first.cpuSeconds === undefined && first.connections === undefined) {
      return {
        unavailable:
          `${options.metricsUrl} has no process_resident_memory_bytes, process_cpu_seconds_total or ` +
          OPEN_CONNECTIONS_METRIC,
      };
    }
    return source;
  } catch (err) {
    return { unavailable: `the agent is remote and its /metrics cannot be read (${(err as Error).message})` };
  }
}

/** A point of the curves: seconds since `origin`, RSS in MB, CPU % over the last interval, connections. */
export interface ResourcePoint {
  at: number;
  rssMb?: number;
  cpuPct?: number;
  connections?: number;
}

/** Samples `source` every `intervalMs` until stopped; a failed sample is skipped (counted), never fatal. */
export class ResourceSampler {
  readonly points: ResourcePoint[] = [];
  failures = 0;
  lastError: string | undefined;
  private previous: ResourceSample | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly controller = new AbortController();
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly source: ResourceSource,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    const tick = () => {
      this.inFlight = this.sampleOnce().finally(() => {
        if (!this.controller.signal.aborted) this.timer = setTimeout(tick, this.intervalMs);
      });
    };
    tick();
  }

  async sampleOnce(): Promise<void> {
    try {
      this.add(await this.source.sample(this.controller.signal));
    } catch (err) {
      if (this.controller.signal.aborted) return;
      this.failures++;
      this.lastError = (err as Error).message;
    }
  }

  /** Turns a raw sample into a point: CPU % needs the one before it. */
  add(s: ResourceSample): void {
    const prev = this.previous;
    let cpuPct: number | undefined;
    if (prev?.cpuSeconds !== undefined && s.cpuSeconds !== undefined && s.at > prev.at)
      cpuPct = Math.max(0, ((s.cpuSeconds - prev.cpuSeconds) * 100_000) / (s.at - prev.at));
    this.previous = s;
    this.points.push({
      at: s.at,
      ...(s.rssBytes !== undefined ? { rssMb: s.rssBytes / (1024 * 1024) } : {}),
      ...(cpuPct !== undefined ? { cpuPct } : {}),
      ...(s.connections !== undefined ? { connections: s.connections } : {}),
    });
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.controller.abort();
    await this.inFlight;
    clearTimeout(this.timer);
  }
}
