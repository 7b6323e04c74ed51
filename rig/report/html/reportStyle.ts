// The report's stylesheet, inlined into report.html (the page fetches nothing).

// The rules too long for one source line, in parts; each still one line of the stylesheet.
const BODY =
  'body { margin: 0; ' +
  'font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; ' +
  'color: var(--fg); background: var(--bg); }';
const CODE =
  'code { font: 12.5px ui-monospace, "DejaVu Sans Mono", monospace; background: var(--soft); ' +
  'padding: 0 3px; border-radius: 3px; overflow-wrap: anywhere; }';
const BADGE =
  '.badge { display: inline-block; min-width: 48px; text-align: center; padding: 1px 8px; ' +
  'border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; }';
const HEADLINE =
  '.headline { font-weight: 600; margin: 0 0 8px; } .headline.skipped { color: var(--skip); } ' +
  '.headline.interrupted { color: var(--stop); } .headline.partial { color: var(--stop); } ' +
  '.headline.inconclusive { color: var(--skip); }';
const COUNT_COLOURS =
  '.count.passed { color: var(--pass); } .count.failed { color: var(--fail); } ' +
  '.count.skipped { color: var(--skip); } .count.errored { color: var(--error); }';
const FIGURE_CHART =
  'figure.chart { margin: 0; max-width: 100%; } figure.chart.half { width: 520px; } ' +
  'figure.chart.wide, figure.chart.strip { width: 1060px; } ' +
  'figure.chart figcaption { font-weight: 600; font-size: 13px; margin: 4px 0 2px; }';
const TILE =
  '.tile { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; ' +
  'background: var(--soft); min-height: 84px; }';
const TILE_VALUE =
  '.tile .value { font-size: 24px; font-weight: 700; line-height: 1.3; ' +
  'font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }';
const REGRESSION =
  'tr.regression td { background: #fff5f5; } .result.regression { color: var(--fail); ' +
  'font-weight: 700; } .result.skipped { color: var(--muted); }';
const LOG_AND_STACK =
  'details.log pre, details.stack pre { font: 12px/1.5 ui-monospace, "DejaVu Sans Mono", monospace; ' +
  'background: var(--soft); padding: 8px 10px; border-radius: 4px; overflow-x: auto; ' +
  'white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }';
const LEGEND =
  'ul.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 2px 14px; padding: 0; ' +
  'margin: 0 0 2px 64px; font-size: 12px; color: var(--muted); }';
const SWATCH =
  '.swatch { display: inline-block; width: 16px; height: 0; border-top: 2px solid var(--c); ' +
  'vertical-align: middle; margin-right: 5px; }';
const EVENTS =
  'ol.events { padding-left: 20px; margin: 0; } ol.events .t { font-variant-numeric: tabular-nums; ' +
  'color: var(--muted); display: inline-block; min-width: 60px; }';

export const REPORT_STYLE = `
:root { --fg: #1d2330; --muted: #5b6472; --line: #d9dde3; --bg: #ffffff; --soft: #f5f7fa;
  --pass: #2f7d32; --fail: #c62828; --skip: #8a6d00; --error: #8e24aa; --stop: #b34700; }
* { box-sizing: border-box; }
${BODY}
header, main, footer { max-width: 1180px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 18px; border-bottom: 1px solid var(--line); padding-bottom: 10px; }
h1 { font-size: 22px; margin: 0 0 6px; display: flex; align-items: center; gap: 10px; flex-wrap: wrap; }
h2 { font-size: 18px; margin: 26px 0 10px; }
h3 { font-size: 16px; margin: 0 0 4px; display: flex; align-items: center; gap: 8px; }
h4 { font-size: 13px; margin: 14px 0 6px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.run-id { font: 13px ui-monospace, "DejaVu Sans Mono", monospace; color: var(--muted); font-weight: normal; }
${CODE}
${BADGE}
.badge.passed { background: var(--pass); } .badge.failed { background: var(--fail); }
.badge.skipped { background: var(--skip); } .badge.errored { background: var(--error); }
.badge.interrupted { background: var(--stop); } .badge.not-run { background: var(--muted); }
.badge.inconclusive { background: var(--skip); }
${HEADLINE}
.counts { margin: 0 0 8px; } .count { margin-right: 10px; font-weight: 600; }
${COUNT_COLOURS}
.count.interrupted { color: var(--stop); } .count.not-run { color: var(--muted); }
.count.inconclusive { color: var(--skip); }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; }
dl.kv dt { color: var(--muted); } dl.kv dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; background: var(--soft); }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.verdicts td:first-child a { color: inherit; font-weight: 600; text-decoration: none; }
table.verdicts tr.failed td, table.verdicts tr.errored td { background: #fff5f5; }
.metric { font: 12px ui-monospace, "DejaVu Sans Mono", monospace; } .n { color: var(--muted); font-size: 12px; }
.reason { color: var(--muted); overflow-wrap: anywhere; white-space: pre-wrap; }
article.scenario { border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; margin: 0 0 16px; }
article.scenario.failed, article.scenario.errored { border-color: var(--fail); }
.description { margin: 0 0 6px; color: var(--muted); }
.charts { display: flex; flex-wrap: wrap; gap: 10px 18px; margin: 8px 0; }
.over-time { display: flex; flex-direction: column; gap: 4px; margin: 10px 0; }
${FIGURE_CHART}
.chart-note { font-weight: normal; color: var(--muted); font-size: 12px; }
figure.chart svg { max-width: 100%; height: auto; display: block; }
.tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 10px; margin: 10px 0 14px; }
${TILE}
.tile .label { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
${TILE_VALUE}
.tile .value a { color: inherit; } .tile .unit { font-size: 13px; font-weight: normal; color: var(--muted); }
.tile .detail { font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
#contents { font-size: 13px; margin: 0 0 12px; line-height: 1.8; } #contents a { white-space: nowrap; }
.tile.bad { border-color: var(--fail); } .tile.bad .value { color: var(--fail); }
.tile.provoked .value::after { content: " provoked"; font-size: 12px; font-weight: normal; color: var(--muted); }
.tile.none .value { font-size: 16px; color: var(--muted); font-weight: 600; }
.tile.passed { border-color: var(--pass); } .tile.failed, .tile.errored { border-color: var(--fail); }
.badge.big { font-size: 18px; padding: 2px 12px; border-radius: 14px; }
p.totals { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 6px 0; font-variant-numeric: tabular-nums; }
p.totals .bad { color: var(--fail); } p.totals.none, p.none { color: var(--muted); }
table.operations, table.baseline { margin: 4px 0 8px; }
td.thin { color: var(--muted); font-size: 12px; }
td.bad, .bad { color: var(--fail); }
${REGRESSION}
${LOG_AND_STACK}
details.log .t { color: var(--muted); display: inline-block; min-width: 64px; }
details.stack summary { color: var(--error); }
h3 a.anchor { color: inherit; text-decoration: none; }
svg .frame { fill: none; stroke: #9aa3ad; stroke-width: 1; }
svg .grid { stroke: #eceef1; stroke-width: 1; }
svg .tick { font-size: 11px; fill: var(--muted); }
svg .axis-label { font-size: 12px; fill: var(--muted); }
svg .series { fill: none; stroke-width: 1.8; stroke-linejoin: round; }
svg .span-label { font-size: 11px; fill: #7a4a12; font-weight: 600; }
svg .marker { stroke-width: 2; stroke-dasharray: 3 3; }
svg .marker-label, svg .rule-label { font-size: 12px; font-weight: 600; }
svg .rule { stroke-width: 1.5; stroke-dasharray: 6 4; }
svg .lane-label { font-size: 12px; fill: var(--fg); }
svg .point:hover, svg .bar:hover, svg .instant:hover { stroke: #000; stroke-width: 1; }
${LEGEND}
${SWATCH}
.swatch.dashed { border-top-style: dashed; }
.swatch.shaded { height: 10px; border: 1px solid #d0a0a0; background: var(--c); }
details { margin-top: 8px; } summary { cursor: pointer; color: var(--muted); }
ul.checks { list-style: none; padding: 0; margin: 8px 0; }
ul.checks li { padding: 2px 0; overflow-wrap: anywhere; } ul.checks li.bad { color: var(--fail); }
ul.checks li.unsure, ul.checks li.warn { color: var(--skip); } ul.checks .level { font-weight: 600; }
.headline.warned, .warned { color: var(--skip); }
ul.checks .mark { display: inline-block; width: 16px; font-weight: 700; } ul.checks li.ok .mark { color: var(--pass); }
ul.checks .detail { margin-left: 20px; color: var(--muted); font-size: 12.5px; white-space: pre-wrap; }
.notes { color: var(--skip); margin: 4px 0; } .notes ul { margin: 2px 0 0; padding-left: 20px; }
table.dos { width: auto; margin: 4px 0 8px; } table.dos td.bad { color: var(--fail); font-weight: 600; }
${EVENTS}
footer { color: var(--muted); font-size: 12px; padding: 18px 20px 30px; }
`;
