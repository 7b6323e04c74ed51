// What a rig client is opened with (a2aClient.ts): the generation and binding to speak, the
// extensions it activates, its bounds and connections, what it shares with other clients, who is
// told of its exchanges, and the user's access to the agent (TargetAccess, credentials.ts).
import type { Generation } from '../protocol/a2aTypes.ts';
import type { GuardedValidator } from '../protocol/guardedValidator.ts';
import type { Binding } from './cardInterfaces.ts';
import type { TargetAccess } from './credentials.ts';
import type { EventHistory } from './eventHistory.ts';
import type { ExchangeObserver } from './exchangeObserver.ts';
import type { ReplayLimits } from './replaySocket.ts';
import type { ProxiedTarget } from './targetNames.ts';
import type { TransportLimits } from './transportTypes.ts';

/** `credentials` and `activate` (TargetAccess) reach every exchange this client makes. */
export interface A2AClientOptions extends TargetAccess {
  /** 'auto' (default) reads it from the card; '1.0' or '0.3' forces it (`--a2a-version`). */
  generation?: Generation | 'auto';
  /** The binding to speak (`--binding`); by default the card's preferred one the rig speaks. */
  binding?: Binding;
  /** Extensions activated on every request (default: hitl-prompt/v1); per-call `extensions` override. */
  extensions?: readonly string[];
  /** Keep-alive connections per origin (default 32). */
  connections?: number;
  limits?: Partial<TransportLimits>;
  replayLimits?: Partial<ReplayLimits>;
  /** Share one history between clients; by default each client has its own. */
  history?: EventHistory;
  /** Share one validator (and its compiled-schema cache); by default each client has its own. */
  validator?: GuardedValidator;
  /** Told of every exchange as it ends (live metrics, `--metrics-port`). */
  observer?: ExchangeObserver;
  /**
   * When `agent.rpcUrl` is a proxy in front of the agent: the endpoint the user's target names and
   * the hop, so errors name what the user gave, e.g. `{rpcUrl: 'http://127.0.0.1:8765/', via: 'fault proxy 127.0.0.1:39019'}`.
   */
  target?: ProxiedTarget;
}
