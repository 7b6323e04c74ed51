// docs/cli.md against the real `--help`: every flag each verb's help prints has a row in the page's
// "Every flag and its default" tables with the default the help shows, the tables list no flag the
// verb lacks, and every flag the page names anywhere (a code span, a usage block) is some verb's.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRig } from './support/rigCli.ts';

const DOC = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8');

/** Flags compare refuses by name since its intervals replaced them; the page says so, and they stay refused. */
const REFUSED = ['--noise-floor-ms', '--min-tail-samples', '--max-load-per-core'];

/** The default a flag's help text ends with, as the tables write it ('' for none; an empty list is none). */
function helpDefault(text: string): string {
  const found = /default: ("[^"]*"|[^,)]*)\)$/.exec(text.trim());
  const value = found ? found[1]!.replace(/^"(.*)"$/, '$1') : '';
  return value === '[]' ? '' : value;
}

/** The flags of a help text's "Options:" section and their defaults, in its order (--help left out). */
function helpFlags(help: string): Record<string, string> {
  const lines = help.split('\n');
  const options: Array<{ flag: string; text: string }> = [];
  for (const line of lines.slice(lines.indexOf('Options:') + 1)) {
    if (!line.startsWith(' ')) break;
    const flag = /^ {2}(?:-\w, )?(--[a-z0-9-]+)\S*(?: \S+)?\s*(.*)$/.exec(line);
    if (flag && /^ {2}-/.test(line)) options.push({ flag: flag[1]!, text: flag[2]! });
    else options[options.length - 1]!.text += ` ${line.trim()}`;
  }
  return Object.fromEntries(options.filter((o) => o.flag !== '--help').map((o) => [o.flag, helpDefault(o.text)]));
}

/** The page's table of each verb: `### \`a2a-rig VERB\`` and its `| \`--flag\` | default |` rows. */
function docTables(): Record<string, Record<string, string>> {
  const section = DOC.slice(DOC.indexOf('## Every flag and its default'));
  const tables: Record<string, Record<string, string>> = {};
  let verb: string | undefined;
  for (const line of section.split('\n')) {
    const heading = /^### `a2a-rig (\S+)`$/.exec(line);
    if (heading) tables[(verb = heading[1]!)] = {};
    const row = /^\| `(--[a-z0-9-]+)` \| (?:`(.*)`|—) \|$/.exec(line);
    if (row && verb) tables[verb]![row[1]!] = row[2] ?? '';
  }
  return tables;
}

/** Every flag the page names: in code spans that are a flag or an a2a-rig command line, and in usage blocks. */
function namedFlags(): Set<string> {
  const named = new Set<string>();
  const add = (text: string) => {
    for (const m of text.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)) named.add(m[0]);
  };
  const [prose, blocks] = [[] as string[], [] as string[]];
  DOC.split(/^```.*$/m).forEach((part, i) => (i % 2 === 1 ? blocks : prose).push(part));
  blocks.forEach(add);
  for (const part of prose)
    for (const span of part.matchAll(/`([^`\n]+)`/g))
      if (span[1]!.startsWith('--') || span[1]!.startsWith('a2a-rig ')) add(span[1]!);
  return named;
}

const help: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  const top = await runRig(['--help']);
  const commands = top.stdout.split('\n');
  const verbs = commands
    .slice(commands.indexOf('Commands:') + 1)
    .map((line) => /^ {2}([a-z]+) /.exec(line)?.[1])
    .filter((v): v is string => v !== undefined && v !== 'help');
  expect(verbs).toContain('run');
  const helps = await Promise.all(verbs.map((verb) => runRig([verb, '--help'])));
  verbs.forEach((verb, i) => {
    expect(helps[i]!.code, helps[i]!.stderr).toBe(0);
    help[verb] = helpFlags(helps[i]!.stdout);
  });
}, 120_000);

describe('docs/cli.md and --help', () => {
  it('documents every flag of every verb with the default its --help shows, and no flag a verb lacks', () => {
    expect(docTables()).toEqual(help);
  });

  it('names no flag that no verb has', () => {
    const known = new Set(['--version', '--help', ...REFUSED, ...Object.values(help).flatMap(Object.keys)]);
    expect([...namedFlags()].filter((flag) => !known.has(flag))).toEqual([]);
  });

  it('still refuses by name the flags it names as gone', { timeout: 60_000 }, async () => {
    for (const flag of REFUSED) {
      const run = await runRig(['compare', '--baseline', 'x', '--current', 'y', flag, '1']);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`${flag} is gone`);
    }
  });
});
