// The lesson page's pure helpers: reading a permalink, writing one, and keeping a tier's lines in
// step with the widget, without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { permalinkHash, readPermalink } from '../../www/lesson/permalink.js';
import { readings, typedNumber, unreadable } from '../../www/i18n/typed-number.js';
import { formatNumber } from '../../www/lesson/strings.js';
import { withTierValues } from '../../www/lesson/policy.js';

test('a permalink reads back what was written', () => {
  const state = { b: 18, r: 2.5, c: 3, lang: 'en', tab: 'config', code: 'go' };
  assert.equal(permalinkHash(state), '#b=18&r=2.5&c=3&lang=en&tab=config&code=go');
  assert.deepEqual(readPermalink(permalinkHash(state)), { values: state, rejected: [] });
});

test('each bad value is set aside with what was allowed, the rest is kept', () => {
  const { values, rejected } = readPermalink('#b=0&r=-1&c=2.5&lang=fr&tab=faq&code=go&eval=alert(1)');
  assert.deepEqual(values, { code: 'go' });
  assert.deepEqual(rejected.map((r) => [r.name, r.value, r.allowed]), [
    ['b', '0', 'allowed_b'], ['r', '-1', 'allowed_r'], ['c', '2.5', 'allowed_c'], ['lang', 'fr', 'allowed_lang'],
    ['tab', 'faq', 'allowed_tab'], ['eval', 'alert(1)', 'allowed_key'],
  ]);
});

test('lang takes any tag of the two languages, as the element does, and names the page it means', () => {
  for (const [tag, lang] of [['en', 'en'], ['en-GB', 'en'], ['EN-us', 'en'], ['pt', 'pt-BR'], ['pt-PT', 'pt-BR'], ['pt-BR', 'pt-BR']]) {
    assert.deepEqual(readPermalink(`#lang=${tag}`), { values: { lang }, rejected: [] }, tag);
  }
  for (const tag of ['fr', 'english', 'en_GB', 'e', '']) {
    assert.deepEqual(readPermalink(`#lang=${tag}`).rejected.map((r) => r.allowed), ['allowed_lang'], tag);
  }
});

test('numbers must be plain decimals, and the cost must fit in the bucket', () => {
  for (const text of ['Infinity', '1e999', '0x10', '', ' ', '1,5.0', '1,2,3', 'NaN']) {
    assert.equal(readPermalink(`#b=${encodeURIComponent(text)}`).values.b, undefined, text);
  }
  assert.equal(readPermalink('#b=1e1').values.b, 10);
  assert.deepEqual(readPermalink('#b=4&c=5').rejected.map((r) => r.name), ['c']);
  assert.equal(readPermalink('#b=4&c=4').values.c, 4);
  // Too large or too small for a double is said so; 1e-400 is not taken as the 0 that r allows.
  assert.deepEqual(readPermalink('#b=1e400&r=1e-400&c=1e-400').rejected.map((r) => [r.name, r.reason]),
    [['b', 'reason_too_large'], ['r', 'reason_too_small'], ['c', 'reason_too_small']]);
  assert.deepEqual(readPermalink('#r=0e5').values, { r: 0 });
  assert.deepEqual(readPermalink('#r=0,0').values, { r: 0 });
});

test('a decimal comma is read as ?capacity= and the scenario read it (2,5 in Portuguese)', () => {
  assert.deepEqual(readPermalink('#b=2,5&r=0,5'), { values: { b: 2.5, r: 0.5 }, rejected: [] });
  assert.deepEqual(readPermalink('#b=%203,5%20&c=3,0').values, { b: 3.5, c: 3 });
  assert.equal(typedNumber('2,5'), 2.5);
  assert.ok(Number.isNaN(typedNumber('1,5.0')), 'a comma and a point');
});

test('a comma that could group thousands is refused with both readings (the decimal also as a link writes it), never read as 1 or 1.5', () => {
  const { values, rejected } = readPermalink('#b=1,000&r=-1,500&c=%202,000%20');
  assert.deepEqual(values, {});
  assert.deepEqual(rejected.map((r) => [r.name, r.reason, r.reasonValues]), [
    ['b', 'reason_ambiguous', { whole: '1000', point: '1.000', decimal: '1.000', link: '1' }],
    ['r', 'reason_ambiguous', { whole: '-1500', point: '-1.500', decimal: '-1.500', link: '-1.5' }],
    ['c', 'reason_ambiguous', { whole: '2000', point: '2.000', decimal: '2.000', link: '2' }],
  ]);
  assert.ok(Number.isNaN(typedNumber('1,000')));
  // Not three digits after the comma, or a leading 0: a decimal comma, as before.
  assert.deepEqual(readPermalink('#b=10,5&r=0,500&c=2,0').values, { b: 10.5, r: 0.5, c: 2 });
  // A link is read alike in both languages, with a decimal point: its 1.000 is 1.
  assert.deepEqual(readPermalink('#b=1.000').values, { b: 1 });
});

test('a point that could group thousands is refused in a Portuguese form (where the page writes a thousand 1.000), read as a decimal in an English one', () => {
  for (const text of ['1.000', ' -12.500 ', '+999.999']) {
    assert.ok(Number.isNaN(typedNumber(text, 'pt-BR')), text);
    assert.equal(unreadable(text, 'pt-BR'), 'ambiguousPoint', text);
    assert.equal(unreadable(text, 'en'), undefined, text);
    assert.equal(unreadable(text), undefined, `${text} in a link`);
  }
  assert.equal(typedNumber('1.000', 'en'), 1);
  // Not three digits after the point, or a leading 0: a decimal in Portuguese too.
  for (const [text, value] of [['1.5', 1.5], ['0.500', 0.5], ['1.0000', 1], ['2,125', NaN]]) {
    assert.equal(unreadable(text, 'pt-BR'), Number.isNaN(value) ? 'ambiguous' : undefined, text);
    if (!Number.isNaN(value)) assert.equal(typedNumber(text, 'pt-BR'), value, text);
  }
  assert.deepEqual(readings('1.000', 'pt-BR'), { whole: '1000', point: '1.000', decimal: '1' });
  assert.deepEqual(readings('999,999', 'pt-BR'), { whole: '999999', point: '999.999', decimal: '999,9990' });
});

test('without B in the link, the cost is left for the diagram to check against its own B (?capacity=)', () => {
  assert.deepEqual(readPermalink('#c=8'), { values: { c: 8 }, rejected: [] });
});

test('a value too large for a number is said to be too large, not "not greater than 0"', () => {
  const { values, rejected } = readPermalink('#b=1e400&r=-1e999&c=1e400');
  assert.deepEqual(values, {});
  assert.deepEqual(rejected.map((r) => [r.name, r.allowed, r.reason]), [
    ['b', 'allowed_b', 'reason_too_large'], ['r', 'allowed_r', 'reason_too_large'], ['c', 'allowed_c', 'reason_too_large'],
  ]);
  assert.equal(readPermalink('#b=-3').rejected[0].reason, undefined, 'too small is only the rule');
});

test('a name given twice is named, the first value kept; a broken escape is quoted as written, with its reason', () => {
  const { values, rejected } = readPermalink('#b=3&s=1_5_1_5_1&b=4&s=1_5_1_5_2&s=%E0%A4%A&zz=1&zz=2');
  assert.deepEqual(values, { b: 3, s: '1_5_1_5_1' });
  assert.deepEqual(rejected.map((r) => [r.name, r.value, r.allowed, r.reason]), [
    ['b', '4', 'allowed_b', 'reason_repeated'], ['s', '1_5_1_5_2', 'allowed_s', 'reason_repeated'], ['s', '%E0%A4%A', 'allowed_s', 'reason_repeated'],
    ['zz', '1', 'allowed_key', undefined], ['zz', '2', 'allowed_key', undefined],
  ]);
  assert.deepEqual(readPermalink('#s=%E0%A4%A').rejected, [{ name: 's', value: '%E0%A4%A', allowed: 'allowed_s', reason: 'reason_bad_escape' }]);
});

test('a number on the page never reads as 0 unless it is 0: 3 decimals, else 3 significant digits, an exponent below 0.000001 and from 2^53', () => {
  const cases = [[0, '0', '0'], [-0, '0', '0'], [7.4, '7.4', '7,4'], [12345.6789, '12345.679', '12345,679'], [0.0015, '0.002', '0,002'],
    [0.0004, '0.0004', '0,0004'], [0.000123, '0.000123', '0,000123'], [0.0001236, '0.000124', '0,000124'], [0.000001, '0.000001', '0,000001'],
    [1e-7, '1e-7', '1e-7'], [1.5e-9, '1.5e-9', '1,5e-9'], [1.2345e-20, '1.23e-20', '1,23e-20'], [-2e-8, '-2e-8', '-2e-8'],
    [0.1 + 0.2, '0.3', '0,3'], [0.9996, '1', '1'], [0.5475, '0.547', '0,547'], [-0.6275, '-0.627', '-0,627'], [1e20, '1e+20', '1e+20'], [2 ** 53, '9.00719925474099e+15', '9,00719925474099e+15'],
    [1.7976931348623157e308, '1.79769313486232e+308', '1,79769313486232e+308']];
  for (const [value, en, pt] of cases) {
    assert.deepEqual([formatNumber(value, 'en'), formatNumber(value, 'pt-BR')], [en, pt], String(value));
  }
});

test('a huge value is quoted back cut short', () => {
  const { rejected } = readPermalink(`#tab=${'x'.repeat(500)}`);
  assert.equal(rejected[0].value, `${'x'.repeat(40)}…`);
});

test('a section link is not a permalink', () => {
  assert.deepEqual(readPermalink('#faq'), { values: {}, rejected: [] });
});

const policy = readFileSync(new URL('../../lesson/code/config/rate_limits.yaml', import.meta.url), 'utf8');

test('the chosen tier\'s numbers follow the widget, comments and other tiers untouched', () => {
  const next = withTierValues(policy, 'search', 12, 0.5);
  assert.match(next, /search:\n    capacity: 12 +# \{\{comments\.yaml_search\}\}\n    refill_rate: 0\.5\n/);
  assert.match(next, /default:\n    capacity: 5 /);
  assert.match(next, /auth_login:\n    capacity: 5 /);
  assert.equal(next.split('\n').length, policy.split('\n').length);
  assert.equal(withTierValues(policy, 'default', 5, 1), policy, 'same values, same text');
  // A comment keeps its column whatever the value's width; a value too wide for it pushes it one
  // space on.
  const column = (text, key) => text.split('\n').find((l) => l.includes(key)).indexOf('#');
  for (const [b, r] of [[25, 0.25], [1000, 12.5], [5e-7, 1e-9]]) {
    const wider = withTierValues(policy, 'default', b, r);
    assert.equal(column(wider, 'yaml_default_b'), column(policy, 'yaml_default_b'), `B = ${b}`);
    if (String(r).length < 6) assert.equal(column(wider, 'yaml_default_r'), column(policy, 'yaml_default_r'), `r = ${r}`);
  }
  assert.match(withTierValues(policy, 'default', 5, 0.000123456), /refill_rate: 0\.000123456 # /);
});

test('a tier that is not there, or text of another shape, is left alone', () => {
  assert.equal(withTierValues(policy, 'upload', 1, 1), policy);
  const flow = 'tiers: { default: { capacity: 10, refill_rate: 5 } }\n';
  assert.equal(withTierValues(flow, 'default', 3, 3), flow);
});
