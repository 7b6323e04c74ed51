// Run as a child by engine.agentProcessExit.test.ts: starts the embedded agent, prints its pid and
// database as one JSON line, then leaves with process.exit — what a forced interrupt (a second
// Ctrl-C) does — without stopping it. With the argument `hold`, it stays alive instead, to be
// killed -9 by the test: no exit handler runs then.
import { AgentProcess } from '../../rig/engine/environment/agentProcess.ts';

const agent = new AgentProcess([]);
await agent.start();
process.stdout.write(`${JSON.stringify({ pid: agent.pid, db: agent.dbPath })}\n`);
if (process.argv[2] !== 'hold') process.exit(130);
setInterval(() => {}, 60_000);
