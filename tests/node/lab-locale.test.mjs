// The lab's locale tables: pt-BR and en have the same keys, the same kinds of values (text, or
// lists of the same length) and the same {placeholders} in every text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCALES, pickLang, translator } from '../../www/lab/i18n.js';

function leaves(node, path = []) {
  if (typeof node === 'string') return [[path.join('.'), node]];
  if (Array.isArray(node)) return node.flatMap((v, i) => leaves(v, [...path, `[${i}]`]));
  return Object.entries(node).flatMap(([k, v]) => leaves(v, [...path, k]));
}
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('lab: pt-BR and en have the same keys and placeholders', () => {
  const pt = new Map(leaves(LOCALES['pt-BR']));
  const en = new Map(leaves(LOCALES.en));
  assert.deepEqual([...pt.keys()].sort(), [...en.keys()].sort());
  for (const [key, text] of pt) {
    assert.deepEqual(placeholders(text), placeholders(en.get(key)), key);
    assert.ok(text.trim() && en.get(key).trim(), `${key} is not empty`);
  }
  assert.ok(pt.size > 100, `${pt.size} texts`);
});

test('lab: the translator fills placeholders and formats numbers per language', () => {
  assert.equal(translator('pt-BR')('lane.peak', { peak: 20 }), 'pico: 20 em 1 s');
  assert.equal(translator('en')('controls.time', { time: 2.5 }), 't = 2.5 s');
  assert.equal(translator('pt-BR')('controls.quota', { limit: 10, window: 1, rate: 2.5 }), '10 por 1 s: baldes com B = 10 e r = 2,5/s');
  assert.throws(() => translator('en')('no.such.key'), /no text for no.such.key/);
  assert.equal(pickLang('pt-BR'), 'pt-BR');
  assert.equal(pickLang('pt'), 'pt-BR');
  assert.equal(pickLang('en-GB'), 'en');
  assert.equal(pickLang(''), 'en');
});
