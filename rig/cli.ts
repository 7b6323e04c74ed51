// The one command line of the rig. Each verb lives beside the part it drives and registers itself
// here; this file only wires them and turns user errors into one line and exit code 2.
import { Command, CommanderError } from 'commander';
import { registerAgentCommand } from './agent/agentCommand.ts';
import { registerProxyCommand } from './proxy/proxyCommand.ts';
import { registerRunCommands } from './engine/runCommand.ts';
import { registerReportCommands } from './report/reportCommands.ts';
import { registerHtmlReportCommand } from './report/htmlReportCommand.ts';
import { UserError } from './protocol/userError.ts';

const program = new Command('a2a-rig')
  .description('Load and chaos testing rig for A2A agents that pause for a human (hitl-prompt/v1)')
  .showHelpAfterError('(run a2a-rig --help for usage)')
  .exitOverride();

registerAgentCommand(program);
registerProxyCommand(program);
registerRunCommands(program);
registerReportCommands(program);
registerHtmlReportCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version end here too, with exit code 0.
    process.exit(err.exitCode === 0 ? 0 : 2);
  }
  if (err instanceof UserError) {
    process.stderr.write(`a2a-rig: ${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
