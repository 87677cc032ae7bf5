// The lesson page's pure helpers: reading a permalink, writing one, and keeping a tier's lines in
// step with the widget, without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { permalinkHash, readPermalink } from '../../www/lesson/permalink.js';
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

test('numbers must be plain decimals, and the cost must fit in the bucket', () => {
  for (const text of ['Infinity', '1e999', '0x10', '', ' ', '1,5', 'NaN']) {
    assert.equal(readPermalink(`#b=${encodeURIComponent(text)}`).values.b, undefined, text);
  }
  assert.equal(readPermalink('#b=1e1').values.b, 10);
  assert.deepEqual(readPermalink('#b=4&c=5').rejected.map((r) => r.name), ['c']);
  assert.equal(readPermalink('#b=4&c=4').values.c, 4);
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
});

test('a tier that is not there, or text of another shape, is left alone', () => {
  assert.equal(withTierValues(policy, 'upload', 1, 1), policy);
  const flow = 'tiers: { default: { capacity: 10, refill_rate: 5 } }\n';
  assert.equal(withTierValues(flow, 'default', 3, 3), flow);
});
