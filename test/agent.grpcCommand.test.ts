// `a2a-rig agent --grpc-port`: the start line names the gRPC address, which answers; a bad value or
// a port the agent cannot have is a usage error (exit 2) naming the option; SIGTERM stops both.
import { createServer } from 'node:net';
import { once } from 'node:events';
import { status as GrpcCode } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { spawnAgent } from './support/agentFixture.ts';
import { grpcTestClient } from './support/grpcTestClient.ts';
import { runRig } from './support/rigCli.ts';

describe('a2a-rig agent --grpc-port', () => {
  it('prints the gRPC address, serves it, and stops cleanly on SIGTERM', async () => {
    const agent = await spawnAgent(['--grpc-port', '0']);
    try {
      expect(agent.grpc).toMatch(/^127\.0\.0\.1:\d+$/);
      const client = grpcTestClient(agent.grpc!);
      const missing = await client.call('GetTask', { id: 'no-such-task' });
      client.close();
      expect(missing.error!.status).toBe(GrpcCode.NOT_FOUND);
    } finally {
      agent.child.kill('SIGTERM');
    }
    expect(await agent.exited).toBe(0);
  });

  it('refuses a value that is not a port, exit 2', async () => {
    const run = await runRig(['agent', '--grpc-port', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--grpc-port must be an integer in 0..65535');
  });

  it('refuses a port already taken, exit 2, before the HTTP server starts', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    try {
      const { port } = holder.address() as { port: number };
      const run = await runRig(['agent', '--grpc-port', String(port)]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`cannot listen for gRPC on 127.0.0.1:${port}`);
      expect(run.stdout).toBe('');
    } finally {
      holder.close();
    }
  });
});
