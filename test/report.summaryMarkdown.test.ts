// summary.md over hand-made runs: an errored scenario's stack in a code block no stack can close,
// and no Errors section when nothing errored with a stack.
import { describe, expect, it } from 'vitest';
import { summaryMarkdown } from '../rig/report/summaryMarkdown.ts';
import { fixtureRun, STACK } from './support/terminalSummaryFixtures.ts';
import { run, scenario } from './support/runResultFixture.ts';

describe('summary.md', () => {
  it("keeps an errored scenario's stack in a code block no stack can close", () => {
    const base = fixtureRun();
    const md = summaryMarkdown({
      ...base,
      scenarios: [{ ...base.scenarios[6]!, stack: `${STACK}\n    at weird (/x/\`\`\`y.ts:1:1)` }],
    });
    expect(md).toContain(
      '## Errors\n\n**my-scenario**: TypeError: x is not a function\n\n````\n' +
        'Error: boom\n    at run (/home/user/project/scenarios/my-scenario.ts:42:7)\n',
    );
    expect(md).toMatch(/at weird \(\/x\/```y\.ts:1:1\)\n````\n/);
  });

  it('has no Errors section when nothing errored with a stack', () => {
    expect(summaryMarkdown(run([scenario('cf1')]))).not.toContain('## Errors');
  });
});
