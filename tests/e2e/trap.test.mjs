// A wasm trap (what a Rust panic becomes with panic = "abort") must not leave a frozen widget: the
// lesson's diagram and every <bucket-lab> turn into an error box that says what happened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, waitForWidget } from './harness.mjs';

const env = useBrowser();

/** Throws a WebAssembly.RuntimeError out of a task, as a trap inside a listener would. */
const trap = () => setTimeout(() => {
  throw new WebAssembly.RuntimeError('unreachable');
});

test('a trap turns the lesson diagram into an alert, in the page language', async () => {
  for (const [path, title] of [['', 'O diagrama parou por um erro interno'], ['en.html', 'The diagram stopped after an internal error']]) {
    const page = await openPage(env.browser);
    await page.goto(`${env.server.url}${path}`);
    await waitForWidget(page);
    // Another kind of error leaves the widget alone.
    await page.evaluate(() => setTimeout(() => { throw new TypeError('not a trap'); }));
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    assert.equal(await page.locator('#bucket-widget .bl-error').count(), 0);

    await page.evaluate(trap);
    await page.waitForSelector('#bucket-widget .bl-error[role="alert"]');
    assert.match(await page.textContent('#bucket-widget .bl-error-title'), new RegExp(title));
    assert.equal(await page.textContent('#bucket-widget .bl-error-detail'), 'unreachable');
    assert.equal(await page.evaluate(() => window.bucketlab.diagram), null);
    assert.ok(page.problems.some((p) => p.includes('bucketlab stopped after an internal error')),
      'the console says why');
    await page.context().close();
  }
});

test('a trap turns every <bucket-lab> into an alert; a removed one is left alone', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}demo/embed-demo.html`);
  await page.waitForFunction(() => [...document.querySelectorAll('bucket-lab')].every((e) => e.diagram));
  const count = await page.evaluate(() => {
    const gone = document.querySelector('bucket-lab');
    window.__gone = gone;
    gone.remove();
    return document.querySelectorAll('bucket-lab').length;
  });
  await page.evaluate(trap);
  await page.waitForFunction(
    () => [...document.querySelectorAll('bucket-lab')].every((e) => e.shadowRoot.querySelector('.bl-error')),
  );
  const state = await page.evaluate(() => ({
    titles: [...document.querySelectorAll('bucket-lab')].map((e) => e.shadowRoot.querySelector('.bl-error-title').textContent),
    handles: [...document.querySelectorAll('bucket-lab')].map((e) => e.diagram),
    removedShowsError: Boolean(window.__gone.shadowRoot.querySelector('.bl-error')),
  }));
  assert.equal(state.titles.length, count);
  assert.ok(state.titles.every((t) => /internal error|erro interno/.test(t)), state.titles.join(' | '));
  assert.ok(state.handles.every((h) => h === null));
  assert.equal(state.removedShowsError, false, 'a removed element stopped watching');
  await page.context().close();
});
