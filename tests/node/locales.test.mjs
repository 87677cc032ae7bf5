// Every table in locales/ (<lang>/<product>.json): both languages have every product, the same
// keys, the same kind of value and the same {placeholders} in each text; nothing is empty or left
// untranslated. Also: the checker that stops the build catches each kind of disagreement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LANGS, LOCALES, RUN_TIME, leaves, parityProblems, readTables } from '../../scripts/locales.mjs';
import { LANGS as BROWSER_LANGS, isPlural } from '../../www/i18n/translate.js';

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
  // A plural entry's forms count as texts of their own (`key.one`, `key.other`).
  const texts = (table) => leaves(table).flatMap(([key, value]) => (isPlural(value)
    ? Object.entries(value).map(([category, text]) => [`${key}.${category}`, text])
    : [[key, value]]));
  // Sentences only: ids and names such as "GCRA" are the same in both languages, and so are
  // formulas (`r = {r}/s`) and the HTTP response head.
  const neutral = new Set(['lesson.json code.usage.response_head']);
  const formula = / = /;
  const same = [];
  for (const [product, byLang] of Object.entries(tables)) {
    const en = new Map(texts(byLang.en));
    for (const [key, text] of texts(byLang['pt-BR'])) {
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

test('a plural entry is one entry: both languages have it, with "other", CLDR categories and the same placeholders, in a run-time table', () => {
  const good = {
    traffic: {
      'pt-BR': { malformed: { one: '{count} linha', other: '{count} linhas' }, nested: { n: { other: '{count} de {total}' } } },
      en: { malformed: { one: 'one line', other: '{count} lines' }, nested: { n: { one: '{count} of {total}', other: '{count} of {total}' } } },
    },
  };
  assert.deepEqual(parityProblems(good), [], 'the categories may differ per language; a form may spell its number out');
  assert.deepEqual(leaves(good.traffic.en), [['malformed', good.traffic.en.malformed], ['nested.n', good.traffic.en.nested.n]]);

  const broken = {
    traffic: {
      'pt-BR': {
        noOther: { one: '{count} linha' },
        unknown: { one: '{count} linha', other: '{count} linhas', sevral: '{count} linhas' },
        onlyHere: { one: '{count} IP', other: '{count} IPs' },
        unused: { one: '{count} IP', few: '{count} IPs', other: '{count} IPs' },
        marks: { one: '{count} linha', other: '{count} linhas' },
        forms: { one: '{count} linha', other: '{count} linhas em {file}' },
        empty: { one: ' ', other: '{count} linhas' },
        table: { other: 'a configuração {option}', format: 'o menu Formato' },
      },
      en: {
        noOther: { one: '{count} line', other: '{count} lines' },
        unknown: { one: '{count} line', other: '{count} lines' },
        onlyHere: '{count} IPs',
        unused: { one: '{count} IP', other: '{count} IPs' },
        marks: { one: '{n} line', other: '{n} lines' },
        forms: { one: '{count} line in {file}', other: '{count} lines in {file}' },
        empty: { one: '{count} line', other: '{count} lines' },
        table: { other: 'the setting {option}', format: 'the Format menu' },
      },
    },
    widget: { 'pt-BR': { left: { one: 'resta {count}', other: 'restam {count}' } }, en: { left: { other: '{count} left' } } },
  };
  assert.deepEqual(parityProblems(broken), [
    'traffic.json empty: the "one" form is empty in pt-BR',
    'traffic.json forms: the forms in pt-BR have other placeholders (one: {}; other: {file})',
    'traffic.json marks: placeholders differ (pt-BR: {count}; en: {n})',
    'traffic.json noOther: plural entry in pt-BR has no "other" form',
    'traffic.json onlyHere: pt-BR has a plural entry, en has a string',
    'traffic.json table: "format" in pt-BR is not a plural category (zero, one, two, few, many, other), yet "other" makes it a plural entry',
    'traffic.json table: "format" in en is not a plural category (zero, one, two, few, many, other), yet "other" makes it a plural entry',
    'traffic.json unknown: "sevral" in pt-BR is not a plural category (zero, one, two, few, many, other), yet "one", "other" make it a plural entry',
    'traffic.json unused: pt-BR never uses the plural category "few" (only many, one, other)',
    'widget.json left: a plural entry in pt-BR, but only the run-time tables (ui, lab, servers, element, embed, clients, lms, defense, traffic, errors) have plural forms',
    'widget.json left: a plural entry in en, but only the run-time tables (ui, lab, servers, element, embed, clients, lms, defense, traffic, errors) have plural forms',
  ]);
});

test("the scenario link's limits in the words are the core's (src/limiter/scenario.rs)", () => {
  const source = readFileSync(new URL('../../src/limiter/scenario.rs', import.meta.url), 'utf8');
  const constant = (name) => Number(source.match(new RegExp(`pub const ${name}: \\w+ = ([\\d.]+);`))[1]);
  const [chars, actions, seconds] = ['MAX_SCENARIO_CHARS', 'MAX_SCENARIO_ACTIONS', 'MAX_SCENARIO_SECONDS'].map(constant);
  for (const lang of LANGS) {
    const number = (n) => new Intl.NumberFormat(lang).format(n);
    // The number whole: not "200" inside "2,000", nor "20" inside "200".
    const names = (text, n) => new RegExp(`(?<![\\d.,])${number(n).replace(/[.,]/g, '\\$&')}(?![\\d]|[.,]\\d)`).test(text);
    const ui = tables.ui[lang];
    for (const n of [actions, chars]) assert.ok(names(ui.scenario_too_long, n), `${lang} scenario_too_long names ${number(n)}`);
    for (const n of [actions, chars, seconds]) assert.ok(names(ui.allowed_s, n), `${lang} allowed_s names ${number(n)}`);
    assert.ok(!names(ui.allowed_s, 20) && !names(ui.allowed_s, 2), 'a part of a number is not the number');
  }
});
