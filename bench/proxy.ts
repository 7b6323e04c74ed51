// What the proxy itself costs, measured in one run: HTTP request round trips straight to an
// upstream, through the embedded proxy (`a2a-rig proxy`, its own process), and through the real
// Toxiproxy (spawned, when a binary is found), all with no toxics. Configurations are interleaved
// round by round so drift on a shared box hits them alike. Prints p50/p99 added latency,
// request and bulk throughput, and the embedded/real ratios. Goal: embedded overhead ≤ 1.2× real.
//
//   npx tsx bench/proxy.ts            (TOXIPROXY_SERVER, PATH or .tools/bin/server for the real one)
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus } from 'node:os';
import * as hdr from 'hdr-histogram-js';
import { Client, Pool } from 'undici';
import { startJsonLineChild, type JsonLineChild } from '../rig/engine/environment/jsonLineChild.ts';
import { findToxiproxyBinary } from '../rig/proxy/backend.ts';
import { spawnToxiproxyServer, type SpawnedToxiproxy } from '../rig/proxy/toxiproxyServerProcess.ts';

const repoRoot = new URL('../', import.meta.url).pathname;
// Small blocks, many rounds: a burst of background load lands on every target alike.
const LATENCY_ROUNDS = 50;
const LATENCY_REQUESTS_PER_ROUND = 200;
const WARMUP_REQUESTS = 500;
const ROUNDS = 6;
const THROUGHPUT_SECONDS_PER_ROUND = 0.5;
const THROUGHPUT_CONNECTIONS = 8;
const THROUGHPUT_IN_FLIGHT = 32;
const BULK_BYTES = 32 * 1024 * 1024;

interface Target {
  name: 'direct' | 'embedded' | 'real';
  origin: string;
  latency: hdr.Histogram;
  requests: number;
  requestSeconds: number;
  bulkBytes: number;
  bulkSeconds: number;
}

const BULK_CHUNK = Buffer.alloc(64 * 1024, 7);

async function startUpstream(): Promise<{ server: Server; address: string }> {
  const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    if (request.url === '/bulk') {
      response.writeHead(200, { 'Content-Length': String(BULK_BYTES) });
      let left = BULK_BYTES;
      const pump = () => {
        while (left > 0) {
          left -= BULK_CHUNK.length;
          if (!response.write(BULK_CHUNK)) return void response.once('drain', pump);
        }
        response.end();
      };
      return pump();
    }
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '11' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  return { server, address: `127.0.0.1:${(server.address() as { port: number }).port}` };
}

function startEmbeddedProcess(): Promise<JsonLineChild<{ api: string }>> {
  return startJsonLineChild(process.execPath, [`${repoRoot}bin/a2a-rig.js`, 'proxy', '--api-port', '0'], {
    name: 'a2a-rig proxy',
    timeoutMs: 20_000,
    echoStderr: true,
  });
}

async function proxyThrough(api: string, upstream: string): Promise<string> {
  const response = await fetch(`${api}/proxies`, {
    method: 'POST',
    body: JSON.stringify({ name: 'bench', listen: '127.0.0.1:0', upstream }),
    signal: AbortSignal.timeout(5_000),
  });
  if (response.status !== 201) throw new Error(`creating the bench proxy at ${api} answered ${response.status}`);
  return `http://${((await response.json()) as { listen: string }).listen}`;
}

async function roundTrips(client: Client, count: number, histogram?: hdr.Histogram): Promise<void> {
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    const { body } = await client.request({ path: '/', method: 'GET' });
    await body.text();
    histogram?.recordValue(Number((process.hrtime.bigint() - started) / 1000n));
  }
}

async function requestThroughput(target: Target): Promise<void> {
  const pool = new Pool(target.origin, { connections: THROUGHPUT_CONNECTIONS });
  const deadline = performance.now() + THROUGHPUT_SECONDS_PER_ROUND * 1000;
  const started = performance.now();
  let completed = 0;
  await Promise.all(
    Array.from({ length: THROUGHPUT_IN_FLIGHT }, async () => {
      while (performance.now() < deadline) {
        const { body } = await pool.request({ path: '/', method: 'GET' });
        await body.text();
        completed++;
      }
    }),
  );
  target.requests += completed;
  target.requestSeconds += (performance.now() - started) / 1000;
  await pool.close();
}

async function bulkThroughput(target: Target): Promise<void> {
  const client = new Client(target.origin);
  const started = performance.now();
  const { body } = await client.request({ path: '/bulk', method: 'GET' });
  let bytes = 0;
  for await (const part of body) bytes += (part as Buffer).length;
  target.bulkBytes += bytes;
  target.bulkSeconds += (performance.now() - started) / 1000;
  await client.close();
}

const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(9);

const newTarget = (name: Target['name'], origin: string): Target => ({
  name,
  origin,
  latency: hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
  }),
  requests: 0,
  requestSeconds: 0,
  bulkBytes: 0,
  bulkSeconds: 0,
});

/** The real Toxiproxy, spawned when a binary is found (and which one), or why not, printed. */
async function startRealToxiproxy(): Promise<{ real?: SpawnedToxiproxy; binary?: string }> {
  const binary =
    findToxiproxyBinary().path ??
    (existsSync(`${repoRoot}.tools/bin/server`) ? `${repoRoot}.tools/bin/server` : undefined);
  if (binary) return { real: await spawnToxiproxyServer(binary), binary };
  console.log(
    'no toxiproxy-server found (TOXIPROXY_SERVER, PATH, .tools/bin/server): measuring direct and embedded only',
  );
  return {};
}

/** Warm-up, then latency, request and bulk rounds, each phase apart and the targets' order rotated. */
async function measure(targets: Target[]): Promise<void> {
  const clients = new Map(targets.map((t) => [t, new Client(t.origin, { pipelining: 1 })]));
  for (const target of targets) await roundTrips(clients.get(target)!, WARMUP_REQUESTS);
  // Phases apart (a bulk download's garbage must not land in the next latency sample) and the
  // order rotated each round, so no target always runs first.
  const rotated = (round: number) => targets.map((_, i) => targets[(i + round) % targets.length]!);
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    for (const target of rotated(round))
      await roundTrips(clients.get(target)!, LATENCY_REQUESTS_PER_ROUND, target.latency);
  }
  for (let round = 0; round < ROUNDS; round++) for (const target of rotated(round)) await requestThroughput(target);
  for (let round = 0; round < ROUNDS; round++) for (const target of rotated(round)) await bulkThroughput(target);
  await Promise.all([...clients.values()].map((c) => c.close()));
}

const percentileOf = (t: Target, q: number) => t.latency.getValueAtPercentile(q);

/** What was measured and how, then one row per target: its latency, what it adds to direct, its rates. */
function printTable(targets: Target[], realToxiproxy: string): void {
  const direct = targets[0]!;
  const added = (t: Target, q: number) => percentileOf(t, q) - percentileOf(direct, q);
  console.log(`node ${process.version}, ${cpus().length} cpus; real Toxiproxy ${realToxiproxy}`);
  const latencyRuns = `${LATENCY_ROUNDS}×${LATENCY_REQUESTS_PER_ROUND} sequential requests on one connection`;
  const throughputRuns =
    `${ROUNDS}×${THROUGHPUT_SECONDS_PER_ROUND} s at ${THROUGHPUT_IN_FLIGHT} in flight ` +
    `over ${THROUGHPUT_CONNECTIONS} connections`;
  const bulkRuns = `${ROUNDS} downloads of ${BULK_BYTES / 1024 / 1024} MiB`;
  console.log(`per target, interleaved: ${latencyRuns}; ${throughputRuns}; ${bulkRuns}`);
  const columns = ['p50 µs', 'p99 µs', '+p50 µs', '+p99 µs', 'req/s', 'MB/s'].map((c) => ` ${c.padStart(9)}`).join('');
  console.log(`${'target'.padEnd(9)}${columns}`);
  for (const t of targets) {
    const p = (q: number) => percentileOf(t, q);
    const latencies = `${fmt(p(50))} ${fmt(p(99))} ${fmt(added(t, 50))} ${fmt(added(t, 99))}`;
    const rates = `${fmt(t.requests / t.requestSeconds)} ${fmt(t.bulkBytes / 1e6 / t.bulkSeconds, 1)}`;
    console.log(`${t.name.padEnd(9)} ${latencies} ${rates}`);
  }
}

/** The embedded proxy against the real one: ratios of added and whole latency, of rates, and the goal. */
function printComparison(direct: Target, mine: Target, theirs: Target): void {
  const p = percentileOf;
  const added = (t: Target, q: number) => p(t, q) - p(direct, q);
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a (real adds nothing measurable)');
  const addedRatio = (q: number) => ratio(added(mine, q), added(theirs, q));
  console.log(`embedded/real: added p50 ${addedRatio(50)}, added p99 ${addedRatio(99)}`);
  const wholeRatio = (q: number) => ratio(p(mine, q), p(theirs, q));
  console.log(`embedded/real: p50 ${wholeRatio(50)}, p99 ${wholeRatio(99)} (whole round trip)`);
  const requestRatio = ratio(mine.requests / mine.requestSeconds, theirs.requests / theirs.requestSeconds);
  const bulkRatio = ratio(mine.bulkBytes / mine.bulkSeconds, theirs.bulkBytes / theirs.bulkSeconds);
  console.log(`embedded/real: req/s ${requestRatio}, MB/s ${bulkRatio} (higher is better)`);
  const met = (q: number) => added(mine, q) <= 1.2 * Math.max(added(theirs, q), 0);
  console.log(
    `goal (added latency ≤ 1.2× real's): p50 ${met(50) ? 'met' : 'NOT met'}, p99 ${met(99) ? 'met' : 'NOT met'}`,
  );
}

async function main(): Promise<void> {
  const upstream = await startUpstream();
  const embedded = await startEmbeddedProcess();
  const { real, binary } = await startRealToxiproxy();
  const targets: Target[] = [
    newTarget('direct', `http://${upstream.address}`),
    newTarget('embedded', await proxyThrough(embedded.info.api, upstream.address)),
  ];
  if (real) targets.push(newTarget('real', await proxyThrough(real.url, upstream.address)));
  try {
    await measure(targets);
  } finally {
    await embedded.stop(5_000);
    await real?.close();
    upstream.server.closeAllConnections();
    upstream.server.close();
  }
  printTable(targets, real ? `${real.version} (${binary})` : 'absent');
  if (targets[2]) printComparison(targets[0]!, targets[1]!, targets[2]);
}

await main();
