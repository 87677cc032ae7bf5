// The permalink: B, r, cost, language, tab and code language in the hash, restored on open;
// bad values are ignored with a visible notice and never run or injected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForWidget } from './harness.mjs';
import { openLesson } from './lesson-helpers.mjs';

const env = useBrowser();

test('a permalink round-trips B, r, cost, tab and code language', async () => {
  const page = await openLesson(env);
  await page.evaluate(() => window.bucketlab.diagram.configure(18, 2.5));
  await page.fill('#bucket-widget .bl-cost', '3');
  await page.dispatchEvent('#bucket-widget .bl-cost', 'change');
  await page.click('#tab-usage');
  await page.click('.tech-option[data-tech=javascript]');
  await page.waitForFunction(() => location.hash.includes('code=javascript'));
  const hash = await page.evaluate(() => location.hash);
  assert.equal(hash, '#b=18&r=2.5&c=3&lang=pt-BR&tab=usage&code=javascript');

  const fresh = await openLesson(env, hash);
  assert.deepEqual(await fresh.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.refillRate]), [18, 2.5]);
  assert.equal(await fresh.inputValue('#bucket-widget .bl-cost'), '3');
  assert.equal(await fresh.getAttribute('[role=tab][aria-selected=true]', 'data-tab'), 'usage');
  assert.equal(await fresh.getAttribute('.tech-option[aria-pressed=true]', 'data-tech'), 'javascript');
  assert.equal(await fresh.locator('#page-notice').isVisible(), false);
  // The copied link is the same state.
  await fresh.click('.permalink-link');
  assert.match(await fresh.getAttribute('.permalink-link', 'href'), /#b=18&r=2\.5&c=3&lang=pt-BR&tab=usage&code=javascript$/);
  assert.deepEqual(fresh.problems, []);
  await page.context().close();
  await fresh.context().close();
});

test('a permalink pasted into the open page applies, as a fresh load would', async () => {
  const page = await openLesson(env, 'en.html');
  // Pasting into the address bar of the same tab changes only the hash.
  await Promise.all([page.waitForEvent('load'), page.evaluate(() => { location.hash = 'b=10&r=2&c=3&tab=usage'; })]);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.refillRate, window.bucketlab.diagram.cost]), [10, 2, 3]);
  assert.equal(await page.getAttribute('[role=tab][aria-selected=true]', 'data-tab'), 'usage');
  // A link to a section is only a scroll: the page keeps its state.
  await page.evaluate(() => window.bucketlab.diagram.configure(7, 1));
  await page.evaluate(() => { location.hash = 'diagrama'; });
  await page.waitForFunction(() => location.hash === '#diagrama');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.capacity), 7);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('lowering B below the cost brings the cost down with it: the link stays one that opens', async () => {
  const page = await openLesson(env, 'en.html');
  await page.fill('#bucket-widget .bl-cost', '5');
  await page.dispatchEvent('#bucket-widget .bl-cost', 'change');
  await page.evaluate(() => {
    const slider = document.querySelector('#bucket-widget .bl-capacity');
    slider.value = '2';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    slider.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.waitForFunction(() => window.bucketlab.diagram.capacity === 2);
  assert.equal(await page.inputValue('#bucket-widget .bl-cost'), '2');
  await page.waitForFunction(() => location.hash.startsWith('#b=2&r=1&c=2'));
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.click('#bucket-widget .bl-send');
  assert.match(await page.textContent('#bucket-widget .bl-status'), /^Admitted/);
  assert.equal(await page.textContent('#bucket-widget .bl-input-error'), '');
  const fresh = await openLesson(env, `en.html${await page.evaluate(() => location.hash)}`);
  assert.equal(await fresh.locator('#page-notice').isVisible(), false, 'nothing in the link is refused');
  assert.deepEqual([page.problems, fresh.problems], [[], []]);
  await page.context().close();
  await fresh.context().close();
});

test('lang in the permalink opens that language', async () => {
  const page = await openLesson(env, '#b=12&lang=en');
  assert.match(page.url(), /\/en\.html#b=12&lang=en$/);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.capacity), 12);
  await page.context().close();
});

test('another tag of a language the lesson speaks (?lang=en-GB, #lang=PT) opens that language, with no notice', async () => {
  const page = await openLesson(env, '?lang=en-GB');
  assert.match(page.url(), /\/en\.html\?lang=en-GB$/);
  await page.waitForFunction(() => window.bucketlab.diagram);
  assert.equal(await page.locator('#page-notice').isVisible(), false);
  const back = await openLesson(env, 'en.html#b=12&lang=PT');
  assert.match(back.url(), /\/index\.html#b=12&lang=PT$/);
  await back.waitForFunction(() => window.bucketlab.diagram?.capacity === 12);
  assert.equal(await back.locator('#page-notice').isVisible(), false);
  assert.deepEqual([page.problems, back.problems], [[], []]);
  await page.context().close();
  await back.context().close();
});

test('bad values are ignored with a visible notice, never run or injected', async () => {
  const evil = encodeURIComponent('<img src=x onerror="window.pwned=1">');
  const page = await openLesson(env, `#b=-3&r=abc&c=99&tab=${evil}&code=cobol&x=1`);
  await page.waitForSelector('#page-notice:not([hidden])');
  const notice = await page.textContent('#page-notice');
  assert.match(notice, /^Alguns valores do link foram ignorados: /);
  for (const part of ['b = “-3” (esperado: um número maior que 0)', 'r = “abc”', 'c = “99”', 'code = “cobol”', 'x = “1”', 'tab = “<img src=x onerror="window.pwned=1">”']) {
    assert.ok(notice.includes(part), `notice names ${part}: ${notice}`);
  }
  assert.equal(await page.locator('#page-notice img').count(), 0, 'shown as text');
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  // Everything else is the default state, and the diagram works.
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.refillRate]), [5, 1]);
  assert.equal(await page.getAttribute('[role=tab][aria-selected=true]', 'data-tab'), 'algorithm');
  assert.equal(await page.getAttribute('#page-notice', 'role'), 'status');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a link with hundreds of bad entries gets a short notice: the first eight named, the rest counted; a character that reverses text is quoted as its code', async () => {
  const many = Array.from({ length: 300 }, (_, i) => `k${i}=1`).join('&');
  const page = await openLesson(env, `en.html#${many}`);
  await page.waitForSelector('#page-notice:not([hidden])');
  const notice = await page.textContent('#page-notice');
  assert.match(notice, /^Some values in the link were ignored: k0 = “1” .*k7 = “1” \(expected: [^)]*\); and 292 more\.$/);
  assert.ok(!notice.includes('k8 ='), notice);
  await page.context().close();
  // U+202E in ?lang=, in a scenario and in a key's name: written as \u{202e}, never reversing the sentence.
  for (const path of ['en.html?lang=%E2%80%AEelgoog', 'en.html#s=%E2%80%AEevil', 'en.html#%E2%80%AEevil=1']) {
    const reversed = await openLesson(env, path);
    await reversed.waitForSelector('#page-notice:not([hidden])');
    const said = await reversed.textContent('#page-notice');
    assert.ok(!said.includes('\u202e') && said.includes('\\u{202e}'), `${path}: ${said}`);
    await reversed.context().close();
  }
});

test('Back or Forward onto an address the page wrote itself keeps the session: no reload, the tab and the requests stay', async () => {
  const page = await openLesson(env, 'en.html');
  await page.evaluate(() => { window.__sameLoad = true; });
  const session = () => page.evaluate(() => [window.__sameLoad, window.bucketlab.diagram.scenario, document.querySelector('[role=tab][aria-selected=true]').dataset.tab]);
  await page.evaluate(() => {
    window.bucketlab.diagram.pause();
    for (let i = 0; i < 3; i += 1) window.bucketlab.diagram.send();
  });
  await page.click('[role=tab][data-tab=config]');
  await page.waitForFunction(() => location.hash.includes('tab=config'));
  const before = await session();
  assert.equal(before[2], 'config');
  // A section's link, then Back onto the page's own address, then Forward and Back again.
  await page.evaluate(() => { location.hash = '#faq'; });
  await page.goBack();
  await page.waitForFunction(() => location.hash.includes('tab=config'));
  assert.deepEqual(await session(), before);
  await page.goForward();
  await page.waitForFunction(() => location.hash === '#faq');
  await page.goBack();
  await page.waitForFunction(() => location.hash.includes('tab=config'));
  assert.deepEqual(await session(), before);
  // The address the page opened with is its own too.
  const opened = await openLesson(env, 'en.html#b=12&r=2');
  await opened.evaluate(() => { window.__sameLoad = true; window.bucketlab.diagram.pause(); window.bucketlab.diagram.send(); });
  const sent = await opened.evaluate(() => window.bucketlab.diagram.scenario);
  await opened.evaluate(() => { location.hash = '#formulas'; });
  await opened.goBack();
  await opened.waitForFunction(() => location.hash.startsWith('#b=12'));
  assert.deepEqual(await opened.evaluate(() => [window.__sameLoad, window.bucketlab.diagram.scenario]), [true, sent]);
  // Another permalink typed into the address bar is a new link: the page starts from it.
  await Promise.all([opened.waitForEvent('load'), opened.evaluate(() => { location.hash = '#b=20&r=2&c=3'; })]);
  await opened.waitForFunction(() => window.__sameLoad === undefined && window.bucketlab?.diagram?.capacity === 20);
  assert.deepEqual([page.problems, opened.problems], [[], []]);
  await page.context().close();
  await opened.context().close();
});

test('a reload, or Back to a page, keeps its language when another tab chose the other one since', async () => {
  const page = await openLesson(env, '');
  const context = page.context();
  const other = await context.newPage();
  await other.goto(new URL('?lang=en', env.server.url).href);
  await other.waitForURL(/en\.html/);
  await page.reload();
  await waitForWidget(page);
  assert.match(page.url(), /\/$|index\.html/);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.lang), 'pt-BR');
  // Back to the Portuguese page after switching to English on it (no back-forward cache here:
  // the page loads again) shows the Portuguese page, not English again.
  await page.click('.lang-switch a[data-lang=en]');
  await page.waitForURL(/en\.html/);
  await waitForWidget(page);
  await page.goBack();
  await waitForWidget(page);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.lang), 'pt-BR');
  assert.doesNotMatch(page.url(), /en\.html/);
  // Opened afresh, the page still follows the choice.
  await page.goto(env.server.url);
  await page.waitForURL(/en\.html/);
  await context.close();
});

test('a link to a section is not mistaken for a permalink', async () => {
  const page = await openLesson(env, '#faq');
  assert.equal(await page.locator('#page-notice').isVisible(), false);
  await page.context().close();
});

test('en: the Permalink link holds the state of the moment when focused or opened from its context menu, not "#"', async () => {
  const page = await openLesson(env, 'en.html');
  await page.evaluate(() => window.bucketlab.diagram.configure(7, 2));
  await page.focus('.permalink-link');
  assert.match(await page.getAttribute('.permalink-link', 'href'), /\/en\.html#b=7&r=2&c=1&lang=en&tab=algorithm&code=\w+$/);
  await page.evaluate(() => window.bucketlab.diagram.configure(9, 3));
  await page.dispatchEvent('.permalink-link', 'contextmenu');
  assert.match(await page.getAttribute('.permalink-link', 'href'), /#b=9&r=3&/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the cost in the link is checked against the B the diagram has, also when ?capacity= set it', async () => {
  const page = await openLesson(env, 'en.html?capacity=10#c=8');
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.cost]), [10, 8]);
  assert.equal(await page.locator('#page-notice').isVisible(), false);
  await page.context().close();
  // More than that B is still refused, by the diagram itself.
  const over = await openLesson(env, 'en.html?capacity=10#c=11');
  assert.match(await over.textContent('#page-notice'), /c = “11” \(expected: a whole number from 1 to B\)/);
  assert.equal(await over.evaluate(() => window.bucketlab.diagram.cost), 1);
  await over.context().close();
});

test('a cost past the widget’s 32 bits is refused with that reason, not as more than a larger B', async () => {
  const page = await openLesson(env, 'en.html#b=1e10&c=5000000000');
  const notice = await page.textContent('#page-notice');
  assert.match(notice, /c = “5000000000”: a cost is at most 4294967295 \(expected: a whole number from 1 to B\)/);
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.cost]), [1e10, 1]);
  await page.context().close();
  // The largest one is taken.
  const most = await openLesson(env, 'index.html#b=1e10&c=4294967295');
  assert.equal(await most.evaluate(() => window.bucketlab.diagram.cost), 4294967295);
  assert.equal(await most.locator('#page-notice').isVisible(), false);
  await most.context().close();
});

test('a wrong ?capacity= beside a good #r= is named by the widget, and the notice never blames r', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}en.html?capacity=abc#r=2`);
  await page.waitForFunction(() => /capacity/i.test(document.querySelector('#bucket-widget .bl-error')?.textContent ?? ''));
  assert.match(await page.textContent('#bucket-widget .bl-error'), /abc/);
  const notice = await page.locator('#page-notice').isVisible() ? await page.textContent('#page-notice') : '';
  assert.doesNotMatch(notice, /\br\b/, `r = 2 is allowed: ${notice}`);
  await page.context().close();
  // A wrong #b= beside a good #r= names b only; B stays as it was, the good r applies.
  const bad = await openLesson(env, 'en.html#b=0&r=2');
  const named = await bad.textContent('#page-notice');
  assert.match(named, /b = “0”/);
  assert.doesNotMatch(named, /r = /);
  assert.deepEqual(await bad.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.refillRate]), [5, 2]);
  await bad.context().close();
});

test('a cost the diagram refuses never reaches the link: the field shows it with its error, the link leaves c out', async () => {
  const page = await openLesson(env, 'en.html');
  const hash = () => page.evaluate(() => location.hash);
  await page.fill('#bucket-widget .bl-cost', '3');
  await page.dispatchEvent('#bucket-widget .bl-cost', 'change');
  await page.waitForFunction(() => location.hash.includes('&c=3&'));
  for (const refused of ['9', '2.5', '-1']) {
    await page.fill('#bucket-widget .bl-cost', refused);
    await page.dispatchEvent('#bucket-widget .bl-cost', 'change');
    await page.waitForFunction(() => !location.hash.includes('&c='));
    assert.match(await page.textContent('#bucket-widget .bl-input-error'), /Cost c: .* is not allowed/);
    assert.ok(Number.isNaN(await page.evaluate(() => window.bucketlab.diagram.cost)), refused);
    await page.focus('.permalink-link');
    assert.doesNotMatch(await page.getAttribute('.permalink-link', 'href'), /[#&]c=/, `${refused}: ${await hash()}`);
  }
  await page.fill('#bucket-widget .bl-cost', '4');
  await page.dispatchEvent('#bucket-widget .bl-cost', 'change');
  await page.waitForFunction(() => location.hash.includes('&c=4&'));
  await page.context().close();
});

test('pt-BR: a decimal comma in the link is read as ?capacity= reads it', async () => {
  const page = await openLesson(env, '#b=2,5&r=0,5');
  assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.refillRate]), [2.5, 0.5]);
  assert.equal(await page.locator('#page-notice').isVisible(), false);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a comma that could group thousands (#b=1,000) is refused with both readings, not read as 1; B stays as it was', async () => {
  for (const [path, expected] of [
    ['en.html', 'b = “1,000”: the comma could group thousands or mark decimals: write 1000 for the whole number, or 1 for the decimal (expected: a number greater than 0)'],
    ['', 'b = “1,000”: a vírgula pode separar milhares ou decimais: escreva 1000 se for o número inteiro, ou 1 se for o decimal (esperado: um número maior que 0)'],
  ]) {
    const page = await openLesson(env, `${path}#b=1,000&r=0,5`);
    await page.waitForSelector('#page-notice:not([hidden])');
    assert.ok((await page.textContent('#page-notice')).includes(expected), await page.textContent('#page-notice'));
    assert.deepEqual(await page.evaluate(() => [window.bucketlab.diagram.capacity, window.bucketlab.diagram.refillRate]), [5, 0.5]);
    await page.context().close();
  }
});

test('a name a JavaScript object inherits (toString, __proto__), given twice, is an unknown name twice, and the rest of the notice stays', async () => {
  const page = await openLesson(env, 'en.html#b=-1&toString=1&toString=2&__proto__=3&__proto__=4');
  assert.equal(await page.textContent('#page-notice'),
    'Some values in the link were ignored: b = “-1” (expected: a number greater than 0); toString = “1” (expected: one of the names b, r, c, lang, tab, code, s, lab); toString = “2” (expected: one of the names b, r, c, lang, tab, code, s, lab); __proto__ = “3” (expected: one of the names b, r, c, lang, tab, code, s, lab); __proto__ = “4” (expected: one of the names b, r, c, lang, tab, code, s, lab).');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const [path, expected] of [
  ['en.html', 'Some values in the link were ignored: b = “1e400”: too large (expected: a number greater than 0); s = “1_5_1_5_2”: given twice; the first one counts (expected: a scenario link copied from this page: version 1, at most 200 actions, 2,000 characters and 3,600 s); s = “%E0%A4%A”: given twice; the first one counts (expected: a scenario link copied from this page: version 1, at most 200 actions, 2,000 characters and 3,600 s).'],
  ['', 'Alguns valores do link foram ignorados: b = “1e400”: grande demais (esperado: um número maior que 0); s = “1_5_1_5_2”: repetido; vale o primeiro (esperado: um link de cenário copiado desta página: versão 1, no máximo 200 ações, 2.000 caracteres e 3.600 s); s = “%E0%A4%A”: repetido; vale o primeiro (esperado: um link de cenário copiado desta página: versão 1, no máximo 200 ações, 2.000 caracteres e 3.600 s).'],
]) {
  test(`${path || 'index.html'}: an overflowing number, a second s= and a broken escape are each named with why`, async () => {
    const page = await openLesson(env, `${path}#b=1e400&s=1_5_1_5_1&s=1_5_1_5_2&s=%E0%A4%A`);
    assert.equal(await page.textContent('#page-notice'), expected);
    assert.equal(await page.evaluate(() => window.bucketlab.diagram.traveling), true, 'the first s= is played');
    await page.context().close();
  });
  test(`${path || 'index.html'}: a broken escape alone is quoted as written, not as "�%A"`, async () => {
    const page = await openLesson(env, `${path}#s=%E0%A4%A`);
    assert.match(await page.textContent('#page-notice'), path ? /s = “%E0%A4%A”: a broken %-escape \(expected/ : /s = “%E0%A4%A”: um escape % quebrado \(esperado/);
    await page.context().close();
  });
}

test('the address\'s settings: one written a little wrong or given twice is named in the notice; another software\'s names (token, lng, an LMS\'s) are let be', async () => {
  const page = await openLesson(env, 'en.html?capcity=3&capacity=4&capacity=7&refill_rate=2&token=s3cret&lng=de&endpoint=x');
  assert.equal(await page.textContent('#page-notice'),
    'Some values in the link were ignored: capcity = “3”: no such setting; the lesson reads capacity; capacity = “7”: given twice; the first one counts; refill_rate = “2”: no such setting; the lesson reads refill-rate.');
  // The first capacity counts, as the notice says.
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.capacity), 4);
  await page.context().close();
});
