// The fault helpers a scenario is given (`ctx.faults`): each acts on the run's own proxy and is
// recorded as a fault event; without a fault backend, using one skips the scenario.
import type { AppliedToxic } from '../proxy/faultControl.ts';
import type { FaultEvent } from '../results/runResult.ts';
import type { Environment } from './environment/environment.ts';
import type { FaultHelpers } from './kit/scenarioContextInterface.ts';

function toxicDetail(toxic: AppliedToxic): string {
  const attributes = Object.entries(toxic.attributes)
    .map(([k, v]) => ` ${k}=${v}`)
    .join('');
  return `${toxic.type} ${toxic.stream}${toxic.toxicity !== 1 ? ` toxicity=${toxic.toxicity}` : ''}${attributes}`;
}

export function scenarioFaults(
  env: Environment,
  faultEvent: (action: FaultEvent['action'], target: string, detail?: string) => void,
  skip: (reason: string) => never,
  /** A client of the scenario skips the proxy (newClient's 'for-toxics'): asked only when there is one. */
  bypassesProxy: () => boolean,
): FaultHelpers {
  const faults = env.faults;
  const proxyName = env.proxyName ?? '';
  const missing = () => skip(env.faultsUnavailableReason ?? 'no fault backend');
  // A fault the scenario's own load would not meet proves nothing: the scenario's mistake, said.
  const refuseBypass = (what: string) => {
    if (bypassesProxy())
      throw new Error(
        `ctx.faults.${what}: a client of this scenario goes straight to the agent (newClient with proxy ` +
          "'for-toxics' and no --toxic), so the fault would not touch it; make that client with proxy 'proxy'",
      );
  };
  return {
    available: faults !== undefined,
    backend: faults?.record.kind,
    add: async (spec) => {
      if (!faults) return missing();
      refuseBypass('add');
      const toxic = await faults.addToxic(proxyName, spec);
      faultEvent('add', toxic.name, toxicDetail(toxic));
      return toxic;
    },
    remove: async (name) => {
      if (!faults) return missing();
      await faults.removeToxic(proxyName, name);
      faultEvent('remove', name);
    },
    setEnabled: async (enabled) => {
      if (!faults) return missing();
      refuseBypass('setEnabled');
      const proxy = await faults.setEnabled(proxyName, enabled);
      faultEvent(enabled ? 'enable' : 'disable', 'proxy');
      return proxy;
    },
    reset: async () => {
      if (!faults) return;
      await env.resetFaults();
      faultEvent('reset', 'proxy');
    },
  };
}
