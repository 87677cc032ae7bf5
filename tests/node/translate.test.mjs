// www/i18n/translate.js, the one way every component picks its language and fills in its words,
// on the tables scripts/locales.mjs generates from locales/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fill, pickLang, supportedLang, translator } from '../../www/i18n/translate.js';
import lab from '../../www/i18n/locales/lab.js';
import ui from '../../www/i18n/locales/ui.js';
import servers from '../../www/i18n/locales/servers.js';

test('the generated tables hold both languages of their product', () => {
  for (const tables of [lab, ui, servers]) assert.deepEqual(Object.keys(tables), ['pt-BR', 'en']);
});

test('a translator fills {marks}, numbers written the language\'s way', () => {
  assert.equal(translator(lab, 'pt-BR')('lane.peak', { peak: 20 }), 'pico: 20 em 1 s');
  assert.equal(translator(lab, 'en')('controls.time', { time: 2.5 }), 't = 2.5 s');
  assert.equal(translator(lab, 'pt-BR')('controls.quota', { limit: 10, window: 1, rate: 2.5 }), '10 por 1 s: baldes com B = 10 e r = 2,5/s');
  assert.equal(translator(servers, 'pt-BR')('result', { a: 15, n: 20 }), '15 de 20 requisições admitidas');
  assert.equal(translator(ui, 'en')('notice_item', { name: 'b', value: '0', allowed: 'B > 0' }), 'b = “0” (expected: B > 0)');
  assert.equal(translator(lab, 'en').number(1 / 3, 2), '0.33');
  assert.equal(translator(lab, 'pt-BR').number(1 / 3, 2), '0,33');
  assert.ok(Array.isArray(translator(lab, 'en').raw('tryThis.windowEdge')), 'raw gives lists too');
});

test('a missing key shows as ⟦key⟧; a mark with no value stays as it is', () => {
  assert.equal(translator(ui, 'en')('no_such_key'), '⟦no_such_key⟧');
  assert.equal(translator(lab, 'en')('controls'), '⟦controls⟧', 'a nested table is not a text');
  assert.equal(translator(lab, 'en')('no.such.key'), '⟦no.such.key⟧');
  assert.equal(fill('{a} and {b}', { a: 'x' }), 'x and {b}');
  assert.equal(fill('{a}', { a: 1234.5678 }, 'en'), '1,234.568');
});

test('languages: pt and en by the first part of the tag, Brazilian Portuguese otherwise', () => {
  assert.equal(supportedLang('pt'), 'pt-BR');
  assert.equal(supportedLang('PT-pt'), 'pt-BR');
  assert.equal(supportedLang('en-GB'), 'en');
  assert.equal(supportedLang('fr'), null);
  assert.equal(supportedLang(null), null);
  assert.equal(pickLang('fr'), 'pt-BR');
  assert.equal(pickLang(''), 'pt-BR');
  assert.equal(pickLang('en'), 'en');
  assert.equal(translator(ui, 'de').lang, 'pt-BR');
});
