// Code tabs (WAI-ARIA, keyboard only), the tech toggle and the copy buttons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './harness.mjs';
import { openLesson } from './lesson-helpers.mjs';

const env = useBrowser();

const selectedTab = (page) => page.getAttribute('[role=tab][aria-selected=true]', 'data-tab');
const visiblePanels = (page) => page.$$eval('.tabpanel', (panels) => panels.filter((p) => !p.hidden).map((p) => p.id));

test('the code tabs work from the keyboard alone', async () => {
  const page = await openLesson(env);
  assert.equal(await selectedTab(page), 'algorithm');
  assert.deepEqual(await visiblePanels(page), ['codigo-algoritmo']);
  // Tab into the tab list from the tech toggle: only the selected tab is in the tab order.
  await page.focus('.tech-option[data-tech=go]');
  let guard = 0;
  while (!(await page.evaluate(() => document.activeElement.getAttribute('role') === 'tab')) && guard++ < 10) {
    await page.keyboard.press('Tab');
  }
  assert.equal(await page.evaluate(() => document.activeElement.dataset.tab), 'algorithm');

  await page.keyboard.press('ArrowRight');
  assert.equal(await selectedTab(page), 'config');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.tab), 'config');
  assert.deepEqual(await visiblePanels(page), ['codigo-configuracao']);
  await page.keyboard.press('ArrowRight');
  assert.equal(await selectedTab(page), 'usage');
  await page.keyboard.press('ArrowRight');
  assert.equal(await selectedTab(page), 'algorithm', 'wraps around');
  await page.keyboard.press('End');
  assert.equal(await selectedTab(page), 'usage');
  await page.keyboard.press('Home');
  assert.equal(await selectedTab(page), 'algorithm');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await selectedTab(page), 'usage');

  const tabs = await page.$$eval('[role=tab]', (all) => all.map((t) => ({
    tabindex: t.getAttribute('tabindex'),
    selected: t.getAttribute('aria-selected'),
    controls: document.getElementById(t.getAttribute('aria-controls'))?.getAttribute('role'),
    labelled: document.getElementById(t.getAttribute('aria-controls'))?.getAttribute('aria-labelledby') === t.id,
  })));
  assert.deepEqual(tabs, [
    { tabindex: '-1', selected: 'false', controls: 'tabpanel', labelled: true },
    { tabindex: '-1', selected: 'false', controls: 'tabpanel', labelled: true },
    { tabindex: '0', selected: 'true', controls: 'tabpanel', labelled: true },
  ]);
  // Tab moves on into the panel, not along the tabs.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'codigo-uso');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a table-of-contents link opens its tab and lands on it, on a wide and a narrow screen', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 900 }]) {
    const page = await openLesson(env, '', { viewport });
    for (const [panel, name] of [['codigo-configuracao', 'config'], ['codigo-uso', 'usage']]) {
      await page.evaluate((id) => document.querySelector(`nav.toc a[href="#${id}"]`).click(), panel);
      await page.waitForFunction((tab) => document.querySelector('[role=tab][aria-selected=true]').dataset.tab === tab, name);
      // The panel's heading ends at the top of the screen, not the page where the click was.
      await page.waitForFunction((id) => Math.abs(document.getElementById(id).getBoundingClientRect().top) < 40, panel, { timeout: 10_000 })
        .catch(async () => {
          const top = await page.evaluate((id) => document.getElementById(id).getBoundingClientRect().top, panel);
          assert.fail(`${viewport.width} px: #${panel} is ${Math.round(top)} px from the top`);
        });
      await page.evaluate(() => window.scrollTo(0, 0));
    }
    await page.context().close();
  }
});

test('a fragment with a malformed escape opens no tab and throws nothing; a well-formed one still does', async () => {
  const page = await openLesson(env);
  for (const hash of ['%E0%A4%A', '%', 'codigo-configuracao%ZZ']) {
    await page.evaluate((h) => { location.hash = h; }, hash);
    await page.waitForFunction((h) => location.hash === `#${h}`, hash);
  }
  // The well-formed escape of the config panel's id, after them: heard, so the bad ones were too.
  await page.evaluate(() => { location.hash = '%63odigo-configuracao'; });
  await page.waitForFunction(() => document.querySelector('[role=tab][aria-selected=true]').dataset.tab === 'config');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the tech toggle switches every code block at once and survives a reload', async () => {
  const page = await openLesson(env);
  const shown = () => page.$$eval('.tech-group', (groups) => groups.map((g) =>
    [...g.querySelectorAll('[data-tech]')].filter((b) => !b.hidden).map((b) => b.dataset.tech).join()));
  const groups = await page.locator('.tech-group').count();
  assert.ok(groups >= 2, 'algorithm and usage each have a group');
  assert.deepEqual(await shown(), Array(groups).fill('rust'));

  for (const tech of ['python', 'go', 'javascript']) {
    await page.click(`.tech-option[data-tech=${tech}]`);
    assert.deepEqual(await shown(), Array(groups).fill(tech));
    assert.equal(await page.getAttribute(`.tech-option[data-tech=${tech}]`, 'aria-pressed'), 'true');
    assert.equal(await page.locator('.tech-option[aria-pressed=true]').count(), 1);
  }
  await page.click('.tech-option[data-tech=go]');
  await page.reload();
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  assert.deepEqual(await shown(), Array(groups).fill('go'), 'remembered across a reload');
  assert.equal(await page.getAttribute('.tech-option[data-tech=go]', 'aria-pressed'), 'true');
  await page.context().close();
});

test('copy buttons copy the block and say so, visibly and to screen readers', async () => {
  const page = await openLesson(env, '', { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.click('.tech-option[data-tech=python]');
  const block = page.locator('#codigo-algoritmo figure[data-tech=python]');
  const button = block.locator('button.copy');
  assert.equal(await button.textContent(), 'Copiar');
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('copy-announcer').textContent !== '');
  assert.equal(await button.textContent(), 'Copiado!');
  assert.match(await page.textContent('#copy-announcer'), /token_bucket\.py copiado/);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await block.locator('pre').textContent());
  assert.match(copied, /^import math\n/);
  // The feedback goes away again.
  await page.waitForFunction(() => document.querySelector('#codigo-algoritmo figure[data-tech=python] button.copy').textContent === 'Copiar');
  assert.ok((await page.locator('figure.code-block button.copy').count()) >= 9, 'every code block has one');
  // Each "Copy" is told apart by its block's caption, as its description.
  const described = await page.$$eval('figure.code-block button.copy', (buttons) => buttons.map((b) => [
    b.closest('figure').querySelector('figcaption').textContent.trim(), document.getElementById(b.getAttribute('aria-describedby'))?.textContent.trim()]));
  for (const [caption, description] of described) assert.equal(description, caption);
  await page.context().close();
});

test('the diagram\'s two link buttons copy their links and name them when announcing', async () => {
  const page = await openLesson(env, 'en.html', { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.click('#bucket-widget .bl-send');
  await page.evaluate(() => window.bucketlab.diagram.pause()); // the scenario ends at the moment shown
  const copy = async (selector) => {
    await page.evaluate(() => navigator.clipboard.writeText('EMPTY'));
    await page.evaluate(() => { document.getElementById('copy-announcer').textContent = ''; });
    await page.click(selector);
    await page.waitForFunction(() => document.getElementById('copy-announcer').textContent !== '');
    return { announced: await page.textContent('#copy-announcer'), copied: await page.evaluate(() => navigator.clipboard.readText()) };
  };
  const state = await copy('.permalink-copy');
  assert.equal(state.announced, 'The link to these settings copied to the clipboard.');
  assert.equal(await page.textContent('.permalink-copy'), 'Link copied!');
  // Said once: the button's name stays what it was while it shows "Link copied!".
  assert.equal(await page.getByRole('button', { name: 'Copy a link to these settings', exact: true }).count(), 1);
  const url = new URL(state.copied);
  assert.equal(url.pathname, '/en.html');
  assert.match(url.hash, /(^#|&)b=5(&|$)/, `${state.copied} names the diagram's B`);

  const replay = await copy('.scenario-copy');
  assert.equal(replay.announced, 'The link that replays what you did copied to the clipboard.');
  const scenario = await page.evaluate(() => window.bucketlab.diagram.scenario);
  assert.ok(replay.copied.endsWith(`s=${scenario}`), `${replay.copied} ends with the diagram's scenario`);
  await page.context().close();
});

test('pt-BR: a recording too long for a link is said beside the replay-link button, in Portuguese, and nothing is copied', async () => {
  const page = await openLesson(env, '', { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.evaluate(() => {
    const diagram = window.bucketlab.diagram;
    diagram.pause();
    for (let i = 0; i < 201; i++) { diagram.send(); diagram.step(0.01); }
    return navigator.clipboard.writeText('EMPTY');
  });
  await page.click('.scenario-copy');
  await page.waitForFunction(() => document.getElementById('copy-announcer').textContent !== '');
  const said = await page.textContent('#copy-announcer');
  assert.match(said, /^Longo demais para um link: .*200 ações/);
  assert.equal(await page.textContent('.permalink .copy-feedback'), said, 'shown beside the button');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'EMPTY');
  assert.equal(await page.isHidden('#page-notice'), true, 'not in the notice at the top of the page');
  assert.deepEqual(page.problems, ['warning: bucketlab: scenario: it has 201 actions; at most 200 (reset the diagram and record a shorter scenario)']);
  await page.context().close();
});
