// What a widget does while nothing happens, for a learner reading on a laptop on battery: a full
// bucket whose requests are still on the chart asks for a frame only when the chart's track steps
// (twice a second), not on every frame for those 20 seconds; drops stop falling in a widget
// nobody can see (scrolled away), where their CSS animation had the page restyled every frame.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForWidget } from './harness.mjs';

const env = useBrowser();

test('a full bucket with requests on its chart asks for a frame per step of the chart, not every frame', async () => {
  const page = await openPage(env.browser);
  // Every frame the page asks for, counted.
  await page.addInitScript(() => {
    const ask = window.requestAnimationFrame.bind(window);
    window.frameRequests = 0;
    window.requestAnimationFrame = (callback) => {
      window.frameRequests += 1;
      return ask(callback);
    };
  });
  await page.goto(`${env.server.url}embed.html`);
  await page.waitForFunction(() => document.querySelector('bucket-lab')?.diagram);
  // One request (B = 5, r = 1/s): back to full a second later, its marks on the chart for 20 s.
  await page.evaluate(() => document.querySelector('bucket-lab').diagram.send(1));
  await page.waitForFunction(() => document.querySelector('bucket-lab').diagram.tokens === 5);
  // The frames asked for between the track's steps, once the marker has landed: the paths are
  // rewritten on each step.
  const counts = await page.evaluate(() => new Promise((resolve) => {
    const level = document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-tl-level');
    const seen = [];
    new MutationObserver(() => {
      seen.push(window.frameRequests);
      if (seen.length === 4) resolve(seen);
    }).observe(level, { attributes: true, attributeFilter: ['d'] });
  }));
  const perStep = counts.slice(1).map((count, i) => count - counts[i]);
  // Every frame, a step (0.5 s) took about 30; now one, or two when a step comes late.
  assert.ok(perStep.every((frames) => frames <= 3), `frames asked for between steps: ${perStep}`);
  assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').diagram.isAnimating), true, 'still moving');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('drops stop falling in a refilling bucket scrolled out of view, and fall again when it is back', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}en.html`);
  await waitForWidget(page);
  const drip = () => page.evaluate(() => document.querySelector('#hero-widget .bl-diagram').getAttribute('data-drip'));
  // Emptied, refilling slowly (a minute to full): its drops fall.
  await page.evaluate(() => {
    const hero = window.bucketlab.hero;
    hero.configure(5, 0.1);
    while (hero.send());
  });
  await page.waitForFunction(() => document.querySelector('#hero-widget .bl-diagram').getAttribute('data-drip') === 'on');
  await page.evaluate(() => scrollTo({ top: document.body.scrollHeight, behavior: 'instant' }));
  await page.waitForFunction(() => document.querySelector('#hero-widget .bl-diagram').getAttribute('data-drip') !== 'on');
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#hero-widget .bl-drop')]
    .flatMap((drop) => drop.getAnimations()).filter((a) => a.playState === 'running').length), 0, 'no drop animates');
  await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
  await page.waitForFunction(() => document.querySelector('#hero-widget .bl-diagram').getAttribute('data-drip') === 'on');
  assert.equal(await drip(), 'on');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
