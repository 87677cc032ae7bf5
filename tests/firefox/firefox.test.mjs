// The lesson in Firefox (Debian's firefox-esr, driven over WebDriver BiDi by puppeteer-core; the
// other browser tests run in Chromium): what a learner does first, and what once differed between
// the two engines. Served under the strict CSP, as the e2e tests serve it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';
import { serve } from '../e2e/harness.mjs';

const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
let site;
let browser;

before(async () => {
  site = await serve();
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
});
after(async () => {
  await browser?.close();
  await site?.close();
});

/** A new page of `width`×`height` whose errors and warnings land in `page.problems`. */
async function openPage(width, height) {
  const page = await browser.newPage();
  await page.setViewport({ width, height });
  page.problems = [];
  page.on('console', (m) => { if (['error', 'warn'].includes(m.type())) page.problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  return page;
}

for (const [width, height] of [[1280, 800], [375, 812]]) {
  test(`firefox ${width}px: a replay link shows its notice and the timeline it focuses, in the window`, async () => {
    const page = await openPage(width, height);
    await page.goto(`${site.url}en.html#lang=en&s=1_5_1_5_3.743_1s1,1_1.585s1,1_1.917s1,1_2.192s1,1_2.52s1,1_2.73s1,1_2.929s1,1`);
    await page.waitForFunction(() => document.activeElement?.matches('#bucket-widget .bl-scrub'));
    // Where the page put it once it settles. The diagram's section was skipped (content-visibility)
    // when the page chose what to scroll to: Firefox measured it as it was before the diagram filled
    // its panel, and the timeline ended below the window.
    await page.waitForFunction(() => {
      const box = document.querySelector('#bucket-widget .bl-scrub').getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight + 1;
    }, { timeout: 10_000 });
    assert.match(await page.$eval('#replay-notice', (n) => n.textContent), /^A recording is loaded/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('firefox: the hero refuses the sixth request at once, with a 429 and Retry-After 1, and counts down', async () => {
  const page = await openPage(1280, 800);
  await page.goto(`${site.url}en.html`);
  await page.waitForFunction(() => window.bucketlab?.hero && document.querySelector('#hero-widget .bl-widget[data-live]'));
  const passed = await page.evaluate(async () => {
    const hero = document.getElementById('hero-widget');
    window.bucketlab.hero.pause();
    for (let passed = 0; ; passed += 1) {
      const decision = new Promise((resolve) => hero.addEventListener('bucketlab:decision', (e) => resolve(e.detail), { once: true }));
      hero.querySelector('.bl-send').click();
      if (!(await decision).allowed) return passed;
    }
  });
  assert.equal(passed, 5);
  await page.waitForFunction(() => /429/.test(document.querySelector('#hero-widget .bl-status').textContent));
  assert.match(await page.$eval('#hero-widget .bl-status', (s) => s.textContent), /^Denied: 429 with Retry\u2011After: 1 /);
  await page.evaluate(() => window.bucketlab.hero.step(0.5));
  await page.waitForFunction(() => document.querySelector('#hero-widget .bl-countdown').textContent.startsWith('Wait: 0.5\u00a0s left'));
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('firefox 375px: the timeline held at the screen\'s foot is parted from the response by a line (no scroll-state queries there)', async () => {
  const page = await openPage(375, 812);
  await page.goto(`${site.url}en.html`);
  await page.waitForFunction(() => document.querySelector('#bucket-widget .bl-widget[data-live]'));
  const seen = await page.evaluate(() => {
    const scrub = document.querySelector('#bucket-widget .bl-scrub');
    return { queries: CSS.supports('container-type', 'scroll-state'), shadow: getComputedStyle(scrub).boxShadow };
  });
  assert.equal(seen.queries, false, 'this Firefox has scroll-state queries: the test no longer checks the fallback');
  assert.match(seen.shadow, /0px -1px 0px/);
  assert.deepEqual(page.problems, []);
  await page.close();
});
