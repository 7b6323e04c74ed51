// The scenario the README's "Write a scenario" shows, as the reader would save it: the code block
// that starts with `// my-agent/rig-scenarios/answer-twice.ts`, written into a directory outside
// the repository, and the command line printed under it. Tests run both, so the example cannot rot.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

export interface ReadmeExample {
  /** The directory holding the example file. */
  dir: string;
  /** The arguments of the README's `npx a2a-rig run ...` line under it, `--scenarios` and `--target` left out. */
  args: string[];
}

export function writeReadmeExample(root: string): ReadmeExample {
  const block = /```ts\n(\/\/ my-agent\/rig-scenarios\/answer-twice\.ts\n[\s\S]*?)```/.exec(README);
  if (!block) throw new Error('README.md has no code block starting with // my-agent/rig-scenarios/answer-twice.ts');
  const dir = join(root, 'rig-scenarios');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'answer-twice.ts'), block[1]!);
  const command = /```sh\nnpx a2a-rig run --scenarios my-agent\/rig-scenarios --target \S+ \\\n\s+(.*)\n```/.exec(
    README.slice(block.index),
  );
  if (!command)
    throw new Error(
      'README.md has no `npx a2a-rig run --scenarios my-agent/rig-scenarios --target URL \\` line after the example',
    );
  const args = command[1]!.match(/'[^']*'|\S+/g)!.map((a) => a.replace(/^'(.*)'$/, '$1'));
  return { dir, args };
}
