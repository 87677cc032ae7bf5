// A handle used after it was freed says what happened, instead of wasm-bindgen's "null pointer
// passed to rust"; a second free() does nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser } from './harness.mjs';
import { openLesson } from './lesson-helpers.mjs';

const env = useBrowser();
const FREED = 'this diagram was freed (free() was called or its element removed); mount a new one';

test('the lesson\'s diagram after free(): every call says it was freed, a second free() does nothing', async () => {
  const page = await openLesson(env, 'en.html');
  const said = await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.free();
    const attempt = (call) => {
      try {
        return `returned ${call()}`;
      } catch (error) {
        return error.message;
      }
    };
    return [
      attempt(() => d.free()),
      attempt(() => d.send()),
      attempt(() => d.sendAt(performance.now())),
      attempt(() => d.tokens),
      attempt(() => d.playScenario('1_5_1_5_3')),
    ];
  });
  assert.deepEqual(said, ['returned undefined', FREED, FREED, FREED, FREED]);
  await page.context().close();
});

test('a <bucket-lab> handle kept after its element was removed says it was freed', async () => {
  const page = await openLesson(env, 'en.html');
  const said = await page.evaluate(async () => {
    await import('../element/bucket-lab.js');
    const element = document.createElement('bucket-lab');
    document.body.append(element);
    while (!element.diagram) await new Promise((r) => setTimeout(r, 0));
    const kept = element.diagram;
    element.remove();
    await Promise.resolve(); // the teardown waits a microtask: a move within the page keeps it
    try {
      kept.step(1);
      return 'no error';
    } catch (error) {
      return error.message;
    }
  });
  assert.equal(said, FREED);
  await page.context().close();
});

test('a <bucket-lab> whose handle a script freed reads diagram as null, and mounts afresh on an attribute change or a reconnection', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}embed.html?lang=en&paused`);
  const seen = await page.evaluate(async () => {
    await import('./element/bucket-lab.js');
    const element = document.createElement('bucket-lab');
    for (const [name, value] of [['capacity', '3'], ['lang', 'en'], ['paused', '']]) element.setAttribute(name, value);
    document.body.append(element);
    const error = () => element.shadowRoot.querySelector('.bl-error')?.textContent ?? null;
    // Mounted, or an error box instead.
    const mounted = async () => {
      while (!element.diagram && !error()) await new Promise((r) => setTimeout(r, 0));
      return element.diagram;
    };
    const first = await mounted();
    first.free();
    const afterFree = element.diagram;
    first.free(); // a second free() does nothing
    element.setAttribute('capacity', '4');
    const second = await mounted();
    const remounted = { fresh: second !== first, capacity: second?.capacity, paused: second?.paused, error: error() };
    // `using`'s dispose frees it the same way.
    second?.[Symbol.dispose]();
    const afterDispose = element.diagram;
    element.remove();
    await Promise.resolve(); // the teardown's microtask
    document.body.append(element);
    const third = await mounted();
    return {
      afterFree: afterFree && 'the freed handle',
      remounted,
      afterDispose,
      reconnected: { fresh: third !== second, capacity: third?.capacity, error: error() },
    };
  });
  assert.deepEqual(seen, {
    afterFree: null,
    remounted: { fresh: true, capacity: 4, paused: true, error: null },
    afterDispose: null,
    reconnected: { fresh: true, capacity: 4, error: null },
  });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
