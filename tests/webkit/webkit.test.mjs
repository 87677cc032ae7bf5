// The lesson in WebKit, Safari's engine: Debian's WebKitGTK, its MiniBrowser driven over classic
// WebDriver by WebKitWebDriver and selenium-webdriver (MiniBrowser has no headless mode here:
// scripts/test.sh runs these under xvfb-run). The other browser tests run in Chromium, a few in
// Firefox: these check what a learner does first, and what once differed in WebKit. Served under
// the strict CSP, as the e2e tests serve it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Builder, By } from 'selenium-webdriver';
import { PNG } from 'pngjs';
import { freePort, serve } from '../e2e/harness.mjs';

const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
let site;
let webDriver;
let driver;

before(async () => {
  site = await serve();
  const port = await freePort();
  webDriver = spawn('WebKitWebDriver', [`--port=${port}`], { stdio: 'ignore' });
  const server = `http://127.0.0.1:${port}`;
  // Its HTTP server is up once /status answers.
  for (let tries = 0; ; tries += 1) {
    const up = await fetch(`${server}/status`).then((r) => r.ok, () => false);
    if (up) break;
    if (tries > 100) throw new Error(`WebKitWebDriver did not answer at ${server}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  driver = await new Builder().usingServer(server).withCapabilities({
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
  }).build();
  await driver.manage().window().setRect({ width: 1280, height: 800 });
});
after(async () => {
  await driver?.quit();
  webDriver?.kill();
  await site?.close();
});

/** Opens `path` and waits until the diagram of section 5 is live; scripts' errors are kept. */
async function open(path) {
  await driver.get(`${site.url}${path}`);
  await driver.executeScript(() => {
    window.problems = [];
    addEventListener('error', (e) => window.problems.push(String(e.message)));
    addEventListener('unhandledrejection', (e) => window.problems.push(String(e.reason)));
  });
  await driver.wait(() => driver.executeScript(() => Boolean(document.querySelector('#bucket-widget .bl-widget[data-live]'))), 30_000);
}

/**
 * How much of the top edge of `element`'s box (its first two rows of pixels, between its rounded
 * corners) is drawn in a line's colour rather than the colour inside the box: about all of it
 * when the box's line runs along its top, much less when a legend sits on that line, which then
 * runs through the legend's middle, below the top, broken around it. Read off a screenshot of
 * the window (one CSS pixel to a pixel here), the element scrolled into it.
 */
async function topLineShare(element) {
  const place = () => driver.executeScript((node) => {
    const { left, top, width, height } = node.getBoundingClientRect();
    return { left: Math.round(left), top: Math.round(top), width: Math.round(width), height: Math.round(height), scale: devicePixelRatio, inView: top >= 0 && top + height <= innerHeight };
  }, element);
  // Every section laid out (as the page does for one it scrolls to), so none changes its height
  // as it comes near and moves the element between its measure and its screenshot.
  await driver.executeScript(() => {
    for (const section of document.querySelectorAll('main > section')) section.classList.add('laid-out');
  });
  // A screenshot taken while the element stood still in the window: a scroll may be cut short (a
  // part coming near focuses or lays itself out), so it is scrolled to until it is there.
  let box;
  let png;
  for (let tries = 0; ; tries += 1) {
    assert.ok(tries < 20, 'the element never stood still in the window');
    box = await place();
    if (!box.inView) {
      await driver.executeScript((node) => node.scrollIntoView({ block: 'center', behavior: 'instant' }), element);
      continue;
    }
    // Two frames: the window's pixels are those of the last paint, which follows the scroll.
    await driver.executeAsyncScript((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    png = PNG.sync.read(Buffer.from(await driver.takeScreenshot(), 'base64'));
    if (JSON.stringify(await place()) === JSON.stringify(box)) break;
  }
  assert.equal(box.scale, 1, 'one CSS pixel to a pixel');
  const at = (x, y) => png.data.subarray(((box.top + y) * png.width + box.left + x) * 4, ((box.top + y) * png.width + box.left + x) * 4 + 3);
  // Inside the box: a point of its padding, above its bottom edge and left of its right one.
  const inside = at(box.width - 8, box.height - 8);
  const differs = (pixel) => pixel.reduce((sum, value, i) => sum + Math.abs(value - inside[i]), 0) > 40;
  let drawn = 0;
  let all = 0;
  for (let x = 10; x < box.width - 10; x += 1) {
    all += 1;
    if (differs(at(x, 0)) || differs(at(x, 1))) drawn += 1;
  }
  return drawn / all;
}

test('webkit: each group of the diagram\'s controls has its heading inside its line, which runs whole along its top', async () => {
  await open('en.html');
  await driver.executeScript(() => document.querySelector('#bucket-widget .bl-groups').scrollIntoView({ block: 'center', behavior: 'instant' }));
  const groups = await driver.findElements(By.css('#bucket-widget .bl-group'));
  assert.equal(groups.length, 3);
  for (const group of groups) {
    const name = await group.findElement(By.css('legend')).getText();
    const share = await topLineShare(group);
    // WebKit drew a legend on its fieldset's border line even floated: the line ran 10 px below
    // the box's top, through the legend, and none of the top was drawn.
    assert.ok(share > 0.95, `${name}: the line runs along ${(share * 100).toFixed(0)} % of the top`);
  }
  assert.deepEqual(await driver.executeScript(() => window.problems), []);
});

test('webkit: a recap question is its card\'s first row, the card\'s line whole along its top', async () => {
  await open('en.html');
  await driver.executeScript(() => document.getElementById('recap-checks').scrollIntoView({ behavior: 'instant' }));
  await driver.wait(() => driver.executeScript(() => Boolean(document.querySelector('#recap-checks fieldset.quiz-question legend'))), 30_000);
  const cards = await driver.findElements(By.css('#recap-checks fieldset.quiz-question'));
  assert.ok(cards.length >= 3, `${cards.length} questions`);
  for (const card of cards.slice(0, 3)) {
    const question = await card.findElement(By.css('legend')).getText();
    const share = await topLineShare(card);
    assert.ok(share > 0.95, `"${question.slice(0, 40)}…": the card's line runs along ${(share * 100).toFixed(0)} % of its top`);
    // The question above its first choice, inside the card.
    const [legend, choice, box] = await driver.executeScript((card) => [card.querySelector('legend'), card.querySelector('.quiz-option'), card]
      .map((node) => node.getBoundingClientRect().toJSON()), card);
    assert.ok(legend.top >= box.top && legend.bottom <= choice.top, JSON.stringify({ legend, choice, box }));
  }
  assert.deepEqual(await driver.executeScript(() => window.problems), []);
});

test('webkit: the hero refuses the sixth request at once, with a 429 and Retry-After 1, and counts down', async () => {
  await open('en.html');
  await driver.wait(() => driver.executeScript(() => Boolean(window.bucketlab?.hero && document.querySelector('#hero-widget .bl-widget[data-live]'))), 30_000);
  await driver.executeScript(() => window.bucketlab.hero.pause());
  const send = await driver.findElement(By.css('#hero-widget .bl-send'));
  const text = (part) => driver.executeScript((part) => document.querySelector(`#hero-widget ${part}`).textContent, part);
  // Time stands still: each click takes a whole token, and the counter says so.
  for (let click = 1; click <= 5; click += 1) {
    await send.click();
    await driver.wait(async () => (await text('.bl-counter')) === `${5 - click}.0 / 5`, 30_000, `click ${click}`);
    assert.match(await text('.bl-status'), /^Admitted: /, `click ${click}`);
  }
  await send.click();
  await driver.wait(async () => /429/.test(await text('.bl-status')), 30_000);
  assert.match(await text('.bl-status'), /^Denied: 429 with Retry\u2011After: 1 /);
  await driver.executeScript(() => window.bucketlab.hero.step(0.5));
  await driver.wait(async () => (await text('.bl-countdown')).startsWith('Wait: 0.5\u00a0s left'), 30_000);
  assert.deepEqual(await driver.executeScript(() => window.problems), []);
});
