// Both languages, complete and unmixed; the language switch; the embedded Rust source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readLocale } from '../../scripts/pages.mjs';
import { fileURLToPath } from 'node:url';
import { serve, useBrowser, openPage } from './harness.mjs';
import { loadPart, openLesson, proseText } from './lesson-helpers.mjs';

const env = useBrowser();
const ROOT = new URL('../../', import.meta.url);

/**
 * Every sentence-like string of a locale table (markup stripped), long enough to be telling and
 * with a word in it (`B = 20, r = 2/s` is the same in both languages).
 */
function phrases(table) {
  const out = [];
  const walk = (value) => {
    if (typeof value === 'string') {
      const text = value.replace(/<[^>]+>/g, '').replace(/\{\w+\}/g, ' ').replace(/\s+/g, ' ').trim();
      for (const part of text.split(/[.:;!?()“”"]\s*/)) if (part.length >= 14 && /\s/.test(part) && /\p{L}{3}/u.test(part)) out.push(part.trim());
    } else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(table);
  return [...new Set(out)];
}

// Words that only one of the two languages uses in running text (a tag name such as <bucket-lab>
// is not English prose).
const PORTUGUESE = /\b(não|requisição|requisições|balde|você|também|são|então|quando|para|depois|segundos|cheio)\b/i;
const ENGLISH = /\b(the|and|with|which|request|requests|bucket|when|seconds|full|send|tokens left)\b(?!-)/i;
const MARKERS = /⟦|\{\{|\}\}|\bundefined\b|\[object Object\]|\bNaN\b/;

/** The lazily loaded parts and the class each gets once mounted: their words count too. */
const PARTS = [['#algorithm-lab', 'lab-ready'], ['#flood-lab', 'df-ready'], ['#clients-lab', 'cl-ready'], ['#traffic-lab', 'tr-ready'], ['#recap-checks', 'df-ready']];

/**
 * Opens the page and exercises what adds run-time text: every lazy part loaded, a denial, the
 * Config and Usage tabs.
 */
async function renderEverything(path) {
  const page = await openLesson(env, path);
  for (const [mount, ready] of PARTS) await loadPart(page, mount, ready);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  for (let i = 0; i < 11; i++) await page.click('#bucket-widget .bl-send');
  await page.click('#tab-config');
  await page.waitForFunction(() => document.getElementById('policy-status').textContent !== '');
  await page.click('#tab-usage');
  for (const details of await page.$$('details')) await details.evaluate((d) => { d.open = true; });
  return page;
}

for (const [path, lang, other, foreign, own] of [['en.html', 'en', 'pt-BR', PORTUGUESE, ENGLISH], ['', 'pt-BR', 'en', ENGLISH, PORTUGUESE]]) {
  test(`the ${lang} page shows no ${other} strings and no missing-key markers`, async () => {
    const page = await renderEverything(path === 'en.html' ? '?lang=en' : path);
    assert.equal(await page.getAttribute('html', 'lang'), lang);
    const texts = [];
    for (const tab of ['algorithm', 'config', 'usage']) {
      await page.click(`#tab-${tab}`);
      texts.push(await proseText(page));
    }
    const text = texts.join(' ');
    assert.match(text, own, 'the scan sees the page\'s own words');
    assert.ok(phrases(readLocale(lang)).filter((phrase) => text.includes(phrase)).length > 100, 'and its own phrases');
    assert.doesNotMatch(text, MARKERS);
    // A phrase both tables have is a name (Asynchronous Transfer Mode), not a leak.
    const ownPhrases = new Set(phrases(readLocale(lang)));
    const leaked = phrases(readLocale(other)).filter((phrase) => !ownPhrases.has(phrase) && text.includes(phrase));
    assert.deepEqual(leaked, [], `${other} phrases on the ${lang} page`);
    const word = text.match(foreign);
    assert.equal(word, null, `a ${other} word on the ${lang} page: …${word && text.slice(Math.max(0, word.index - 60), word.index + 60)}…`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('?lang=en opens the English page, and the choice is remembered', async () => {
  const page = await openLesson(env, '?lang=en');
  assert.match(page.url(), /\/en\.html\?lang=en$/);
  assert.equal(await page.textContent('h1'), 'Rate limiting with the token bucket');
  assert.match(await page.textContent('#bucket-widget .bl-send'), /Send request/);
  await page.goto(env.server.url);
  await page.waitForURL(/\/en\.html$/);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  // The switch goes back and remembers that too.
  await page.click('.lang-switch a[data-lang=pt-BR]');
  await page.waitForURL(/\/index\.html/);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  assert.equal(await page.getAttribute('html', 'lang'), 'pt-BR');
  await page.goto(env.server.url);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  assert.equal(await page.getAttribute('html', 'lang'), 'pt-BR');
  assert.equal(await page.getAttribute('.lang-switch a[aria-current=page]', 'lang'), 'pt-BR');
  await page.context().close();
});

test('the remembered language is the folder\'s own: a switch in one course (an LMS\'s SCORM package) leaves another\'s launch language alone', async () => {
  // The same site under a second folder of the same origin, as an LMS serves two packages.
  const two = await serve({ mounts: { 'course-b/': fileURLToPath(new URL('www/', ROOT)) } });
  try {
    const page = await openPage(env.browser);
    await page.goto(`${two.url}?lang=en`);
    await page.waitForURL(/\/en\.html\?lang=en$/);
    await page.goto(`${two.url}course-b/index.html`);
    await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
    assert.equal(await page.getAttribute('html', 'lang'), 'pt-BR', 'course B opens in its own language');
    assert.equal(new URL(page.url()).pathname, '/course-b/index.html');
    // Course A still remembers its reader's English.
    await page.goto(two.url);
    await page.waitForURL(/\/en\.html$/);
    await page.context().close();
    // A choice kept under the one key of before is this folder's now, once.
    const returning = await openPage(env.browser);
    await returning.goto(`${two.url}course-b/index.html`);
    await returning.evaluate(() => localStorage.setItem('bucketlab:lang', 'en'));
    await returning.goto(`${two.url}course-b/index.html`);
    await returning.waitForURL(/\/course-b\/en\.html$/);
    assert.deepEqual(await returning.evaluate(() => [localStorage.getItem('bucketlab:lang'), localStorage.getItem('bucketlab:lang:/course-b/')]), [null, 'en']);
    await returning.context().close();
  } finally {
    await two.close();
  }
});

test('the language switch carries the state over', async () => {
  const page = await openLesson(env, '#b=15&r=2&tab=usage&code=go');
  await page.click('.lang-switch a[data-lang=en]');
  await page.waitForURL(/\/en\.html#/);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.capacity), 15);
  assert.equal(await page.getAttribute('[role=tab][aria-selected=true]', 'data-tab'), 'usage');
  assert.equal(await page.getAttribute('.tech-option[aria-pressed=true]', 'data-tech'), 'go');
  await page.context().close();
});

/** Waits until the page's diagram is live after a language switch to `page` (`/en\.html#/`). */
async function switchTo(page, lang, url) {
  await page.click(`.lang-switch a[data-lang=${lang}]`);
  await page.waitForURL(url);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
}

/** Waits until section `id` has settled at the top of the window (the scroll and its corrections). */
const settledAt = (page, id) => page.waitForFunction((section) => {
  const top = document.getElementById(section).getBoundingClientRect().top;
  return Math.abs(top - parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop)) <= 4;
}, id);

test('on a phone, the language switch opens the other page where the reader was: at the top, or at the section they were reading', async () => {
  const page = await openLesson(env, '', { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  // At the top, after trying the hero: the English page opens at its top too, the hero's request carried.
  await page.evaluate(() => window.bucketlab.hero.pause());
  await page.tap('#hero-widget .bl-send');
  const heroTokens = await page.evaluate(() => window.bucketlab.hero.tokens);
  await switchTo(page, 'en', /\/en\.html#b=5&r=1&c=1&lang=en&tab=algorithm&code=\w+$/);
  assert.equal(await page.evaluate(() => scrollY), 0, 'at the top, not at the code');
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.hero.tokens, window.bucketlab.hero.paused]), [heroTokens, true], 'the hero as the reader left it');
  // Reading "Parameters" (same id on both pages): the Portuguese page opens there. The switch is in
  // the page's header: followed from where the reader is (a script's click, as the header's link
  // is not in view down there; a pointer's would scroll up to it first). Scrolled and clicked in
  // one task, with no frame between for the page's observers to catch up: the click still sees it.
  await Promise.all([
    page.waitForURL(/\/index\.html#/),
    page.evaluate(() => {
      document.getElementById('parametros').scrollIntoView({ behavior: 'instant' });
      scrollBy({ top: 200, behavior: 'instant' });
      document.querySelector('.lang-switch a[data-lang=pt-BR]').click();
    }),
  ]);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await settledAt(page, 'parametros');
  // The focus is there too (its heading), so the keyboard goes on from there, not from the top.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'parametros-titulo');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => {
    const section = document.getElementById('parametros');
    return section.contains(document.activeElement) || Boolean(section.compareDocumentPosition(document.activeElement) & Node.DOCUMENT_POSITION_FOLLOWING);
  }), true, 'the next Tab goes on from the section');
  // An answer the reader opened, and the console block they closed, stay so on the other page.
  const faqItem = await page.evaluate(() => {
    const item = document.querySelector('#faq details[id]:not([open])');
    item.open = true;
    document.getElementById('console-block').open = false;
    return item.id;
  });
  // As a finger does it: reading the FAQ, then up to the header's switch and a tap on it. The
  // place is where the window rested, not the top it was scrolled to, nor a section passed on the way.
  // (Brought back to the FAQ while the sections above it take their real heights and push it down.)
  await page.waitForFunction(() => {
    const faq = document.getElementById('faq');
    if (Math.abs(faq.getBoundingClientRect().top) > 100) faq.scrollIntoView({ behavior: 'instant' });
    return document.querySelector('.lang-switch').dataset.readingAt === 'faq';
  });
  await page.evaluate(() => scrollTo({ top: document.getElementById('parametros').offsetTop, behavior: 'instant' }));
  await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
  await Promise.all([page.waitForURL(/\/en\.html#/), page.tap('.lang-switch a[data-lang=en]')]);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await settledAt(page, 'faq');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'faq-titulo');
  assert.deepEqual(await page.evaluate((id) => [document.getElementById(id).open, document.getElementById('console-block').open], faqItem), [true, false]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the language switch carries the diagram as the reader left it (its recording, live, running or paused, or the past moment shown); a recording too long for that leaves B, r and c', async () => {
  const page = await openLesson(env, 'en.html');
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.pause();
    d.configure(6, 0.5);
    d.send();
    d.send();
  });
  const before = await page.evaluate(() => [window.bucketlab.diagram.tokens, window.bucketlab.diagram.scenario]);
  await switchTo(page, 'pt-BR', /\/index\.html#b=6&r=0\.5&c=1&lang=pt-BR&/);
  const after = await page.evaluate(() => [window.bucketlab.diagram.tokens, window.bucketlab.diagram.scenario, window.bucketlab.diagram.traveling, window.bucketlab.diagram.paused]);
  assert.deepEqual(after, [...before, false, true], 'the same bucket, live, still paused');
  assert.equal(await page.locator('#page-notice').isVisible(), false);
  // Looking at a past moment: the recording goes across, shown at that same moment, stopped.
  await page.evaluate(() => window.bucketlab.diagram.stepBack());
  const past = await page.evaluate(() => [window.bucketlab.diagram.traveling, window.bucketlab.diagram.viewTime, window.bucketlab.diagram.tokens]);
  assert.equal(past[0], true);
  await switchTo(page, 'en', /\/en\.html#b=6&r=0\.5&c=1&lang=en&/);
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.scenario, window.bucketlab.diagram.traveling, window.bucketlab.diagram.viewTime, window.bucketlab.diagram.tokens]), [before[1], ...past]);
  await page.evaluate(() => window.bucketlab.diagram.live());
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.tokens, window.bucketlab.diagram.traveling]), [before[0], false], 'and live from there, as it was');
  await switchTo(page, 'pt-BR', /\/index\.html#/);
  // Running: it runs on the other side too.
  await page.evaluate(() => window.bucketlab.diagram.resume());
  await switchTo(page, 'en', /\/en\.html#/);
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.paused, window.bucketlab.diagram.scenario.split('_').length > 6]), [false, true]);
  // 201 requests: no replay link holds them; B, r and c still go across.
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.configure(9, 2);
    d.setCost(3);
    for (let i = 0; i < 201; i++) d.send();
  });
  await switchTo(page, 'pt-BR', /\/index\.html#b=9&r=2&c=3&/);
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.refillRate, window.bucketlab.diagram.cost]), [9, 2, 3]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a reload of the address the page wrote (with its lang) remembers no language; a link opened afresh still does', async () => {
  const page = await openLesson(env, '');
  await page.focus('#bucket-widget .bl-capacity');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => location.hash.includes('lang=pt-BR'));
  await Promise.all([page.waitForEvent('load'), page.reload()]);
  await page.waitForFunction(() => window.bucketlab?.diagram);
  assert.deepEqual(await page.evaluate(() => ({ ...localStorage })), {});
  await page.goto('about:blank');
  await page.goto(`${env.server.url}#lang=pt-BR`);
  await page.waitForFunction(() => window.bucketlab?.diagram);
  assert.deepEqual(await page.evaluate(() => ({ ...localStorage })), { 'bucketlab:lang:/': 'pt-BR' });
  await page.context().close();
});

test('the language switch keeps the past moment shown when the first request came seconds after the page opened (the recording starts a second before it)', async () => {
  const page = await openLesson(env, 'en.html');
  const seen = () => page.evaluate(() => {
    const d = window.bucketlab.diagram;
    return { traveling: d.traveling, before: Math.round((d.now - d.viewTime) * 1000) / 1000, tokens: d.tokens,
      counter: document.querySelector('#bucket-widget .bl-counter').textContent.replace(',', '.') };
  });
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.pause();
    d.step(4);
    for (let i = 0; i < 5; i++) d.send();
    d.step(2);
    d.send();
    d.step(1);
    for (let i = 0; i < 25; i++) d.stepBack();
  });
  const there = await seen();
  assert.equal(there.traveling, true);
  await switchTo(page, 'pt-BR', /\/index\.html#/);
  assert.deepEqual(await seen(), there);
  await page.context().close();
});

test('the language switch after a replayed link: the link while the reader only steps through it, their own recording once they act in it', async () => {
  const link = '1_5_1_5_0.73_0.198s1,1_0.201s1,1';
  const page = await openLesson(env, `en.html#s=${link}`);
  await page.evaluate(() => window.bucketlab.diagram.step(0.3));
  const stepped = await page.evaluate(() => [window.bucketlab.diagram.viewTime, window.bucketlab.diagram.tokens]);
  await switchTo(page, 'pt-BR', /\/index\.html#.*s=1_5_1_5_0\.73_/);
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.scenario, window.bucketlab.diagram.traveling, window.bucketlab.diagram.viewTime, window.bucketlab.diagram.tokens]),
    [link, true, ...stepped], 'still the link, at the step the reader had reached');
  assert.match(await page.textContent('#replay-notice'), /^Uma gravação está carregada no diagrama abaixo \(seção 5\), parada no momento a que você tinha chegado na página do outro idioma\./);
  // A request of the reader's own, then a step back: their recording goes across, not the link.
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.live();
    d.send();
    d.stepBack();
  });
  const [own, ownAt] = await page.evaluate(() => [window.bucketlab.diagram.scenario, window.bucketlab.diagram.viewTime]);
  assert.notEqual(own, link);
  await switchTo(page, 'en', /\/en\.html#/);
  assert.doesNotMatch(page.url(), /[#&]s=/, 'the link is not in the address any more');
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.scenario, window.bucketlab.diagram.traveling, window.bucketlab.diagram.viewTime]), [own, true, ownAt]);
  assert.match(await page.textContent('#replay-notice'), /stopped at the moment you had reached on the other language's page\./);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the language switch keeps the cost the reader left the diagram at, not the carried recording\'s last one', async () => {
  const page = await openLesson(env);
  const W = '#bucket-widget';
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.fill(`${W} .bl-cost`, '3');
  await page.dispatchEvent(`${W} .bl-cost`, 'change');
  await page.click(`${W} .bl-send`);
  await page.fill(`${W} .bl-cost`, '2');
  await page.dispatchEvent(`${W} .bl-cost`, 'change');
  await page.waitForFunction(() => location.hash.includes('&c=2&'));
  await switchTo(page, 'en', /\/en\.html#b=5&r=1&c=2&/);
  assert.equal(await page.inputValue(`${W} .bl-cost`), '2');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.cost), 2);
  assert.match(await page.evaluate(() => window.bucketlab.diagram.scenario), /s3,1$/, 'the request of cost 3 carried');
  // From the console, and back: the cost set after the requests is the one that goes across.
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.configure(8, 2);
    d.setCost(3);
    d.send();
    d.send();
    d.setCost(2);
  });
  await switchTo(page, 'pt-BR', /\/index\.html#b=8&r=2&c=2&/);
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.cost]), [8, 2]);
  assert.equal(await page.inputValue(`${W} .bl-cost`), '2');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a shared permalink that names a tab still takes the reader to the code, and lands there', async () => {
  const page = await openLesson(env, 'en.html#b=8&tab=usage', { viewport: { width: 375, height: 812 } });
  await settledAt(page, 'codigo');
  assert.equal(await page.getAttribute('[role=tab][aria-selected=true]', 'data-tab'), 'usage');
  await page.context().close();
});

test('a shared permalink of the diagram\'s state (its first tab, or none) lands on the diagram, with that state', async () => {
  for (const hash of ['#b=8&r=2&c=2&lang=en&tab=algorithm&code=go', '#b=8&r=2']) {
    const page = await openLesson(env, `en.html${hash}`, { viewport: { width: 375, height: 812 } });
    await settledAt(page, 'diagrama');
    assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.refillRate]), [8, 2]);
    await page.context().close();
  }
});

test('following "Permalink" on the page puts its address in the address bar and says so, the page and the diagram as they were', async () => {
  const page = await openLesson(env, 'en.html');
  await page.evaluate(() => { window.bucketlab.diagram.pause(); window.bucketlab.diagram.send(); window.__kept = true; });
  const link = page.locator('.permalink-link');
  await link.scrollIntoViewIfNeeded();
  await link.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('copy-announcer').textContent !== '');
  assert.equal(await page.textContent('#copy-announcer'), 'The address bar now holds the link to these settings.');
  // No reload: the same page and diagram, the link still focused and on the screen.
  const after = await page.evaluate(() => {
    const link = document.querySelector('.permalink-link');
    const { top, bottom } = link.getBoundingClientRect();
    return { kept: window.__kept, hash: location.hash, focused: document.activeElement === link, shown: top >= 0 && bottom <= innerHeight, sent: window.bucketlab.diagram.tokens < 5 };
  });
  assert.match(after.hash, /^#b=5&r=1&c=1&lang=en&tab=algorithm&code=\w+$/);
  assert.deepEqual({ ...after, hash: undefined }, { kept: true, hash: undefined, focused: true, shown: true, sent: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the Rust tab shows exactly the core\'s bucket.rs', async () => {
  const page = await openLesson(env);
  const shown = await page.textContent('figure[data-source="src/limiter/bucket.rs"] pre');
  const file = readFileSync(new URL('src/limiter/bucket.rs', ROOT), 'utf8');
  assert.equal(shown, file.replace(/\n$/, ''));
  assert.ok((await page.locator('figure[data-source="src/limiter/bucket.rs"] pre .hljs-keyword').count()) > 20, 'highlighted at build time');
  await page.context().close();
});

test('without JavaScript both pages read fully: tabs are stacked sections, every code block shown', async () => {
  for (const path of ['', 'en.html']) {
    const page = await openPage(env.browser, { javaScriptEnabled: false });
    await page.goto(new URL(path, env.server.url).href);
    const panels = await page.$$eval('.tabpanel', (all) => all.map((p) => [p.id, p.checkVisibility(), p.querySelector('h3').checkVisibility()]));
    assert.deepEqual(panels, [
      ['codigo-algoritmo', true, true], ['codigo-configuracao', true, true], ['codigo-uso', true, true],
    ]);
    assert.equal(await page.locator('[role=tablist]').isVisible(), false);
    const blocks = await page.$$eval('figure.code-block', (all) => all.filter((f) => f.checkVisibility()).length);
    assert.equal(blocks, 15, 'four algorithms, the policy, four usages, the Redis script, the plans policy, four client retry loops');
    // The FAQ's seven, closed, and section 5's console block, open.
    assert.equal(await page.locator('details').count(), 8);
    assert.equal(await page.locator('details[open]').count(), 1);
    await page.context().close();
  }
});

/** What a browser's page translation does to <html> (Chrome, Safari, Edge): its language, and a mark. */
const translatePage = (page, lang) => page.evaluate((to) => {
  document.documentElement.lang = to;
  document.documentElement.classList.add('translated-ltr');
}, lang);

test('a browser translating the page (its <html lang> rewritten) changes neither the lesson\'s language in its links nor the parts loaded after it', async () => {
  const page = await openLesson(env, '');
  await translatePage(page, 'es');
  await page.evaluate(() => window.bucketlab.diagram.configure(8, 1));
  await page.waitForFunction(() => location.hash.includes('b=8'));
  assert.match(await page.evaluate(() => location.hash), /&lang=pt-BR&/, 'still the Portuguese page\'s link');
  await loadPart(page, '#algorithm-lab', 'lab-ready');
  assert.equal(await page.textContent('#algorithm-lab .lab-apply'), 'Aplicar');
  await page.context().close();
});

test('what is code, markup or a header stays out of a page translation (translate="no"); the prose does not', async () => {
  const page = await openLesson(env, 'en.html');
  const untranslated = await page.evaluate(() => [
    ...document.querySelectorAll('figure.code-block pre, pre.formula, pre.state, pre.console, pre.response-head, #bucket-widget .bl-head, #hero-widget .bl-head'),
  ].filter((el) => el.translate).map((el) => el.className || el.closest('figure')?.dataset.source));
  assert.deepEqual(untranslated, []);
  assert.ok(await page.evaluate(() => document.querySelectorAll('figure.code-block pre').length) >= 9);
  assert.equal(await page.evaluate(() => document.querySelector('main p').translate), true);
  await page.evaluate(() => window.bucketlab.loadEmbedPanel());
  await page.waitForSelector('#embed-panel pre', { state: 'attached' });
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#embed-panel pre')].map((el) => el.translate)), [false, false]);
  await page.context().close();
});
