// Every export that takes a string, a number or bytes from a script checks it through
// src/wasm/convert.rs, under Node: a value of the wrong type or out of range throws an Error that
// names the argument, the value and what is allowed, never a trap of the module ("memory access
// out of bounds", "unreachable"), never a value wrapped, truncated or read as another. A refused
// number carries the same as data in its `problem` (www/i18n/refusal.js words it), and, where the
// caller gave a language, its words for a person in `localized`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as widget from '../../www/pkg/bucketlab.js';
import * as config from '../../www/pkg/bucketlab_config.js';
import * as replay from '../../www/pkg/bucketlab_replay.js';
import * as lab from '../../www/pkg/bucketlab_lab.js';
import { refusal } from '../../www/i18n/refusal.js';

for (const [glue, name] of [[widget, 'bucketlab'], [config, 'bucketlab_config'], [replay, 'bucketlab_replay'], [lab, 'bucketlab_lab']]) {
  glue.initSync({ module: readFileSync(new URL(`../../www/pkg/${name}_bg.wasm`, import.meta.url)) });
}

/** The Error `call` throws (failing when it returns instead). */
function thrown(call, what) {
  try {
    const value = call();
    assert.fail(`${what} should throw, returned ${String(value).slice(0, 60)}`);
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    assert.ok(error instanceof Error, `${what}: ${error}`);
    return error;
  }
}

test('parsePolicy: text that is not a string is named with its type, and the module still parses afterwards', () => {
  for (const [given, kind] of [[5, 'got a value of type number'], [null, 'got a value of type null'], [{}, 'got a value of type object'], [undefined, 'it is missing']]) {
    const error = thrown(() => config.parsePolicy(given), `parsePolicy(${given})`);
    assert.equal(error.message, `text must be a string (the policy's YAML), ${kind}`);
  }
  const yaml = 'tiers:\n  default:\n    capacity: 10\n    refill_rate: 5\nstorage: redis\nkey_by: api_token\non_deny:\n  status: 429\n  retry_after: true\n';
  const parsed = config.parsePolicy(yaml);
  assert.equal(parsed.ok, true, JSON.stringify(parsed));
  assert.deepEqual(parsed.policy.tiers.default, { capacity: 10, refillRate: 5 });
  assert.equal(config.parsePolicy('storage: [').ok, false, 'bad YAML is still a result, not a throw');
});

test('sampleLog: seed and lines are whole numbers in range, never wrapped or truncated; a refusal carries its problem', () => {
  const cases = [
    [[1, -1], 'lines must be a whole number from 1 to 200000, got -1', { field: 'lines', rule: 'whole', min: 1, max: 200000, given: -1 }],
    [[1, 2 ** 32 + 5], 'lines must be a whole number from 1 to 200000, got 4294967301', { field: 'lines', given: 2 ** 32 + 5 }],
    [[1, 'x'], 'lines must be a whole number from 1 to 200000, got a value of type string', { field: 'lines', type: 'string', given: undefined }],
    [[1, '5'], 'lines must be a whole number from 1 to 200000, got a value of type string', { field: 'lines', type: 'string' }],
    [[1, 0], 'lines must be a whole number from 1 to 200000, got 0', { given: 0 }],
    [[1, 2.5], 'lines must be a whole number from 1 to 200000, got 2.5', { given: 2.5 }],
    [[1, 200001], 'lines must be a whole number from 1 to 200000, got 200001', { given: 200001 }],
    [[1, NaN], 'lines must be a whole number from 1 to 200000, got NaN', {}],
    [[1], 'lines must be a whole number from 1 to 200000, it is missing', { field: 'lines', given: undefined, type: undefined }],
    [[-1, 5], 'seed must be a whole number from 0 to 4294967295, got -1', { field: 'seed', rule: 'whole', min: 0, max: 4294967295 }],
    [[2 ** 32, 5], 'seed must be a whole number from 0 to 4294967295, got 4294967296', { field: 'seed' }],
    [[null, 5], 'seed must be a whole number from 0 to 4294967295, got a value of type null', { field: 'seed', type: 'null' }],
  ];
  for (const [args, message, problem] of cases) {
    const error = thrown(() => replay.sampleLog(...args), `sampleLog(${args.join(', ')})`);
    assert.equal(error.message, message);
    for (const [key, value] of Object.entries(problem)) assert.equal(error.problem[key], value, `${args}: problem.${key}`);
  }
  // The page words it from the problem, in its language.
  const error = thrown(() => replay.sampleLog(1, -1), 'sampleLog(1, -1)');
  assert.equal(refusal(error, 'pt-BR'), 'lines: -1 não é permitido; use um número inteiro de 1 a 200000.');
  // Allowed values still make their lines, the same for the same seed.
  const log = replay.sampleLog(1, 3);
  assert.equal(log.split('\n').length, 4, 'three lines and the final newline');
  assert.equal(replay.sampleLog(1, 3), log);
  assert.equal(replay.sampleLog(4294967295, 1).split('\n').length, 2);
});

/** A replay job fed `text` until its result is ready. */
function replayed(text) {
  const job = new replay.ReplayJob({ capacity: 5, refillRate: 1 });
  const bytes = new TextEncoder().encode(text);
  do {
    assert.equal(job.feed(bytes), true);
  } while (job.endOfInput());
  return job;
}

test('ReplayJob: feed takes a Uint8Array only, and trace a string key; others are named, and the job goes on', () => {
  const log = replay.sampleLog(1, 200);
  const job = new replay.ReplayJob({ capacity: 5, refillRate: 1 });
  for (const [given, kind] of [['abc', 'string'], [5, 'number'], [null, 'null'], [[1, 2, 3], 'array'], [new Uint16Array(3), 'object'], [new ArrayBuffer(3), 'object']]) {
    const error = thrown(() => job.feed(given), `feed(${kind})`);
    assert.equal(error.message, `chunk must be a Uint8Array (the file's next bytes), got a value of type ${kind}`);
  }
  assert.equal(thrown(() => job.feed(), 'feed()').message, "chunk must be a Uint8Array (the file's next bytes), it is missing");
  // Nothing refused reached the job: the log alone is read, as if fed only it.
  const bytes = new TextEncoder().encode(log);
  do {
    assert.equal(job.feed(bytes), true);
  } while (job.endOfInput());
  const result = JSON.parse(job.result());
  const plain = JSON.parse(replayed(log).result());
  assert.ok(result.outcome, job.result().slice(0, 200));
  assert.equal(result.outcome.report.lines, 200);
  assert.deepEqual(result.outcome.report, plain.outcome.report);

  for (const [given, kind] of [[5, 'got a value of type number'], [null, 'got a value of type null'], [{}, 'got a value of type object'], [undefined, 'it is missing']]) {
    const error = thrown(() => job.trace(given), `trace(${given})`);
    assert.equal(error.message, `key must be a string (a client's key, as the report lists it), ${kind}`);
  }
  // A string key is followed as before (the module did not trap).
  assert.equal(typeof job.trace('203.0.113.7'), 'boolean');
});

test('checkSetting: a capacity that is not one is named as the capacity, not blamed on a good value', () => {
  const cases = [
    [['cost', '3', 'abc'], 'capacity must be a finite number greater than 0, got a value of type string', { field: 'capacity', rule: 'positive', type: 'string' }],
    [['tokens', '3', 'x'], 'capacity must be a finite number greater than 0, got a value of type string', { type: 'string' }],
    [['tokens', '3', NaN], 'capacity must be a finite number greater than 0, got NaN', { rule: 'positive' }],
    [['cost', '1', 0], 'capacity must be a finite number greater than 0, got 0', { given: 0 }],
    [['cost', '1', -2], 'capacity must be a finite number greater than 0, got -2', { given: -2 }],
    [['cost', '1', Infinity], 'capacity must be a finite number greater than 0, got Infinity', { given: Infinity }],
    [['capacity', '1', true], 'capacity must be a finite number greater than 0, got a value of type boolean', { type: 'boolean' }],
  ];
  for (const [args, message, problem] of cases) {
    const error = thrown(() => widget.checkSetting(...args, 'en'), `checkSetting(${args.join(', ')})`);
    assert.equal(error.message, message);
    for (const [key, value] of Object.entries(problem)) assert.equal(error.problem[key], value, `${args}: problem.${key}`);
    assert.match(error.localized, /^Capacity B: /, 'worded for the reader too, with the label of B');
  }
  const error = thrown(() => widget.checkSetting('cost', '3', 'abc', 'pt-BR'), 'in Portuguese');
  assert.equal(error.localized, 'Capacidade B: um valor do tipo string não é um número; use um número maior que 0.');
  // Left out or null: no bucket yet, as before; a good capacity bounds the value.
  assert.equal(widget.checkSetting('cost', '3', undefined), 3);
  assert.equal(widget.checkSetting('cost', '3', null), 3);
  assert.equal(widget.checkSetting('tokens', '2,5', 2.5), 2.5);
  assert.equal(thrown(() => widget.checkSetting('cost', '3', 2), 'cost 3 of 2').message, 'cost must be a whole number from 1 to 2, got 3');
});

test('checkSetting: a refused setting has the one shape of convert.rs, problem and localized, both naming the attribute', () => {
  const error = thrown(() => widget.checkSetting('refill-rate', '-1', undefined, 'en'), 'refill-rate -1');
  assert.equal(error.message, 'refill-rate must be a finite number of at least 0, got -1');
  assert.deepEqual(
    { field: error.problem.field, rule: error.problem.rule, given: error.problem.given },
    { field: 'refill-rate', rule: 'nonNegative', given: -1 },
  );
  assert.equal(error.localized, 'Rate r (tokens/s): -1 is not allowed; use a number of at least 0.');
});

test('mountDiagram: since is a finite number or left out, never coerced; the refusal names it before the root is touched', () => {
  // A stand-in root: the wasm reads only its attributes before checking `since`.
  const root = { getAttribute: (name) => (name === 'data-lang' ? 'en' : null), closest: () => null, hasAttribute: () => false };
  const cases = [
    ['5', 'since must be a finite number, got a value of type string', { field: 'since', rule: 'finite', type: 'string' }],
    [null, 'since must be a finite number, got a value of type null', { type: 'null' }],
    [NaN, 'since must be a finite number, got NaN', { rule: 'finite' }],
    [Infinity, 'since must be a finite number, got Infinity', { given: Infinity }],
  ];
  for (const [since, message, problem] of cases) {
    const error = thrown(() => widget.mountDiagram(root, since), `mountDiagram(root, ${since})`);
    assert.equal(error.message, message);
    for (const [key, value] of Object.entries(problem)) assert.equal(error.problem[key], value, `${since}: problem.${key}`);
    assert.match(error.localized, /^since: /, 'in the root\'s language');
  }
});

test('the lab: a duration too long for the traffic\'s rate is a refused value with its problem, as the others are', () => {
  const error = thrown(() => lab.simulate({ duration: 1000, traffic: { pattern: 'steady', rate: 5000 } }), 'too long');
  assert.equal(error.message, 'duration must be a finite number greater than 0 and at most 360, got 1000');
  assert.deepEqual(
    { field: error.problem.field, rule: error.problem.rule, max: error.problem.max, given: error.problem.given },
    { field: 'duration', rule: 'positiveUpTo', max: 360, given: 1000 },
  );
  assert.equal(refusal(error, 'en', () => 'Duration (s)'), 'Duration (s): 1000 is not allowed; use a number greater than 0 and at most 360.');
});
