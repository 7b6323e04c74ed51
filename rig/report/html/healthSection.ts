// The rig's own load in a scenario's section of report.html (results.json `health`,
// rig/metrics/rigHealth.ts): a warning beside the verdict when the rig was saturated (its latencies
// are then partly its own), two strips over the scenario's time (event-loop delay; rig and agent
// CPU) with the saturation thresholds drawn, and every figure as a line in the details.
import { rigSaturation, SATURATION, type RigHealthPoint } from '../../metrics/rigHealth.ts';
import type { ScenarioResult } from '../../results/runResult.ts';
import { PALETTE } from './charts/chartColors.ts';
import { behindNote, healthFigures } from '../rigHealthText.ts';
import { html, type HtmlValue, type SafeHtml } from './safeHtml.ts';
import { xyChart, type Series } from './charts/svgChart.ts';
import { timeAxis, timeOverlay } from './charts/timeOverlay.ts';

export function healthWarning(s: ScenarioResult): HtmlValue {
  const saturated = rigSaturation(s.health);
  const behind = s.health && behindNote(s.health);
  return html`${saturated ? html`<div class="notes" data-health="saturated"><strong>Load generator saturated:</strong> ${saturated.replace(/^the load generator was saturated: /, '')}. The latencies below include the rig's own delay, not only the agent's.</div>` : null}${behind ? html`<div class="notes" data-health="behind"><strong>Schedule not kept:</strong> ${behind}. The rig did not offer its load as scheduled: its limit, not the agent's.</div>` : null}`;
}

export function healthDetails(s: ScenarioResult): HtmlValue {
  if (!s.health) return null;
  return html`<h4>The rig's own load</h4><p class="health">${healthFigures(s.health)}</p>`;
}

function line(
  name: string,
  color: string,
  points: RigHealthPoint[],
  y: (p: RigHealthPoint) => number | undefined,
): Series {
  const held = points.flatMap((p) =>
    y(p) === undefined ? [] : [{ x: p.t / 1000, y: y(p)!, title: `${name} ${y(p)}` }],
  );
  return { name, color, points: held };
}

export function healthCharts(s: ScenarioResult): SafeHtml[] {
  const points = s.health?.points ?? [];
  if (points.length < 2) return [];
  const overlay = timeOverlay(s);
  const cpu = [
    line('rig', PALETTE[0]!, points, (p) => p.rigCpuPct),
    line('agent', PALETTE[1]!, points, (p) => p.agentCpuPct),
  ];
  return [
    xyChart({
      id: 'rig_loop_delay_ms_vs_s',
      title: "rig's event-loop delay over time (per window)",
      size: 'strip',
      x: timeAxis(s),
      y: { label: 'delay (ms)', min: 0 },
      series: [
        line('p99', PALETTE[3]!, points, (p) => p.loopP99Ms),
        line('max', PALETTE[9]!, points, (p) => p.loopMaxMs),
      ],
      rules: [
        {
          y: SATURATION.loopDelayP99Ms,
          label: `saturated above p99 ${SATURATION.loopDelayP99Ms} ms`,
          color: '#c62828',
        },
      ],
      ...overlay,
    }),
    xyChart({
      id: 'rig_cpu_pct_vs_s',
      title: 'CPU over time, % of one core (per window)',
      size: 'strip',
      x: timeAxis(s),
      y: { label: 'CPU (% of a core)', min: 0 },
      series: cpu.filter((c) => c.points.length > 0),
      rules: [
        {
          y: SATURATION.rigCpuPctOfCore,
          label: `rig saturated from ${SATURATION.rigCpuPctOfCore} %`,
          color: '#c62828',
        },
      ],
      ...overlay,
    }),
  ];
}
