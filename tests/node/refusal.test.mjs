// The pages' wording of a refused value (www/i18n/refusal.js) from an Error's `problem`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusal } from '../../www/i18n/refusal.js';

test('a number too large for a double is called too large, not "not a number", in each language', () => {
  const problem = { field: 'capacity', rule: 'positive', given: '1e400', tooLarge: true };
  assert.equal(refusal({ problem }, 'en'), 'capacity: “1e400” is too large; use a number greater than 0.');
  assert.equal(refusal({ problem }, 'pt-BR'), 'capacity: “1e400” é grande demais; use um número maior que 0.');
  const text = { ...problem, given: 'dez', tooLarge: false };
  assert.equal(refusal({ problem: text }, 'en'), 'capacity: “dez” is not a number; use a number greater than 0.');
});

test('a number other than 0 too small for a double is called too small, and unreadable text is not called empty', () => {
  const problem = { field: 'rate', rule: 'nonNegative', given: '1e-400', tooLarge: false, tooSmall: true };
  assert.equal(refusal({ problem }, 'en'), 'rate: “1e-400” is too small to tell from 0; use a number of at least 0.');
  assert.equal(refusal({ problem }, 'pt-BR'), 'rate: “1e-400” é pequeno demais para distinguir de 0; use um número maior ou igual a 0.');
  // A number field that can't read its text gives the page an empty value: the field says which.
  const empty = { field: 'limit', rule: 'whole', min: 1, max: 10, given: '' };
  const field = (badInput) => () => ({ validity: { badInput } });
  assert.equal(refusal({ problem: empty }, 'en', undefined, field(false)), 'limit: the field is empty; use a whole number from 1 to 10.');
  assert.equal(refusal({ problem: empty }, 'en', undefined, field(true)), 'limit: what is typed is not a number the field can read; use a whole number from 1 to 10.');
});
