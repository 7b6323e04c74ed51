// report.html's charts of issue 15 drawn for real in headless Chromium (one launch), from the
// hand-made results of test/support/reportFixtures.ts: at readable sizes, on one time axis, and
// their screenshots checked for ink.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeResults } from '../rig/report/writeResults.ts';
import { countColour, countInk, decodePng } from './support/pngPixels.ts';
import { BROKEN_AT_80, capacityScenario, richRun } from './support/reportFixtures.ts';

const CHROMIUM = '/usr/bin/chromium';

// Under CI a missing Chromium fails the test rather than skipping it.
describe.runIf(existsSync(CHROMIUM) || !!process.env.CI)('the new charts in headless Chromium', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('draws them, at readable sizes, on one time axis, and their screenshots are not blank', async () => {
    const { chromium } = await import('playwright-core');
    const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-html-charts-'));
    const profile = mkdtempSync(join(tmpdir(), 'a2a-rig-chromium-'));
    dirs.push(dir, profile);
    writeResults(dir, richRun(BROKEN_AT_80), { baseline: richRun({ rates: [5, 10, 20, 40, 80], maxRate: 80 }) });
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
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
      await page.goto(pathToFileURL(join(dir, 'report.html')).href, { waitUntil: 'load', timeout: 15_000 });
      const box = async (selector: string) => {
        const b = await page.locator(selector).first().boundingBox();
        expect(b, selector).not.toBeNull();
        return b!;
      };

      // Throughput: a line through every bucket, across most of the plot.
      const throughput = '#capacity svg[data-chart="throughput"]';
      const d = (await page.locator(`${throughput} path.series`).first().getAttribute('d'))!;
      expect(d.split('L').length).toBe(capacityScenario(BROKEN_AT_80).traffic!.points.length);
      expect(
        (await box(`${throughput} path.series`)).width / (await box(`${throughput} rect.frame`)).width,
      ).toBeGreaterThan(0.8);
      for (const chart of ['errors', 'in-flight', 'capacity-achieved'])
        expect((await box(`#capacity svg[data-chart="${chart}"] path.series`)).width, chart).toBeGreaterThan(100);

      // The capacity curve: the SLO line across the plot, the breaking point at the right edge (80 of 0..80), the band.
      const curve = '#capacity svg[data-chart="capacity-curve"]';
      const frame = await box(`${curve} rect.frame`);
      expect(Math.abs((await box(`${curve} line.rule`)).width - frame.width)).toBeLessThan(2);
      const marker = await box(`${curve} line.marker`);
      expect(Math.abs(marker.x + marker.width / 2 - (frame.x + frame.width))).toBeLessThan(3);
      expect((await box(`${curve} polygon.band`)).width).toBeGreaterThan(frame.width * 0.9);

      // Every chart over time shares the plot's left and right edges: the faults timeline lines up
      // with the latency strip above it.
      const latencyFrame = await box('#resume-latency svg[data-chart="latency-over-time"] rect.frame');
      const faultsFrame = await box('#resume-latency svg[data-chart="faults-timeline"] rect.frame');
      expect(faultsFrame.x).toBeCloseTo(latencyFrame.x, 1);
      expect(faultsFrame.width).toBeCloseTo(latencyFrame.width, 1);
      const toxic = await box('#resume-latency svg[data-chart="faults-timeline"] rect.bar');
      // The toxic went in at 2.6 s of a 6.6 s axis.
      expect((toxic.x - faultsFrame.x) / faultsFrame.width).toBeCloseTo(2.6 / 6.6, 2);

      // Labels at least 11 px, as styled and as drawn (the charts are not scaled down).
      for (const selector of [
        '#resume-latency svg[data-chart="faults-timeline"] text.lane-label',
        '#resume-latency svg[data-chart="faults-timeline"] text.tick',
        '#capacity svg[data-chart="latency-over-time"] text.span-label',
        '#capacity svg[data-chart="throughput"] text.tick',
      ]) {
        const [styled, drawn] = await page
          .locator(selector)
          .first()
          .evaluate((e) => [parseFloat(getComputedStyle(e).fontSize), e.getBoundingClientRect().height]);
        expect(styled, selector).toBeGreaterThanOrEqual(11);
        expect(drawn, selector).toBeGreaterThanOrEqual(11);
      }

      // Screenshots: the headline has text and badges; the charts have their lines in their colours.
      const headline = decodePng(await page.locator('#headline').screenshot());
      expect(countInk(headline) / (headline.width * headline.height)).toBeGreaterThan(0.02);
      expect(countColour(headline, '#c62828', 30)).toBeGreaterThan(200); // the FAIL badge and the red error figure
      const throughputShot = decodePng(await page.locator(throughput).screenshot());
      expect(countColour(throughputShot, '#4e79a7', 20)).toBeGreaterThan(300);
      const curveShot = decodePng(await page.locator(curve).screenshot());
      expect(countColour(curveShot, '#8a6d00', 30)).toBeGreaterThan(150); // the SLO line and its label
      expect(countColour(curveShot, '#c62828', 30)).toBeGreaterThan(50); // the breaking point
      // A chart of nothing is not drawn at all: the legacy scenario has no traffic chart to screenshot.
      expect(await page.locator('#legacy-scenario svg[data-chart="throughput"]').count()).toBe(0);
      expect(await page.locator('#legacy-scenario p.totals').innerText()).toContain('not recorded');

      // Anchors and the baseline.
      await page.goto(`${pathToFileURL(join(dir, 'report.html')).href}#capacity`);
      expect(await page.evaluate(() => document.querySelector(':target')?.id)).toBe('capacity');
      expect(await page.locator('#baseline tr.regression').count()).toBeGreaterThan(0);
      expect(await page.locator('script').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

if (!existsSync(CHROMIUM) && !process.env.CI)
  console.log(`report.html chart test skipped: ${CHROMIUM} is absent (apt-get install -y chromium; .ci/run does)`);
