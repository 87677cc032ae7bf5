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
