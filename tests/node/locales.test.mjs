// Every table in locales/ (<lang>/<product>.json): both languages have every product, the same
// keys, the same kind of value and the same {placeholders} in each text; nothing is empty or left
// untranslated. Also: the checker that stops the build catches each kind of disagreement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LANGS, LOCALES, RUN_TIME, leaves, parityProblems, readTables } from '../../scripts/locales.mjs';
import { LANGS as BROWSER_LANGS } from '../../www/i18n/translate.js';

const tables = readTables();

test('every file in locales/ is read, in both languages, and the browser knows the same languages', () => {
  assert.deepEqual(readdirSync(LOCALES).sort(), [...LANGS].sort());
  assert.deepEqual(BROWSER_LANGS, LANGS);
  for (const lang of LANGS) {
    const files = readdirSync(join(LOCALES, lang)).sort();
    assert.deepEqual(files, Object.keys(tables).map((product) => `${product}.json`).sort(), lang);
  }
  for (const product of ['lesson', ...RUN_TIME]) assert.ok(tables[product], `locales/<lang>/${product}.json`);
});

test('both languages have the same keys, kinds of value and {placeholders} in every table', () => {
  assert.deepEqual(parityProblems(tables), []);
  const counts = Object.fromEntries(Object.entries(tables).map(([product, byLang]) => [product, leaves(byLang['pt-BR']).length]));
  assert.ok(counts.lesson > 150, `the whole lesson is in lesson.json (${counts.lesson} texts)`);
  assert.ok(counts.lab > 100, `the lab's words are in lab.json (${counts.lab} texts)`);
});

test('no text is left untranslated from the other language', () => {
  // Sentences only: ids and names such as "GCRA" are the same in both languages, and so are
  // formulas (`r = {r} token/s`) and the HTTP response head.
  const neutral = new Set(['lesson.json code.usage.response_head']);
  const formula = / = /;
  const same = [];
  for (const [product, byLang] of Object.entries(tables)) {
    const en = new Map(leaves(byLang.en));
    for (const [key, text] of leaves(byLang['pt-BR'])) {
      const prose = typeof text === 'string' && /\s/.test(text) && /[a-zà-ú]{4}/i.test(text.replace(/<[^>]+>|\{\w+\}/g, ''));
      if (prose && !formula.test(text) && text === en.get(key) && !neutral.has(`${product}.json ${key}`)) {
        same.push(`${product}.json ${key}`);
      }
    }
  }
  assert.deepEqual(same, []);
});

test('the checker names a missing key, a missing file, another kind of value and other placeholders', () => {
  const broken = {
    lab: { 'pt-BR': { a: 'um {n}', list: ['x', 'y'], b: 'dois' }, en: { a: 'one {count}', list: ['x'], b: '' } },
    ui: { 'pt-BR': { copy: 'Copiar' }, en: { copy: 'Copy', extra: 'Extra' } },
    element: { 'pt-BR': { title: 'Título' } },
    widget: { 'pt-BR': { n: 'texto', decimal: ',' }, en: { n: ['text'], decimal: 0 } },
  };
  assert.deepEqual(parityProblems(broken), [
    'lab.json a: placeholders differ (pt-BR: {n}; en: {count})',
    'lab.json b: empty in en',
    'lab.json list[1]: missing in en',
    'ui.json extra: missing in pt-BR',
    'element: no locales/en/element.json',
    'widget.json decimal: pt-BR has a string, en has a number',
    'widget.json n: missing in en',
    'widget.json n[0]: missing in pt-BR',
  ]);
});
