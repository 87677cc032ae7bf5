// The lesson's pages as scripts/pages.mjs builds them from lesson/template.html and locales/:
// a missing key stops the build, and code samples speak the page's language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PAGES, readLocale, renderPage, embeddedSource } from '../../scripts/pages.mjs';

test('a template key missing from a locale fails the build instead of printing nothing', () => {
  const locale = readLocale('en');
  delete locale.faq.title;
  assert.throws(() => renderPage(PAGES[1], locale), /no locale key "faq.title"/);
  const noUi = readLocale('pt-BR');
  delete noUi.ui.permalink;
  assert.throws(() => renderPage(PAGES[0], noUi), /no locale key "ui.permalink"/);
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

test('code samples get their comments in the page\'s language; the Rust core is verbatim', () => {
  const pt = embeddedSource('lesson/code/algorithm/token_bucket.py', readLocale('pt-BR'));
  const en = embeddedSource('lesson/code/algorithm/token_bucket.py', readLocale('en'));
  assert.match(pt, /# o balde nasce cheio/);
  assert.match(en, /# the bucket starts full/);
  assert.doesNotMatch(pt + en, /\{\{|\}\}/);
  const rust = embeddedSource('src/limiter/bucket.rs', readLocale('pt-BR'));
  assert.match(rust, /pub struct TokenBucket/);
});
