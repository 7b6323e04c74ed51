// How fast the rig's open-model generator can offer load, against raw autocannon on the same
// trivial target, in one run. The target is a Node HTTP server in its own process answering "ok";
// autocannon and the generator run here, one after the other, over the same number of keep-alive
// connections.
//  1. autocannon (closed model, its own lean HTTP client): requests per second at saturation,
//     measured before, between and after the two searches below (the box is shared: the median
//     is the baseline).
//  2. the open model (rig/load/openModelExecutor.ts) stepping its rate up from 20 % of autocannon's
//     figure in 5 % steps (to 200 %) until it falls behind schedule: more than 1 % of a step's
//     iterations start over 10 ms late, its p99 from the intended start passes 10 ms (a queue is
//     building), or any iteration is dropped or fails. A step that falls behind is tried once more
//     (one stray pause of a neighbour should not end the search). The last step that kept its
//     schedule is the sustainable rate. It runs with two HTTP clients:
//       a. a minimal keep-alive HTTP/1.1 client (below), in the same cost class as autocannon's own
//          (pre-built request bytes, a status line and Content-Length read per response), so the
//          ratio is about the scheduling method, not about two HTTP clients;
//       b. undici, the HTTP client the rig's A2A client uses.
// Prints the rates and their ratios (goal ≥ 0.9 for a). Run: npx tsx bench/generator.ts
// Env: CONNECTIONS (32), STEP_MS (3000), AUTOCANNON_S (5).
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { constantArrivals } from '../rig/load/arrivalSchedule.ts';
import { runOpenModel, type Iteration } from '../rig/load/openModelExecutor.ts';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const STEP_MS = Number(process.env.STEP_MS ?? 3000);
const AUTOCANNON_S = Number(process.env.AUTOCANNON_S ?? 5);
// Iterations in flight: undici queues requests past its connections itself, and that queue costs
// more than waiting in the executor's backlog (measured), so it gets exactly its connections; the
// minimal client waits for a connection in a FIFO, and gets four times as many, so the bursts of
// a 1 ms timer tick wait there (counted in latency from the intended start) instead of starting late.
const UNDICI_IN_FLIGHT = CONNECTIONS;
const LEAN_IN_FLIGHT = CONNECTIONS * 4;
const LATE_SHARE = 0.01;
const MAX_P99_MS = 10;

const target = spawn(process.execPath, ['-e', "require('http').createServer((q,s)=>{q.resume();s.end('ok')}).listen(0,'127.0.0.1',function(){console.log(this.address().port)})"], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const reap = () => target.kill('SIGKILL');
process.once('exit', reap);
const port = Number(
  await Promise.race([
    new Promise<string>((resolve) => createInterface({ input: target.stdout! }).once('line', resolve)),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the target did not start within 10 s')), 10_000)),
  ]),
);
const url = `http://127.0.0.1:${port}`;

async function rawAutocannon(): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: AUTOCANNON_S });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`autocannon saw ${result.errors} errors, ${result.non2xx} non-2xx`);
  return result.requests.total / AUTOCANNON_S;
}

// a. undici
const pool = new Pool(url, { connections: CONNECTIONS, pipelining: 1 });
const viaUndici: Iteration = async () => {
  const res = await pool.request({ path: '/', method: 'GET' });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
};

// b. minimal keep-alive HTTP/1.1: enough for this target (200, Content-Length, no chunking).
const REQUEST = Buffer.from(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
class LeanConnection {
  private socket: Socket | undefined;
  private buffered = '';
  private pending: ((err?: Error) => void) | undefined;
  /** Connects on first use and again after the server closed an idle keep-alive connection. */
  private open(): Socket {
    if (this.socket && !this.socket.destroyed && this.socket.writable) return this.socket;
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => this.read(chunk));
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      this.settle(new Error('connection closed'));
    });
    socket.on('error', () => {});
    this.buffered = '';
    return (this.socket = socket);
  }
  private settle(err?: Error): void {
    const done = this.pending;
    this.pending = undefined;
    done?.(err);
  }
  private read(chunk: string): void {
    this.buffered += chunk;
    const head = this.buffered.indexOf('\r\n\r\n');
    if (head < 0) return;
    const length = Number(/content-length: *(\d+)/i.exec(this.buffered.slice(0, head))?.[1] ?? 0);
    if (this.buffered.length < head + 4 + length) return;
    const ok = this.buffered.startsWith('HTTP/1.1 200');
    this.buffered = this.buffered.slice(head + 4 + length);
    this.settle(ok ? undefined : new Error('not 200'));
  }
  get(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending = (err) => (err ? reject(err) : resolve());
      this.open().write(REQUEST);
    });
  }
  close(): void {
    this.socket?.destroy();
  }
}
const lean = Array.from({ length: CONNECTIONS }, () => new LeanConnection());
const idle = [...lean];
const waiting: Array<(connection: LeanConnection) => void> = [];
// Like undici's pool: a request waits for a free connection in order.
const viaLean: Iteration = async () => {
  const connection = idle.pop() ?? (await new Promise<LeanConnection>((resolve) => waiting.push(resolve)));
  try {
    await connection.get();
  } finally {
    const next = waiting.shift();
    if (next) next(connection);
    else idle.push(connection);
  }
};

async function step(iteration: Iteration, rate: number, inFlight: number) {
  const result = await runOpenModel({ arrivals: constantArrivals(rate, STEP_MS), iteration, maxInFlight: inFlight, maxBacklog: 1_000_000, iterationTimeoutMs: 5_000, drainTimeoutMs: 5_000 });
  const p99 = result.latency.percentile(99) / 1000;
  const kept = result.dropped === 0 && result.failed === 0 && result.unfinished === 0 && result.late <= result.scheduled * LATE_SHARE && p99 <= MAX_P99_MS;
  return { kept, result };
}

async function sustainable(name: string, iteration: Iteration, inFlight: number, baseline: number): Promise<number> {
  let best = 0;
  for (let share = 0.2; share <= 2 + 1e-9; share += 0.05) {
    const rate = Math.round(baseline * share);
    let attempt = await step(iteration, rate, inFlight);
    if (!attempt.kept) attempt = await step(iteration, rate, inFlight);
    const { result, kept } = attempt;
    console.log(
      `  ${name} @ ${rate}/s (${(share * 100).toFixed(0)} %): ${result.succeeded}/${result.scheduled} ok, ${result.late} late, max lag ${result.maxStartLagMs.toFixed(1)} ms, ${result.dropped} dropped, p99 ${(result.latency.percentile(99) / 1000).toFixed(2)} ms from intended start — ${kept ? 'kept its schedule' : 'fell behind'}`,
    );
    if (!kept) {
      if (result.firstFailure) console.log(`    failures: ${JSON.stringify(result.failures)}, first: ${result.firstFailure}`);
      break;
    }
    best = rate;
  }
  return best;
}

// Warm-up (JIT, connections), not measured.
await autocannon({ url, connections: CONNECTIONS, duration: 1 });
await step(viaUndici, 2000, UNDICI_IN_FLIGHT);
await step(viaLean, 2000, LEAN_IN_FLIGHT);

// autocannon before, between and after the two searches: the box is shared, so take the median.
const autocannonRuns = [await rawAutocannon()];
console.log(`autocannon (closed model, ${CONNECTIONS} connections): ${autocannonRuns[0].toFixed(0)} req/s`);
console.log(`open model, minimal HTTP/1.1 client (${LEAN_IN_FLIGHT} in flight):`);
const leanRate = await sustainable('lean', viaLean, LEAN_IN_FLIGHT, autocannonRuns[0]);
autocannonRuns.push(await rawAutocannon());
console.log(`autocannon again: ${autocannonRuns[1].toFixed(0)} req/s`);
console.log(`open model, undici (${UNDICI_IN_FLIGHT} in flight):`);
const undiciRate = await sustainable('undici', viaUndici, UNDICI_IN_FLIGHT, autocannonRuns[1]);
autocannonRuns.push(await rawAutocannon());
console.log(`autocannon again: ${autocannonRuns[2].toFixed(0)} req/s`);
const baseline = [...autocannonRuns].sort((a, b) => a - b)[1];
console.log(`\nraw autocannon: ${baseline.toFixed(0)} req/s (median of ${autocannonRuns.map((r) => r.toFixed(0)).join(', ')})`);
console.log(`open model sustainable, minimal client: ${leanRate} req/s — ratio ${(leanRate / baseline).toFixed(3)} (goal ≥ 0.9)`);
console.log(`open model sustainable, undici:         ${undiciRate} req/s — ratio ${(undiciRate / baseline).toFixed(3)}`);

await pool.close();
for (const connection of lean) connection.close();
reap();
