// Run as a child by the reaping test: opens a spawned toxiproxy-server (the binary is argv[2]),
// prints its pid as one JSON line, then idles until killed.
import { spawnToxiproxyServer } from '../../rig/proxy/toxiproxyServerProcess.ts';

const server = await spawnToxiproxyServer(process.argv[2]!);
process.stdout.write(`${JSON.stringify({ serverPid: server.pid, url: server.url })}\n`);
setInterval(() => {}, 60_000);
