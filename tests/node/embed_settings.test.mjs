// What hosts configure the embedded widget with, checked under Node: attribute text to numbers
// with messages that name the attribute. (The element's words are checked with every other table
// in locales.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync, checkSetting, TokenBucket } from '../../www/pkg/bucketlab.js';
import { refusal as pageRefusal } from '../../www/i18n/refusal.js';

initSync({ module: readFileSync(new URL('../../www/pkg/bucketlab_bg.wasm', import.meta.url)) });

const refusal = (...args) => {
  try {
    checkSetting(...args);
  } catch (error) {
    return error.message;
  }
  assert.fail(`checkSetting(${args.join(', ')}) should throw`);
};

test('attribute text becomes a number, with a decimal comma too', () => {
  assert.equal(checkSetting('capacity', '10'), 10);
  assert.equal(checkSetting('refill-rate', ' 2,5 '), 2.5);
  assert.equal(checkSetting('refill-rate', '0'), 0);
  assert.equal(checkSetting('tokens', '7.5', 10), 7.5);
  assert.equal(checkSetting('cost', '3', 3), 3);
});

test('a refused value is named by its attribute, quoted, and the rule is given', () => {
  assert.equal(refusal('capacity', 'dez'), 'capacity must be a finite number greater than 0, got "dez"');
  assert.equal(refusal('capacity', '0'), 'capacity must be a finite number greater than 0, got 0');
  assert.equal(refusal('refill-rate', '-1'), 'refill-rate must be a finite number of at least 0, got -1');
  assert.equal(refusal('refill-rate', 'Infinity'), 'refill-rate must be a finite number of at least 0, got "Infinity"');
  assert.equal(refusal('cost', '11', 10), 'cost must be a whole number from 1 to 10, got 11');
  assert.equal(refusal('cost', '1.5', 10), 'cost must be a whole number from 1 to 10, got 1.5');
  assert.equal(refusal('tokens', '12', 10), 'tokens must be a finite number from 0 to 10, got 12');
  assert.equal(refusal('capacity', '1e400'), 'capacity must be a finite number greater than 0, got "1e400", which is too large');
  assert.equal(refusal('refill-rate', '1e-400'), 'refill-rate must be a finite number of at least 0, got "1e-400", which is too small to tell from 0');
  assert.equal(refusal('burst', '3'), 'unknown setting "burst"; known: capacity, refill-rate, tokens, cost');
});

test('an argument that is not a string is named with what was given, never a trap of the module', () => {
  for (const [given, kind] of [[42, 'number'], [null, 'null']]) {
    assert.equal(refusal(given, '10'), `name must be a string: capacity, refill-rate, tokens or cost, got a value of type ${kind}`);
    assert.equal(refusal('capacity', given), `text must be a string (the setting as typed), got a value of type ${kind}`);
  }
  assert.equal(refusal('capacity', '10', undefined, 42), 'lang must be a string such as "en" or "pt-BR", or undefined, got a value of type number');
  assert.equal(checkSetting('capacity', '10', undefined, null), 10, 'no language: the default');
});

test('a refusal also carries its words for the page\'s reader: the language asked for, the visible label', () => {
  const localized = (...args) => {
    try {
      checkSetting(...args);
    } catch (error) {
      return error.localized;
    }
    assert.fail(`checkSetting(${args.join(', ')}) should throw`);
  };
  assert.equal(localized('capacity', '0', undefined, 'pt-BR'), 'Capacidade B: 0 não é permitido; use um número maior que 0.');
  assert.equal(localized('refill-rate', 'rápido', undefined, 'pt-BR'), 'Taxa r (tokens/s): “rápido” não é um número; use um número maior ou igual a 0.');
  assert.equal(localized('cost', '5', 3, 'en'), 'Cost c: 5 is not allowed; use a whole number from 1 to 3.');
  assert.equal(localized('tokens', '2,5', 2, 'pt-BR'), 'tokens: 2,5 não é permitido; use um número de 0 a 2.');
  assert.equal(localized('capacity', '0'), 'Capacidade B: 0 não é permitido; use um número maior que 0.', 'Portuguese by default, as the widget');
  assert.equal(localized('capacity', '1e400', undefined, 'en'), 'Capacity B: “1e400” is too large; use a number greater than 0.');
  assert.equal(localized('refill-rate', '1e-400', undefined, 'pt-BR'), 'Taxa r (tokens/s): “1e-400” é pequeno demais para distinguir de 0; use um número maior ou igual a 0.');
  assert.equal(localized('capacity', '9'.repeat(5000), undefined, 'pt-BR'), `Capacidade B: “${'9'.repeat(40)}…” é grande demais; use um número maior que 0.`);
});

test('the element checks controls against the diagram\'s own groups (src/limiter/groups.rs)', () => {
  const listed = (text, pattern) => [...text.match(pattern)[1].matchAll(/["']([a-z]+)["']/g)].map((m) => m[1]);
  const rust = listed(readFileSync(new URL('../../src/limiter/groups.rs', import.meta.url), 'utf8'), /pub const CONTROL_GROUPS: \[&str; \d+\] = \[([^\]]*)\]/);
  const element = listed(readFileSync(new URL('../../www/element/bucket-lab.js', import.meta.url), 'utf8'), /export const CONTROL_GROUPS = \[([^\]]*)\]/);
  assert.equal(rust.length, 6);
  assert.deepEqual(element, rust);
});

test('a comma before three digits is neither read as a thousand nor as a decimal: both readings are named', () => {
  assert.equal(refusal('capacity', '1,000'), 'capacity must be a finite number greater than 0, got "1,000", which could mean 1000 or 1.000: write the one meant');
  assert.equal(refusal('refill-rate', '1,500'), 'refill-rate must be a finite number of at least 0, got "1,500", which could mean 1500 or 1.500: write the one meant');
  assert.equal(checkSetting('capacity', '1000'), 1000);
  assert.equal(checkSetting('refill-rate', '1,5'), 1.5, 'a decimal comma before other than three digits is read');
  assert.equal(checkSetting('refill-rate', '0,500'), 0.5, 'no thousands start with 0');
  let error;
  try { checkSetting('capacity', '1,000', undefined, 'pt-BR'); } catch (e) { error = e; }
  assert.equal(error.localized, 'Capacidade B: em “1,000” a vírgula pode separar milhares ou decimais; escreva 1000 para o número inteiro ou 1.000 (com ponto) para o decimal.');
  // The pages word the same problem as the widget does (www/i18n/refusal.js, for their forms).
  const problem = { field: 'capacity', rule: 'positive', given: '1,000', ambiguous: true };
  assert.equal(pageRefusal({ problem }, 'pt-BR', () => 'Capacidade B'), error.localized);
});

test('a value of another type is named by its type, in the pages\' words too', () => {
  let error;
  try { new TokenBucket({ capacity: '5', refillRate: 1 }); } catch (e) { error = e; }
  assert.equal(error.problem.type, 'string');
  assert.equal(pageRefusal(error, 'pt-BR'), 'capacity: um valor do tipo string não é um número; use um número maior que 0.');
});
