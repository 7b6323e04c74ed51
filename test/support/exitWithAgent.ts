// Run as a child by engine.agentProcessExit.test.ts: starts the embedded agent, prints its pid and
// database as one JSON line, then leaves with process.exit — what a forced interrupt (a second
// Ctrl-C) does — without stopping it.
import { AgentProcess } from '../../rig/engine/agentProcess.ts';

const agent = new AgentProcess([]);
await agent.start();
process.stdout.write(`${JSON.stringify({ pid: agent.pid, db: agent.dbPath })}\n`);
process.exit(130);
