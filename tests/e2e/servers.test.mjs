// The several-servers section as a learner uses it: a burst through three servers gets 3 × B
// admitted with local buckets and exactly B with the shared store; switching replays the same
// requests under the other mode. Time moves only with the step button.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage } from './harness.mjs';
import { pressPaced } from './lesson-helpers.mjs';

const env = useBrowser();
const W = '#servers-widget';

async function openServers(width = 1280) {
  const page = await openPage(env.browser, { viewport: { width, height: 900 } });
  await page.goto(`${env.server.url}#varios-servidores`);
  await page.waitForSelector(`${W} .sv-widget, ${W} .sv-error`);
  return page;
}

/** The admitted count and requests shown, and how many markers of each kind the lanes draw. */
async function shown(page) {
  return page.evaluate((w) => {
    const result = document.querySelector(`${w} .sv-result`);
    return {
      admitted: Number(result.dataset.admitted),
      requests: Number(result.dataset.requests),
      circles: document.querySelectorAll(`${w} .sv-admitted`).length,
      diamonds: document.querySelectorAll(`${w} .sv-denied`).length,
      other: Number(document.querySelector(`${w} .sv-other`).dataset.admitted),
    };
  }, W);
}

test('switching between local buckets and the shared store changes the admitted count', async () => {
  const page = await openServers();
  assert.equal(await page.isChecked(`${W} input[value="local"]`), true, 'local buckets first');
  assert.deepEqual(await shown(page), { admitted: 0, requests: 0, circles: 0, diamonds: 0, other: 0 });

  await page.click(`${W} .sv-burst`);
  assert.deepEqual(await shown(page), { admitted: 15, requests: 20, circles: 15, diamonds: 5, other: 5 },
    'local: 3 servers × B = 15');
  // Each server's bucket is written beside its bar, not only in a tooltip a finger can't open.
  const gauges = () => page.$$eval(`${W} .sv-gauge-value`, (values) => values.map((v) => v.textContent));
  assert.deepEqual(await gauges(), ['0,0/5', '0,0/5', '0,0/5']);
  assert.match(await page.textContent(`${W} .sv-result`), /^15 de 20 /);
  assert.match(await page.textContent(`${W} .sv-live`), /15 de 20/);

  await page.check(`${W} input[value="shared"]`);
  assert.deepEqual(await shown(page), { admitted: 5, requests: 20, circles: 5, diamonds: 15, other: 15 },
    'shared: exactly B = 5, the same 20 requests replayed');
  assert.match(await page.textContent(`${W} .sv-store-text`), /0,0 \/ 5/);

  // One second of refill: r = 1 token for the shared bucket, one per server for local ones.
  await page.click(`${W} .sv-step`);
  assert.equal(await page.textContent(`${W} .sv-clock`), 'Tempo: 1,0 s');
  await page.click(`${W} .sv-burst`);
  assert.deepEqual(await shown(page), { admitted: 6, requests: 40, circles: 6, diamonds: 34, other: 18 });
  await page.check(`${W} input[value="local"]`);
  assert.equal((await shown(page)).admitted, 18);
  assert.deepEqual(await gauges(), ['0,0/5', '0,0/5', '0,0/5'], 'the second burst took the second\'s refill');
  await page.click(`${W} .sv-step`);
  assert.deepEqual(await gauges(), ['1,0/5', '1,0/5', '1,0/5']);

  await page.click(`${W} .sv-reset`);
  assert.deepEqual(await shown(page), { admitted: 0, requests: 0, circles: 0, diamonds: 0, other: 0 });
  assert.equal(await page.textContent(`${W} .sv-clock`), 'Tempo: 0,0 s');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('keyboard only: the mode is a radio group, the actions are buttons', async () => {
  const page = await openServers();
  await page.focus(`${W} input[value="local"]`);
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.isChecked(`${W} input[value="shared"]`), true);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('sv-burst')), true);
  await page.keyboard.press('Enter');
  assert.equal((await shown(page)).admitted, 5);
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none', 'visible focus');
  await page.context().close();
});

test('the page language switches the widget between pt-BR and en', async () => {
  const page = await openServers(375);
  await page.click(`${W} .sv-burst`);
  assert.equal(await page.textContent(`${W} legend`), 'Onde fica o balde do cliente');
  await page.evaluate(() => {
    document.documentElement.lang = 'en';
    document.dispatchEvent(new CustomEvent('bucketlab:langchange', { detail: { lang: 'en' } }));
  });
  assert.equal(await page.textContent(`${W} legend`), "Where the client's bucket lives");
  assert.equal(await page.textContent(`${W} .sv-result`), '15 of 20 requests admitted');
  assert.equal(await page.textContent(`${W} .sv-clock`), 'Time: 0.0 s');
  assert.equal(await page.getAttribute(`${W} .sv-widget`, 'lang'), 'en');
  // At 375 px nothing overflows sideways.
  const overflow = await page.evaluate((w) => {
    const box = document.querySelector(w);
    return box.scrollWidth - box.clientWidth;
  }, W);
  assert.ok(overflow <= 0, `overflows by ${overflow}px`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a bad data-* value is shown, naming the attribute', async () => {
  const page = await openPage(env.browser);
  await page.route('**/index.html', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace('data-servers="3"', 'data-servers="9"');
    await route.fulfill({ response, body });
  });
  // The widget loads when its section comes near (loader.js): open the page there.
  await page.goto(`${env.server.url}index.html#varios-servidores`);
  const error = await page.waitForSelector(`${W} .sv-error`);
  assert.match(await error.textContent(), /data-servers must be a whole number from 2 to 6, got "9"/);
  await page.context().close();
});

/** Waits until the widget's live region says `text`. */
const said = (page, text) => page.waitForFunction(([sel, want]) => document.querySelector(sel).textContent === want, [`${W} .sv-live`, text]);

test('live region: "Advance 1 s" pressed four times in a row is said twice, the last time with where things stand; a mode with no request yet says nothing', async () => {
  const page = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.server.url}en.html#varios-servidores`);
  await page.waitForSelector(`${W} .sv-widget`);
  // Choosing a mode before any request says nothing.
  await page.check(`${W} input[value="shared"]`);
  await page.check(`${W} input[value="local"]`);
  assert.equal(await page.textContent(`${W} .sv-live`), '');
  await page.focus(`${W} .sv-step`);
  // The first at once, the latest a gap (1.5 s) later; a machine slow enough to take more than a
  // gap over the four presses may say one more in between, never one a press.
  const { said: spoken, most } = await pressPaced(page, {
    region: `${W} .sv-live`, key: 'Enter', times: 4,
    last: 'Time: 4.0 s. One bucket in each server (local memory): '
      + 'Server A: 5.0 / 5 tokens, Server B: 5.0 / 5 tokens, Server C: 5.0 / 5 tokens. Admitted so far: 0 of 0; denied: 0.',
  });
  const heard = spoken.map((text) => text.slice(0, 11));
  assert.equal(heard[0], 'Time: 1.0 s');
  assert.equal(heard.at(-1), 'Time: 4.0 s');
  assert.ok(heard.length <= most, `${heard.length} sentences, at most ${most}: ${heard}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('keyboard only: "Advance 1 s" announces the new time, the buckets it refilled and the counts so far', async () => {
  const page = await openPage(env.browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.server.url}en.html#varios-servidores`);
  await page.waitForSelector(`${W} .sv-widget`);
  await page.focus(`${W} .sv-burst`);
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent(`${W} .sv-live`), 'One bucket in each server (local memory): 15 of 20 admitted.');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Advance 1 s');
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent(`${W} .sv-clock`), 'Time: 1.0 s');
  // Said at the live region's pace (www/lesson/paced.js): once the gap after the burst's sentence has passed.
  await said(page, 'Time: 1.0 s. One bucket in each server (local memory): '
    + 'Server A: 1.0 / 5 tokens, Server B: 1.0 / 5 tokens, Server C: 1.0 / 5 tokens. Admitted so far: 15 of 20; denied: 5.');
  // With the shared store: its one bucket.
  await page.check(`${W} input[value="shared"]`);
  await page.focus(`${W} .sv-step`);
  await page.keyboard.press('Enter');
  await said(page, 'Time: 2.0 s. One bucket, in the shared store (Redis): '
    + 'Redis (shared): 2.0 / 5 tokens. Admitted so far: 5 of 20; denied: 15.');
  // Starting over is said too: the chart and the clock change, and nothing else would tell.
  await page.focus(`${W} .sv-reset`);
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent(`${W} .sv-clock`), 'Time: 0.0 s');
  await said(page, 'Started over: no requests yet, the clock at 0 s.');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('on a phone, when older requests scroll off the chart, it says it shows the last ones, in the page\'s language', async () => {
  for (const [path, said] of [['en.html', 'the last 30 of 60'], ['', 'as últimas 30 de 60']]) {
    const page = await openPage(env.browser, { viewport: { width: 375, height: 800 } });
    await page.goto(`${env.server.url}${path}#varios-servidores`);
    await page.waitForSelector(`${W} .sv-widget`);
    const note = () => page.evaluate((w) => document.querySelector(`${w} .sv-shown-last`)?.textContent ?? null, W);
    await page.click(`${W} .sv-burst`);
    assert.equal(await note(), null, 'a first burst of 20 fits');
    await page.click(`${W} .sv-burst`);
    await page.click(`${W} .sv-burst`);
    assert.equal(await note(), said);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
