// The one command line of the rig. Each verb lives beside the part it drives and registers itself
// here; this file only wires them and turns errors into one line: a user error exits 2, a bug in
// the rig exits 4 with its stack in a file (rig/internalError.ts). Exit codes: rig/exitCodes.ts.
import { Command, CommanderError } from 'commander';
import { registerAgentCommand } from './agent/agentCommand.ts';
import { registerProxyCommand } from './proxy/proxyCommand.ts';
import { registerRunCommands } from './runCommand.ts';
import { registerReportCommands } from './report/reportCommands.ts';
import { registerHtmlReportCommand } from './report/htmlReportCommand.ts';
import { UserError } from './protocol/userError.ts';
import { EXIT } from './exitCodes.ts';
import { internalErrorLine, logInternalError } from './internalError.ts';
import { printableLine } from './report/terminalText.ts';
import { RIG_VERSION } from './engine/rigVersion.ts';

const program = new Command('a2a-rig')
  .description('Load and chaos testing rig for A2A agents that pause for a human (hitl-prompt/v1)')
  .version(RIG_VERSION, '-V, --version', "print the rig's version")
  .showHelpAfterError('(run a2a-rig --help for usage)')
  .exitOverride();

registerAgentCommand(program);
registerProxyCommand(program);
registerRunCommands(program);
registerReportCommands(program);
registerHtmlReportCommand(program);

// A usage error in a verb points to that verb's help, which lists its flags, not to the list of verbs.
for (const verb of program.commands) verb.showHelpAfterError(`(run a2a-rig ${verb.name()} --help for usage)`);

function fail(err: unknown): never {
  if (err instanceof CommanderError) {
    // --help and --version end here too, with exit code 0.
    process.exit(err.exitCode === 0 ? EXIT.passed : EXIT.usage);
  }
  if (err instanceof UserError) {
    // A message may quote the agent (terminalText.ts): one line, controls shown, never raw.
    process.stderr.write(`a2a-rig: ${printableLine(err.message)}\n`);
    process.exit(EXIT.usage);
  }
  process.stderr.write(`${printableLine(internalErrorLine(logInternalError(err)))}\n`);
  process.exit(EXIT.internal);
}

// A bug that escapes its promise chain (a timer, a stray rejection) is still one line and exit 4.
process.on('uncaughtException', fail);
// A reader that stops early (`a2a-rig list | head`) is not a bug: the command goes on (a run still
// writes its result files and exits with its own code); what it prints after that goes nowhere.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') fail(err);
});
process.on('unhandledRejection', fail);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  fail(err);
}
