// The rig's own load in every report (rig/report/rigHealthText.ts, healthSection.ts): the terminal
// summary and summary.md say it in one line under a scenario only when notable (saturated, or late
// starts), a saturated scenario's latencies are marked where they are read, report.html warns and
// draws the windows; a quiet or unrecorded health adds nothing. And a merge keeps the worst.
import { describe, expect, it } from 'vitest';
import type { RigHealth } from '../rig/metrics/rigHealth.ts';
import { htmlReport } from '../rig/report/html/htmlReport.ts';
import { mergeRuns } from '../rig/report/merge/mergeRuns.ts';
import { summaryMarkdown } from '../rig/report/summaryMarkdown.ts';
import { terminalSummary } from '../rig/report/terminal/terminalSummary.ts';
import type { ScenarioResult } from '../rig/results/runResult.ts';
import { health } from './support/rigHealthFixture.ts';
import { loadOf } from './support/scheduleTruthFixture.ts';
import { scheduleHealthOf } from '../rig/metrics/scheduleHealth.ts';
import { mergeInputs, run, samples, scenario } from './support/runResultFixture.ts';

const SATURATED = 'the load generator was saturated: event-loop delay p99 48.0 ms (over 20 ms)';

function withHealth(name: string, h?: RigHealth): ScenarioResult {
  const s = scenario(name, { latencies: { resume_latency: samples(200, 1_000, 5_000) } });
  return h ? { ...s, health: h } : s;
}

const busy = health({
  eventLoopDelayMs: { p50: 4, p99: 48, max: 120 },
  points: [
    { t: 1000, loopP99Ms: 40, loopMaxMs: 90, rigCpuPct: 70, agentCpuPct: 30 },
    { t: 2000, loopP99Ms: 55, loopMaxMs: 120, rigCpuPct: 95, agentCpuPct: 35 },
  ],
});
const late = health({ schedule: { started: 1200, late: 3, maxStartLagMs: 12 } });
const fixture = () =>
  run([withHealth('quiet', health()), withHealth('busy', busy), withHealth('late', late), withHealth('old')]);

describe('the rig health line', () => {
  it('terminal: under the saturated and the late scenario only, the saturation first', () => {
    const text = terminalSummary(fixture(), { width: 100 });
    const lines = text.split('\n').filter((l) => l.includes('rig: '));
    expect(lines).toHaveLength(2);
    // Wrapped under the scenario's row: read as one text.
    const flat = text.replace(/\n +/g, ' ');
    expect(flat).toContain(`rig: ${SATURATED}; its latencies include the rig's own delay`);
    expect(flat).toContain('rig: the open model started late · event-loop delay');
    const rows = text.split('\n');
    expect(rows[rows.findIndex((l) => / busy /.test(l)) + 1]).toContain(SATURATED.slice(0, 30));
    expect(flat).toContain('3 of 1,200 starts late (max lag 12.0 ms)');
  });

  it('summary.md: the saturated latency cell is marked; one bullet per notable scenario', () => {
    const md = summaryMarkdown(fixture());
    const row = (name: string) => md.split('\n').find((l) => l.startsWith(`| ${name} |`))!;
    expect(row('busy')).toContain('**load generator saturated**');
    for (const name of ['quiet', 'late', 'old']) expect(row(name)).not.toContain('saturated');
    const section = md.slice(md.indexOf("## The rig's own load"));
    expect(section.split('\n').filter((l) => l.startsWith('- '))).toEqual([
      expect.stringMatching(/^- \*\*busy\*\* · the load generator was saturated: event-loop delay p99 48.0 ms/),
      expect.stringMatching(/^- \*\*late\*\* · the open model started late/),
    ]);
    expect(summaryMarkdown(run([withHealth('quiet', health())]))).not.toContain('own load');
  });

  it('report.html: a warning and two strips for the saturated scenario; figures for every recorded one', () => {
    const page = htmlReport(fixture());
    expect(page.match(/data-health="saturated"/g)).toHaveLength(1);
    expect(page).toContain('<strong>Load generator saturated:</strong> event-loop delay p99 48.0 ms (over 20 ms).');
    expect(page).toContain('data-chart="rig_loop_delay_ms_vs_s"');
    expect(page).toContain('data-chart="rig_cpu_pct_vs_s"');
    expect(page.match(/<h4>The rig&#39;s own load<\/h4>|<h4>The rig's own load<\/h4>/g)).toHaveLength(3);
  });

  it('merge: the worst of each figure; one source with health keeps its time series', () => {
    const a = run([withHealth('s', busy)], 'a');
    const b = run([withHealth('s', late)], 'b');
    const merged = mergeRuns(mergeInputs({ ...a, rig: { ...a.rig, health: busy } }, b), 'm');
    const h = merged.scenarios[0]!.health!;
    expect(h.eventLoopDelayMs.p99).toBe(48);
    expect(h.schedule).toEqual(late.schedule);
    expect(h).not.toHaveProperty('points');
    expect(merged.rig.health).toEqual(busy);
    const alone = mergeRuns(mergeInputs(a, run([withHealth('s')], 'c')), 'm');
    expect(alone.scenarios[0]!.health!.points).toEqual(busy.points);
  });
});

describe('the generator fell behind', () => {
  // Step 4 of a stepped load: 6,000 due, 312 dropped (every slot taken), the rest started, 100 of
  // them 38 ms late after waiting for a slot (so the rig is not saturated: it reached its bounds);
  // the loop stalled 41 ms once. The other step kept up.
  const onTime = (n: number) => Array<number>(n).fill(0.5);
  const stepped = loadOf(
    [
      { step: 3, lags: onTime(1_000) },
      { step: 4, lags: onTime(5_588), waited: Array<number>(100).fill(38), dropped: 312 },
    ],
    { p50: 0.2, p99: 3, max: 41 },
  );
  const behindHealth = health({ schedule: scheduleHealthOf([stepped]) });
  const keptUp = health({ schedule: scheduleHealthOf([loadOf([{ lags: [...onTime(999), 25] }])]) });
  const BEHIND =
    'the generator fell behind in step 4: 312 of 6,000 starts dropped, 100 of 5,688 started late ' +
    '(0 with a slot free), start lag p99 38.0 ms, worst event-loop delay 41.0 ms';
  const runOf = () => run([withHealth('stepped', behindHealth), withHealth('kept-up', keptUp)]);

  it('terminal: says where and by how much, and that it is the rig’s limit; nothing when it kept up', () => {
    const flat = terminalSummary(runOf(), { width: 400 }).replace(/\n +/g, ' ');
    expect(flat).toContain(`rig: ${BEHIND} (the rig's limit, not the agent's)`);
    expect(flat).toContain('100 of 6,688 starts late (max lag 38.0 ms), 312 dropped, start lag p99 38.0 ms');
    expect(flat.match(/rig: /g)).toHaveLength(1);
    expect(behindHealth.schedule).toMatchObject({ scheduled: 7_000, dropped_iterations: 312, started: 6_688 });
  });

  it('summary.md and report.html say it too; a run that kept up says nothing', () => {
    const md = summaryMarkdown(runOf()).replace(/\\([()])/g, '$1');
    expect(md).toContain(`- **stepped** · ${BEHIND}`);
    expect(md).not.toContain('**kept-up**');
    const page = htmlReport(runOf());
    expect(page.match(/data-health="behind"/g)).toHaveLength(1);
    expect(page).toContain('<strong>Schedule not kept:</strong> the generator fell behind in step 4: 312 of 6,000');
    expect(htmlReport(run([withHealth('kept-up', keptUp)]))).not.toContain('data-health="behind"');
  });
});
