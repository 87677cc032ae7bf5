// www/i18n/translate.js, the one way every component picks its language and fills in its words,
// on the tables scripts/locales.mjs generates from locales/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLURAL_CATEGORIES, cut, fill, isPlural, pickLang, pluralForm, supportedLang, translator } from '../../www/i18n/translate.js';
import lab from '../../www/i18n/locales/lab.js';
import ui from '../../www/i18n/locales/ui.js';
import servers from '../../www/i18n/locales/servers.js';

test('the generated tables hold both languages of their product', () => {
  for (const tables of [lab, ui, servers]) assert.deepEqual(Object.keys(tables), ['pt-BR', 'en']);
});

test('a translator fills {marks}, numbers written the language\'s way', () => {
  assert.equal(translator(lab, 'pt-BR')('lane.peak', { peak: 20, span: 1.5 }), 'pico na execução inteira: 20 em 1,5\u00a0s');
  assert.equal(translator(lab, 'en')('controls.time', { time: 2.5 }), 't = 2.5 s');
  assert.equal(translator(lab, 'pt-BR')('controls.quota', { limit: 10, window: 1, rate: 2.5, double: 20 }), '10 por 1 s: baldes com B = 10 e r = 2,5/s, que podem deixar passar até 20 numa janela depois de um trecho tranquilo (o balde cheio, depois o reabastecimento)');
  assert.equal(translator(servers, 'pt-BR')('result', { a: 15, count: 20 }), '15 de 20 requisições admitidas');
  assert.equal(translator(servers, 'pt-BR')('result', { a: 1, count: 1 }), '1 de 1 requisição admitida');
  assert.equal(translator(servers, 'en')('result', { a: 0, count: 1 }), '0 of 1 request admitted');
  assert.equal(translator(ui, 'en')('notice_item', { name: 'b', value: '0', allowed: 'B > 0' }), 'b = “0” (expected: B > 0)');
  assert.equal(translator(lab, 'en').number(1 / 3, 2), '0.33');
  assert.equal(translator(lab, 'pt-BR').number(1 / 3, 2), '0,33');
  assert.ok(Array.isArray(translator(lab, 'en').raw('tryThis.windowEdge')), 'raw gives lists too');
});

test('t.number takes numberText\'s options: a fixed count of decimals, significant digits, no grouping', () => {
  const en = translator(lab, 'en');
  const pt = translator(lab, 'pt-BR');
  assert.equal(en.number(12345.6789), '12,345.679');
  assert.equal(pt.number(12345.6789), '12.345,679');
  assert.equal(pt.number(2, { digits: 2, fixed: true }), '2,00');
  assert.equal(en.number(0.000123456789, { significant: 6 }), '0.000123457');
  assert.equal(pt.number(4294967295, { digits: 20, group: false }), '4294967295');
  assert.equal(pt.number(0.1 + 0.2, { digits: 20, group: false }), '0,30000000000000004');
  // A typed "-0" (a rate r of −0) reads as 0, as the command writes it; other signs stay.
  assert.equal(en.number(-0), '0');
  assert.equal(translator(lab, 'en')('controls.time', { time: -0 }), 't = 0 s');
  assert.equal(en.number(-1.5), '-1.5');
});

test('a share is written as a percentage the language\'s way, the sign against the number (82%)', () => {
  assert.equal(translator(lab, 'pt-BR').percent(0.82), '82%');
  assert.equal(translator(lab, 'pt-BR').percent(0.4983), '49,8%');
  assert.equal(translator(lab, 'en').percent(0.4983), '49.8%');
  assert.equal(translator(lab, 'en').percent(0.4983, 0), '50%');
});

test('a missing key shows as ⟦key⟧; a mark with no value stays as it is', () => {
  assert.equal(translator(ui, 'en')('no_such_key'), '⟦no_such_key⟧');
  assert.equal(translator(lab, 'en')('controls'), '⟦controls⟧', 'a nested table is not a text');
  assert.equal(translator(lab, 'en')('no.such.key'), '⟦no.such.key⟧');
  assert.equal(fill('{a} and {b}', { a: 'x' }), 'x and {b}');
  assert.equal(fill('{a}', { a: 1234.5678 }, 'en'), '1,234.568');
});

test('languages: pt and en by the first part of the tag, English for another, Brazilian Portuguese for none', () => {
  assert.equal(supportedLang('pt'), 'pt-BR');
  assert.equal(supportedLang('PT-pt'), 'pt-BR');
  assert.equal(supportedLang('en-GB'), 'en');
  assert.equal(supportedLang('fr'), null);
  assert.equal(supportedLang(null), null);
  // A language the lesson does not speak reads English; none at all, the lesson's first language.
  assert.equal(pickLang('fr'), 'en');
  assert.equal(pickLang('de-CH'), 'en');
  assert.equal(pickLang(''), 'pt-BR');
  assert.equal(pickLang(null), 'pt-BR');
  assert.equal(pickLang('pt-PT'), 'pt-BR');
  assert.equal(pickLang('en'), 'en');
  assert.equal(translator(ui, 'de').lang, 'en');
});

// A plural entry as the tables write it: pt-BR and en both have one/other in Intl, but Portuguese
// puts 1,5 in "one" with 1, English only 1; 0 takes the plural in both ("0 linhas").
const plural = {
  'pt-BR': {
    lines: { one: '{count} linha não pôde ser lida', other: '{count} linhas não puderam ser lidas' },
    only: { other: 'resta {count}' },
    nested: { malformed: { one: '{count} linha em {file}', other: '{count} linhas em {file}' } },
    list: ['a', 'b'],
  },
  en: {
    lines: { one: '{count} line could not be read', other: '{count} lines could not be read' },
    only: { other: '{count} left' },
    nested: { malformed: { one: 'one line in {file}', other: '{count} lines in {file}' } },
    list: ['a', 'b'],
  },
};

test('plural entries: the form Intl.PluralRules picks for count, in each language', () => {
  const pt = translator(plural, 'pt-BR');
  const en = translator(plural, 'en');
  assert.deepEqual([0, 1, 2, 1.5].map((count) => en('lines', { count })), [
    '0 lines could not be read', '1 line could not be read', '2 lines could not be read', '1.5 lines could not be read',
  ]);
  assert.deepEqual([0, 1, 2, 1.5].map((count) => pt('lines', { count })), [
    '0 linhas não puderam ser lidas', '1 linha não pôde ser lida', '2 linhas não puderam ser lidas', '1,5 linha não pôde ser lida',
  ]);
  // CLDR's Portuguese 0 is "one"; Brazilian usage puts it in the plural, and so does the translator,
  // for any number written as 0.
  assert.equal(new Intl.PluralRules('pt-BR').select(0), 'one', 'Node\'s ICU: Portuguese 0 is "one"');
  assert.equal(pt('lines', { count: 0.0004 }), '0 linhas não puderam ser lidas', '0.0004 is written 0');
  assert.equal(pt('lines', { count: 0.001 }), '0,001 linha não pôde ser lida', 'CLDR\'s rule for everything else');
  assert.equal(en('lines', { count: 1.0004 }), '1 line could not be read', 'the form follows the number as written (1.0004 is shown as 1)');
  assert.equal(en('lines', { count: 1000000 }), '1,000,000 lines could not be read');
  assert.equal(pt('lines', { count: 1000000 }), '1.000.000 linhas não puderam ser lidas', 'pt-BR picks "many" for a million: no such form, so "other"');
  assert.equal(pt('only', { count: 1 }), 'resta 1', 'a language with only "other" uses it for every number');
  assert.equal(en('nested.malformed', { count: 1, file: 'a.log' }), 'one line in a.log', 'dotted keys reach plural entries; other values fill in');
  assert.equal(en('nested.malformed', { count: 3, file: 'a.log' }), '3 lines in a.log');
  assert.deepEqual(en.raw('lines'), plural.en.lines, 'raw gives the entry itself');
  assert.deepEqual(en.raw('list'), ['a', 'b'], 'raw still gives lists');
});

test('a plural entry without a number in count shows as ⟦key⟧ instead of picking a form', () => {
  const en = translator(plural, 'en');
  assert.equal(en('lines'), '⟦lines⟧', 'no values');
  assert.equal(en('lines', { n: 1 }), '⟦lines⟧', 'the number under another name');
  assert.equal(en('lines', { count: '1' }), '⟦lines⟧', 'a string (t.number\'s "1" included)');
  assert.equal(en('lines', { count: NaN }), '⟦lines⟧');
  assert.equal(en('lines', { count: Infinity }), '⟦lines⟧');
  assert.equal(en('lines', { count: null }), '⟦lines⟧');
  assert.equal(en('nested'), '⟦nested⟧', 'a nested table is still not a text');
  assert.equal(pluralForm(plural.en.lines, 'two', 'en'), undefined);
});

test('isPlural: an object with a CLDR category among its keys, never a list or a table without one', () => {
  assert.deepEqual(PLURAL_CATEGORIES, ['zero', 'one', 'two', 'few', 'many', 'other']);
  assert.ok(isPlural({ one: 'a', other: 'b' }));
  assert.ok(isPlural({ one: 'a' }), 'a plural entry without other is still one (locales.mjs refuses it)');
  assert.ok(isPlural({ one: 'a', sevral: 'b' }));
  assert.ok(!isPlural({ a: 'x', b: 'y' }));
  assert.ok(!isPlural(['one', 'other']));
  assert.ok(!isPlural('other'));
  assert.ok(!isPlural(null));
});

test('cut quotes at most 40 characters of a value (or as many as asked), then "…"', () => {
  assert.equal(cut('a'.repeat(40)), 'a'.repeat(40));
  assert.equal(cut('a'.repeat(41)), `${'a'.repeat(40)}…`);
  assert.equal(cut('https://lrs.example/xAPI/', 10), 'https://lr…');
  assert.equal(cut('é🪣'.repeat(30)), `${'é🪣'.repeat(20)}…`);
  assert.equal(cut(12345, 3), '123…');
});
