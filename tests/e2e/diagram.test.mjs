// The live diagram's controls, accessibility and frame budget, end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, waitForWidget } from './harness.mjs';

const env = useBrowser();

const counter = (page) => page.textContent('#bucket-widget .bl-counter');
/** The live region's words (every other announcement ends in an unspoken no-break space). */
const live = async (page) => (await page.textContent('#bucket-widget .bl-live')).trim();

/**
 * Presses Tab (or Shift+Tab when the target comes earlier in the page) until the focused element
 * matches `selector`: it must be reachable by keyboard, with a visible focus.
 */
async function tabTo(page, selector) {
  const backwards = await page.evaluate((s) => {
    const target = document.querySelector(s);
    const from = document.activeElement;
    if (!target || !from || from === document.body) return false;
    return Boolean(target.compareDocumentPosition(from) & Node.DOCUMENT_POSITION_FOLLOWING);
  }, selector);
  for (let i = 0; i < 80; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) {
      assert.ok(await page.evaluate(() => document.activeElement.matches(':focus-visible')),
        `${selector} shows a visible focus`);
      return;
    }
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  assert.fail(`${selector} is not reachable with Tab`);
}

/** Counts requestAnimationFrame callbacks that actually run, from page start. */
const countFrames = () => {
  window.__frames = 0;
  const original = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => original((t) => { window.__frames += 1; callback(t); });
};

test('every control works from the keyboard alone', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}?capacity=10&refill-rate=5`);
  await waitForWidget(page);
  const w = '#bucket-widget';

  await tabTo(page, `${w} .bl-pause`);
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent(`${w} .bl-pause`), 'Continuar', 'the button says what it does now');
  const paused = await counter(page);

  await tabTo(page, `${w} .bl-send`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Space');
  const tokensAfter = (text) => parseFloat(text.replace(',', '.'));
  assert.equal(tokensAfter(await counter(page)), Math.floor((tokensAfter(paused) - 2) * 10) / 10);

  // Bring the bucket to a known state: reset refills it to 10 at the paused instant.
  await tabTo(page, `${w} .bl-reset`);
  await page.keyboard.press('Enter');
  assert.equal(await counter(page), '10,0 / 10');

  await tabTo(page, `${w} .bl-cost`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await tabTo(page, `${w} .bl-burst-size`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3');
  await tabTo(page, `${w} .bl-burst`);
  await page.keyboard.press('Enter');
  assert.equal(await counter(page), '4,0 / 10', 'a burst of 3 requests of cost 2');

  await tabTo(page, `${w} .bl-step`);
  await page.keyboard.press('Enter');
  assert.equal(await counter(page), '4,5 / 10', 'one step is 0.1 s at r = 5');

  await tabTo(page, `${w} .bl-capacity`);
  await page.keyboard.press('ArrowRight');
  assert.equal(await counter(page), '4,5 / 11');
  assert.match(await page.textContent(`${w} .bl-diagram`), /B = 11/);

  await tabTo(page, `${w} .bl-rate`);
  await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent(`${w} .bl-diagram`), /r = 5,5\/s/);

  await tabTo(page, `${w} .bl-traffic`);
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.inputValue(`${w} .bl-traffic`), 'steady');
  await tabTo(page, `${w} .bl-step`);
  for (let i = 0; i < 5; i++) await page.keyboard.press('Enter');
  // 8 requests/s for 0.5 s: 4 arrivals of cost 2 against 4.5 + 0.5·5.5 tokens.
  assert.ok((await page.getAttribute(`${w} .bl-tl-admitted`, 'd')).length > 0, 'admitted marks on the timeline');

  await tabTo(page, `${w} .bl-speed`);
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.inputValue(`${w} .bl-speed`), '4');

  await tabTo(page, `${w} .bl-cost`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('99');
  await tabTo(page, `${w} .bl-send`);
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent(`${w} .bl-input-error`), 'Custo c: 99 não é permitido; use um número inteiro de 1 a 11.');

  await tabTo(page, `${w} .bl-reset`);
  await page.keyboard.press('Enter');
  assert.equal(await counter(page), '10,0 / 10');
  assert.equal(await page.inputValue(`${w} .bl-traffic`), 'off');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/**
 * The widget's error lines (one per refused field, each its own alert) and the fields it marks
 * invalid, each with the name its description starts with: its own line's, never another's.
 */
const errorState = (page, w) => page.evaluate((w) => {
  const block = document.querySelector(`${w} .bl-input-error`);
  const marked = [...document.querySelectorAll(`${w} [aria-invalid]`)];
  const described = (field) => {
    const line = document.getElementById(field.getAttribute('aria-describedby'));
    return block.contains(line) && line.getAttribute('role') === 'alert' ? line.textContent.split(':')[0] : null;
  };
  return {
    text: [...block.children].map((line) => line.textContent).filter(Boolean).join('\n'),
    invalid: marked.map((field) => `${field.className} -> ${described(field)}`),
  };
}, w);

test('a refused field is named by its label in the page\'s language, marked invalid, and its error follows the value', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}?capacity=5`);
  await waitForWidget(page);
  const w = '#bucket-widget';
  await page.evaluate(() => window.bucketlab.diagram.pause());
  // Types a value and leaves the field, as a person does (the field's change event).
  const enter = async (field, value) => {
    await page.fill(`${w} ${field}`, value);
    await page.press(`${w} ${field}`, 'Tab');
  };
  await page.fill(`${w} .bl-cost`, '0');
  await page.click(`${w} .bl-send`);
  assert.deepEqual(await errorState(page, w), {
    text: 'Custo c: 0 não é permitido; use um número inteiro de 1 a 5.',
    invalid: ['bl-cost -> Custo c'],
  });
  // The next value, as soon as it is in (no click needed), replaces the message; a good one clears it.
  await enter('.bl-cost', '-1');
  assert.equal((await errorState(page, w)).text, 'Custo c: -1 não é permitido; use um número inteiro de 1 a 5.');
  await enter('.bl-cost', '2.5');
  assert.equal((await errorState(page, w)).text, 'Custo c: 2,5 não é permitido; use um número inteiro de 1 a 5.');
  await enter('.bl-cost', '');
  assert.equal((await errorState(page, w)).text, 'Custo c: o campo está vazio; use um número inteiro de 1 a 5.');
  // The field is text, read as typed in the page's language, whatever the browser's (this one is
  // English): a number field made a typed 1,5 into 15 there, and gave the page nothing for 1e.
  for (const [typed, message] of [
    ['1,5', 'Custo c: 1,5 não é permitido; use um número inteiro de 1 a 5.'],
    ['1.000', 'Custo c: em “1.000” o ponto pode separar milhares ou decimais; escreva 1000 se for o número inteiro, ou 1 se for o decimal.'],
    ['1e400', 'Custo c: “1e400” é grande demais; use um número inteiro de 1 a 5.'],
    ['1e', 'Custo c: “1e” não é um número; use um número inteiro de 1 a 5.'],
  ]) {
    await enter('.bl-cost', '2');
    await page.focus(`${w} .bl-cost`);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(typed);
    await page.press(`${w} .bl-cost`, 'Tab');
    assert.equal((await errorState(page, w)).text, message, typed);
  }
  await enter('.bl-cost', '2');
  assert.deepEqual(await errorState(page, w), { text: '', invalid: [] });

  await page.fill(`${w} .bl-burst-size`, '101');
  await page.click(`${w} .bl-burst`);
  assert.deepEqual(await errorState(page, w), {
    text: 'Rajada de: 101 não é permitido; use um número inteiro de 1 a 100.',
    invalid: ['bl-burst-size -> Rajada de'],
  });
  // A second refused field joins the first: neither error nor mark is lost while its value stays.
  await enter('.bl-seed', '-1');
  await page.selectOption(`${w} .bl-traffic`, 'steady');
  assert.deepEqual(await errorState(page, w), {
    text: 'Rajada de: 101 não é permitido; use um número inteiro de 1 a 100.\n'
      + 'Semente: -1 não é permitido; use um número inteiro de 0 a 4294967295.',
    invalid: ['bl-burst-size -> Rajada de', 'bl-seed -> Semente'],
  });
  // Each is marked where it is too, in the denial's colour (the error line is not the only sign).
  const border = (field) => page.$eval(`${w} ${field}`, (f) => getComputedStyle(f).borderTopColor);
  assert.equal(await border('.bl-burst-size'), await border('.bl-seed'), 'both refused fields alike');
  assert.notEqual(await border('.bl-burst-size'), await border('.bl-cost'), 'an allowed field unmarked');
  // Each clears with its own field's allowed value, the other staying.
  await enter('.bl-burst-size', '5');
  assert.deepEqual(await errorState(page, w), {
    text: 'Semente: -1 não é permitido; use um número inteiro de 0 a 4294967295.',
    invalid: ['bl-seed -> Semente'],
  });
  await page.click(`${w} .bl-send`);
  assert.equal((await errorState(page, w)).text, 'Semente: -1 não é permitido; use um número inteiro de 0 a 4294967295.');
  assert.deepEqual(page.problems, []);

  await page.goto(`${env.server.url}en.html?capacity=5`);
  await waitForWidget(page);
  // One rule whatever the value, the field's own minimum included (it said "greater than 0" and took 0.3).
  for (const [rate, given] of [['51', '51'], ['0', '0'], ['0.3', '0.3']]) {
    await page.fill(`${w} .bl-traffic-rate`, rate);
    await page.selectOption(`${w} .bl-traffic`, 'off');
    await page.selectOption(`${w} .bl-traffic`, 'steady');
    assert.deepEqual(await errorState(page, w), {
      text: `Requests/s: ${given} is not allowed; use a number from 0.5 to 50.`,
      invalid: ['bl-traffic-rate -> Requests/s'],
    }, rate);
  }
  await page.fill(`${w} .bl-traffic-rate`, '2');
  await page.selectOption(`${w} .bl-traffic`, 'off');
  assert.deepEqual(await errorState(page, w), { text: '', invalid: [] });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a number that could group thousands, typed: in Portuguese 1.500 and 1,500 are refused with the decimal as the field takes it (1,5); in English 1.500 is 1.5', async () => {
  const page = await openPage(env.browser);
  const w = '#bucket-widget';
  const typed = async (rate) => {
    await page.fill(`${w} .bl-traffic-rate`, rate);
    await page.selectOption(`${w} .bl-traffic`, 'off');
    await page.selectOption(`${w} .bl-traffic`, 'steady');
    return (await errorState(page, w)).text;
  };
  await page.goto(env.server.url);
  await waitForWidget(page);
  assert.equal(await typed('1.500'), 'Requisições/s: em “1.500” o ponto pode separar milhares ou decimais; escreva 1500 se for o número inteiro, ou 1,5 se for o decimal.');
  assert.equal(await typed('1,500'), 'Requisições/s: em “1,500” a vírgula pode separar milhares ou decimais; escreva 1500 se for o número inteiro, ou 1,5 se for o decimal.');
  // What it advises is taken.
  assert.equal(await typed('1,5'), '');
  await page.goto(`${env.server.url}en.html`);
  await waitForWidget(page);
  assert.equal(await typed('1,500'), 'Requests/s: in “1,500” the comma could group thousands or mark decimals; write 1500 or 1.500.');
  assert.equal(await typed('1.500'), '');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a wait too long for a double (r = 1e-320) is not counted down, nor worked out as 0 s', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}en.html#r=1e-320`);
  await waitForWidget(page);
  const w = '#bucket-widget';
  await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    d.pause();
    while (d.send());
  });
  const shown = await page.evaluate((w) => ['.bl-status', '.bl-countdown', '.bl-wait'].map((s) => document.querySelector(`${w} ${s}`).textContent), w);
  assert.deepEqual(shown, ['Denied: 429, with no Retry\u2011After: the wait is too long to give.', '', '']);
  await page.context().close();
});

test('a script\'s refused call shows in the widget too, in the page\'s words; send() sends the cost field\'s cost', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}en.html?capacity=5`);
  await waitForWidget(page);
  const w = '#bucket-widget';
  /** Calls `method` on the diagram's handle; returns what it threw. */
  const refused = (method, ...args) => page.evaluate(({ method, args }) => {
    try { window.bucketlab.diagram[method](...args); return null; } catch (e) { return e.message; }
  }, { method, args });
  await page.evaluate(() => window.bucketlab.diagram.pause());
  assert.equal(await refused('step', -1), 'seconds must be a finite number from 0 to 3600, got -1');
  assert.deepEqual(await errorState(page, w), {
    text: 'seconds: -1 is not allowed; use a number from 0 to 3600.', invalid: [],
  });
  // The next action that goes through clears it, as after a refused control.
  await page.click(`${w} .bl-send`);
  assert.equal((await errorState(page, w)).text, '');
  assert.match(await refused('configure', 5, -2), /^refillRate .*got -2$/);
  assert.equal((await errorState(page, w)).text, 'Rate r (tokens/s): -2 is not allowed; use a number of at least 0.');
  assert.match(await refused('seek', 99), /^t must be a finite number from 0 to [\d.]+, got 99$/);
  assert.match((await errorState(page, w)).text, /^t: 99 is not allowed; use a number from 0 to [\d.]+\.$/);

  // Without an argument, send() costs what the cost field says, as the button does.
  await page.click(`${w} .bl-reset`);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.evaluate(() => window.bucketlab.diagram.setCost(3));
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.send()), true);
  assert.equal(await counter(page), '2.0 / 5');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.send(1)), true);
  assert.equal(await counter(page), '1.0 / 5');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('paused time moves only by steps, so counts are exact', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}?capacity=10&refill-rate=5&tokens=0`);
  await waitForWidget(page);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  const start = await page.evaluate(() => window.bucketlab.diagram.tokens);
  await page.click('#bucket-widget .bl-step');
  await page.click('#bucket-widget .bl-step');
  const after = await page.evaluate(() => window.bucketlab.diagram.tokens);
  assert.ok(Math.abs(after - start - 1) < 1e-9, `two steps of 0.1 s at r = 5 add 1 token (${start} → ${after})`);
  await page.context().close();
});

// The note under the response explains one of its headers: no note before there is a response.
test('the response\'s note shows only with a response, and goes with it on reset', async () => {
  const page = await openPage(env.browser);
  await page.goto(env.server.url);
  await waitForWidget(page);
  const note = page.locator('#bucket-widget .bl-note');
  assert.equal(await note.isVisible(), false, 'before any request');
  await page.click('#bucket-widget .bl-send');
  await page.waitForSelector('#bucket-widget .bl-head:not([hidden])');
  assert.equal(await note.isVisible(), true, 'under the first response');
  assert.match(await note.textContent(), /timestamp Unix: segundos desde 1970/);
  await page.click('#bucket-widget .bl-reset');
  await page.waitForSelector('#bucket-widget .bl-head[hidden]', { state: 'attached' });
  assert.equal(await note.isVisible(), false, 'after a reset');
  await page.context().close();
});

test('a reset while time is paused keeps it paused and says so under the controls, until the next press', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}en.html`);
  await waitForWidget(page);
  const note = page.locator('#bucket-widget .bl-controls-note');
  await page.click('#bucket-widget .bl-reset');
  assert.equal(await note.textContent(), '', 'running: nothing to say');
  await page.click('#bucket-widget .bl-pause');
  await page.click('#bucket-widget .bl-send');
  await page.click('#bucket-widget .bl-reset');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.paused), true);
  assert.equal(await note.textContent(), 'Time is still paused: press “Resume” to let it run.');
  assert.equal(await note.getAttribute('role'), 'status', 'a screen reader hears it too');
  await page.click('#bucket-widget .bl-pause');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.paused), false);
  assert.equal(await note.textContent(), '', 'resumed: the note is gone');
  // At r = 0 nothing refills: no promise that it would.
  await page.goto(`${env.server.url}en.html?refill-rate=0`);
  await waitForWidget(page);
  await page.click('#bucket-widget .bl-pause');
  await page.click('#bucket-widget .bl-reset');
  assert.equal(await page.evaluate(() => window.bucketlab.diagram.paused), true);
  assert.equal(await note.textContent(), '');
  await page.context().close();
});

// At r = 0 the bucket never fills again: the head has no X-RateLimit-Reset, so no note about it.
test('at r = 0 the head has no X-RateLimit-Reset and the note about it is gone; it comes back with r > 0', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}?capacity=5&refill-rate=0`);
  await waitForWidget(page);
  const note = page.locator('#bucket-widget .bl-note');
  await page.click('#bucket-widget .bl-send');
  await page.waitForSelector('#bucket-widget .bl-head:not([hidden])');
  assert.doesNotMatch(await page.locator('#bucket-widget .bl-head').textContent(), /X-RateLimit-Reset/);
  assert.equal(await note.isVisible(), false, 'no note for a header that is not there');
  await page.evaluate(() => window.bucketlab.diagram.configure(5, 1));
  await page.click('#bucket-widget .bl-send');
  await page.waitForFunction(() => /X-RateLimit-Reset/.test(document.querySelector('#bucket-widget .bl-head').textContent));
  assert.equal(await note.isVisible(), true, 'the header and its note are back');
  await page.context().close();
});

test('reduced motion hides the drops and the flying request, the numbers still update', async () => {
  const page = await openPage(env.browser, { reducedMotion: 'reduce' });
  await page.goto(env.server.url);
  await waitForWidget(page);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.click('#bucket-widget .bl-reset');
  await page.click('#bucket-widget .bl-send');
  const hidden = await page.$$eval('#bucket-widget .bl-drop, #bucket-widget .bl-request',
    (els) => els.every((e) => getComputedStyle(e).display === 'none'));
  assert.ok(hidden, 'no animated drops or markers');
  assert.equal(await counter(page), '4,0 / 5');
  await page.click('#bucket-widget .bl-step');
  assert.equal(await counter(page), '4,1 / 5');
  await page.context().close();
});

test('a full idle bucket runs no animation frames; removing a widget stops its loop', async () => {
  const page = await openPage(env.browser);
  await page.addInitScript(countFrames);
  await page.goto(env.server.url);
  await waitForWidget(page);
  await page.waitForFunction(() => !window.bucketlab.diagram.isAnimating);
  const before = await page.evaluate(() => window.__frames);
  await page.waitForTimeout(2000); // the measurement window itself
  assert.equal(await page.evaluate(() => window.__frames), before, 'no frame callbacks in 2 s');

  await page.click('#bucket-widget .bl-send');
  await page.waitForFunction((n) => window.__frames > n + 2, before);
  await page.evaluate(() => { window.bucketlab.diagram.free(); window.__afterFree = window.__frames; });
  await page.waitForTimeout(500); // the measurement window itself
  assert.ok(await page.evaluate(() => window.__frames - window.__afterFree) <= 1,
    'at most a frame already queued runs after removal');
  assert.equal(await page.locator('#bucket-widget .bl-widget').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('decisions are announced politely, at most one sentence per 1.5 s, the summary counting the whole batch', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}?capacity=10`);
  await waitForWidget(page);
  assert.equal(await page.getAttribute('#bucket-widget .bl-live', 'aria-live'), 'polite');
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.click('#bucket-widget .bl-send');
  await page.click('#bucket-widget .bl-send');
  await page.click('#bucket-widget .bl-send');
  assert.equal(await live(page), 'Admitida: restam 9 tokens.');
  await page.waitForFunction(() => document.querySelector('#bucket-widget .bl-live').textContent.startsWith('3 requisições'));
  assert.equal(await live(page), '3 requisições (admitidas: 3, negadas: 0); tokens restantes: 7.');
  await page.context().close();
});

test('the admitted status takes the singular as each language does: English for 1 alone, Portuguese for a count under 2 but 0', async () => {
  const page = await openPage(env.browser);
  const said = async (path) => {
    await page.goto(`${env.server.url}${path}?capacity=2.5`);
    await waitForWidget(page);
    await page.evaluate(() => window.bucketlab.diagram.pause());
    const seen = [];
    for (let i = 0; i < 3; i++) {
      await page.click('#bucket-widget .bl-send');
      seen.push(await page.textContent('#bucket-widget .bl-status'));
    }
    return seen;
  };
  assert.deepEqual((await said('')).slice(0, 2), ['Admitida: resta 1,5 token.', 'Admitida: resta 0,5 token.']);
  assert.deepEqual((await said('en.html')).slice(0, 2), ['Admitted: 1.5 tokens left.', 'Admitted: 0.5 tokens left.']);
  await page.goto(`${env.server.url}?capacity=2`);
  await waitForWidget(page);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.click('#bucket-widget .bl-send');
  await page.click('#bucket-widget .bl-send');
  assert.equal(await page.textContent('#bucket-widget .bl-status'), 'Admitida: restam 0 tokens.');
  await page.context().close();
});

test('a summed-up announcement reads right when a count is 1 (label first, no plural to get wrong)', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}en.html?capacity=2`);
  await waitForWidget(page);
  await page.evaluate(() => window.bucketlab.diagram.pause());
  for (let i = 0; i < 3; i++) await page.click('#bucket-widget .bl-send');
  assert.equal(await live(page), 'Admitted: 1 token left.');
  await page.waitForFunction(() => document.querySelector('#bucket-widget .bl-live').textContent.startsWith('3 requests'));
  // The latest was refused: said after the count, or a 429 among quick clicks is never heard.
  assert.match(await live(page), /^3 requests \(admitted: 2, denied: 1\); tokens left: 0\. Denied: 429 with Retry\u2011After: 1 \(the exact wait: 1(\.0+)?\u00a0s\)\.$/);
  await page.context().close();
});

test('running automatic traffic is not narrated but for its first 429; a reader\'s own send still is', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}en.html`);
  await waitForWidget(page);
  // Every sentence written into the live region, and every batch of decisions the widget shows.
  await page.evaluate(() => {
    window.__said = [];
    window.__batches = 0;
    const w = document.querySelector('#bucket-widget');
    new MutationObserver(() => window.__said.push(w.querySelector('.bl-live').textContent.trim()))
      .observe(w.querySelector('.bl-live'), { childList: true, characterData: true, subtree: true });
    w.addEventListener('bucketlab:decision', () => { window.__batches += 1; });
  });
  // On screen: off screen, the widget draws (and decides) nothing until it is seen again.
  await page.locator('#bucket-widget .bl-diagram').scrollIntoViewIfNeeded();
  await page.selectOption('#bucket-widget .bl-traffic', 'steady'); // 8 requests/s against r = 1/s
  // Long enough for several announcement gaps (1.5 s each) of decisions, admitted and denied.
  await page.waitForFunction(() => window.__batches >= 30);
  const said = await page.evaluate(() => window.__said.filter(Boolean));
  assert.equal(said.length, 1, said.join(' | '));
  assert.match(said[0], /denied|Denied/);
  // The reader's own press is theirs to hear, traffic or not.
  await page.click('#bucket-widget .bl-send');
  await page.waitForFunction(() => window.__said.filter(Boolean).length === 2);
  assert.match((await page.evaluate(() => window.__said.filter(Boolean)))[1], /^(Admitted|Denied|\d+ requests)/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('off screen, with traffic on, tokens counts the traffic the frame loop has not drawn: a send agrees with it', async () => {
  const page = await openPage(env.browser, { viewport: { width: 1000, height: 700 } });
  await page.goto(`${env.server.url}en.html`);
  await waitForWidget(page);
  await page.locator('#bucket-widget .bl-diagram').scrollIntoViewIfNeeded();
  await page.selectOption('#bucket-widget .bl-traffic', 'steady'); // 8 requests/s against B = 5, r = 1/s
  await page.evaluate(() => document.querySelector('#faq').scrollIntoView());
  await page.waitForFunction(() => !window.bucketlab.diagram.isAnimating, null, { polling: 50 });
  // A second and more of traffic the diagram has not drawn: 8 arrivals at least, 5 tokens and a
  // refill of 1 a second to meet them.
  const from = await page.evaluate(() => performance.now());
  await page.waitForFunction((from) => performance.now() > from + 1500, from);
  const seen = await page.evaluate(() => {
    const d = window.bucketlab.diagram;
    const tokens = d.tokens;
    return { tokens, sent: d.send(1), animating: d.isAnimating };
  });
  assert.ok(seen.tokens < 1, `the traffic took the tokens: ${seen.tokens}`);
  assert.equal(seen.sent, false, 'and a request finds the bucket as tokens said');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('off screen the frame loop stops; back on screen it resumes with the right state', async () => {
  const page = await openPage(env.browser, { viewport: { width: 1000, height: 700 } });
  await page.goto(`${env.server.url}?capacity=1000&refill-rate=1&tokens=0`);
  await waitForWidget(page);
  await page.locator('#bucket-widget').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.bucketlab.diagram.isAnimating, null, { polling: 50 });
  await page.evaluate(() => document.querySelector('#faq').scrollIntoView());
  await page.waitForFunction(() => !window.bucketlab.diagram.isAnimating, null, { polling: 50 });
  await page.locator('#bucket-widget').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.bucketlab.diagram.isAnimating, null, { polling: 50 });
  // The counter shows the core's value for the current time, not a value frozen while away.
  await page.waitForFunction(() => {
    const shown = parseFloat(document.querySelector('#bucket-widget .bl-counter').textContent.replace(',', '.'));
    return Math.abs(shown - window.bucketlab.diagram.tokens) < 0.2;
  });
  await page.context().close();
});
