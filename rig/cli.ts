// The one command line of the rig. Each verb lives beside the part it drives and registers itself
// here; this file only wires them and turns errors into one line: a user error exits 2, a bug in
// the rig exits 4 with its stack in a file (rig/internalError.ts). Exit codes: rig/exitCodes.ts.
import { Command, CommanderError } from 'commander';
import { UserError } from './protocol/userError.ts';
import { EXIT } from './exitCodes.ts';
import { internalErrorLine, logInternalError } from './internalError.ts';
import { printableLine } from './report/terminal/terminalText.ts';
import { RIG_VERSION } from './engine/rigVersion.ts';

const program = new Command('a2a-rig')
  .description('Load and chaos testing rig for A2A agents that pause for a human (hitl-prompt/v1)')
  .version(RIG_VERSION, '-V, --version', "print the rig's version")
  .showHelpAfterError('(run a2a-rig --help for usage)')
  .exitOverride();

type Register = (program: Command) => void;
// Each verb's module, in the order `--help` lists them. A verb loads only its own module: an agent or
// a `compare` does not load the engine and the report writers, which cost every start, an `agent`
// child's included, most of its CPU (docs/testing.md). Help and an unknown verb load them all.
const MODULES: { verbs: string[]; load: () => Promise<Register> }[] = [
  { verbs: ['agent'], load: async () => (await import('./agent/agentCommand.ts')).registerAgentCommand },
  { verbs: ['proxy'], load: async () => (await import('./proxy/proxyCommand.ts')).registerProxyCommand },
  { verbs: ['run', 'conform', 'list'], load: async () => (await import('./runCommand.ts')).registerRunCommands },
  {
    verbs: ['compare', 'merge'],
    load: async () => (await import('./report/reportCommands.ts')).registerReportCommands,
  },
  { verbs: ['ab'], load: async () => (await import('./ab/abCommand.ts')).registerAbCommand },
  {
    verbs: ['report'],
    load: async () => (await import('./report/html/htmlReportCommand.ts')).registerHtmlReportCommand,
  },
];
const verb = process.argv[2];
const needed = MODULES.filter((m) => verb !== undefined && m.verbs.includes(verb));
// --version needs no verb at all: it answers before any module of the rig's commands is loaded.
const versionOnly = verb === '-V' || verb === '--version';
for (const m of needed.length > 0 || versionOnly ? needed : MODULES) (await m.load())(program);

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
