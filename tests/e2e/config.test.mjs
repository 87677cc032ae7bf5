// The Config tab: the YAML policy drives the widget live; a broken one is explained and ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './harness.mjs';
import { openLesson, widgetCapacity } from './lesson-helpers.mjs';

const env = useBrowser();

async function openConfig(page) {
  await page.click('#tab-config');
  await page.waitForFunction(() => /Aplicado|Applied/.test(document.getElementById('policy-status').textContent));
}

const setPolicy = (page, edit) => page.evaluate((source) => {
  const area = document.getElementById('policy-text');
  area.value = new Function('text', `return (${source})(text)`)(area.value);
  area.dispatchEvent(new Event('input', { bubbles: true }));
}, edit.toString());

test('the parser is loaded only when the Config tab opens', async () => {
  const page = await openLesson(env);
  const loaded = () => page.evaluate(() => performance.getEntriesByType('resource').some((r) => r.name.includes('bucketlab_config')));
  assert.equal(await loaded(), false);
  await openConfig(page);
  assert.equal(await loaded(), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a parser whose code does not arrive is said as the other parts say it; Try again, or opening the tab again, tries again', async () => {
  const page = await openLesson(env, 'en.html');
  await page.route('**/pkg/bucketlab_config.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.click('#tab-config');
  await page.waitForSelector('#policy-status .part-reload');
  assert.equal((await page.textContent('#policy-status')).trim(),
    'This part of the lesson did not load: the connection may have dropped, or the site was updated since this page opened. Try again Reload the page');
  // The YAML is not what failed: the textarea is not marked invalid, the status line is an error.
  assert.equal(await page.getAttribute('#policy-text', 'aria-invalid'), null);
  // Nothing to edit while no parser can read it (an edit would be neither checked nor kept).
  assert.deepEqual(await page.evaluate(() => [document.getElementById('policy-text').readOnly, document.querySelector('.tier-choice').disabled]), [true, true]);
  assert.equal(await page.$eval('#policy-status', (s) => s.classList.contains('is-error')), true);
  assert.deepEqual(page.problems.filter((p) => !/did not load|Failed to load resource|Failed to fetch/.test(p)), []);
  // Still missing: Try again says so again, in place.
  await page.click('#policy-status .part-retry');
  await page.waitForSelector('#policy-status .part-retry');
  await page.unroute('**/pkg/bucketlab_config.js');
  await page.focus('#policy-status .part-retry');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /Applied/.test(document.getElementById('policy-status').textContent));
  assert.equal(await page.evaluate(() => document.activeElement.id), 'policy-text', 'the focus goes on to the text');
  assert.deepEqual(await page.evaluate(() => [document.getElementById('policy-text').readOnly, document.querySelector('.tier-choice').disabled]), [false, false]);
  // And by the tab, after another failure.
  await page.route('**/pkg/bucketlab_config.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.reload();
  await page.click('#tab-config');
  await page.waitForSelector('#policy-status .part-retry');
  await page.unroute('**/pkg/bucketlab_config.js');
  await page.click('#tab-algorithm');
  await openConfig(page);
  await page.context().close();
});

test('the editor\'s own code loads with the tab; not arrived, it is said under the policy, which stays, and "Try again" opens the editor', async () => {
  const page = await openLesson(env, 'en.html');
  const asked = () => page.evaluate(() => performance.getEntriesByType('resource').some((r) => r.name.endsWith('/lesson/policy.js')));
  assert.equal(await asked(), false, 'not in the page\'s start-up');
  await page.route('**/lesson/policy.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
  // Chosen twice (the second while the first try is under way) and once more after: one line.
  await page.click('#tab-config');
  await page.click('#tab-config');
  const failed = '#codigo-configuracao .policy-static .policy-status';
  await page.waitForSelector(`${failed} .part-retry`);
  await page.click('#tab-config');
  await page.waitForSelector(`${failed} .part-retry`);
  assert.equal(await page.locator(failed).count(), 1);
  assert.equal((await page.textContent(failed)).trim(),
    'This part of the lesson did not load: the connection may have dropped, or the site was updated since this page opened. Try again Reload the page');
  assert.equal(await page.isVisible('#codigo-configuracao .policy-static pre'), true, 'the policy stays readable');
  await page.unroute('**/lesson/policy.js');
  // From the keyboard: the focus goes on to the text it opens, not to the page's top.
  await page.focus(`${failed} .part-retry`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /Applied/.test(document.getElementById('policy-status').textContent));
  assert.equal(await page.locator(failed).count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'policy-text');
  assert.deepEqual(page.problems.filter((p) => !/did not load|Failed to load resource|Failed to fetch/.test(p)), []);
  await page.context().close();
});

test('the default tier shows the live B and r, and follows the sliders', async () => {
  const page = await openLesson(env, '#b=12&r=3');
  await openConfig(page);
  const text = await page.inputValue('#policy-text');
  assert.match(text, /default:\n\s+capacity: 12 .*\n\s+refill_rate: 3 /);
  await page.evaluate(() => {
    const slider = document.querySelector('#bucket-widget .bl-capacity');
    slider.value = '25';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    slider.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.waitForFunction(() => /default:\n\s+capacity: 25 /.test(document.getElementById('policy-text').value));
  assert.match(await page.inputValue('#policy-text'), /search:\n\s+capacity: 30 /, 'other tiers are untouched');
  await page.context().close();
});

test('editing the YAML changes the widget\'s capacity', async () => {
  const page = await openLesson(env);
  await openConfig(page);
  assert.equal(await widgetCapacity(page), 5);
  await setPolicy(page, (text) => text.replace(/capacity: 5 /, 'capacity: 42 '));
  await page.waitForFunction(() => window.bucketlab.diagram.capacity === 42);
  assert.equal(await page.textContent('#bucket-widget .bl-counter').then((c) => c.split('/')[1].trim()), '42');
  assert.match(await page.textContent('#policy-status'), /default, B = 42, r = 1/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('choosing a tier applies it to the widget', async () => {
  const page = await openLesson(env);
  await openConfig(page);
  await page.check('input[name=tier][value=auth_login]');
  await page.waitForFunction(() => window.bucketlab.diagram.refillRate === 0.1);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.capacity), 5);
  await page.check('input[name=tier][value=search]');
  await page.waitForFunction(() => window.bucketlab.diagram.capacity === 30);
  await page.context().close();
});

for (const [path, expected] of [
  ['', /^Linha 4, campo tiers\.default\.capacity: capacity deve ser um número maior que 0, mas “20” está entre aspas, então é texto, não número: escreva 20 sem as aspas\./],
  ['en.html', /^Line 4, field tiers\.default\.capacity: capacity must be a number greater than 0, but “20” is in quotes, so it is text, not a number: write 20 without the quotes\./],
]) {
  test(`a number in quotes is called text, not "not a number" (${path || 'index.html'})`, async () => {
    const page = await openLesson(env, path);
    await openConfig(page);
    await setPolicy(page, (text) => text.replace(/capacity: 5 /, 'capacity: "20" '));
    await page.waitForFunction(() => document.getElementById('policy-text').getAttribute('aria-invalid') === 'true');
    assert.match(await page.textContent('#policy-status'), expected);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('a broken YAML shows the line and field, and the widget keeps its last good config', async () => {
  const page = await openLesson(env);
  await openConfig(page);
  await setPolicy(page, (text) => text.replace(/capacity: 5 /, 'capacity: 20 '));
  await page.waitForFunction(() => window.bucketlab.diagram.capacity === 20);

  await setPolicy(page, (text) => text.replace(/capacity: 20 /, 'capacity: -4 '));
  await page.waitForFunction(() => document.getElementById('policy-text').getAttribute('aria-invalid') === 'true');
  const message = await page.textContent('#policy-status');
  assert.match(message, /^Linha 4, campo tiers\.default\.capacity: capacity deve ser um número maior que 0, mas veio “-4”\./);
  assert.match(message, /última configuração válida/);
  assert.equal(await widgetCapacity(page), 20, 'still the last good config');

  await setPolicy(page, (text) => text.replace(/capacity: -4 /, 'capacity: 20 ').replace('key_by: api_token', 'key_by: [api_token'));
  await page.waitForFunction(() => /^Linha 14, campo key_by: o valor tem o tipo errado/.test(document.getElementById('policy-status').textContent));

  await setPolicy(page, (text) => text.replace('key_by: [api_token', 'key_by: api_token').replace(/^\s+search:/m, '\tsearch:'));
  await page.waitForFunction(() => /^Linha 6: o texto não é YAML válido/.test(document.getElementById('policy-status').textContent));

  // The widget still works: a request goes through and is counted against B = 20.
  await page.evaluate(() => window.bucketlab.diagram.pause());
  const before = await page.evaluate(() => window.bucketlab.diagram.tokens);
  await page.click('#bucket-widget .bl-send');
  // One token taken; the press happens at the next whole millisecond of lesson time (a link's
  // times are whole milliseconds, src/limiter/session.rs `action_time`), so up to 1 ms of refill
  // at r = 1 comes with it (and, below, a float's rounding: 5.512 − 1 is 4.5120000000000005).
  const after = await page.evaluate(() => window.bucketlab.diagram.tokens);
  assert.ok(after >= before - 1 - 1e-9 && after <= before - 1 + 0.001 + 1e-9, `${before} → ${after}`);
  assert.match(await page.textContent('#bucket-widget .bl-counter'), / \/ 20$/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the English page words the same error in English', async () => {
  const page = await openLesson(env, 'en.html');
  await openConfig(page);
  await setPolicy(page, (text) => text.replace('key_by: api_token', 'key_by: cookie'));
  await page.waitForFunction(() => document.getElementById('policy-text').getAttribute('aria-invalid') === 'true');
  assert.match(await page.textContent('#policy-status'),
    /^Line 14, field key_by: “cookie” is not allowed; use one of: “ip”, “api_token”, “user_id”\. The diagram keeps/);
  // A huge value is quoted cut, as the widget quotes one: 40 characters, then "…".
  await setPolicy(page, (text) => text.replace('key_by: cookie', 'key_by: api_token').replace(/status: 429/, `status: ${'x'.repeat(300)}`));
  await page.waitForFunction(() => /status must be/.test(document.getElementById('policy-status').textContent));
  assert.match(await page.textContent('#policy-status'), new RegExp(`status must be 429 or 503, but got “${'x'.repeat(40)}…”\\. The diagram keeps`));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const [path, huge, tiny] of [
  ['', /^Linha 4, campo tiers\.default\.capacity: capacity deve ser um número finito, mas “1e400” é grande demais\./, /nível default, B = 5, r = 1e-7\/s\./],
  ['en.html', /^Line 4, field tiers\.default\.capacity: capacity must be a finite number, but “1e400” is too large\./, /tier default, B = 5, r = 1e-7\/s\./],
]) {
  test(`an overflowing number is called too large, and a tiny rate is not shown as 0 (${path || 'index.html'})`, async () => {
    const page = await openLesson(env, path);
    await openConfig(page);
    await setPolicy(page, (text) => text.replace(/capacity: 5 /, 'capacity: 1e400 '));
    await page.waitForFunction(() => document.getElementById('policy-text').getAttribute('aria-invalid') === 'true');
    assert.match(await page.textContent('#policy-status'), huge);
    // A decimal comma is text to YAML: said so, with how YAML writes the number.
    await setPolicy(page, (text) => text.replace(/capacity: 1e400 /, 'capacity: 5 ').replace(/refill_rate: 1\b/, 'refill_rate: 0,5'));
    await page.waitForFunction(() => /0\.5/.test(document.getElementById('policy-status').textContent));
    assert.match(await page.textContent('#policy-status'), path
      ? /refill_rate: YAML reads “0,5” as text, not a number: write decimals with a point \(0\.5\)/
      : /refill_rate: o YAML lê “0,5” como texto, não como número: escreva decimais com ponto \(0\.5\)/);
    // The field is named once, where the line is (not again before the sentence).
    assert.doesNotMatch(await page.textContent('#policy-status'), /refill_rate: refill_rate/);
    // Thousands only where the comma could group them (three digits after it): never “(05)”.
    assert.match(await page.textContent('#policy-status'), /point \(0\.5\)\. |ponto \(0\.5\)\. /);
    await setPolicy(page, (text) => text.replace(/refill_rate: 0,5/, 'refill_rate: 1,500'));
    await page.waitForFunction(() => /1500/.test(document.getElementById('policy-status').textContent));
    assert.match(await page.textContent('#policy-status'), path
      ? /write decimals with a point \(1\.500\) and thousands without a separator \(1500\)\. /
      : /escreva decimais com ponto \(1\.500\) e milhares sem separador \(1500\)\. /);
    await setPolicy(page, (text) => text.replace(/refill_rate: 1,500/, 'refill_rate: 0.0000001'));
    await page.waitForFunction(() => window.bucketlab.diagram.refillRate === 1e-7);
    assert.match(await page.textContent('#policy-status'), tiny);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('a policy nested hundreds deep or longer than the editor reads is refused at once, naming the limit; the diagram keeps its configuration', async () => {
  const page = await openLesson(env, 'en.html');
  await openConfig(page);
  const capacity = await page.evaluate(() => window.bucketlab.diagram.capacity);
  const status = () => page.textContent('#policy-status');
  // 40,000 deep took the parser 12 s of the main thread on every keystroke; that is too long
  // to read at all, and a hundred deep, short, is refused for its nesting.
  await setPolicy(page, (text) => `${text}\nextra: ${'['.repeat(40000)}${']'.repeat(40000)}\n`);
  await page.waitForFunction(() => /characters long/.test(document.getElementById('policy-status').textContent));
  await setPolicy(page, (text) => text.replace(/\nextra: .*\n$/, `\nextra: ${'['.repeat(100)}${']'.repeat(100)}\n`));
  await page.waitForFunction(() => /nests/.test(document.getElementById('policy-status').textContent));
  assert.equal(await status(), 'The text nests [ and { more than 32 deep; a policy needs only a few levels. The diagram keeps its last valid configuration.');
  assert.equal(await page.getAttribute('#policy-text', 'aria-invalid'), 'true');
  // Brackets inside quotes or a comment are text, not nesting.
  await setPolicy(page, (text) => text.replace(/\nextra: .*\n$/, `\nextra: '${'['.repeat(100)}'\n`));
  await page.waitForFunction(() => !/nests/.test(document.getElementById('policy-status').textContent));
  // An apostrophe inside a plain value opens no quote: the nesting after it is still counted.
  await setPolicy(page, (text) => text.replace(/\nextra: .*\n$/, `\nextra: it's ${'['.repeat(100)}${']'.repeat(100)}\n`));
  await page.waitForFunction(() => /nests/.test(document.getElementById('policy-status').textContent));
  await setPolicy(page, (text) => text.replace(/\nextra: .*\n$/, `\n# ${'['.repeat(100)}\n`));
  await page.waitForFunction(() => /Applied/.test(document.getElementById('policy-status').textContent));
  await setPolicy(page, (text) => `${text}# ${'x'.repeat(20000)}\n`);
  await page.waitForFunction(() => /characters long/.test(document.getElementById('policy-status').textContent));
  assert.match(await status(), /^The policy is 2\d{4} characters long; the editor reads at most 20000\. /);
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.capacity), capacity);
  await page.context().close();
});

test('a key written twice is refused at the second one, in either language, and the diagram keeps its configuration', async () => {
  const page = await openLesson(env, 'en.html');
  await openConfig(page);
  // A second `default:` tier (lines 12-14) would silently replace the first.
  await setPolicy(page, (text) => text.replace(/\n\nstorage:/, '\n  default:\n    capacity: 40\n    refill_rate: 2\n\nstorage:'));
  await page.waitForFunction(() => document.getElementById('policy-text').getAttribute('aria-invalid') === 'true');
  assert.match(await page.textContent('#policy-status'),
    /^Line 12, field tiers: the key “default” is written more than once; keep one\. The diagram keeps/);
  assert.equal(await widgetCapacity(page), 5);
  assert.deepEqual(page.problems, []);
  await page.context().close();

  const pt = await openLesson(env);
  await openConfig(pt);
  // capacity twice in the default tier: named at the second (line 5), not at the tier's first line.
  await setPolicy(pt, (text) => text.replace(/(capacity: 5 .*\n)/, '$1    capacity: 9\n'));
  await pt.waitForFunction(() => document.getElementById('policy-text').getAttribute('aria-invalid') === 'true');
  assert.match(await pt.textContent('#policy-status'),
    /^Linha 5, campo tiers\.default: a chave “capacity” aparece mais de uma vez; mantenha só uma\. O diagrama continua/);
  assert.deepEqual(pt.problems, []);
  await pt.context().close();
});

test('a leading zero, a byte-order mark, a wrong type and a second document are each said for what they are', async () => {
  const page = await openLesson(env, 'en.html');
  await openConfig(page);
  const status = () => page.textContent('#policy-status');
  const refusedWith = async (pattern) => {
    await page.waitForFunction((source) => new RegExp(source).test(document.getElementById('policy-status').textContent), pattern.source);
    assert.match(await status(), pattern);
    assert.equal(await page.getAttribute('#policy-text', 'aria-invalid'), 'true');
  };
  // No quotes in sight: not "in quotes", but the leading zero.
  await setPolicy(page, (text) => text.replace(/capacity: 5 /, 'capacity: 010 '));
  await refusedWith(/^Line 4, field tiers\.default\.capacity: YAML reads “010” as text, not a number, because its digits start with a zero: write 10, without leading zeros\. The diagram keeps/);
  // A byte-order mark first (as some editors save a file) is no part of the policy.
  await setPolicy(page, (text) => `\uFEFF${text.replace(/capacity: 010 /, 'capacity: 7 ')}`);
  await page.waitForFunction(() => window.bucketlab.diagram.capacity === 7);
  assert.match(await status(), /^Applied to the diagram: tier default, B = 7, r = 1\/s\.$/);
  // YAML 1.1's yes is text to this parser: say what belongs there.
  await setPolicy(page, (text) => text.replace(/retry_after: true/, 'retry_after: yes'));
  await refusedWith(/^Line 18, field on_deny\.retry_after: the value has the wrong type for this field: write a boolean, true or false\. /);
  // A second document: its line, never "Line ?".
  await setPolicy(page, (text) => `${text.replace(/retry_after: yes/, 'retry_after: true')}\n---\nstorage: memory\n`);
  await refusedWith(/^Line 19: the text holds more than one YAML document \(a line “---” starts each one\); a policy is a single document\. /);
  assert.doesNotMatch(await status(), /\?/);
  assert.deepEqual(page.problems, []);
  await page.context().close();

  const pt = await openLesson(env);
  await openConfig(pt);
  await setPolicy(pt, (text) => text.replace(/status: 429/, 'status: ~'));
  await pt.waitForFunction(() => document.getElementById('policy-text').getAttribute('aria-invalid') === 'true');
  assert.match(await pt.textContent('#policy-status'),
    /^Linha 17, campo on_deny\.status: o valor tem o tipo errado para este campo: escreva 429 ou 503\. /);
  await setPolicy(pt, (text) => text.replace(/status: ~/, 'status: 429').replace(/capacity: 5 /, 'capacity: -010 '));
  await pt.waitForFunction(() => /zero/.test(document.getElementById('policy-status').textContent));
  assert.match(await pt.textContent('#policy-status'),
    /^Linha 4, campo tiers\.default\.capacity: o YAML lê “-010” como texto, não como número, porque os algarismos começam com zero: escreva -10, sem zeros à esquerda\. /);
  assert.deepEqual(pt.problems, []);
  await pt.context().close();
});

for (const [style, edit] of [
  // B = 6, not the page's 5, so that the status shows when the new text is applied.
  ['flow style', (text) => text.replace(/ {2}default:\n.*\n.*\n/, '  default: {capacity: 6, refill_rate: 1}\n')],
  ['an alias', (text) => text.replace(/ {2}default:\n/, '  default: &base\n').replace(/capacity: 5 /, 'capacity: 6 ')
    .replace(/ {2}search:\n.*\n.*\n/, '  search: *base\n')],
]) {
  test(`a tier in ${style} the sliders can't rewrite: the status says the diagram runs other values than its lines`, async () => {
    const page = await openLesson(env, 'en.html');
    await openConfig(page);
    await setPolicy(page, edit);
    await page.waitForFunction(() => /^Applied to the diagram: tier default, B = 6, r = 1\/s\.$/.test(document.getElementById('policy-status').textContent));
    const text = await page.inputValue('#policy-text');
    await page.focus('#bucket-widget .bl-capacity');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    const capacity = await page.evaluate(() => window.bucketlab.diagram.capacity);
    assert.notEqual(capacity, 6);
    await page.waitForFunction(() => /^The diagram now runs/.test(document.getElementById('policy-status').textContent));
    assert.equal(await page.textContent('#policy-status'),
      `The diagram now runs B = ${capacity}, r = 1/s, set outside this text: tier default is written in a way the editor cannot update (flow style, between braces, or an alias), so its lines still say the old values.`);
    assert.equal(await page.inputValue('#policy-text'), text, 'the text is left as it was');
    assert.equal(await page.getAttribute('#policy-text', 'aria-invalid'), null);
    // Back at the text's values, the status says they are applied again.
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => /^Applied to the diagram: tier default, B = 6, r = 1\/s\.$/.test(document.getElementById('policy-status').textContent));
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('the editor\'s hint says that only capacity and refill_rate reach the diagram', async () => {
  const page = await openLesson(env, 'en.html');
  await openConfig(page);
  assert.match(await page.textContent('#policy-hint'),
    /Only those two reach the diagram: storage, key_by and on_deny are checked but not applied, so the Usage tab's response keeps 429 and RateLimit-Policy “default”\.$/);
  // As it says: a 503 in on_deny is accepted and applied, and the diagram's response is still a 429.
  await setPolicy(page, (text) => text.replace(/status: 429/, 'status: 503').replace(/capacity: 5 /, 'capacity: 1 '));
  await page.waitForFunction(() => window.bucketlab.diagram.capacity === 1);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.click('#bucket-widget .bl-send');
  await page.click('#bucket-widget .bl-send');
  await page.waitForFunction(() => /HTTP\/1\.1 429/.test(document.querySelector('#bucket-widget').textContent));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('"Go to line N" under a refusal that names its line selects that line in the text, in view from its start; none when the policy applies', async () => {
  // On a phone, where the refused line is wider than the editor.
  const page = await openLesson(env, 'en.html', { viewport: { width: 375, height: 812 } });
  await openConfig(page);
  assert.equal(await page.isVisible('.policy-goto'), false, 'nothing to go to while the policy applies');
  // Thirty lines more above, so the refused line is far below the editor's first screen.
  await setPolicy(page, (text) => `${Array.from({ length: 30 }, (_, i) => `# note ${i + 1}`).join('\n')}\n${text.replace('key_by: api_token', 'key_by: cookie')}`);
  await page.waitForFunction(() => /^Line 44, field key_by:/.test(document.getElementById('policy-status').textContent));
  assert.equal(await page.textContent('.policy-goto'), 'Go to line 44');
  await page.focus('.policy-goto');
  await page.keyboard.press('Enter');
  const shown = await page.evaluate(() => {
    const area = document.getElementById('policy-text');
    const height = parseFloat(getComputedStyle(area).lineHeight);
    const top = area.value.slice(0, area.selectionStart).split('\n').length - 1;
    return {
      focused: document.activeElement === area,
      selected: area.value.slice(area.selectionStart, area.selectionEnd),
      inView: top * height >= area.scrollTop && (top + 1) * height <= area.scrollTop + area.clientHeight && area.scrollLeft === 0,
    };
  });
  assert.equal(shown.focused, true);
  assert.match(shown.selected, /^key_by: cookie\s+#/);
  assert.equal(shown.inView, true, 'the line is inside the editor\'s view');
  // Fixed: applied again, and the button goes.
  await setPolicy(page, (text) => text.replace('key_by: cookie', 'key_by: api_token'));
  await page.waitForFunction(() => /^Applied/.test(document.getElementById('policy-status').textContent));
  assert.equal(await page.isVisible('.policy-goto'), false);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
