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

/** Traps in another module's code on the page (another widget's, Pyodide's), out of a task. */
const foreignTrap = () => setTimeout(() => {
  // (func (export "f") unreachable)
  const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 5, 1, 3, 0, 0, 11]);
  new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.f();
});

test("a trap in another module on the page leaves the diagrams alone; a real trap in the widget's module stops them", async () => {
  for (const [path, ready, handles] of [
    ['demo/embed-demo.html', () => [...document.querySelectorAll('bucket-lab')].every((e) => e.diagram),
      () => [...document.querySelectorAll('bucket-lab')].map((e) => e.diagram)],
    ['en.html', () => window.bucketlab?.diagram, () => [window.bucketlab.hero, window.bucketlab.diagram]],
  ]) {
    const page = await openPage(env.browser);
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${env.server.url}${path}`);
    await page.waitForFunction(ready);
    await page.evaluate(foreignTrap);
    await page.waitForFunction(() => new Promise((resolve) => setTimeout(() => resolve(true), 50)));
    assert.deepEqual(errors, ['unreachable'], `${path}: the foreign trap reached the window`);
    assert.equal((await page.evaluate(handles)).every((h) => h !== null), true, `${path}: every diagram still mounted`);
    assert.equal(await page.evaluate(() => document.querySelectorAll('.bl-error').length
      + [...document.querySelectorAll('bucket-lab')].filter((e) => e.shadowRoot.querySelector('.bl-error')).length), 0, path);
    assert.ok(!page.problems.some((p) => p.includes('bucketlab stopped')), `${path}: nothing said`);
    // A real trap inside the widget's module (a handle pointing outside its memory), from a task.
    await page.evaluate(`setTimeout(() => { const d = (${handles})()[0]; d.__wbg_ptr = 0x7ffffff0; d.send(); })`);
    await page.waitForFunction(`(${handles})().every((h) => h === null)`);
    assert.ok(page.problems.some((p) => p.includes('bucketlab stopped after an internal error')), `${path}: the console says why`);
    await page.context().close();
  }
});

test('a browser without WebAssembly (Lockdown Mode) is told so in every diagram, in its language, with no uncaught error', async () => {
  for (const [path, selectors, words] of [
    ['embed.html?lang=en', ['bucket-lab'], /This browser has WebAssembly turned off/],
    ['', ['#hero-widget', '#bucket-widget'], /Este navegador está com o WebAssembly desligado/],
  ]) {
    const page = await openPage(env.browser);
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.addInitScript(() => { delete window.WebAssembly; });
    await page.goto(`${env.server.url}${path}`);
    const text = (selector) => page.evaluate((selector) => {
      const host = document.querySelector(selector);
      return (host.shadowRoot ?? host).querySelector('.bl-error[role="alert"]')?.textContent ?? null;
    }, selector);
    for (const selector of selectors) {
      await page.waitForFunction((selector) => {
        const host = document.querySelector(selector);
        return (host.shadowRoot ?? host).querySelector('.bl-error[role="alert"]');
      }, selector);
      assert.match(await text(selector), words, `${path} ${selector}`);
    }
    if (path === '') {
      // A later part says it too, in its own words, not the browser's "WebAssembly is not defined".
      await page.evaluate(() => window.bucketlab.loadLab().catch(() => {}));
      await page.waitForFunction(() => /não carregou/.test(document.getElementById('algorithm-lab').textContent));
      assert.match(await page.textContent('#algorithm-lab'), /não carregou: este navegador está com o WebAssembly desligado/);
    }
    assert.deepEqual(errors, [], path);
    await page.context().close();
  }
});
