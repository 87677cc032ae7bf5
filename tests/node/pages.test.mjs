// The lesson's pages as scripts/pages.mjs builds them from lesson/template.html and locales/:
// a missing key (or a plural entry, which only scripts pick) stops the build, and code samples
// speak the page's language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PAGES, readLocale, renderPage, renderEmbed, embeddedSource, earlyScript, inlineEarly, withoutComments } from '../../scripts/pages.mjs';

test('a template key missing from a locale fails the build instead of printing nothing', () => {
  const locale = readLocale('en');
  delete locale.faq.title;
  assert.throws(() => renderPage(PAGES[1], locale), /no locale key "faq.title"/);
  const noUi = readLocale('pt-BR');
  delete noUi.ui.permalink;
  assert.throws(() => renderPage(PAGES[0], noUi), /no locale key "ui.permalink"/);
});

test('a plural entry the template names fails the build instead of printing [object Object]', () => {
  const locale = readLocale('en');
  locale.ui.copy = { one: 'Copy {count}', other: 'Copy all {count}' };
  assert.throws(() => renderPage(PAGES[1], locale), /"ui.copy" is a plural entry, which only the page's scripts can show/);
});

test('each page is rendered in its language from lesson.json and ui.json', () => {
  for (const page of PAGES) {
    const locale = readLocale(page.lang);
    const html = renderPage(page, locale);
    assert.match(html, new RegExp(`<html lang="${page.lang}"`));
    assert.ok(html.includes(locale.header.title), `${page.lang}: the lesson's title`);
    assert.ok(html.includes(locale.ui.permalink), `${page.lang}: a run-time word the template uses too`);
  }
});

test('the pages ship without the templates\' HTML comments; code samples keep theirs', () => {
  for (const name of ['template.html', 'embed.html']) {
    assert.match(readFileSync(new URL(`../../lesson/${name}`, import.meta.url), 'utf8'), /<!--/, `lesson/${name} explains itself`);
  }
  for (const html of [...PAGES.map((page) => renderPage(page, readLocale(page.lang))), renderEmbed()]) {
    assert.doesNotMatch(html, /<!--|-->/);
    // A comment's own line goes: no line of only spaces is left where one stood.
    assert.doesNotMatch(html.split('<body')[0], /\n[ \t]*\n/);
  }
  // A code sample's comments are its text: the Rust core's doc comments are still on the page.
  assert.match(renderPage(PAGES[1], readLocale('en')), /<span class="hljs-comment">\/\/\/ /);
  assert.equal(withoutComments('a <!-- x\n y --> b\n  <!-- z -->\nc'), 'a  b\nc');
});

test('code samples get their comments in the page\'s language; the Rust core is verbatim', () => {
  const pt = embeddedSource('lesson/code/algorithm/token_bucket.py', readLocale('pt-BR'));
  const en = embeddedSource('lesson/code/algorithm/token_bucket.py', readLocale('en'));
  assert.match(pt, /# o balde nasce cheio/);
  assert.match(en, /# the bucket starts full/);
  assert.doesNotMatch(pt + en, /\{\{|\}\}/);
  // The clients' retry loops too, in all four languages.
  for (const file of ['retry.rs', 'retry.py', 'retry.js', 'retry.go']) {
    const retry = embeddedSource(`lesson/code/clients/${file}`, readLocale('pt-BR'));
    assert.match(retry, /depois de um 429, espera o que o Retry-After diz/, file);
    assert.doesNotMatch(retry, /\{\{|\}\}|refusal in a row/, file);
  }
  const rust = embeddedSource('src/limiter/bucket.rs', readLocale('pt-BR'));
  assert.match(rust, /pub struct TokenBucket/);
});

test('early.js goes into each page\'s head as its exact text, and the shipped policy allows that text', () => {
  const early = earlyScript();
  for (const html of [renderPage(PAGES[0], readLocale('pt-BR')), renderEmbed()]) {
    const page = inlineEarly(html, early);
    assert.ok(!page.includes('src="./element/early.js"'), 'no request for it');
    const inline = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    assert.deepEqual(inline, [early.source], 'one inline script: early.js, byte for byte');
    assert.ok(page.indexOf('<script>') < page.indexOf('<link rel="stylesheet"'), 'before the style sheets');
  }
  const headers = readFileSync(new URL('../../www/_headers', import.meta.url), 'utf8');
  assert.match(early.hash, /^'sha256-[A-Za-z0-9+/]{43}='$/);
  assert.ok(headers.includes(early.hash), 'www/_headers names the hash');
  assert.ok(readFileSync(new URL('../../SECURITY.md', import.meta.url), 'utf8').includes(early.hash), 'SECURITY.md quotes it');
  assert.throws(() => inlineEarly('<html></html>', early), /no <script src="\.\/element\/early\.js"><\/script> to inline/);
});

test('each page preloads its one start-up script, the glue and the wasm, and loads that script', () => {
  const pages = [
    [renderPage(PAGES[1], readLocale('en')), 'lesson', ['lesson/main.bundle.js', 'pkg/bucketlab.js', 'pkg/bucketlab_bg.wasm']],
    // embed.html asks for the wasm first, and for the element's two stylesheets.
    [renderEmbed(), 'embed', ['pkg/bucketlab_bg.wasm', 'pkg/bucketlab.js', 'embed/embed.bundle.js', 'element/widget.css', 'element/bucket-lab.css']],
  ];
  for (const [page, folder, expected] of pages) {
    const preloaded = [...page.matchAll(/<link rel="(?:module)?preload" href="\.\/([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(preloaded, expected);
    const bundle = expected.find((path) => path.endsWith('.bundle.js'));
    const scripts = [...page.matchAll(/<script type="module" src="\.\/([^"]+)"[^>]*><\/script>/g)].map((m) => m[1]);
    assert.deepEqual(scripts, [bundle], `${folder}: one module script, its bundle`);
    // What early.js says in the diagrams' place if that script does not arrive: in general, for a
    // sandbox without allow-same-origin, for a page opened as a file.
    assert.match(page, /<script type="module" src="[^"]+" data-failed="[^"]+" data-failed-detail="[^"]+" data-failed-sandboxed="[^"]+" data-failed-file="[^"]+"><\/script>/, folder);
    assert.ok(!/\.\/(lesson\/main|embed\/embed|element\/bucket-lab)\.js/.test(page), `${folder}: no source module is loaded beside its bundle`);
  }
});

test('the code samples\' default tier is the widget\'s bucket (B and r of #bucket-widget)', () => {
  const template = readFileSync('lesson/template.html', 'utf8');
  const [, capacity, rate] = template.match(/id="bucket-widget"[^>]*data-capacity="([\d.]+)" data-refill-rate="([\d.]+)"/);
  const want = [Number(capacity), Number(rate)];
  const yaml = readFileSync('lesson/code/config/rate_limits.yaml', 'utf8');
  const [, b, r] = yaml.match(/default:\s*\n\s*capacity:\s*([\d.]+)[^\n]*\n\s*refill_rate:\s*([\d.]+)/);
  assert.deepEqual([Number(b), Number(r)], want, 'rate_limits.yaml');
  for (const [path, re] of [
    ['lesson/code/usage/routes.py', /"default": \(([\d.]+), ([\d.]+)\)/],
    ['lesson/code/usage/middleware.js', /default: \[([\d.]+), ([\d.]+)\]/],
  ]) {
    const [, cb, cr] = readFileSync(path, 'utf8').match(re);
    assert.deepEqual([Number(cb), Number(cr)], want, path);
  }
});

test('"Designing good limits" says anonymous callers cannot export, with the numbers of plans.yaml', () => {
  const yaml = readFileSync('lesson/code/config/plans.yaml', 'utf8');
  const [, capacity] = yaml.match(/anonymous:[^\n]*\n\s*capacity:\s*([\d.]+)/);
  const [, cost] = yaml.match(/\/export:\s*([\d.]+)/);
  assert.ok(Number(cost) > Number(capacity), 'an export costs more than the anonymous bucket holds');
  for (const lang of ['en', 'pt-BR']) {
    const { costs, yaml_intro: intro } = readLocale(lang).defense.limits;
    assert.ok(costs.includes(` ${cost}, `) && costs.includes(` ${capacity} tokens`), `${lang}: "${costs}"`);
    assert.match(costs, lang === 'en' ? /exporting needs a login/ : /exportar exige login/);
    // The Configuration tab is in the code section, after this one.
    assert.match(intro, /href=\\?"#codigo-configuracao"/);
    assert.doesNotMatch(intro, /above|acima|Config tab/);
  }
});

test('the recap asks about the lesson\'s own bucket (#bucket-widget\'s B and r)', () => {
  const template = readFileSync('lesson/template.html', 'utf8');
  const [, capacity, rate] = template.match(/id="bucket-widget"[^>]*data-capacity="([\d.]+)" data-refill-rate="([\d.]+)"/);
  const recap = readFileSync('www/lesson/defense/recap.js', 'utf8');
  const [, b, r] = recap.match(/LESSON_BUCKET = \{ capacity: ([\d.]+), refillRate: ([\d.]+) \}/);
  assert.deepEqual([Number(b), Number(r)], [Number(capacity), Number(rate)]);
  assert.match(recap, /new TokenBucket\(LESSON_BUCKET\)/);
});

test('the Portuguese page marks the English terms it introduces as English, so a Portuguese voice does not read them', () => {
  const html = renderPage(PAGES[0], readLocale('pt-BR'));
  for (const term of ['thundering herd', 'backoff', 'jitter']) {
    assert.match(html, new RegExp(`<(em|i) lang="en">${term}</\\1>`), term);
  }
});
