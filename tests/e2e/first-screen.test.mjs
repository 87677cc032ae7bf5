// The learner's first minute (issue 14): the live bucket and its send button on the first screen
// of both pages at a desktop size and phone sizes (portrait 375 and 320, landscape 812×375, 667×375 and 640×360),
// a click made before the wasm arrived decided at its own time, and the wait after a 429 counting
// down to the retry. Saves the first screen, light and dark, under target/screenshots/
// (git-ignored) for a person to look at. Then the phone layout: nothing wider than the screen at
// 200 % text, and the widget's order in one column and in two (wide sliders).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { launch, openPage, serve, useBrowser } from './harness.mjs';
import { loadPart } from './lesson-helpers.mjs';

const env = useBrowser();
const SHOTS = new URL('../../target/screenshots/', import.meta.url).pathname;
const PAGES = [['index.html', 'pt-BR'], ['en.html', 'en']];
const SIZES = [{ width: 1280, height: 800 }, { width: 375, height: 812 }, { width: 320, height: 640 }, { width: 812, height: 375 }, { width: 667, height: 375 }, { width: 640, height: 360 }];
/** A phone as Playwright emulates one: touch, the meta viewport, a 2× screen. */
const PHONE = { isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** The box of `selector` in the page, in CSS pixels of the viewport. */
const box = (page, selector) => page.locator(selector).boundingBox();

test('on both pages at both sizes the live bucket and its send button are on the first screen', async () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const [file] of PAGES) {
    for (const viewport of SIZES) {
      for (const colorScheme of ['light', 'dark']) {
        const page = await openPage(env.browser, { viewport, colorScheme, ...(viewport.width < 1000 ? PHONE : {}) });
        await page.goto(`${env.server.url}${file}`);
        await page.waitForSelector('#hero-widget .bl-widget[data-live]');
        for (const part of ['.bl-diagram', '.bl-counter', '.bl-send', '.bl-status']) {
          const found = await box(page, `#hero-widget ${part}`);
          const where = `${file} ${viewport.width}×${viewport.height} ${colorScheme}: ${part} at ${JSON.stringify(found)}`;
          assert.ok(found && found.width > 0 && found.height > 0, `${where} is not shown`);
          assert.ok(found.x >= 0 && found.y >= 0, where);
          assert.ok(found.x + found.width <= viewport.width && found.y + found.height <= viewport.height,
            `${where} is not inside the first screen`);
        }
        assert.equal(await page.evaluate(() => scrollY), 0);
        assert.equal(await page.locator('#hero-widget .bl-send').isEnabled(), true);
        // Its labels readable on every screen (on a phone on its side they were 7 px tall).
        for (const label of ['.bl-label >> nth=0', '.bl-label >> nth=1', '.bl-counter']) {
          const { height } = await box(page, `#hero-widget ${label}`);
          assert.ok(height >= 10, `${file} ${viewport.width}×${viewport.height}: ${label} is ${height} px tall`);
        }
        await page.screenshot({ path: `${SHOTS}${file.replace('.html', '')}-${viewport.width}-${colorScheme}.png` });
        assert.deepEqual(page.problems, []);
        await page.context().close();
      }
    }
  }
});

test('on a small phone with its browser\'s bars showing (320×460), the bucket, its counter and the send button are still on the first screen', async () => {
  for (const [file] of PAGES) {
    const page = await openPage(env.browser, { viewport: { width: 320, height: 460 }, ...PHONE });
    await page.goto(`${env.server.url}${file}`);
    await page.waitForSelector('#hero-widget .bl-widget[data-live]');
    for (const part of ['.bl-diagram', '.bl-counter', '.bl-send']) {
      const found = await box(page, `#hero-widget ${part}`);
      assert.ok(found && found.y >= 0 && found.y + found.height <= 460, `${file}: ${part} at ${JSON.stringify(found)}`);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('on every phone size, a 429 in the hero shows its whole status line and countdown on the first screen', async () => {
  // 320×568 (an iPhone SE of the first kind) cut the status at the fold and hid the countdown.
  const phones = [...SIZES.filter((size) => size.width < 1000), { width: 320, height: 568 }];
  for (const [file] of PAGES) {
    for (const viewport of phones) {
      const page = await openPage(env.browser, { viewport, ...PHONE });
      await page.goto(`${env.server.url}${file}`);
      await page.waitForSelector('#hero-widget .bl-widget[data-live]');
      // Time running, as the hero has it: sent in one task until one is refused, then measured
      // in the same task as the condition, while the countdown runs (it lasts about a second).
      await page.evaluate(() => { const hero = window.bucketlab.hero; while (hero.send()); });
      const boxes = await (await page.waitForFunction((parts) => {
        const hero = document.getElementById('hero-widget');
        const countdown = hero.querySelector('.bl-countdown');
        if (!/\d/.test(countdown.textContent) || countdown.dataset.over === 'true') return false;
        return parts.map((part) => { const { y, height } = hero.querySelector(part).getBoundingClientRect(); return { part, y, height }; });
      }, ['.bl-counter', '.bl-send', '.bl-status', '.bl-countdown'])).jsonValue();
      for (const { part, y, height } of boxes) {
        const where = `${file} ${viewport.width}×${viewport.height}: ${part} at y ${y}, ${height} px tall`;
        assert.ok(height > 0 && y >= 0 && y + height <= viewport.height, where);
      }
      assert.equal(await page.evaluate(() => scrollY), 0);
      await page.context().close();
    }
  }
});

test('beside the title, the hero growing with a 429 and its countdown moves neither the title nor the lead', async () => {
  // The English page: its idle line and its 429 line wrap differently, so the hero grows by a line.
  const page = await openPage(env.browser, { viewport: SIZES[0] });
  await page.goto(`${env.server.url}en.html`);
  await page.waitForSelector('#hero-widget .bl-widget[data-live]');
  await page.evaluate(() => window.bucketlab.hero.pause());
  const tops = () => page.evaluate(() => ['.page-header h1', '.page-header .lead']
    .map((s) => Math.round(document.querySelector(s).getBoundingClientRect().top)));
  const [before, heroBefore] = [await tops(), (await box(page, '.hero')).height];
  // Emptied, then 0.234 s of refill: the 429's retry (0.766 s) is long enough to wrap.
  for (let i = 0; i < 5; i++) await page.click('#hero-widget .bl-send');
  await page.evaluate(() => window.bucketlab.hero.step(0.234));
  await page.click('#hero-widget .bl-send');
  await page.waitForFunction(() => document.querySelector('#hero-widget .bl-countdown').textContent !== '');
  const heroAfter = (await box(page, '.hero')).height;
  assert.ok(heroAfter > heroBefore + 20, `the hero grew (${heroBefore} → ${heroAfter} px)`);
  assert.deepEqual(await tops(), before, 'the title and the lead stay put');
  await page.context().close();
});

test('beside the title, the hero keeps the room of a 429 and its countdown, so the sections under it hold still while a learner clicks', async () => {
  for (const [file] of PAGES) {
    const page = await openPage(env.browser, { viewport: SIZES[0] });
    await page.goto(`${env.server.url}${file}`);
    await page.waitForSelector('#hero-widget .bl-widget[data-live]');
    const under = () => page.evaluate(() => Math.round(document.getElementById('o-que-e-titulo').getBoundingClientRect().top + scrollY));
    const idle = await under();
    await page.evaluate(() => window.bucketlab.hero.pause());
    for (let i = 0; i < 5; i++) await page.click('#hero-widget .bl-send');
    assert.equal(await under(), idle, `after five 200s: ${file}`);
    await page.evaluate(() => window.bucketlab.hero.step(0.234));
    await page.click('#hero-widget .bl-send');
    // Time running again, as a learner has it: the 429 and its countdown (or, once it has run out, the 429 alone).
    await page.evaluate(() => window.bucketlab.hero.resume());
    await page.waitForFunction(() => /429/.test(document.querySelector('#hero-widget .bl-status').textContent));
    assert.equal(await under(), idle, `with a 429: ${file}`);
    // Nor when the wait is over, a second after the click: "Espera cumprida" took a fifth line.
    await page.waitForFunction(() => document.querySelector('#hero-widget .bl-countdown').dataset.over === 'true');
    assert.equal(await under(), idle, `once the wait is over: ${file}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('on a phone the hero keeps the room of a 429 and its countdown: the lesson under it does not move when a learner is refused', async () => {
  for (const [file] of PAGES) {
    const page = await openPage(env.browser, { viewport: SIZES[1], ...PHONE });
    await page.goto(`${env.server.url}${file}`);
    await page.waitForSelector('#hero-widget .bl-widget[data-live]');
    const under = () => page.evaluate(() => Math.round(document.getElementById('o-que-e-titulo').getBoundingClientRect().top + scrollY));
    const idle = await under();
    // Time running, as the hero has it (it has no pause): sent in one task until one is refused.
    await page.evaluate(() => { const hero = window.bucketlab.hero; while (hero.send()); });
    assert.match(await page.textContent('#hero-widget .bl-countdown'), /\d/);
    assert.equal(await under(), idle, `with a 429 and its countdown: ${file}`);
    await page.waitForFunction(() => document.querySelector('#hero-widget .bl-countdown').dataset.over === 'true');
    assert.equal(await under(), idle, `once the wait is over: ${file}`);
    await page.context().close();
  }
});

test('from the top of the page the keyboard reaches the hero send button through visible stops only, and Enter and Space send', async () => {
  for (const viewport of SIZES) {
    const page = await openPage(env.browser, { viewport });
    await page.goto(`${env.server.url}en.html`);
    await page.waitForSelector('#hero-widget .bl-widget[data-live]');
    await page.evaluate(() => window.bucketlab.hero.pause());
    const stops = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const el = document.activeElement;
        const r = el.getBoundingClientRect();
        return { hero: !!el.closest('#hero-widget'), send: el.matches('#hero-widget .bl-send'), text: el.textContent.trim().slice(0, 40), w: r.width, h: r.height };
      });
      stops.push(stop);
      if (!stop.hero && stops.some((s) => s.send)) break;
    }
    const where = `${viewport.width} px, stops: ${stops.map((s) => s.text).join(' | ')}`;
    assert.ok(stops.findIndex((s) => s.send) >= 0 && stops.findIndex((s) => s.send) <= 4, `send within 5 tabs (${where})`);
    for (const stop of stops.filter((s) => s.hero)) {
      assert.ok(stop.w > 0 && stop.h > 0, `every focus stop in the hero is shown: "${stop.text}" is not (${where})`);
    }
    await page.locator('#hero-widget .bl-send').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space');
    assert.equal(await page.evaluate(() => window.bucketlab.hero.tokens), 3, 'two requests of cost 1 from B = 5');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('embed.html never paints its widget unstyled: hidden until both stylesheets of its shadow root have loaded', async () => {
  const sheets = ['/element/widget.css', '/element/bucket-lab.css'];
  const server = await serve({ hold: sheets });
  const browser = await launch();
  try {
    const page = await openPage(browser);
    await page.goto(`${server.url}embed.html?lang=en`, { waitUntil: 'commit' });
    const visibility = () => page.evaluate(() => getComputedStyle(document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-frame')).visibility);
    await page.waitForFunction(() => document.querySelector('bucket-lab')?.shadowRoot?.querySelector('.bl-frame .bl-send'));
    // The fallback that shows the element after 3 s whatever happened, held still while this
    // test looks (a loaded machine could take that long between two steps).
    const fallback = await page.evaluate(() => document.querySelector('bucket-lab').getAnimations().map((a) => {
      a.pause();
      return a.effect.getTiming().delay;
    }));
    assert.deepEqual(fallback, [3000]);
    assert.equal(await visibility(), 'hidden', 'the markup is there, not shown');
    server.release(sheets[0]);
    await page.waitForFunction(() => [...document.querySelector('bucket-lab').shadowRoot.styleSheets].some((s) => s.href?.endsWith('widget.css') && s.cssRules.length > 0));
    assert.equal(await visibility(), 'hidden', 'widget.css alone is not enough');
    server.release(sheets[1]);
    await page.waitForFunction(() => getComputedStyle(document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-frame')).visibility === 'visible');
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-send')).visibility), 'visible');
    // Chromium applies the two in the page's order; another engine may apply bucket-lab.css
    // first: alone, it keeps the frame hidden too (the sheets adopted one at a time, by hand).
    const alone = await page.evaluate(async () => {
      const text = (name) => fetch(`./element/${name}`).then((r) => r.text());
      const [widget, element] = await Promise.all([text('widget.css'), text('bucket-lab.css')]);
      const host = document.body.appendChild(document.createElement('div'));
      const root = host.attachShadow({ mode: 'open' });
      root.innerHTML = '<div class="bl-frame"><button class="bl-send">x</button></div>';
      const sheet = (css) => Object.assign(new CSSStyleSheet(), {}).replace(css);
      root.adoptedStyleSheets = [await sheet(element)];
      const seen = [getComputedStyle(root.querySelector('.bl-frame')).visibility];
      root.adoptedStyleSheets = [await sheet(element), await sheet(widget)];
      seen.push(getComputedStyle(root.querySelector('.bl-frame')).visibility);
      host.remove();
      return seen;
    });
    assert.deepEqual(alone, ['hidden', 'visible'], 'bucket-lab.css alone keeps the frame hidden; with widget.css it shows');
    await page.context().close();
  } finally {
    await browser.close();
    await server.close();
  }
});

/** The site served with its wasm held until `server.release(WASM)`, and a browser of its own, for `run`. */
const WASM = '/pkg/bucketlab_bg.wasm';
async function withHeldWasm(run) {
  const server = await serve({ hold: [WASM] });
  const browser = await launch();
  try {
    await run({ server, browser });
  } finally {
    await browser.close();
    await server.close();
  }
}

test('a click made before the wasm arrived is decided at its own time once it does', () => withHeldWasm(async ({ server, browser }) => {
  const page = await openPage(browser);
  // The click's time: its event's timeStamp (when the press happened, however late a busy page
  // runs its listeners). The reads below vary with the machine's load, so the test compares
  // intervals, not a tolerance.
  await page.addInitScript(() => {
    document.addEventListener('click', (event) => { window.clickStamp = event.timeStamp; }, true);
  });
  // r = 0.1 keeps the bucket below full long enough to read when the click was decided.
  await page.goto(`${server.url}index.html?capacity=10&refill-rate=0.1`, { waitUntil: 'domcontentloaded' });
  const send = page.locator('#hero-widget .bl-send');
  await send.waitFor();
  assert.equal(await send.isEnabled(), true, 'enabled at first paint');
  await send.click();
  assert.equal(await page.locator('#hero-widget .bl-widget[data-live]').count(), 0, 'the wasm is still held');
  assert.equal(await send.getAttribute('aria-busy'), 'true', 'the button shows the click was taken');
  // Let some time pass before the module arrives, so the click's time and the mount's differ.
  await page.waitForFunction(() => performance.now() > window.clickStamp + 300);
  // Held longer than a moment (a slow connection), the status line says the click is kept, in
  // the idle line's room: nothing under it moves.
  const status = () => page.textContent('#hero-widget .bl-status');
  const height = () => page.evaluate(() => document.getElementById('hero-widget').getBoundingClientRect().height);
  const idleHeight = await height();
  await page.waitForFunction(() => document.querySelector('#hero-widget .bl-status').textContent.startsWith('Ainda carregando'));
  assert.equal(await status(), 'Ainda carregando… sua requisição está guardada e será respondida em breve.');
  assert.equal(await height(), idleHeight);
  server.release(WASM);
  await page.waitForSelector('#hero-widget .bl-widget[data-live]');
  assert.equal(await send.getAttribute('aria-busy'), null, 'decided: no longer busy');
  const seen = await page.evaluate(() => {
    const hero = window.bucketlab.hero;
    const before = performance.now();
    hero.pause();
    const after = performance.now();
    const now = hero.now;
    return {
      // Lesson time 0 in wall milliseconds lies in [originFrom, originTo] (paused in between).
      originFrom: before - now * 1000,
      originTo: after - now * 1000,
      click: window.clickStamp,
      now,
      tokens: hero.tokens,
      counter: document.querySelector('#hero-widget .bl-counter').textContent,
      status: document.querySelector('#hero-widget .bl-status').textContent,
    };
  });
  // Lesson time 0 is the click: one token taken then, 0.1 per second refilled since.
  assert.ok(seen.now >= 0.3, `lesson time ${seen.now} s starts at the click, before the mount`);
  // The origin and the click overlap (to a microsecond of float noise): lesson time 0 is the
  // click, not the mount 300 ms later.
  assert.ok(
    seen.originFrom <= seen.click + 1e-3 && seen.click <= seen.originTo + 1e-3,
    `lesson time 0 in [${seen.originFrom}, ${seen.originTo}] ms, the click at ${seen.click} ms`,
  );
  assert.ok(Math.abs(seen.tokens - (9 + seen.now * 0.1)) < 1e-9, JSON.stringify(seen));
  const shown = (Math.floor(seen.tokens * 10 + 1e-6) / 10).toFixed(1).replace('.', ',');
  assert.equal(seen.counter, `${shown} / 10`);
  assert.equal(seen.status, 'Admitida: restam 9 tokens.');
  assert.deepEqual(page.problems, []);
  await page.context().close();
}));

test('several clicks made before the wasm arrived are each decided at its own time, not all at the first one\'s', () => withHeldWasm(async ({ server, browser }) => {
  const page = await openPage(browser);
  // Each click's own time, as the page's queue takes it (the event's timeStamp).
  await page.addInitScript(() => {
    window.clickTimes = [];
    document.addEventListener('click', (event) => { window.clickTimes.push(event.timeStamp); }, true);
  });
  await page.goto(`${server.url}en.html?capacity=10&refill-rate=1`, { waitUntil: 'domcontentloaded' });
  const send = page.locator('#hero-widget .bl-send');
  await send.waitFor();
  await send.click();
  await page.waitForFunction(() => performance.now() > window.clickTimes[0] + 300);
  await send.click();
  assert.equal(await page.locator('#hero-widget .bl-widget[data-live]').count(), 0, 'the wasm is still held');
  server.release(WASM);
  await page.waitForSelector('#hero-widget .bl-widget[data-live]');
  const { times, scenario } = await page.evaluate(() => {
    window.bucketlab.hero.pause();
    return { times: window.clickTimes, scenario: window.bucketlab.hero.scenario };
  });
  // The recording's sends (lesson seconds, to the millisecond) are as far apart as the clicks.
  const sends = scenario.split('_').slice(5).filter((action) => /^[\d.]+s/.test(action)).map((action) => parseFloat(action));
  assert.equal(sends.length, 2, scenario);
  const apart = (times[1] - times[0]) / 1000;
  assert.ok(apart >= 0.3, `${apart} s between the clicks`);
  assert.ok(Math.abs((sends[1] - sends[0]) - apart) <= 0.0015, `sends at ${sends} s, clicks ${apart} s apart: ${scenario}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
}));

test('clicks made before the wasm arrived count in embed.html in English too, whose markup is built in Portuguese', () => withHeldWasm(async ({ server, browser }) => {
  const page = await openPage(browser);
  await page.goto(`${server.url}embed.html?lang=en&refill-rate=0`, { waitUntil: 'domcontentloaded' });
  const send = page.locator('bucket-lab .bl-send');
  await send.waitFor();
  for (let i = 0; i < 3; i++) await send.click();
  assert.equal(await page.evaluate(() => window.bucketlabEarly.size), 3, 'three clicks wait for the wasm');
  server.release(WASM);
  await page.locator('bucket-lab .bl-widget[data-live]').waitFor();
  assert.equal(await page.evaluate(() => window.bucketlabEarly.size), 0, 'none left waiting');
  // Decided, in the address's language: 5 − 3, and no refill to blur it.
  assert.equal(await page.locator('bucket-lab .bl-status').textContent(), 'Admitted: 2 tokens left.');
  assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').diagram.tokens), 2);
  assert.deepEqual(page.problems, []);
  await page.context().close();
}));

/**
 * Opens `path` with the browser offline from the widget's wasm download on until `restore()` (a
 * train's tunnel), and waits until the page has said it tries again.
 */
async function openCutOff(path) {
  const page = await openPage(env.browser);
  let cut = true;
  let asked = 0;
  await page.route('**/bucketlab_bg*.wasm', async (route) => {
    asked += 1;
    if (!cut) return route.continue();
    // Offline from the module's own download on (the page's preload comes before its script,
    // which must arrive).
    if (route.request().resourceType() === 'fetch') await page.context().setOffline(true);
    return route.abort('internetdisconnected');
  });
  const retrying = page.waitForEvent('console', { predicate: (m) => /trying again/.test(m.text()) });
  await page.goto(new URL(path, env.server.url).href, { waitUntil: 'domcontentloaded' });
  await retrying;
  // The connection back, as the browser says it (\`online\`): tried again at once, not at the next wait.
  const restore = () => {
    cut = false;
    return page.context().setOffline(false);
  };
  return { page, restore, asked: () => asked };
}

test('a wasm download the network broke is tried again when the connection is back: the markup stays, a click made meanwhile is decided, the widget says why it waits', async () => {
  const { page, restore, asked } = await openCutOff('en.html?capacity=10&refill-rate=0.1');
  const send = page.locator('#hero-widget .bl-send');
  await send.click();
  assert.equal(await send.getAttribute('aria-busy'), 'true', 'the click is kept');
  // No error box with no way out: the widget says it waits for the connection.
  const said = 'The connection dropped while the diagram was loading: it loads when the connection is back, and your requests are kept.';
  await page.waitForFunction((text) => document.querySelector('#hero-widget .bl-status').textContent === text, said);
  assert.equal(await page.locator('#hero-widget .bl-error, #bucket-widget .bl-error').count(), 0);
  const tries = asked();
  await restore();
  await page.waitForSelector('#hero-widget .bl-widget[data-live]');
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  assert.ok(asked() > tries, 'downloaded again once the connection came back');
  assert.equal(await send.getAttribute('aria-busy'), null);
  assert.equal(await page.textContent('#hero-widget .bl-status'), 'Admitted: 9 tokens left.');
  // The dropped downloads are the browser's own console lines; each retry is said once.
  assert.deepEqual(page.problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|trying again/.test(p)), []);
  await page.context().close();
});

test('embed.html tries a broken wasm download again too, in its language, its click kept', async () => {
  const { page, restore } = await openCutOff('embed.html?lang=en&capacity=10&refill-rate=0.1');
  const send = page.locator('bucket-lab .bl-send');
  await send.click();
  await page.waitForFunction(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-status').textContent.startsWith('The connection dropped'));
  assert.equal(await page.locator('bucket-lab .bl-error').count(), 0);
  await restore();
  await page.waitForFunction(() => document.querySelector('bucket-lab').diagram);
  await page.waitForFunction(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-status').textContent === 'Admitted: 9 tokens left.');
  assert.deepEqual(page.problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|trying again/.test(p)), []);
  await page.context().close();
});

test('after a 429 the wait counts down, in the hero and in the full panel, to the retry', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}en.html`);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  for (const [id, handle] of [['hero-widget', 'hero'], ['bucket-widget', 'diagram']]) {
    const countdown = page.locator(`#${id} .bl-countdown`);
    const state = () => page.evaluate(([id, handle]) => ({
      status: document.querySelector(`#${id} .bl-status`).textContent,
      countdown: document.querySelector(`#${id} .bl-countdown`).textContent,
      capacity: window.bucketlab[handle].capacity,
      refillRate: window.bucketlab[handle].refillRate,
    }), [id, handle]);
    await page.evaluate((handle) => window.bucketlab[handle].pause(), handle);
    const { capacity, refillRate } = await state();
    for (let i = 0; i <= capacity; i += 1) {
      await page.click(`#${id} .bl-send`);
      // One token left is said in the singular.
      if (i === capacity - 2) assert.equal((await state()).status, 'Admitted: 1 token left.');
    }
    const wait = 1 / refillRate;
    const first = await state();
    assert.match(first.status, new RegExp(`^Denied: 429 with Retry\u2011After: ${Math.ceil(wait)} \\(the exact wait: ${wait}\u00a0s\\)\\.$`));
    assert.equal(first.countdown, `Wait: ${wait.toFixed(1)}\u00a0s left`);
    // Lesson time moves only by steps while paused: the countdown follows the core's numbers.
    const steps = Math.round(wait / 0.1);
    for (let k = 1; k < steps; k += 1) {
      await page.evaluate((handle) => window.bucketlab[handle].step(0.1), handle);
      const left = (wait - k * 0.1).toFixed(1);
      assert.equal(await countdown.textContent(), `Wait: ${left}\u00a0s left`, `after ${k} steps`);
    }
    // Counting down in the 429's colour; over, in the admitted one (good news, not a second error).
    const colour = (selector) => page.$eval(selector, (el) => getComputedStyle(el).color);
    assert.equal(await colour(`#${id} .bl-countdown`), await colour(`#${id} .bl-status`));
    await page.evaluate((handle) => window.bucketlab[handle].step(0.1), handle);
    assert.equal(await countdown.textContent(), 'Wait over: it passes now.');
    assert.equal(await colour(`#${id} .bl-countdown`), await page.$eval(`#${id} .bl-widget`, (el) => getComputedStyle(el).getPropertyValue('--bl-ok').trim()).then((ok) =>
      page.evaluate((ok) => { const probe = document.createElement('span'); probe.style.color = ok; document.body.append(probe); const c = getComputedStyle(probe).color; probe.remove(); return c; }, ok)));
    await page.click(`#${id} .bl-send`);
    assert.match((await state()).status, /^Admitted: 0 tokens left\.$/);
    assert.equal(await countdown.isVisible(), false, 'nothing to count down after an admission');
    // Running, a denial's countdown keeps the frame loop going until the retry time.
    // (Sent from the page, in one task, until one is refused: time runs, so tokens come back.)
    const animating = await page.evaluate((handle) => {
      const diagram = window.bucketlab[handle];
      diagram.resume();
      while (diagram.send(1));
      return diagram.isAnimating;
    }, handle);
    assert.equal(animating, true);
    // The line that says the wait is over takes no more room than the countdown did: nothing
    // under the card moves without a click (the hero sits above the lesson on a phone).
    const tall = () => page.$eval(`#${id}`, (el) => el.getBoundingClientRect().height);
    const counting = await tall();
    await page.waitForFunction((id) => document.querySelector(`#${id} .bl-countdown`).textContent.startsWith('Wait over'), id);
    assert.equal(await tall(), counting, 'the widget keeps its height when the wait is over');
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('in one column the full widget shows the response under its send row, before the other controls', async () => {
  const phone = { width: 375, height: 812 };
  const desktop = { width: 1280, height: 800 };
  // [page, the widget's container, viewport, one column?]; the demo course page's elements sit in
  // a 40rem column of a wide page, so they are one column by their own width.
  const cases = [
    ['embed.html?lang=en', 'bucket-lab', phone, true],
    ['embed.html?lang=en', 'bucket-lab', desktop, false],
    ['en.html', '#bucket-widget', phone, true],
    ['en.html', '#bucket-widget', desktop, false],
    ['demo/embed-demo.html', 'bucket-lab', desktop, true],
  ];
  for (const [file, root, viewport, oneColumn] of cases) {
    const page = await openPage(env.browser, { viewport });
    await page.goto(`${env.server.url}${file}`);
    const widget = page.locator(root).first();
    await widget.locator('.bl-widget[data-live]').waitFor();
    // Lesson time stands still (the element's handle, or the lesson's): B = 5 by default, so the
    // sixth request in a row is refused however slowly the clicks come.
    await page.evaluate((root) => (document.querySelector(root).diagram ?? window.bucketlab.diagram).pause(), root);
    for (let i = 0; i < 6; i += 1) await widget.locator('.bl-send').click();
    assert.match(await widget.locator('.bl-status').textContent(), /^Denied: 429/);
    // In the lesson, measured as a reader watching the bucket sees it: its top at the screen's
    // top (a phone then holds the timeline to the screen's foot, under the response's start).
    // embed.html shows it all on its first screen.
    if (!file.startsWith('embed.html')) {
      await widget.locator('.bl-diagram').evaluate((d) => scrollBy({ top: d.getBoundingClientRect().top, behavior: 'instant' }));
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    const [row, said, firstGroup, diagram] = await Promise.all(
      ['.bl-row', '.bl-status', '.bl-group:visible', '.bl-diagram'].map((part) => widget.locator(part).first().boundingBox()),
    );
    const [timeline, slider, group, counter] = await Promise.all(
      ['.bl-scrub', '.bl-capacity', '.bl-group:has(.bl-capacity)', '.bl-counter'].map((part) => widget.locator(part).first().boundingBox()),
    );
    const where = `${file} at ${viewport.width} px: row ${JSON.stringify(row)}, status ${JSON.stringify(said)}, first group ${JSON.stringify(firstGroup)}, timeline ${JSON.stringify(timeline)}`;
    if (oneColumn) {
      // The markup's order, which is Tab's: the send row, the response under it, the timeline,
      // then the groups.
      assert.ok(said.y >= row.y + row.height && timeline.y >= said.y + said.height, where);
      assert.ok(timeline.y + timeline.height <= firstGroup.y, where);
      // The timeline within a screen of the bucket's counter, even with a 429's response between
      // them: dragging it, the water and the counter above show that moment (after every control
      // it was some 1,100 px below the bucket, and a drag showed nothing move).
      assert.ok(timeline.y + timeline.height - counter.y <= viewport.height, `counter to timeline fits one screen: ${where}`);
      // The sliders take the fieldset's width (144 px of a 290 px fieldset at 375 px was 2.9 px per
      // step of B); an element may hide its controls.
      if (slider) assert.ok(slider.width >= 0.7 * group.width, `slider ${slider.width} px in a ${group.width} px fieldset (${where})`);
    } else {
      // Two columns: the send row and the response under it beside the bucket, the timeline under
      // them, the groups under all.
      assert.ok(said.x >= diagram.x + diagram.width && said.y >= row.y + row.height, where);
      assert.ok(timeline.y >= said.y + said.height && timeline.y >= diagram.y + diagram.height, where);
      assert.ok(firstGroup.y >= timeline.y + timeline.height, where);
    }
    if (file.startsWith('embed.html')) {
      // The refusal is read where it happened: on the first screen, with no scrolling.
      assert.equal(await page.evaluate(() => scrollY), 0);
      assert.ok(said.y + said.height <= viewport.height, where);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

/**
 * What sticks out sideways past `width`: elements (with a box, shown) whose right or left edge is
 * off the screen, except inside a horizontal scroller that is itself on screen (a code block or the
 * response head scroll inside themselves, by design). A section's content-visibility clips what
 * overflows it without the page scrolling: that is counted, as the reader loses it all the same.
 */
function offScreen(page, width) {
  return page.evaluate((width) => {
    const scrolls = (el) => /(auto|scroll|hidden|clip)/.test(getComputedStyle(el).overflowX);
    const found = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if ((r.width === 0 && r.height === 0) || getComputedStyle(el).visibility === 'hidden') continue;
      if (r.right <= width + 1 && r.left >= -1) continue;
      let inside = false;
      for (let p = el.parentElement; p && p !== document.body && !inside; p = p.parentElement) {
        const pr = p.getBoundingClientRect();
        inside = scrolls(p) && pr.right <= width + 1 && pr.left >= -1;
      }
      if (!inside) found.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} ${Math.round(r.left)}–${Math.round(r.right)} px "${el.textContent.trim().slice(0, 30)}"`);
    }
    return found;
  }, width);
}

test('at 200 % text on a phone nothing on either page is wider than the screen, lazy parts and a 429 included', async () => {
  for (const [file] of PAGES) {
    for (const viewport of [{ width: 320, height: 640 }, { width: 375, height: 812 }]) {
      const page = await openPage(env.browser, { viewport, ...PHONE });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
      await page.goto(`${env.server.url}${file}`);
      await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
      for (const [mount, ready] of [['#algorithm-lab', 'lab-ready'], ['#flood-lab', 'df-ready'], ['#clients-lab', 'cl-ready'], ['#traffic-lab', 'tr-ready'], ['#recap-checks', 'df-ready']]) {
        await loadPart(page, mount, ready);
      }
      // The diagram's 429, its response head and its formulas, at standstill.
      await page.evaluate(() => window.bucketlab.diagram.pause());
      for (let i = 0; i < 6; i += 1) await page.locator('#bucket-widget .bl-send').click();
      assert.match(await page.locator('#bucket-widget .bl-status').textContent(), /429/);
      // Every section laid out (content-visibility lays out only those near the screen).
      await page.evaluate(() => {
        for (const section of document.querySelectorAll('main > section')) section.style.contentVisibility = 'visible';
      });
      const where = `${file} ${viewport.width}×${viewport.height} at 200 % text`;
      assert.deepEqual(await offScreen(page, viewport.width), [], where);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), viewport.width, `${where}: the page scrolls sideways`);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  }
});
