// `a2a-rig proxy`: the embedded Toxiproxy on its own, for any Toxiproxy client (curl, the node or Go
// clients, toxiproxy-cli). Once listening it prints one JSON line on stdout ({"api","pid"}).
import { Command, Option } from 'commander';
import { UserError } from '../protocol/userError.ts';
import { startEmbeddedToxiproxy } from './embedded/embeddedToxiproxy.ts';

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UserError(`--api-port must be an integer in 0..65535 (0 picks a free port), got "${value}"`);
  return port;
}

export function registerProxyCommand(program: Command): void {
  program
    .command('proxy')
    .description('run the embedded Toxiproxy-compatible proxy (same HTTP API as toxiproxy-server)')
    .option('--host <host>', 'address the API listens on', '127.0.0.1')
    .addOption(
      new Option('--api-port <port>', 'port of the HTTP API (0 picks a free one)').default(8474).argParser(parsePort),
    )
    .action(async (opts: { host: string; apiPort: number }) => {
      let proxy;
      try {
        proxy = await startEmbeddedToxiproxy({ host: opts.host, port: opts.apiPort });
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') {
          throw new UserError(
            `cannot listen on ${opts.host}:${opts.apiPort} (${e.code}); pick another --host/--api-port`,
          );
        }
        throw err;
      }
      process.stdout.write(`${JSON.stringify({ api: proxy.url, pid: process.pid, version: proxy.version })}\n`);
      const stop = async () => {
        await proxy.close();
        process.exit(0);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
}
