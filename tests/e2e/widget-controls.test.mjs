// The diagram's controls against what the diagram shows, with real keys: the sliders hold the
// configuration of the moment on screen and keep a value off their step exactly. Time is driven by
// the diagram's own clock (pause, then steps), never by waiting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser } from './harness.mjs';
import { openLesson } from './lesson-helpers.mjs';

const env = useBrowser();
const W = '#bucket-widget';

/**
 * The sliders' values and their outputs in `root` (locators: they reach into <bucket-lab>'s
 * shadow root): [B, B's output, r, r's output].
 */
const sliders = async (page, root) => [
  await page.locator(`${root} .bl-capacity`).inputValue(),
  await page.locator(`${root} .bl-capacity + .bl-out`).textContent(),
  await page.locator(`${root} .bl-rate`).inputValue(),
  await page.locator(`${root} .bl-rate + .bl-out`).textContent(),
];

test('pt-BR: after raising B, Home on the timeline shows the first moment\'s B on the slider too', async () => {
  const page = await openLesson(env, '');
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.click(`${W} .bl-send`);
  await page.evaluate(() => window.bucketlab.diagram.step(1));
  await page.focus(`${W} .bl-capacity`);
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  assert.deepEqual(await sliders(page, W), ['10', '10', '1', '1']);
  await page.focus(`${W} [role=slider]`);
  await page.keyboard.press('Home');
  assert.equal(await page.textContent(`${W} .bl-counter`), '5,0 / 5');
  assert.deepEqual(await sliders(page, W), ['5', '5', '1', '1'], 'the moment shown: B = 5');
  await page.keyboard.press('End');
  assert.deepEqual(await sliders(page, W), ['10', '10', '1', '1'], 'live again: B = 10');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('en embed: B = 2.5 and r = 0.25 sit exactly on the sliders, and ArrowRight on r leaves B alone', async () => {
  const page = await openPage(env.browser);
  await page.goto(new URL('embed.html?capacity=2.5&refill-rate=0.25&lang=en&paused', env.server.url).href);
  const root = 'bucket-lab';
  await page.locator(`${root} .bl-widget[data-live]`).waitFor();
  assert.deepEqual(await sliders(page, root), ['2.5', '2.5', '0.25', '0.25']);
  await page.locator(`${root} .bl-rate`).focus();
  await page.keyboard.press('ArrowRight');
  const [capacity, capacityOut, rate] = await sliders(page, root);
  assert.deepEqual([capacity, capacityOut], ['2.5', '2.5'], 'B untouched');
  assert.ok(Number(rate) > 0.25, `r moved up (got ${rate})`);
  assert.match(await page.locator(`${root} .bl-diagram`).textContent(), /B = 2\.5/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
