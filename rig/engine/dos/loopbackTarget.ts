// Where a mixed run's attacks go (rig/attack/attackTypes.ts AttackTarget): the agent's own address,
// not the fault proxy (the proxy would be the first thing to choke, and it is not what is tested),
// from a loopback source address of their own. Hostile traffic goes to loopback only: an agent
// elsewhere is refused here, with the reason, before anything is sent.
import type { AttackTarget, LivePrompt } from '../../attack/attackTypes.ts';
import { accessRequestHeaders } from '../../client/a2aHeaders.ts';
import type { TargetAccess } from '../../client/credentials.ts';
import { HITL_PROMPT_URI } from '../../protocol/hitlPrompt.ts';
import type { Generation } from '../../protocol/a2aTypes.ts';
import type { Binding } from '../../client/cardInterfaces.ts';
import type { PromptAttempt } from '../kit/promptOpener.ts';

/** localhost, 127.0.0.0/8 and ::1: the only hosts attack traffic may reach (or come from). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export interface AttackTargetInput {
  /** The agent's own base URL (Environment.directUrl) and JSON-RPC endpoint there (directRpcUrl). */
  directUrl: string;
  directRpcUrl: string;
  generation: Generation;
  /** The binding the run speaks: the attacks speak it too (gRPC is not attacked: refused). */
  binding: Binding;
  hitlDeclared: boolean;
  sourceAddress: string;
  openPrompt?: () => Promise<LivePrompt>;
  /** The user's headers and `--activate` extensions: an attack refused with 401 would test nothing. */
  access?: TargetAccess;
}

/** The target, or why attacks cannot be aimed here (not loopback, not plain http:): the rig's limits. */
export function attackTargetOf(input: AttackTargetInput): AttackTarget | { refused: string } {
  const baseUrl = new URL(input.directUrl);
  const endpoint = new URL(input.directRpcUrl);
  for (const [what, url] of [
    ['the agent', baseUrl],
    ['its JSON-RPC endpoint', endpoint],
  ] as const) {
    const host = url.hostname;
    if (url.protocol !== 'http:')
      return {
        refused:
          `${what} is at ${url.href}: the rig's attacks speak plain http: only, ` +
          "so none can be aimed there (the rig's limit, not the agent's)",
      };
    if (!isLoopbackHost(host))
      return { refused: `${what} is at ${host}, not a loopback address: attack traffic goes to loopback only` };
  }
  if (!isLoopbackHost(input.sourceAddress))
    return { refused: `the attack source ${input.sourceAddress} is not a loopback address` };
  if (input.binding === 'GRPC')
    return {
      refused: "the rig's attacks speak HTTP (JSON-RPC or HTTP+JSON), not gRPC: run them with --binding jsonrpc",
    };
  return {
    baseUrl,
    endpoint,
    binding: input.binding,
    generation: input.generation,
    sourceAddress: input.sourceAddress,
    headers: accessRequestHeaders(
      { generation: input.generation, extensions: input.hitlDeclared ? [HITL_PROMPT_URI] : [] },
      input.access,
    ),
    ...(input.openPrompt ? { openPrompt: input.openPrompt } : {}),
  };
}

/** The prompt an attack answers, from the attempt to open one straight at the agent; throws when none opened. */
export function livePromptOf(attempt: PromptAttempt): LivePrompt {
  if (attempt.kind !== 'open' || !attempt.open.prompt.ok) {
    const why =
      attempt.kind === 'refused' ? attempt.reason : attempt.kind === 'open' ? 'malformed envelope' : attempt.kind;
    throw new Error(`no prompt opened for the attack: ${why}`);
  }
  const { open } = attempt;
  const envelope = open.prompt.ok ? open.prompt.envelope : undefined;
  return {
    taskId: open.taskId,
    ...(open.task.contextId ? { contextId: open.task.contextId } : {}),
    promptId: envelope!.prompt_id,
    responseSchema: envelope!.response_schema,
    validPayload: open.answers?.valid,
  };
}
