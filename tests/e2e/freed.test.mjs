// A handle used after it was freed says what happened, instead of wasm-bindgen's "null pointer
// passed to rust"; a second free() does nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './harness.mjs';
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
