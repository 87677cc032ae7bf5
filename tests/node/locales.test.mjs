// The lesson's locale tables: the same keys in every language, and pages built from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PAGES, keyPaths, readLocale, renderPage, embeddedSource } from '../../scripts/pages.mjs';

test('every locale table has exactly the keys of the pt-BR one', () => {
  const reference = keyPaths(readLocale('pt-BR')).sort();
  assert.ok(reference.length > 150, `the whole lesson is in the table (${reference.length} keys)`);
  for (const { lang } of PAGES) {
    assert.deepEqual(keyPaths(readLocale(lang)).sort(), reference, lang);
  }
});

test('no locale string is empty or left untranslated from the other language', () => {
  const [pt, en] = PAGES.map(({ lang }) => readLocale(lang));
  const get = (table, path) => path.split('.').reduce((v, k) => v[k], table);
  const same = [];
  for (const path of keyPaths(pt)) {
    const a = get(pt, path);
    const b = get(en, path);
    assert.notEqual(String(a).trim(), '', `pt-BR ${path} is empty`);
    assert.notEqual(String(b).trim(), '', `en ${path} is empty`);
    if (typeof a === 'string' && a === b && /\s/.test(a) && /[a-zà-ú]{4}/i.test(a.replace(/<[^>]+>|\{\w+\}/g, ''))) same.push(path);
  }
  // Language-neutral by nature: the HTTP response head, the formula's code line.
  assert.deepEqual(same.filter((p) => !['code.usage.response_head'].includes(p)), []);
});

test('a template key missing from a locale fails the build instead of printing nothing', () => {
  const locale = readLocale('en');
  delete locale.faq.title;
  assert.throws(() => renderPage(PAGES[1], locale), /no locale key "faq.title"/);
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
