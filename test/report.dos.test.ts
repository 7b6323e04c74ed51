// The DoS scenarios' parts of report.html and summary.md (issue 14): the attack window shaded and
// named on the latency-over-time chart and on the agent's RSS / CPU / connections charts, the
// legitimate traffic per phase with the attack tax, the outcomes per attack; and nothing of it for
// a scenario without these fields. Drawn for real in headless Chromium when it is installed.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { htmlReport } from '../rig/report/html/htmlReport.ts';
import type { ScenarioResult } from '../rig/results/runResult.ts';
import { summaryMarkdown } from '../rig/report/summaryMarkdown.ts';
import { writeResults } from '../rig/report/writeResults.ts';
import { dosScenario, run, samples, scenario } from './support/runResultFixture.ts';

const CHROMIUM = '/usr/bin/chromium';
const RESOURCE_CHARTS = ['agent_rss_mb_vs_s', 'agent_cpu_pct_vs_s', 'agent_connections_vs_s'];
const msText = (us: number) => (us / 1000).toFixed(us < 10_000 ? 2 : us < 100_000 ? 1 : 0);

function plain(): ScenarioResult {
  return {
    ...scenario('resume-latency', { latencies: { resume_latency: samples(50, 1000, 9000) }, durationMs: 12_000 }),
    faultEvents: [{ t: 1000, action: 'add', target: 'latency_downstream', detail: 'latency=100' }],
  };
}

/** The html of the scenario at `index` of the page (its article, anchored by its name). */
function section(text: string, index: number): string {
  const ids = [...text.matchAll(/<article class="scenario [^"]*" id="([^"]*)"/g)].map((m) => m[1]);
  const start = text.indexOf(`id="${ids[index]}"`);
  const end = text.indexOf('</article>', start);
  return text.slice(start, end);
}

/** The svg of one chart within a section. */
function chart(text: string, id: string): string {
  const start = text.indexOf(`data-chart="${id}"`);
  expect(start, id).toBeGreaterThan(0);
  return text.slice(start, text.indexOf('</svg>', start));
}

describe('report.html for a DoS scenario', () => {
  const dos = dosScenario();
  const text = htmlReport(run([dos, plain()]));
  const first = section(text, 0);

  it('shades the attack window on the latency-over-time chart and names the attack in it', () => {
    const svg = chart(first, 'latency-over-time');
    expect(svg).toMatch(
      // eslint-disable-next-line max-len -- the SVG element as rendered, as one pattern
      /<rect class="span"[^>]*><title>attack oversized-answer: 4 s → 8 s \(rate=75\/s maxRequests=300 bytes=2097152\)<\/title><\/rect>/,
    );
    expect(svg).toMatch(/<text class="span-label"[^>]*>oversized-answer<title>/);
    expect(first).toContain('attack: oversized-answer</li>');
  });

  it("draws the agent's RSS, CPU and open connections over time with the same shading", () => {
    for (const id of RESOURCE_CHARTS) {
      const svg = chart(first, id);
      expect(svg, id).toContain('<path class="series"');
      expect(svg, id).toMatch(/<text class="span-label"[^>]*>oversized-answer</);
    }
    expect(first).toContain('agent rss (MB) over time');
    expect(first).toContain('agent cpu (%) over time');
    expect(first).toContain('seconds since the scenario started');
  });

  it('tables the legitimate traffic per phase with the tax, and the outcomes and refusal latency per attack', () => {
    for (const metric of ['legit_round_trip', 'legit_resume']) {
      for (const phase of ['before', 'during', 'after']) {
        const m = dos.metrics[`${metric}{phase=${phase}}`]!;
        const row = first.slice(first.indexOf(`data-metric="${metric}" data-phase="${phase}"`)).split('</tr>')[0]!;
        expect(row, `${metric} ${phase}`).toContain(
          `<td class="num">${m.count}</td><td class="num">${msText(m.p50)}</td><td ` +
            `class="num">${msText(m.p95)}</td><td class="num">${msText(m.p99)}</td>`,
        );
      }
      const tax = dos.metrics[`${metric}{phase=during}`]!.p99 / dos.metrics[`${metric}{phase=before}`]!.p99;
      expect(tax).toBeGreaterThan(1.5);
      expect(first).toContain(`<strong>×${tax.toFixed(2)}</strong> tax`);
    }
    const row = first.slice(first.indexOf('data-attack="oversized-answer"')).split('</tr>')[0]!;
    const refusal = dos.metrics['attack_refusal{attack=oversized-answer}']!;
    expect(row).toContain(
      '<td class="num">290</td><td class="num">7</td><td class="num bad">3</td><td ' +
        `class="num">300</td><td class="num">${refusal.count}</td><td ` +
        `class="num">${msText(refusal.p50)}</td><td class="num">${msText(refusal.p99)}</td>`,
    );
    expect(first).toMatch(/<th>refused<\/th><th>cut<\/th><th>server-error<\/th><th>total<\/th>/);
  });

  it('draws nothing new for a scenario without these fields', () => {
    const second = section(text, 1);
    expect(second).toContain('data-chart="percentiles"');
    for (const absent of ['span-label', 'class="dos', 'attack', '_vs_s', 'over time</figcaption>'])
      expect(second, absent).not.toContain(absent);
    expect(second).toContain('<figcaption>Faults timeline</figcaption>');
  });

  it(
    'shows what the scenario could not judge (results.json notes) ' +
      'beside its verdict, in the page and in summary.md',
    () => {
      const noted = {
        ...dosScenario('dos-patterns'),
        notes: ['pattern-backtracking not aimed: the live prompt has no <pattern>'],
      };
      const page = section(htmlReport(run([noted])), 0);
      expect(page).toContain(
        '<strong>Not judged:</strong><ul><li>pattern-backtracking not aimed: ' +
          'the live prompt has no &lt;pattern&gt;</li></ul>',
      );
      expect(summaryMarkdown(run([noted]))).toContain(
        'not judged: pattern-backtracking not aimed: the live prompt has no &lt;pattern&gt;',
      );
      expect(first).not.toContain('Not judged');
    },
  );

  it('escapes an attack name and detail like every other string', () => {
    const hostile = dosScenario('dos-x', { attack: '<script>window.__pwned=1</script>' });
    const page = htmlReport(run([hostile]));
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
  });
});

describe('summary.md for DoS scenarios', () => {
  it('one line per DoS scenario with its tax and its attack outcomes; none for the others', () => {
    const dos = dosScenario();
    const summary = summaryMarkdown(run([dos, plain()]));
    const tax = dos.metrics['legit_round_trip{phase=during}']!.p99 / dos.metrics['legit_round_trip{phase=before}']!.p99;
    const lines = summary.split('\n').filter((l) => l.startsWith('- **'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `**dos-payloads** PASS · p99 during ÷ before ×${tax.toFixed(2)} (legit\\_round\\_trip p99`,
    );
    expect(lines[0]).toMatch(
      /oversized-answer: refused 290, cut 7, server-error 3, refusal p50\/p99 [\d.]+\/[\d.]+ ms$/,
    );
    expect(summary).toContain('## Attack tax');
    expect(summaryMarkdown(run([plain()]))).not.toContain('Attack tax');
  });
});

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

// Under CI a missing Chromium fails the test rather than skipping it.
describe.runIf(existsSync(CHROMIUM) || !!process.env.CI)('a DoS scenario in headless Chromium', () => {
  it('shows the shaded, named attack window on every time chart and the per-phase table', async () => {
    const { chromium } = await import('playwright-core');
    const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-dos-report-'));
    const profile = mkdtempSync(join(tmpdir(), 'a2a-rig-chromium-'));
    dirs.push(dir, profile);
    writeResults(dir, run([dosScenario(), plain()]));
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('agent_rss_mb_vs_s');
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 1200, height: 900 });
      await page.goto(pathToFileURL(join(dir, 'report.html')).href, { waitUntil: 'load', timeout: 15_000 });
      for (const id of ['latency-over-time', ...RESOURCE_CHARTS]) {
        const svg = page.locator(`#dos-payloads svg[data-chart="${id}"]`);
        const plot = (await svg.locator('rect.frame').boundingBox())!;
        const span = (await svg.locator('rect.span').last().boundingBox())!;
        // 4 s → 8 s of a 12 s axis: a third of the plot's width, a third of the way in.
        expect(span.width / plot.width, id).toBeGreaterThan(0.3);
        expect(span.width / plot.width, id).toBeLessThan(0.37);
        expect((span.x - plot.x) / plot.width, id).toBeCloseTo(1 / 3, 1);
        const label = svg.locator('text.span-label');
        expect(await label.evaluate((e) => e.firstChild?.nodeValue), id).toBe('oversized-answer');
        expect((await label.boundingBox())!.width, id).toBeGreaterThan(20);
        expect((await svg.locator('path.series').first().boundingBox())!.width, id).toBeGreaterThan(100);
      }
      const during = await page
        .locator('#dos-payloads tr[data-metric="legit_round_trip"][data-phase="during"]')
        .innerText();
      expect(during).toMatch(/during\s+200\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+×[\d.]+ tax/);
      expect(await page.locator('#resume-latency text.span-label').count()).toBe(0);
      expect(await page.locator('#resume-latency table.dos').count()).toBe(0);
      // For a human to look at: A2A_RIG_REPORT_SCREENSHOT=/path/to.png keeps a picture of the section.
      const shot = process.env.A2A_RIG_REPORT_SCREENSHOT;
      if (shot) await page.locator('#dos-payloads').screenshot({ path: shot });
    } finally {
      await context.close();
    }
  });
});
