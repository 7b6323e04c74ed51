// The reference agent and the real Toxiproxy in containers (testcontainers), for users who write
// their own suites and for `a2a-rig run --env containers`. Both containers use host networking and
// listen on free 127.0.0.1 ports, as docker-compose.yml does and for the same reason: the rig
// creates its proxies on a loopback port of Toxiproxy's own network namespace, so that namespace
// must be the rig's, and load and chaos traffic stays on loopback.
//
// Ryuk (testcontainers' reaper) is an image pulled from a registry; where there is none it cannot
// run, so it is off unless the user turns it on (TESTCONTAINERS_RYUK_DISABLED=false) and this
// module removes what it started itself: stop(), the process's exit, and SIGINT/SIGTERM when
// nobody else handles them. Whatever still lives (a kill -9 of the rig) carries the label
// `a2a-rig.containers=<session>` for `docker rm -f $(docker ps -aq --filter label=a2a-rig.containers)`.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { StartedTestContainer } from 'testcontainers';
import { UserError } from '../../protocol/userError.ts';
import { PACKAGE_ROOT } from '../rigPaths.ts';

export const DEFAULT_AGENT_IMAGE = 'a2a-rig:local';
export const DEFAULT_TOXIPROXY_IMAGE = 'ghcr.io/shopify/toxiproxy:2.12.0';
/** Bounds every wait for a container to answer (start, restart). */
const READY_TIMEOUT_MS = 60_000;
export const CONTAINERS_LABEL = 'a2a-rig.containers';

export interface ContainerEnvironmentOptions {
  /** The agent's image; built from the repository's Dockerfile under this tag when `build` and missing. */
  agentImage?: string;
  toxiproxyImage?: string;
  /** Build the agent image from the Dockerfile when it is missing (needs node:20-slim locally or a registry). */
  build?: boolean;
  /** Stop everything on SIGINT/SIGTERM, then re-raise: only when nothing else listens (the rig's CLI does). */
  handleSignals?: boolean;
}

export interface ContainerEnvironment {
  /** The agent through the `a2a-rig-agent` proxy of the Toxiproxy container. */
  agentUrl: string;
  /** The agent's own address (no proxy). */
  directAgentUrl: string;
  /** The Toxiproxy container's HTTP API. */
  toxiproxyUrl: string;
  /** Milliseconds from the first container start to both answering. */
  readyMs: number;
  /** kill -9 of the agent container and a start of the same container: its outbox volume keeps its data. */
  restart(): Promise<void>;
  /** Removes both containers and the outbox volume; idempotent. */
  stop(): Promise<void>;
}

/** Why containers cannot run here (no engine, or an image missing), or undefined when they can. */
export async function containersUnavailable(
  options: ContainerEnvironmentOptions = {},
): Promise<{ engine: boolean; reason: string } | undefined> {
  const tc = await loadTestcontainers();
  let client;
  try {
    client = await tc.getContainerRuntimeClient();
  } catch (err) {
    return { engine: false, reason: `no Docker engine reachable (${firstLine(err)})` };
  }
  const wanted = [
    options.toxiproxyImage ?? DEFAULT_TOXIPROXY_IMAGE,
    ...(options.build ? [] : [options.agentImage ?? DEFAULT_AGENT_IMAGE]),
  ];
  for (const name of wanted) {
    if (!(await client.image.exists(tc.ImageName.fromString(name))))
      return { engine: true, reason: `image ${name} is missing (docker pull it, or build it offline)` };
  }
  return undefined;
}

type RuntimeClient = Awaited<ReturnType<Testcontainers['getContainerRuntimeClient']>>;

/**
 * Both images, present: the agent's built from the Dockerfile when missing and `build` is set; any
 * other missing image is a usage error.
 */
async function ensureImages(
  tc: Testcontainers,
  client: RuntimeClient,
  options: ContainerEnvironmentOptions,
): Promise<{ agentImage: string; toxiproxyImage: string }> {
  const agentImage = options.agentImage ?? DEFAULT_AGENT_IMAGE;
  const toxiproxyImage = options.toxiproxyImage ?? DEFAULT_TOXIPROXY_IMAGE;
  if (!(await client.image.exists(tc.ImageName.fromString(agentImage)))) {
    if (!options.build)
      throw new UserError(`image ${agentImage} is missing: docker build -t ${agentImage} . (or pass build)`);
    const [repo, tag] = splitTag(agentImage);
    await tc.GenericContainer.fromDockerfile(PACKAGE_ROOT).build(`${repo}:${tag}`, { deleteOnExit: false });
  }
  if (!(await client.image.exists(tc.ImageName.fromString(toxiproxyImage))))
    throw new UserError(`image ${toxiproxyImage} is missing (docker pull it, or build it offline)`);
  return { agentImage, toxiproxyImage };
}

/** The `a2a-rig-agent` proxy in the Toxiproxy container: `proxyPort` to the agent's port. */
async function createAgentProxy(toxiproxyUrl: string, proxyPort: number, agentPort: number): Promise<void> {
  const created = await fetch(`${toxiproxyUrl}/proxies`, {
    method: 'POST',
    body: JSON.stringify({
      name: 'a2a-rig-agent',
      listen: `127.0.0.1:${proxyPort}`,
      upstream: `127.0.0.1:${agentPort}`,
      enabled: true,
    }),
  });
  if (!created.ok)
    throw new Error(`Toxiproxy refused the agent's proxy: HTTP ${created.status} ${await created.text()}`);
}

export async function startContainerEnvironment(
  options: ContainerEnvironmentOptions = {},
): Promise<ContainerEnvironment> {
  const tc = await loadTestcontainers();
  const client = await tc.getContainerRuntimeClient().catch((err: unknown) => {
    throw new UserError(`--env containers needs a Docker engine, and none is reachable: ${firstLine(err)}`);
  });
  const { agentImage, toxiproxyImage } = await ensureImages(tc, client, options);

  const session = randomBytes(4).toString('hex');
  const volume = `a2a-rig-outbox-${session}`;
  const owned = track({ containers: [], volume });
  const signals = (options.handleSignals ?? true) ? installSignalStop(() => stopOwned(owned)) : () => {};
  const started = performance.now();
  try {
    const [agentPort, apiPort, proxyPort] = await freePorts(3);
    const labels = { [CONTAINERS_LABEL]: session };
    const startAgent = new tc.GenericContainer(agentImage)
      .withNetworkMode('host')
      .withLabels(labels)
      // A named volume: a new one copies /data with the image's ownership (the node user).
      .withBindMounts([{ source: volume, target: '/data', mode: 'rw' }])
      .withCommand(['agent', '--host', '127.0.0.1', '--port', String(agentPort), '--db', '/data/outbox.db'])
      .withStartupTimeout(READY_TIMEOUT_MS)
      .start();
    const startProxy = new tc.GenericContainer(toxiproxyImage)
      .withNetworkMode('host')
      .withLabels(labels)
      .withCommand([`-host=127.0.0.1`, `-port=${apiPort}`])
      .withStartupTimeout(READY_TIMEOUT_MS)
      .start();
    const results = await Promise.allSettled([startAgent, startProxy]);
    for (const r of results) if (r.status === 'fulfilled') owned.containers.push(r.value);
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    const [agent] = owned.containers as [StartedTestContainer, StartedTestContainer];
    const directAgentUrl = `http://127.0.0.1:${agentPort}`;
    const toxiproxyUrl = `http://127.0.0.1:${apiPort}`;
    await Promise.all([waitFor(`${directAgentUrl}/.well-known/agent-card.json`), waitFor(`${toxiproxyUrl}/version`)]);
    await createAgentProxy(toxiproxyUrl, proxyPort, agentPort);
    const readyMs = Math.round(performance.now() - started);
    let stopping: Promise<void> | undefined;
    return {
      agentUrl: `http://127.0.0.1:${proxyPort}`,
      directAgentUrl,
      toxiproxyUrl,
      readyMs,
      async restart() {
        const container = client.container.getById(agent.getId());
        await container.kill({ signal: 'SIGKILL' });
        await container.start();
        await waitFor(`${directAgentUrl}/.well-known/agent-card.json`);
      },
      stop() {
        stopping ??= stopOwned(owned).finally(signals);
        return stopping;
      },
    };
  } catch (err) {
    await stopOwned(owned);
    signals();
    throw err;
  }
}

interface Owned {
  containers: StartedTestContainer[];
  volume: string;
  done?: boolean;
}
const live = new Set<Owned>();

function track(owned: Owned): Owned {
  live.add(owned);
  return owned;
}

async function stopOwned(owned: Owned): Promise<void> {
  if (owned.done) return;
  owned.done = true;
  // timeout 0: the agent's outbox is thrown away with the volume, nothing to flush.
  await Promise.allSettled(owned.containers.map((c) => c.stop({ timeout: 0, remove: true, removeVolumes: true })));
  const tc = await loadTestcontainers();
  const client = await tc.getContainerRuntimeClient();
  await client.container.dockerode
    .getVolume(owned.volume)
    .remove()
    .catch(() => {});
  live.delete(owned);
}

// A forced exit (a second Ctrl-C, process.exit) leaves no time for promises: the docker CLI, synchronously.
process.once('exit', () => {
  for (const owned of live) {
    const ids = owned.containers.map((c) => c.getId());
    try {
      if (ids.length) execFileSync('docker', ['rm', '-f', '-v', ...ids], { stdio: 'ignore', timeout: 10_000 });
      execFileSync('docker', ['volume', 'rm', '-f', owned.volume], { stdio: 'ignore', timeout: 10_000 });
    } catch {
      // No docker CLI: the label names what is left (see the header).
    }
  }
});

/**
 * On SIGINT/SIGTERM when nothing else listens: stop, then die of the signal as the default would.
 * Returns the uninstaller.
 */
function installSignalStop(stop: () => Promise<void>): () => void {
  const handlers: Array<[NodeJS.Signals, () => void]> = [];
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    if (process.listenerCount(sig) > 0) continue;
    const handler = () => {
      uninstall();
      void stop().finally(() => process.kill(process.pid, sig));
    };
    process.on(sig, handler);
    handlers.push([sig, handler]);
  }
  const uninstall = () => {
    for (const [sig, handler] of handlers) process.off(sig, handler);
  };
  return uninstall;
}

type Testcontainers = typeof import('testcontainers');
let loaded: Promise<Testcontainers> | undefined;

/**
 * testcontainers (and dockerode) load only when containers are asked for; Ryuk off unless the user
 * said otherwise. An optional peer of the package (most users never start a container, and it brings
 * a hundred packages and native install scripts): missing, it is the user's to install.
 */
function loadTestcontainers(): Promise<Testcontainers> {
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  loaded ??= import('testcontainers').catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ERR_MODULE_NOT_FOUND' || !err.message.includes("'testcontainers'")) throw err;
    throw new UserError('--env containers needs the testcontainers package: npm install testcontainers@11');
  });
  return loaded;
}

async function waitFor(url: string): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  let last = '';
  while (performance.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = firstLine(err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${READY_TIMEOUT_MS} ms (${last})`);
}

/**
 * Free loopback ports, held together so they differ (another process may still take one before the
 * container binds it).
 */
async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<import('node:net').Server>((resolve, reject) => {
          const s = createServer();
          s.once('error', reject);
          s.listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as import('node:net').AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

function splitTag(image: string): [string, string] {
  const at = image.lastIndexOf(':');
  return at > image.lastIndexOf('/') ? [image.slice(0, at), image.slice(at + 1)] : [image, 'latest'];
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
}
