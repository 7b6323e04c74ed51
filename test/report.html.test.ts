// report.html: every string an agent or a scenario supplies is shown as text (spec S-1), the page
// is self-contained (no request leaves it), and its charts are really drawn, in headless Chromium.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { LatencyTimeline } from '../rig/metrics/latencyTimeline.ts';
import { htmlReport } from '../rig/report/html/htmlReport.ts';
import { scenarioAnchors } from '../rig/report/html/scenarioAnchors.ts';
import { RESULTS_SCHEMA, type RunResult } from '../rig/results/runResult.ts';
import { writeResults } from '../rig/report/writeResults.ts';

const SCRIPT = '<script>window.__pwned=1</script>';
const IMG = '<img src=x onerror="window.__pwned=2">';
const HOSTILE = `Approve? ${SCRIPT} ${IMG}`;
const CHROMIUM = '/usr/bin/chromium';

function metric(values: number[], name: string, timeline: LatencyTimeline, origin: number) {
  const h = new LatencyHistogram(undefined, (us, at) => timeline.record(name, us, at));
  values.forEach((ms, i) => h.recordMs(ms, origin + i * 10));
  return { ...h.summary(), hdr: h.encode() };
}

function fixture(): RunResult {
  const timeline = new LatencyTimeline(0);
  const resume = metric(
    Array.from({ length: 300 }, (_, i) => 1 + (i % 17) / 4 + (i > 200 ? 100 : 0)),
    'resume_latency',
    timeline,
    0,
  );
  const hostileMetric = metric([5, 6, 7, 50], HOSTILE, timeline, 100);
  return {
    schema: RESULTS_SCHEMA,
    runId: '20260101-000000-abcd',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:05.000Z',
    durationMs: 5000,
    profile: 'smoke',
    rig: { version: '0.1.0', node: 'v20.0.0', platform: 'linux-x64', cpus: 2 },
    target: {
      kind: 'url',
      url: `http://127.0.0.1:1/${IMG}`,
      agentName: HOSTILE,
      agentVersion: SCRIPT,
      generation: '1.0',
      hitlDeclared: true,
      agentFaults: [],
    },
    proxy: { backend: 'embedded', version: '2.12.0' },
    verdict: 'failed',
    scenarios: [
      {
        name: 'resume-latency',
        description: 'a scenario with charts',
        tags: ['latency'],
        verdict: 'passed',
        durationMs: 3200,
        params: { trials: 300 },
        checks: [{ name: 'p95 ≤ 1000 ms', ok: true, detail: 'p95 104 ms' }],
        metrics: { resume_latency: resume, [HOSTILE]: hostileMetric },
        counters: { answers: 300 },
        timeline: timeline.toRecord(),
        series: {
          round_trip_p95_ms_vs_rate_per_s: [
            { x: 50, y: 2.1, achieved_per_s: 50, sustainable: true },
            { x: 100, y: 2.6, achieved_per_s: 99.8, sustainable: true },
            { x: 200, y: 40, achieved_per_s: 150, sustainable: false, note: SCRIPT },
          ],
        },
        faultEvents: [
          { t: 2000, action: 'add', target: 'latency_downstream', detail: 'latency downstream latency=100' },
          { t: 2500, action: 'disable', target: 'proxy' },
          { t: 2600, action: 'enable', target: 'proxy' },
          { t: 2700, action: 'restart', target: 'agent', detail: `answering again after 500 ms ${SCRIPT}` },
        ],
      },
      {
        name: `hostile ${SCRIPT}`,
        description: `prompt text: ${HOSTILE}`,
        tags: [],
        verdict: 'failed',
        reason: `the agent said ${HOSTILE}`,
        durationMs: 100,
        params: { prompt: HOSTILE },
        checks: [{ name: `the prompt ${SCRIPT} is refused`, ok: false, detail: `agent replied ${IMG}` }],
        metrics: {},
        counters: { [SCRIPT]: 1 },
        faultEvents: [{ t: 10, action: 'add', target: IMG, detail: SCRIPT }],
      },
    ],
    toxics: [{ name: IMG, type: 'latency', stream: 'downstream', toxicity: 1, attributes: { latency: 50 } }],
    thresholds: [{ expression: 'resume_latency.p95<1', ok: false, actual: 104, detail: `104 ms ${SCRIPT}` }],
  };
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function writtenReport(): { dir: string; path: string; text: string } {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-report-'));
  dirs.push(dir);
  writeResults(dir, fixture());
  const path = join(dir, 'report.html');
  return { dir, path, text: readFileSync(path, 'utf8') };
}

describe('report.html as text', () => {
  it('escapes every hostile string and carries no executable tag, script or external reference', () => {
    const { text } = writtenReport();
    expect(text).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(text).toContain('&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;');
    expect(text).not.toMatch(/<script/i);
    expect(text).not.toMatch(/<img/i);
    // No attribute anywhere is an event handler.
    expect(text).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
    expect(text).not.toMatch(/(src|href)\s*=\s*"(https?:)?\/\//i);
    expect(text).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
  });

  it('draws the charts the data calls for, and none for a scenario without data', () => {
    const text = htmlReport(fixture());
    const [id0, id1] = scenarioAnchors(fixture().scenarios.map((s) => s.name));
    expect(id0).toBe('resume-latency');
    const first = text.slice(text.indexOf(`id="${id0}"`), text.indexOf(`id="${id1}"`));
    expect(first).toContain('data-chart="latency-over-time"');
    expect(first).toContain('data-chart="percentiles"');
    expect(first).toContain('data-chart="faults-timeline"');
    expect(first).toContain('data-chart="capacity-curve"');
    expect(first).toContain('Round trip latency against offered rate');
    const second = text.slice(text.indexOf(`id="${id1}"`));
    expect(second).not.toContain('data-chart="latency-over-time"');
    expect(second).not.toContain('data-chart="percentiles"');
  });

  it('a2a-rig report DIR writes it again; a directory without results.json is one line and exit 2', () => {
    const { dir, path, text } = writtenReport();
    writeFileSync(path, 'stale');
    const ok = spawnSync(process.execPath, ['bin/a2a-rig.js', 'report', dir], { encoding: 'utf8', timeout: 20_000 });
    expect(ok.status).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(text);
    const bad = spawnSync(process.execPath, ['bin/a2a-rig.js', 'report', join(dir, 'nope')], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

// Under CI a missing Chromium fails the test rather than skipping it.
describe.runIf(existsSync(CHROMIUM) || !!process.env.CI)('report.html in headless Chromium', () => {
  it('draws its charts, shows the script as text, runs none of it and fetches nothing', async () => {
    const { chromium } = await import('playwright-core');
    const { path } = writtenReport();
    const profile = mkdtempSync(join(tmpdir(), 'a2a-rig-chromium-'));
    dirs.push(profile);
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const url = pathToFileURL(path).href;
      await page.goto(url, { waitUntil: 'load', timeout: 15_000 });

      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(requests).toEqual([url]);

      const [first, second] = scenarioAnchors(fixture().scenarios.map((s) => s.name)).map((id) => `[id="${id}"]`);
      for (const chart of ['latency-over-time', 'percentiles', 'capacity-curve']) {
        const path = page.locator(`${first} svg[data-chart="${chart}"] path.series`).first();
        const box = await path.boundingBox();
        expect(box, chart).not.toBeNull();
        expect(box!.width, chart).toBeGreaterThan(50);
        expect(box!.height, chart).toBeGreaterThan(5);
      }
      expect(
        await page.locator(`${first} svg[data-chart="latency-over-time"]`).first().locator('rect.span').count(),
      ).toBe(2);
      const bar = await page.locator(`${first} svg[data-chart="faults-timeline"] rect.bar`).first().boundingBox();
      expect(bar!.width).toBeGreaterThan(10);

      const reason = await page.locator(`${second} p.reason`).innerText();
      expect(reason).toBe(`the agent said ${HOSTILE}`);
      expect(await page.locator(`${second} h3`).innerText()).toContain(SCRIPT);
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

if (!existsSync(CHROMIUM) && !process.env.CI)
  console.log(`report.html browser test skipped: ${CHROMIUM} is absent (apt-get install -y chromium; .ci/run does)`);
