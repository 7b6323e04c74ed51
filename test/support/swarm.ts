// Docker Swarm for test/deploy.swarm.test.ts: whether this engine can run a stack, joining a swarm
// only when the engine is in none (and leaving it afterwards), and the stack's tasks by slot.
import { spawnSync } from 'node:child_process';

export function sh(cmd: string, args: string[], timeoutMs = 30_000, env?: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, args, {
    encoding: 'utf8',
    timeout: timeoutMs,
    env: env ? { ...process.env, ...env } : process.env,
  });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim(), err: (r.stderr ?? '').trim() || String(r.error ?? '') };
}

/** Why no stack can run here, or undefined; `fatal` when CI must fail rather than skip. */
export function swarmPrecondition(image: string): { reason: string; fatal: boolean } | undefined {
  if (!sh('docker', ['info', '--format', '{{.ServerVersion}}'], 15_000).ok)
    return { reason: 'no Docker engine answers (docker info failed)', fatal: false };
  if (!sh('docker', ['image', 'inspect', image]).ok)
    return {
      reason: `image ${image} missing (docker build -t ${image} . or docker-compose build agent)`,
      fatal: Boolean(process.env.CI),
    };
  const state = sh('docker', ['info', '--format', '{{.Swarm.LocalNodeState}}']).out;
  if (state !== 'inactive' && state !== 'active')
    return { reason: `the engine's swarm is ${state}, neither active nor inactive`, fatal: Boolean(process.env.CI) };
  return undefined;
}

/** Joins a single-node swarm if the engine is in none; the returned function leaves only that one. */
export function ensureSwarm(): () => void {
  if (sh('docker', ['info', '--format', '{{.Swarm.LocalNodeState}}']).out === 'active') return () => {};
  const init = sh('docker', ['swarm', 'init', '--advertise-addr', '127.0.0.1'], 60_000);
  if (!init.ok) throw new Error(`docker swarm init failed: ${init.err}`);
  return () => void sh('docker', ['swarm', 'leave', '--force'], 60_000);
}

/** The running containers of a stack's service, by task slot. */
export function containersBySlot(service: string): Map<number, string> {
  const listed = sh('docker', [
    'ps',
    '--filter',
    `label=com.docker.swarm.service.name=${service}`,
    '--format',
    '{{.ID}} {{.Label "com.docker.swarm.task.name"}}',
  ]).out;
  const bySlot = new Map<number, string>();
  for (const line of listed.split('\n').filter(Boolean)) {
    const [id, task] = line.split(' ');
    const slot = Number(task!.split('.')[1]);
    bySlot.set(slot, id!);
  }
  return bySlot;
}
