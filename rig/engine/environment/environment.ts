// Where a run happens. `embedded`: our reference agent as an owned child process on a temp
// database; a `--target` URL: any agent. Either way, when a fault backend is available a Toxiproxy
// proxy sits between the rig and the agent, and the rig's clients go through it; `direct` clients
// bypass it to read the truth (full replays, probes) without faults in the way.
import type { ArrivalShare } from '../../load/shardedArrivals.ts';
import type { Generation } from '../../protocol/a2aTypes.ts';
import type { Binding } from '../../client/cardInterfaces.ts';
import { UserError } from '../../protocol/userError.ts';
import { HITL_PROMPT_URI } from '../../protocol/hitlPrompt.ts';
import {
  A2AClient,
  readAgent,
  type AgentDescription,
  type EventHistory,
  type ExchangeObserver,
} from '../../client/index.ts';
import { FaultControl, type AppliedToxic, type BackendRecord, type ToxicSpec } from '../../proxy/faultControl.ts';
import type { ToxiproxyChoice } from '../../proxy/backend.ts';
import type { RunObserver } from '../../results/runObserver.ts';
import { probeReplayPlane, type ReplayPlaneProbe } from '../../client/replayPlaneProbe.ts';
import { checkRequiredExtensions } from '../../client/requiredExtensions.ts';
import type { TargetAccess } from '../../client/credentials.ts';
import { AgentProcess } from './agentProcess.ts';
import { BothObservers, exchangesTo } from '../exchangeObservers.ts';
import {
  endpointNote,
  faultsElsewhereReason,
  placeEndpoint,
  refusalLine,
  targetLabel,
  type CardEndpoint,
} from './cardEndpoint.ts';

import { runRestartCommand, waitForCard } from './agentRestart.ts';
import { runProxyName, throughProxy, type ClientRoute } from './proxyRoute.ts';

export interface EnvironmentOptions {
  /** An agent URL; absent means the embedded reference agent. */
  target?: string;
  /** Where faults come from; 'none' runs without a proxy. */
  toxiproxy: ToxiproxyChoice | 'none';
  /** For a target: a shell command that kills and restarts it (crash scenarios). */
  restartCmd?: string;
  /** For a target: kills and restarts it, as --restart-cmd does (`--env containers`: the agent container). */
  restartAgent?: () => Promise<void>;
  /** Run last by close(): stops what was started for the run outside it (`--env containers`: the containers). */
  onClose?: () => Promise<void>;
  /** For the embedded agent: fault flags it starts with (`--agent-fault`). */
  agentFault: readonly string[];
  /** For the embedded agent: more `a2a-rig agent` flags (the DoS matrix shortens its timeouts with them). */
  agentArgs?: string[];
  /** `--a2a-version`: the wire generation to speak; auto reads it from the card. */
  a2aVersion: Generation | 'auto';
  /** The binding to speak; by default the card's preferred one the rig speaks. */
  binding?: Binding;
  /** Toxics for the whole run (`--toxic`): on the proxy during every scenario. */
  toxic?: readonly ToxicSpec[];
  /**
   * Who watches the run (rig/results/runObserver.ts: the progress display, `--metrics-port`):
   * runScenarios tells it of each scenario, the context of what the scenario records, and the
   * environment of the exchanges of clients through the proxy.
   */
  observer?: RunObserver;
  /** Names the run's Toxiproxy proxy (`a2a-rig-<runId>`); random when absent. */
  runId?: string;
  /**
   * `--follow-card-endpoint`: call a JSON-RPC endpoint the card names at another origin than the
   * target (else a usage error).
   */
  followCardEndpoint?: boolean;
  /**
   * A distributed run's worker: its share of the open-model schedules of shardable scenarios
   * (rig/load/shardedArrivals.ts).
   */
  share?: ArrivalShare;
  /** `--workers`: worker threads for the open-model loads, attacks and floods that can use them; default 1. */
  workers?: number;
  /** Told, before any traffic goes there, when the card's endpoint is not the URL the user gave (cardEndpoint.ts). */
  announce?: (line: string) => void;
  access?: TargetAccess;
}

export class Environment {
  private constructor(
    readonly options: EnvironmentOptions,
    /** The agent's own address. */
    readonly directUrl: string,
    /** Where the rig's traffic goes: the proxy when there is one, else the agent. */
    readonly url: string,
    readonly agent: AgentDescription,
    readonly faults: FaultControl | undefined,
    private readonly process: AgentProcess | undefined,
    readonly faultsUnavailableReason: string | undefined,
    /** The run's own proxy on the fault backend; every fault helper acts on it and nothing else. */
    readonly proxyName: string | undefined,
    /** Where the card sends JSON-RPC, against the URL the user gave. */
    readonly endpoint: CardEndpoint,
    /** Said before the first request when the endpoint is not that URL (also in results.json and summary.md). */
    readonly endpointNote: string | undefined,
  ) {}

  static async open(options: EnvironmentOptions): Promise<Environment> {
    const { process, directUrl } = await startAgent(options);
    let faults: FaultControl | undefined;
    try {
      // The card is read straight from the agent, so an unreachable or wrong --target is reported
      // with the address the user gave (not the proxy's), before any fault backend is started.
      const direct = await readAgent(directUrl, {
        generation: options.a2aVersion,
        binding: options.binding,
        credentials: options.access?.credentials,
      });
      checkRequiredExtensions(direct.card, options.access?.activate ?? [], options.announce);
      const named = targetLabel(directUrl, process !== undefined);
      const { endpoint, note } = placeCardEndpoint(options, direct, directUrl, named);
      const route = await routeThroughProxy(options, direct, directUrl, { endpoint, named });
      faults = route.faults;
      if (options.toxic?.length && !faults)
        throw new UserError(`--toxic needs a fault backend, and there is none: ${route.unavailable}`);
      const env = new Environment(
        options,
        directUrl,
        route.url,
        route.agent,
        faults,
        process,
        route.unavailable,
        route.proxyName,
        endpoint,
        note,
      );
      // Asked once, straight to the agent and about no task, so scenarios needing it skip before sending anything.
      env.replayPlane = await probeReplayPlane(
        route.agent.binding === 'GRPC' ? directUrl : env.directRpcUrl,
        route.agent.generation,
        route.agent.hitl.declared ? [HITL_PROMPT_URI] : [],
        options.access,
      );
      return env;
    } catch (err) {
      await faults?.close().catch(() => {});
      await process?.stop();
      await options.onClose?.();
      throw err;
    }
  }

  /** Whether the agent offers the replay plane (/events), probed when the environment opened. */
  replayPlane: ReplayPlaneProbe = { offered: false, detail: 'not probed' };

  /**
   * The card's JSON-RPC endpoint without the proxy: at the agent's own address, or (followed) the
   * card's endpoint elsewhere.
   */
  get directRpcUrl(): string {
    return this.endpoint.directRpcUrl;
  }

  get kind(): 'embedded' | 'url' {
    return this.process ? 'embedded' : 'url';
  }

  get embeddedPid(): number | undefined {
    return this.process?.pid;
  }

  get canRestart(): boolean {
    return (
      this.process !== undefined || this.options.restartCmd !== undefined || this.options.restartAgent !== undefined
    );
  }

  get proxyRecord(): BackendRecord | undefined {
    return this.faults?.record;
  }

  /** The run has toxics of its own (`--toxic`): on the proxy during every scenario. */
  get hasRunToxics(): boolean {
    return (this.options.toxic?.length ?? 0) > 0;
  }

  /**
   * A client through the proxy (faults apply), sharing `history` when given; its exchanges are told
   * to `traffic` (the scenario's record) beside the live metrics. `route` 'for-toxics': through the
   * proxy only when the run has toxics, else straight to the agent (still counted as the run's
   * traffic): a load that adds no fault of its own then measures the agent, not the proxy's hop.
   */
  client(
    history?: EventHistory,
    connections = 32,
    traffic?: ExchangeObserver,
    route: ClientRoute = 'proxy',
  ): A2AClient {
    const bypass = route === 'for-toxics' && !this.hasRunToxics;
    // Errors name the agent the user gave, and the proxy hop (not just the proxy's port).
    const target =
      this.url === this.directUrl || bypass
        ? undefined
        : { rpcUrl: this.directRpcUrl, via: `fault proxy ${new URL(this.url).host}` };
    return A2AClient.forAgent(bypass ? { ...this.agent, rpcUrl: this.directRpcUrl } : this.agent, {
      history,
      connections,
      observer: this.exchangeObserver(traffic, true),
      target,
      ...this.options.access,
    });
  }

  /** A client straight to the agent, for the truth: no toxic touches it. Its exchanges are told to `traffic` only. */
  directClient(traffic?: ExchangeObserver): A2AClient {
    return A2AClient.forAgent(
      { ...this.agent, rpcUrl: this.directRpcUrl },
      { connections: 4, observer: this.exchangeObserver(traffic, false), ...this.options.access },
    );
  }

  /**
   * The one place a client's observer is chosen: the run's observer (the live Prometheus metrics;
   * clients through the proxy only, as they always counted) and the scenario's traffic record
   * (every client of the scenario), both told when there are both.
   */
  private exchangeObserver(traffic: ExchangeObserver | undefined, throughProxy: boolean): ExchangeObserver | undefined {
    const live = throughProxy ? exchangesTo(this.options.observer) : undefined;
    if (live && traffic) return new BothObservers(live, traffic);
    return live ?? traffic;
  }

  private applied: AppliedToxic[] = [];

  /** The run's toxics (`--toxic`) as the proxy last applied them. */
  get runToxics(): readonly AppliedToxic[] {
    return this.applied;
  }

  /**
   * Puts the run's toxics on the proxy (before each scenario, and after a reset), named
   * `run<N>-<type>_<stream>` so they never collide with a scenario's own.
   */
  async applyRunToxics(): Promise<void> {
    const toxics = this.options.toxic ?? [];
    if (!this.faults || !this.proxyName || toxics.length === 0) return;
    const applied: AppliedToxic[] = [];
    for (const [i, spec] of toxics.entries()) {
      applied.push(
        await this.faults.addToxic(this.proxyName, {
          ...spec,
          name: `run${i + 1}-${spec.type}_${spec.stream ?? 'downstream'}`,
        }),
      );
    }
    this.applied = applied;
  }

  /** Every toxic of the run's proxy removed and the proxy enabled, then the run's own toxics back on. */
  async resetFaults(): Promise<void> {
    await this.faults?.reset();
    await this.applyRunToxics();
  }

  /** Kills the agent (-9) and starts it again on the same database and port; waits until it answers. */
  async restart(): Promise<void> {
    if (this.process) await this.process.restart();
    else if (this.options.restartCmd) await runRestartCommand(this.options.restartCmd);
    else if (this.options.restartAgent) await this.options.restartAgent();
    else throw new UserError('this environment cannot restart the agent: pass --restart-cmd for a --target');
    await waitForCard(this.directUrl, this.options.access?.credentials);
  }

  private closing: Promise<void> | undefined;

  /** Deletes the run's proxy and stops what the run started; idempotent (an interrupt may call it during a close). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.faults?.close().catch(() => {});
      await this.process?.stop();
      await this.options.onClose?.();
    })();
    return this.closing;
  }
}

/** The agent's own address: the target's, or the embedded agent's once it started. */
async function startAgent(options: EnvironmentOptions): Promise<{ process?: AgentProcess; directUrl: string }> {
  if (options.target) return { directUrl: options.target.replace(/\/+$/, '') };
  const process = new AgentProcess(options.agentFault, options.agentArgs);
  try {
    return { process, directUrl: await process.start() };
  } catch (err) {
    await process.stop();
    throw err;
  }
}

/**
 * Before anything goes to the card's endpoint (JSON-RPC, the replay probe, /events): an endpoint
 * the user did not name is refused, or said first.
 */
function placeCardEndpoint(
  options: EnvironmentOptions,
  agent: AgentDescription,
  directUrl: string,
  named: string,
): { endpoint: CardEndpoint; note: string | undefined } {
  const endpoint = placeEndpoint(agent.binding, agent.rpcUrl, directUrl);
  const refused = refusalLine(endpoint, agent.cardUrl, named, options.followCardEndpoint === true);
  if (refused) throw new UserError(refused);
  const note = endpointNote(endpoint, named);
  if (note) options.announce?.(note);
  return { endpoint, note };
}

interface ProxyRoute {
  /** The agent as the rig's clients reach it: through the proxy when there is one. */
  agent: AgentDescription;
  url: string;
  faults?: FaultControl;
  proxyName?: string;
  unavailable?: string;
}

/** The run's proxy in front of the agent, or why there is none. */
async function routeThroughProxy(
  options: EnvironmentOptions,
  agent: AgentDescription,
  directUrl: string,
  { endpoint, named }: { endpoint: CardEndpoint; named: string },
): Promise<ProxyRoute> {
  if (options.toxiproxy === 'none')
    return { agent, url: directUrl, unavailable: 'the run has no fault backend (--toxiproxy none)' };
  // Faults injected where the rig's traffic does not pass would prove nothing: say so instead.
  if (endpoint.placement === 'other-origin')
    return { agent, url: directUrl, unavailable: faultsElsewhereReason(endpoint, named) };
  const faults = await FaultControl.open(options.toxiproxy);
  try {
    // The proxy fronts the port the calls go to: the agent's own, or its gRPC server's.
    const target = new URL(agent.binding === 'GRPC' ? endpoint.directRpcUrl : directUrl);
    const proxy = await faults.createUniqueProxy(
      runProxyName(options.runId),
      `${target.hostname}:${target.port || (target.protocol === 'https:' ? 443 : 80)}`,
    );
    const proxyUrl = `${target.protocol}//${proxy.listen}${target.pathname === '/' ? '' : target.pathname}`;
    return { agent: throughProxy(agent, proxyUrl), url: proxyUrl, faults, proxyName: proxy.name };
  } catch (err) {
    await faults.close().catch(() => {});
    throw err;
  }
}
