// `a2a-rig run --env containers`: the containers become what --target, --toxiproxy and
// --restart-cmd would have named, so the run goes through the ordinary Environment (environment.ts)
// and nothing else. The containers are removed by the environment's close() (also on SIGINT, which
// closes it), and by the caller's finally when the environment never opened.
import { UserError } from '../protocol/userError.ts';
import type { ToxiproxyChoice } from '../proxy/backend.ts';
import type { EnvironmentOptions } from './environment/environment.ts';
import { DEFAULT_AGENT_IMAGE, startContainerEnvironment } from './environment/containerEnvironment.ts';

export { DEFAULT_AGENT_IMAGE };

export interface ContainerFlags {
  target?: string;
  restartCmd?: string;
  agentFault: readonly string[];
  toxiproxy: ToxiproxyChoice | 'none';
  agentImage: string;
}

export type ContainerRunOptions = Required<
  Pick<EnvironmentOptions, 'target' | 'toxiproxy' | 'restartAgent' | 'onClose'>
>;

export async function containerRunOptions(flags: ContainerFlags): Promise<ContainerRunOptions> {
  for (const [given, name] of [
    [flags.target, '--target'],
    [flags.restartCmd, '--restart-cmd'],
    [flags.agentFault.length > 0, '--agent-fault'],
  ] as const) {
    if (given) throw new UserError(`${name} does not go with --env containers: the containers are the agent`);
  }
  if (flags.toxiproxy === 'none')
    throw new UserError('--toxiproxy none does not go with --env containers: its Toxiproxy is a container');
  const env = await startContainerEnvironment({ agentImage: flags.agentImage, handleSignals: false });
  process.stderr.write(
    `a2a-rig: containers ready in ${env.readyMs} ms: agent ${env.directAgentUrl}, Toxiproxy ${env.toxiproxyUrl}\n`,
  );
  return {
    target: env.directAgentUrl,
    toxiproxy: { kind: 'url', url: env.toxiproxyUrl },
    restartAgent: () => env.restart(),
    onClose: () => env.stop(),
  };
}
