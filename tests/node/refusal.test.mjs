// The pages' wording of a refused value (www/i18n/refusal.js) from an Error's `problem`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusal } from '../../www/i18n/refusal.js';
import { fieldText, readings, typedNumber, unreadable } from '../../www/i18n/typed-number.js';

test('a number too large for a double is called too large, not "not a number", in each language', () => {
  const problem = { field: 'capacity', rule: 'positive', given: '1e400', tooLarge: true };
  assert.equal(refusal({ problem }, 'en'), 'capacity: “1e400” is too large; use a number greater than 0.');
  assert.equal(refusal({ problem }, 'pt-BR'), 'capacity: “1e400” é grande demais; use um número maior que 0.');
  const text = { ...problem, given: 'dez', tooLarge: false };
  assert.equal(refusal({ problem: text }, 'en'), 'capacity: “dez” is not a number; use a number greater than 0.');
});

test('a number other than 0 too small for a double is called too small', () => {
  const problem = { field: 'rate', rule: 'nonNegative', given: '1e-400', tooLarge: false, tooSmall: true };
  assert.equal(refusal({ problem }, 'en'), 'rate: “1e-400” is too small to tell from 0; use a number of at least 0.');
  assert.equal(refusal({ problem }, 'pt-BR'), 'rate: “1e-400” é pequeno demais para distinguir de 0; use um número maior ou igual a 0.');
});

test("a form field's text that holds no number (read as NaN, or as nothing) is quoted as typed, with what is wrong with it", () => {
  const field = (value) => () => ({ value });
  const refused = (given, typed, lang = 'en') => refusal({ problem: { field: 'limit', rule: 'whole', min: 1, max: 10, given } }, lang, undefined, field(typed));
  assert.equal(refused(undefined, '  '), 'limit: the field is empty; use a whole number from 1 to 10.');
  assert.equal(refused(NaN, ' dez '), 'limit: “dez” is not a number; use a whole number from 1 to 10.');
  assert.equal(refused(NaN, '1e400'), 'limit: “1e400” is too large; use a whole number from 1 to 10.');
  assert.equal(refused(NaN, '1e-400'), 'limit: “1e-400” is too small to tell from 0; use a whole number from 1 to 10.');
  assert.equal(refused(NaN, '1,000'), 'limit: in “1,000” the comma could group thousands or mark decimals; write 1000 or 1.000.');
  // In Portuguese the decimal reading is one the page reads (2,5), not 2.500, refused there too.
  assert.equal(refused(NaN, '2,500', 'pt-BR'), 'limit: em “2,500” a vírgula pode separar milhares ou decimais; escreva 2500 se for o número inteiro, ou 2,5 se for o decimal.');
  // In a Portuguese form a point that could group thousands too (the page writes a thousand 1.000).
  assert.equal(refused(NaN, '1.000', 'pt-BR'), 'limit: em “1.000” o ponto pode separar milhares ou decimais; escreva 1000 se for o número inteiro, ou 1 se for o decimal.');
  // Each suggestion is one the same form reads: never sent round from one refusal to the other.
  for (const typed of ['1,000', '1.000', '-12,500', '999.999', '100,010']) {
    const { whole, decimal } = readings(typed, 'pt-BR');
    for (const suggested of [whole, decimal]) assert.equal(unreadable(suggested, 'pt-BR'), undefined, `${typed} → ${suggested}`);
  }
  // A number the field did read is the core's to word, whatever the field holds now.
  assert.equal(refused(0, '0'), 'limit: 0 is not allowed; use a whole number from 1 to 10.');
});

test('a bound is written as the form takes it back: a Portuguese 18,181 (which could group thousands) is 18,1810', () => {
  const problem = { field: 'rate', rule: 'between', min: 0.5, max: 18.181, given: 100000 };
  assert.equal(refusal({ problem }, 'pt-BR'), 'rate: 100000 não é permitido; use um número de 0,5 a 18,1810.');
  assert.equal(refusal({ problem }, 'en'), 'rate: 100000 is not allowed; use a number from 0.5 to 18.181.');
  // The bound written is one the same Portuguese form reads.
  assert.equal(unreadable('18,1810', 'pt-BR'), undefined);
});

test('a form field shows a value as it reads it back, every digit kept: 1.234 is 1,2340 in Portuguese', () => {
  for (const [value, pt, en] of [[1.234, '1,2340', '1.234'], [-18.181, '-18,1810', '-18.181'], [0.5, '0,5', '0.5'], [1234, '1234', '1234'], [12.3456, '12,3456', '12.3456'], [1e-7, '1e-7', '1e-7']]) {
    assert.equal(fieldText(value, 'pt-BR'), pt);
    assert.equal(fieldText(value, 'en'), en);
    assert.equal(typedNumber(fieldText(value, 'pt-BR'), 'pt-BR'), value, `${pt} reads back`);
    assert.equal(typedNumber(fieldText(value, 'en'), 'en'), value, `${en} reads back`);
  }
});

test('a long value is quoted cut, as the widget quotes it: 40 characters, then "…"', () => {
  const digits = '9'.repeat(400);
  const problem = { field: 'capacity', rule: 'positive', given: digits, tooLarge: true };
  assert.equal(refusal({ problem }, 'en'), `capacity: “${'9'.repeat(40)}…” is too large; use a number greater than 0.`);
  const typed = 'x'.repeat(41);
  assert.equal(refusal({ problem: { field: 'limit', rule: 'whole', min: 1, max: 10, given: NaN } }, 'en', undefined, () => ({ value: typed })),
    `limit: “${'x'.repeat(40)}…” is not a number; use a whole number from 1 to 10.`);
  // Forty characters are quoted whole; a character outside the BMP counts as one.
  const emoji = '🪣'.repeat(40);
  assert.equal(refusal({ problem: { ...problem, given: emoji, tooLarge: false } }, 'en'), `capacity: “${emoji}” is not a number; use a number greater than 0.`);
});

test('a part that did not load says why in the reader\'s words: a page\'s policy against WebAssembly, or a module that arrived damaged', async () => {
  const { notLoaded } = await import('../../www/i18n/refusal.js');
  // The browser's own words for each (Chromium's), then what V8 really throws for a host's page
  // sent as the module and for a module whose imports another release's glue would not give.
  const policy = new WebAssembly.CompileError("WebAssembly.instantiateStreaming(): Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: \"script-src 'self'\"");
  let page;
  try { new WebAssembly.Module(new TextEncoder().encode('<!doctype html>')); } catch (error) { page = error; }
  let other;
  const needs = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 2, 7, 1, 1, 109, 1, 102, 0, 0]);
  try { await WebAssembly.instantiate(needs, { m: {} }); } catch (error) { other = error; }
  assert.ok(page instanceof WebAssembly.CompileError && other instanceof WebAssembly.LinkError);
  assert.equal(notLoaded(policy, 'en'), "this page's Content Security Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src.");
  assert.equal(notLoaded(policy, 'pt-BR'), "a Content Security Policy desta página não permite WebAssembly: acrescente 'wasm-unsafe-eval' ao script-src dela.");
  for (const error of [page, other]) {
    assert.equal(notLoaded(error, 'en'), 'its WebAssembly file arrived damaged, or from another version of the site; reload the page to try again.');
    assert.equal(notLoaded(error, 'pt-BR'), 'o arquivo WebAssembly dela chegou danificado, ou de outra versão do site; recarregue a página para tentar de novo.');
  }
  // Anything else keeps its own message.
  assert.equal(notLoaded(new Error('boom'), 'en'), 'boom');
});
