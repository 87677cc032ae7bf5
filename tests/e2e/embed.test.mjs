// <bucket-lab> on a hostile course page, embed.html in an iframe resized by the host, and the npm
// package's browser entry points.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assemblePackage } from '../../scripts/npm-package.mjs';
import { launch, openPage } from './harness.mjs';
import { serveStatic, STRICT_CSP } from './static-server.mjs';

const WWW = new URL('../../www/', import.meta.url).pathname;

// Everything a host page can throw at an element from outside: a global reset, odd fonts and
// colours, hidden SVG, and the widget's own class names and variables.
const HOSTILE_CSS = `
* { all: unset; }
html { font: italic 700 27px/3 fantasy; color: #f0f; letter-spacing: 4px; text-transform: uppercase; }
svg { display: none; }
:root, bucket-lab { --fg: #f00; --bg: #000; --accent: #0f0; --bl-fg: #f00; }
.bl-widget, .bl-diagram, .bl-counter, .bl-send { display: none !important; }
`;

const HOSTILE_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>A course page</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="./hostile.css">
  <script type="module" src="./bucket-lab.js"></script>
</head>
<body>
  <h1>Week 3: rate limits</h1>
  <svg id="host-svg" width="20" height="20"><circle cx="10" cy="10" r="9"/></svg>
  <p class="bl-status bl-head" id="host-text">Host text with the widget's class names.</p>
  <bucket-lab id="a" capacity="10" refill-rate="5" paused></bucket-lab>
  <bucket-lab id="b" capacity="3" refill-rate="1" cost="2" lang="pt-BR" controls="send cost" paused></bucket-lab>
  <bucket-lab id="c" capacity="40" refill-rate="0" lang="en" controls="none" paused></bucket-lab>
</body>
</html>`;

/** A page with four elements, one per `theme` (none, light, dark, auto), and `head` in its head. */
function schemesPage(head) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Schemes</title><link rel="icon" href="data:,">${head}
  <script type="module" src="./bucket-lab.js"></script></head><body>
  ${['none', 'light', 'dark', 'auto'].map((theme) => `<bucket-lab id="${theme}" capacity="3"${theme === 'none' ? '' : ` theme="${theme}"`}></bucket-lab>`).join('\n  ')}
  </body></html>`;
}

/** A blog's text styles on its whole body, which inherit into the element's shadow DOM unless reset. */
const INHERITS_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A blog</title><link rel="icon" href="data:,">
  <link rel="stylesheet" href="./inherits.css">
  <script type="module" src="./bucket-lab.js"></script></head><body>
  <bucket-lab id="a" capacity="3" refill-rate="0.5" lang="en" controls="send cost traffic time" paused></bucket-lab>
  </body></html>`;

const INHERITS_CSS = `body { width: 375px; word-break: break-all; overflow-wrap: anywhere; hyphens: auto; font-size-adjust: 0.4;
  font-variant: small-caps; font-feature-settings: "smcp", "onum"; font-stretch: condensed; -webkit-text-fill-color: #f0f; }`;

/** A long course page with one element among its text: room to scroll both ways. */
const LONG_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A long page</title><link rel="icon" href="data:,">
  <link rel="stylesheet" href="./long.css"><script type="module" src="./bucket-lab.js"></script></head><body>
  <div class="room"></div><bucket-lab id="a" capacity="5" refill-rate="1" lang="en"></bucket-lab><div class="room"></div>
  </body></html>`;

/** A page that requires Trusted Types and allows the policies `allowed` names. */
function trustedTypesPage(allowed, lang = 'en') {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Trusted Types</title><link rel="icon" href="data:,">
  <meta http-equiv="Content-Security-Policy" content="require-trusted-types-for 'script'; trusted-types ${allowed}">
  <script type="module" src="./bucket-lab.js"></script></head><body>
  <bucket-lab id="a" capacity="2" paused></bucket-lab>
  </body></html>`;
}

/** A page whose script sets the element's properties before its module defines it (a framework's). */
const EARLY_PROPS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>early</title><link rel="icon" href="data:,"></head><body>
  <bucket-lab id="u"></bucket-lab>
  <script src="./early-props.js"></script>
  <script type="module" src="./bucket-lab.js"></script>
</body></html>`;

/** An English page with a Portuguese element whose cost and controls are its own, paused. */
const EARLY_SETTINGS_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Early</title><link rel="icon" href="data:,">
  <script type="module" src="./bucket-lab.js"></script></head><body>
  <bucket-lab id="b" capacity="3" cost="2" lang="pt-BR" controls="send cost time" paused></bucket-lab>
  </body></html>`;

let site;
let browser;
before(async () => {
  site = await serveStatic(WWW, {
    headers: { 'content-security-policy': STRICT_CSP },
    pages: { 'hostile.html': HOSTILE_PAGE, 'hostile.css': HOSTILE_CSS, 'schemes.html': schemesPage(''), 'schemes-dark.html': schemesPage('<meta name="color-scheme" content="dark">'), 'inherits.html': INHERITS_PAGE, 'inherits.css': INHERITS_CSS, 'long.html': LONG_PAGE, 'long.css': '.room { height: 1500px; }',
      'early-props.html': EARLY_PROPS_PAGE, 'early-settings.html': EARLY_SETTINGS_PAGE, 'early-props.js': "Object.assign(document.getElementById('u'), { capacity: 12, refillRate: 2.5, paused: true });",
      'trusted.html': trustedTypesPage('bucketlab'), 'untrusted.html': trustedTypesPage('other'), 'untrusted-pt.html': trustedTypesPage('other', 'pt-BR') },
  });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.close();
});

/** Text of `selector` inside the shadow root of `<bucket-lab id=id>`. */
const inside = (page, id, selector) =>
  page.evaluate(([id, selector]) => document.getElementById(id).shadowRoot.querySelector(selector)?.textContent ?? null, [id, selector]);
const counter = (page, id) => inside(page, id, '.bl-counter');
const click = (page, id, selector) => page.locator(`#${id} ${selector}`).click();

/** Adds `<bucket-lab id=id>` with `attributes` ({ name: value }, in order) and waits for its diagram. */
async function addElement(page, id, attributes) {
  await page.evaluate(([id, attributes]) => {
    const element = Object.assign(document.createElement('bucket-lab'), { id });
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    document.body.append(element);
  }, [id, attributes]);
  await page.waitForFunction((id) => document.getElementById(id).diagram, id);
}

async function openHostile() {
  const page = await openPage(browser);
  await page.addInitScript(() => {
    // Counts animation frames that actually run, page-wide.
    window.__frames = 0;
    const request = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => request((t) => { window.__frames += 1; callback(t); });
  });
  await page.goto(`${site.url}hostile.html`);
  await page.waitForFunction(() => ['a', 'b', 'c'].every((id) => document.getElementById(id).diagram));
  return page;
}

test('each attribute is a property too, reflected: a number, null, a boolean paused; a bad value is refused by name as the attribute would be', async () => {
  const page = await openHostile();
  await addElement(page, 'p', {});
  const read = () => page.evaluate(() => {
    const el = document.getElementById('p');
    return { capacity: el.capacity, refillRate: el.refillRate, paused: el.paused, attributes: el.getAttributeNames().filter((n) => n !== 'id'), diagram: el.diagram && [el.diagram.capacity, el.diagram.refillRate, el.diagram.paused] };
  });
  assert.deepEqual(await read(), { capacity: null, refillRate: null, paused: false, attributes: [], diagram: [5, 1, false] });
  await page.evaluate(() => Object.assign(document.getElementById('p'), { capacity: 12, refillRate: 2.5, paused: true }));
  await page.waitForFunction(() => document.getElementById('p').diagram?.capacity === 12 && document.getElementById('p').diagram.refillRate === 2.5);
  assert.deepEqual(await read(), { capacity: '12', refillRate: '2.5', paused: true, attributes: ['capacity', 'refill-rate', 'paused'], diagram: [12, 2.5, true] });
  await page.evaluate(() => Object.assign(document.getElementById('p'), { refillRate: null, paused: false }));
  await page.waitForFunction(() => document.getElementById('p').diagram?.refillRate === 1 && !document.getElementById('p').diagram.paused);
  assert.deepEqual((await read()).attributes, ['capacity']);
  // paused as the attribute means it: "false" lets time run.
  await page.evaluate(() => { document.getElementById('p').paused = 'false'; });
  assert.deepEqual((await read()).attributes, ['capacity']);
  await page.evaluate(() => { document.getElementById('p').capacity = 'lots'; });
  await page.waitForFunction(() => document.getElementById('p').error);
  assert.match(await page.evaluate(() => document.getElementById('p').error.errors[0].attribute), /^capacity$/);
  await page.context().close();
  // Set before the module defined the element: passed on to the attributes once it is.
  const early = await openPage(browser);
  await early.goto(`${site.url}early-props.html`);
  await early.waitForFunction(() => document.getElementById('u').diagram);
  assert.deepEqual(await early.evaluate(() => {
    const el = document.getElementById('u');
    return [el.getAttribute('capacity'), el.getAttribute('refill-rate'), el.getAttribute('paused'), el.diagram.capacity, el.diagram.refillRate, el.diagram.paused, Object.hasOwn(el, 'capacity')];
  }), ['12', '2.5', '', 12, 2.5, true, false]);
  await early.context().close();
});

test('a browser translating the host page (its <html lang> rewritten, marked translated-ltr) leaves each element\'s bucket and timeline as they were; embed.html keeps its language', async () => {
  const page = await openHostile();
  const a = () => page.evaluate(() => document.getElementById('a').diagram);
  await page.evaluate(() => { window.before = document.getElementById('a').diagram; window.before.send(); });
  await page.evaluate(() => {
    document.documentElement.lang = 'es';
    document.documentElement.classList.add('translated-ltr');
  });
  // A real switch of the page's language re-renders its followers (tested below): give one the time to.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  assert.equal(await page.evaluate(() => document.getElementById('a').diagram === window.before), true, 'the same diagram');
  assert.ok(await a() !== null);
  assert.match(await inside(page, 'a', '.bl-status'), /^Admitted/);
  await page.context().close();
  // embed.html: its language pinned in data-lang, whatever the translation writes in lang.
  const embed = await openPage(browser);
  await embed.goto(`${site.url}embed.html?lang=en`);
  await embed.waitForFunction(() => document.querySelector('bucket-lab').diagram);
  await embed.evaluate(() => { window.before = document.querySelector('bucket-lab').diagram; document.documentElement.lang = 'pt-BR'; });
  await embed.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  assert.equal(await embed.evaluate(() => document.querySelector('bucket-lab').diagram === window.before), true);
  await embed.context().close();
});

test('three differently configured instances render and work independently on a hostile page', async () => {
  const page = await openHostile();
  assert.equal(await counter(page, 'a'), '10.0 / 10', 'a follows the page language (en)');
  assert.equal(await counter(page, 'b'), '3,0 / 3', 'b speaks pt-BR');
  assert.equal(await counter(page, 'c'), '40.0 / 40');

  for (const id of ['a', 'b', 'c']) {
    const box = await page.locator(`#${id} .bl-diagram`).boundingBox();
    assert.ok(box && box.width > 150 && box.height > 100, `${id}: the SVG shows (${JSON.stringify(box)})`);
  }
  const style = await page.evaluate(() => {
    const send = document.getElementById('a').shadowRoot.querySelector('.bl-send');
    const s = getComputedStyle(send);
    return { font: s.fontStyle, transform: s.textTransform, spacing: s.letterSpacing, color: getComputedStyle(send.closest('.bl-frame')).color };
  });
  assert.deepEqual(style, { font: 'normal', transform: 'none', spacing: 'normal', color: 'rgb(27, 30, 39)' },
    "the host's inherited styles and variables stop at the element");
  const host = await page.evaluate(() => {
    const s = getComputedStyle(document.getElementById('host-text'));
    return { weight: s.fontWeight, background: s.backgroundColor, svg: getComputedStyle(document.getElementById('host-svg')).display };
  });
  assert.deepEqual(host, { weight: '700', background: 'rgba(0, 0, 0, 0)', svg: 'none' }, "the widget's CSS does not leak out");

  // Controls shown per instance.
  assert.equal(await page.locator('#b .bl-send').isVisible(), true);
  assert.equal(await page.locator('#b .bl-cost').isVisible(), true);
  assert.equal(await page.locator('#b .bl-burst').isVisible(), false, 'b shows only send and cost');
  assert.equal(await page.locator('#b .bl-pause').isVisible(), false);
  assert.equal(await page.locator('#c .bl-send').isVisible(), false, 'c shows no controls');

  await click(page, 'b', '.bl-send');
  assert.equal(await counter(page, 'b'), '1,0 / 3', 'b sends at its cost of 2');
  assert.equal(await counter(page, 'a'), '10.0 / 10');
  await click(page, 'a', '.bl-send');
  await click(page, 'a', '.bl-send');
  assert.equal(await counter(page, 'a'), '8.0 / 10');
  assert.equal(await counter(page, 'b'), '1,0 / 3');
  await click(page, 'a', '.bl-step');
  assert.equal(await counter(page, 'a'), '8.5 / 10', 'a steps its own clock (r = 5)');
  assert.equal(await counter(page, 'b'), '1,0 / 3', "b's clock did not move");
  assert.equal(await page.evaluate(() => document.getElementById('c').diagram.send(41)), false, 'c: cost above B never passes');
  assert.equal(await counter(page, 'c'), '40.0 / 40');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('changing attributes reconfigures the running widget', async () => {
  const page = await openHostile();
  await click(page, 'b', '.bl-send');
  await page.evaluate(() => document.getElementById('b').setAttribute('capacity', '6'));
  assert.equal(await counter(page, 'b'), '1,0 / 6', 'tokens kept, B raised live');
  assert.match(await inside(page, 'b', '.bl-diagram'), /B = 6/);
  await page.evaluate(() => document.getElementById('b').setAttribute('refill-rate', '2,5'));
  assert.match(await inside(page, 'b', '.bl-diagram'), /r = 2,5\/s/);
  // One attribute changed leaves the other setting as it is live, a script's included.
  await page.evaluate(() => {
    const b = document.getElementById('b');
    b.diagram.configure(6, 1.5);
    b.setAttribute('capacity', '7');
  });
  assert.deepEqual(await page.evaluate(() => [document.getElementById('b').diagram.capacity, document.getElementById('b').diagram.refillRate]), [7, 1.5]);
  // The same text written again puts back what a slider or a script changed since: B = 7 again,
  // and r as its attribute says (2,5), while an attribute nobody moved from is left alone.
  assert.deepEqual(await page.evaluate(() => {
    const b = document.getElementById('b');
    b.diagram.configure(12, 1.5);
    b.setAttribute('capacity', '7');
    const capacity = b.diagram.capacity;
    b.setAttribute('refill-rate', '2,5');
    return [capacity, b.diagram.refillRate];
  }), [7, 2.5]);
  await page.evaluate(() => document.getElementById('b').diagram.configure(6, 2.5));
  await page.evaluate(() => document.getElementById('b').diagram.step(1));
  assert.equal(await counter(page, 'b'), '3,5 / 6', 'refills at the new rate');

  await page.evaluate(() => document.getElementById('b').setAttribute('cost', '3'));
  await click(page, 'b', '.bl-send');
  assert.equal(await counter(page, 'b'), '0,5 / 6', 'the new cost applies to the next request');

  await page.evaluate(() => document.getElementById('c').setAttribute('controls', 'burst time'));
  assert.equal(await page.locator('#c .bl-burst').isVisible(), true);
  assert.equal(await page.locator('#c .bl-send').isVisible(), false);

  // The page's language switch re-renders instances without a lang of their own, keeping the level.
  await click(page, 'a', '.bl-send');
  // The element watches <html lang>: a page's switch needs to do nothing else.
  await page.evaluate(() => {
    document.documentElement.lang = 'pt-BR';
  });
  await page.waitForFunction(() => document.getElementById('a').diagram?.lang === 'pt-BR');
  // A write that leaves the language as it is (a head manager's, a translator's) mounts nothing anew.
  const remounts = await page.evaluate(async () => {
    let ready = 0;
    const a = document.getElementById('a');
    a.addEventListener('bucketlab:ready', () => { ready += 1; });
    const before = a.diagram;
    for (const tag of ['pt-BR', 'pt-br', 'pt']) document.documentElement.lang = tag;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return [ready, a.diagram === before];
  });
  assert.deepEqual(remounts, [0, true]);
  assert.equal(await counter(page, 'a'), '9,0 / 10');
  assert.equal(await page.evaluate(() => document.getElementById('a').diagram.paused), true);
  assert.equal(await page.evaluate(() => document.getElementById('c').diagram.lang), 'en', 'c keeps its own lang');
  // B, r and the cost the reader or a script set since are carried over too, not the attributes'.
  await page.evaluate(() => {
    const c = document.getElementById('c').diagram;
    c.configure(30, 0.5);
    c.setCost(4);
    document.getElementById('c').setAttribute('lang', 'pt-BR');
  });
  await page.waitForFunction(() => document.getElementById('c').diagram?.lang === 'pt-BR');
  assert.equal(await counter(page, 'c'), '30,0 / 30');
  assert.deepEqual(await page.evaluate(() => {
    const c = document.getElementById('c').diagram;
    return [c.capacity, c.refillRate, c.cost];
  }), [30, 0.5, 4]);
  assert.equal(await page.locator('#c .bl-burst').isVisible(), true, 'controls survive the re-render');
  // A page in a language the lesson does not speak gets English, not Portuguese.
  await page.evaluate(() => {
    document.documentElement.lang = 'de';
  });
  await page.waitForFunction(() => document.getElementById('a').diagram?.lang === 'en');
  assert.equal(await counter(page, 'a'), '9.0 / 10');
  // A host that writes back what bucketlab:config tells it (B = 8 from a script): one more event
  // at most, not a loop; and a write of the text already in force changes nothing, a past moment
  // included.
  assert.deepEqual(await page.evaluate(async () => {
    const b = document.getElementById('b');
    let heard = 0;
    const mirror = (event) => {
      heard += 1;
      if (heard < 50) b.setAttribute('capacity', String(event.detail.capacity));
    };
    b.addEventListener('bucketlab:config', mirror);
    b.diagram.configure(8, 2.5);
    await new Promise((resolve) => setTimeout(resolve, 50));
    b.removeEventListener('bucketlab:config', mirror);
    b.diagram.step(1);
    b.diagram.send();
    b.diagram.stepBack(0.5);
    const scenario = b.diagram.scenario;
    b.setAttribute('capacity', '8');
    b.setAttribute('refill-rate', '2,5');
    const kept = [b.diagram.traveling, b.diagram.scenario === scenario];
    return [heard <= 2, b.getAttribute('capacity'), ...kept];
  }), [true, '8', true, true]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('tokens sets the level a diagram starts at: a capacity lowered later caps the live level, and a new tokens is held to the B of then', async () => {
  const page = await openHostile();
  await page.evaluate(() => document.getElementById('c').setAttribute('tokens', '30'));
  await page.waitForFunction(() => document.getElementById('c').diagram?.tokens === 30);
  await page.evaluate(() => document.getElementById('c').setAttribute('capacity', '20'));
  assert.deepEqual(await page.evaluate(() => {
    const c = document.getElementById('c');
    return [c.diagram?.capacity, c.diagram?.tokens, c.error];
  }), [20, 20, null]);
  assert.equal(await counter(page, 'c'), '20.0 / 20');
  // A remount that keeps the level (its language changed) does not bring tokens back up either.
  await page.evaluate(() => document.getElementById('c').setAttribute('lang', 'pt-BR'));
  await page.waitForFunction(() => document.getElementById('c').diagram?.lang === 'pt-BR');
  assert.deepEqual(await page.evaluate(() => [document.getElementById('c').diagram.tokens, document.getElementById('c').error]), [20, null]);
  await page.evaluate(() => document.getElementById('c').setAttribute('tokens', '25'));
  await page.waitForFunction(() => document.getElementById('c').error);
  assert.equal(await inside(page, 'c', '.bl-error-title'), 'Atributo inválido: tokens');
  assert.match(await inside(page, 'c', '.bl-error-detail'), /25 não é permitido; use um número de 0 a 20\.$/);
  await page.context().close();
});

test('an invalid attribute shows an error naming it; the other instances keep working', async () => {
  const page = await openHostile();
  // A host's script learns of it too: an event on the element, and its `error`.
  const told = await page.evaluate(() => {
    const a = document.getElementById('a');
    const heard = new Promise((resolve) => {
      document.addEventListener('bucketlab:error', (event) => resolve({
        target: event.target.id,
        errors: event.detail.error.errors.map(({ attribute, message, localized }) => ({ attribute, message, localized })),
        same: event.detail.error === a.error,
      }), { once: true });
    });
    const before = a.error;
    a.setAttribute('refill-rate', 'fast');
    return heard.then((event) => ({ before, ...event }));
  });
  assert.deepEqual(told, {
    before: null,
    target: 'a',
    errors: [{
      attribute: 'refill-rate',
      message: 'refill-rate must be a finite number of at least 0, got "fast"',
      localized: 'Rate r (tokens/s): “fast” is not a number; use a number of at least 0.',
    }],
    same: true,
  });
  const error = page.locator('#a .bl-error');
  assert.equal(await error.getAttribute('role'), 'alert');
  assert.equal(await inside(page, 'a', '.bl-error-title'), 'Invalid attribute: refill-rate');
  // The box speaks the element's language and names the label the reader sees; the console
  // keeps the precise message with the attribute's name.
  assert.equal(await inside(page, 'a', '.bl-error-detail'), 'Rate r (tokens/s): “fast” is not a number; use a number of at least 0.');
  assert.equal(await page.evaluate(() => document.getElementById('a').diagram), null);
  assert.deepEqual(page.problems, [
    'error: <bucket-lab> invalid attribute refill-rate="fast": refill-rate must be a finite number of at least 0, got "fast"',
  ]);

  await click(page, 'b', '.bl-send');
  assert.equal(await counter(page, 'b'), '1,0 / 3', 'b still works');
  await page.evaluate(() => document.getElementById('c').diagram.send(1));
  assert.equal(await counter(page, 'c'), '39.0 / 40', 'c still works');
  assert.equal(await page.textContent('h1'), 'Week 3: rate limits', 'the page is untouched');

  await page.evaluate(() => document.getElementById('b').setAttribute('controls', 'send sned'));
  assert.equal(await inside(page, 'b', '.bl-error-title'), 'Atributo inválido: controls');
  assert.equal(await inside(page, 'b', '.bl-error-detail'), 'controls: “send sned” não é permitido; use “all”, “none” ou nomes de grupos separados por espaços ou vírgulas: send, cost, burst, bucket, traffic, time.');
  await page.evaluate(() => document.getElementById('c').setAttribute('cost', '41'));
  assert.equal(await inside(page, 'c', '.bl-error-detail'), 'Cost c: 41 is not allowed; use a whole number from 1 to 40.');
  await page.evaluate(() => document.getElementById('b').setAttribute('view', 'chart'));
  assert.equal(await inside(page, 'b', '.bl-error-detail'), 'view: “chart” não é permitido; use “diagram”.');
  // paused="false", as a framework writes a false boolean in its server's HTML (Svelte, Lit),
  // lets time run, as it says; another value is refused, not guessed.
  await page.evaluate(() => {
    const c = document.getElementById('c');
    c.setAttribute('cost', '1');
    c.setAttribute('paused', 'false');
  });
  await page.waitForFunction(() => document.getElementById('c').diagram?.paused === false);
  assert.equal(await page.evaluate(() => document.getElementById('c').error), null);
  await page.evaluate(() => document.getElementById('c').setAttribute('paused', 'no'));
  await page.waitForFunction(() => document.getElementById('c').shadowRoot.querySelector('.bl-error-detail')?.textContent.startsWith('paused'));
  assert.equal(await inside(page, 'c', '.bl-error-detail'), 'paused: “no” is not allowed; give the attribute no value (or “true”) to stop time, and “false” (or leave it out) to let time run.');
  await page.evaluate(() => document.getElementById('c').setAttribute('paused', 'true'));
  await page.waitForFunction(() => document.getElementById('c').diagram?.paused === true);
  // b's view and controls are both wrong by then: both are said, each time b is checked.
  assert.equal(page.problems.length, 6, 'one console error per invalid attribute');

  // Fixing the attributes brings the widgets back.
  await page.evaluate(() => document.getElementById('a').setAttribute('refill-rate', '5'));
  await page.waitForFunction(() => document.getElementById('a').diagram);
  assert.equal(await page.evaluate(() => document.getElementById('a').error), null, 'no error once mounted');
  assert.equal(await counter(page, 'a'), '10.0 / 10');
  await page.evaluate(() => {
    const b = document.getElementById('b');
    b.removeAttribute('view');
    b.setAttribute('controls', 'send');
  });
  await page.waitForFunction(() => document.getElementById('b').diagram);
  assert.equal(await page.locator('#b .bl-send').isVisible(), true);
  await page.context().close();
});

test('a host hears the element\'s events on the element and on the document: ready, decision, config', async () => {
  const page = await openPage(browser);
  await page.addInitScript(() => {
    window.heard = [];
    for (const type of ['bucketlab:ready', 'bucketlab:decision', 'bucketlab:config']) {
      document.addEventListener(type, (event) => {
        const { diagram, ...rest } = event.detail ?? {};
        window.heard.push({ type, target: event.target.id, usable: diagram === event.target.diagram && diagram !== null, ...rest });
      });
    }
  });
  await page.goto(`${site.url}hostile.html`);
  await page.waitForFunction(() => window.heard.filter((e) => e.type === 'bucketlab:ready').length === 3);
  // Each element is ready once, and its event carries the handle `diagram` then returns.
  const ready = await page.evaluate(() => window.heard.filter((e) => e.type === 'bucketlab:ready'));
  assert.deepEqual(ready.map((e) => [e.target, e.usable]).sort(), [['a', true], ['b', true], ['c', true]]);
  const onElement = await page.evaluate(() => {
    window.onB = [];
    document.getElementById('b').addEventListener('bucketlab:decision', (event) => window.onB.push({ ...event.detail, nullWait: event.detail.retryAfter === null }));
    return window.heard.length;
  });
  await click(page, 'b', '.bl-send');
  await page.waitForFunction(() => window.onB.length === 1);
  const decision = await page.evaluate(() => window.onB[0]);
  assert.deepEqual([decision.allowed, decision.status, decision.cost, decision.capacity, decision.refillRate], [true, 200, 2, 3, 1]);
  assert.match(decision.head, /^HTTP\/1.1 200/);
  await page.evaluate(() => document.getElementById('c').setAttribute('capacity', '20'));
  await page.waitForFunction((n) => window.heard.length >= n + 2, onElement);
  const later = await page.evaluate((n) => window.heard.slice(n), onElement);
  assert.deepEqual(later.map((e) => [e.type, e.target]), [['bucketlab:decision', 'b'], ['bucketlab:config', 'c']]);
  assert.deepEqual([later[1].capacity, later[1].refillRate], [20, 0]);
  // Heard once: the event inside the shadow root stays there.
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => window.heard.length), onElement + 2);
  // A wait too long for a number (r = 1e-320/s) is retryAfter: null, as from tryAcquireAt, not
  // Infinity (which a host's setTimeout would take as "retry now").
  await page.evaluate(() => document.getElementById('b').setAttribute('refill-rate', '1e-320'));
  await click(page, 'b', '.bl-send');
  await click(page, 'b', '.bl-send');
  await page.waitForFunction(() => window.onB.length === 3);
  const denied = await page.evaluate(() => window.onB.slice(1).filter((d) => !d.allowed).map((d) => [d.status, d.nullWait]));
  assert.ok(denied.length >= 1, 'two requests of 2 tokens from at most 3');
  assert.deepEqual(denied, denied.map(() => [429, true]));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('every wrong attribute at once: a bad controls list is named with a bad number', async () => {
  const page = await openHostile();
  await page.evaluate(() => {
    const element = Object.assign(document.createElement('bucket-lab'), { id: 'd' });
    element.setAttribute('controls', 'send foo');
    element.setAttribute('capacity', '-1');
    document.body.append(element);
  });
  await page.waitForFunction(() => document.getElementById('d').shadowRoot.querySelector('.bl-error'));
  const box = await page.evaluate(() => {
    const root = document.getElementById('d').shadowRoot;
    return [root.querySelector('.bl-error-title').textContent, ...[...root.querySelectorAll('.bl-error-detail')].map((p) => p.textContent)];
  });
  assert.deepEqual(box, [
    'Invalid attributes: capacity, controls',
    'Capacity B: -1 is not allowed; use a number greater than 0.',
    'controls: “send foo” is not allowed; use “all”, “none” or group names separated by spaces or commas: send, cost, burst, bucket, traffic, time.',
  ]);
  assert.deepEqual(page.problems, [
    'error: <bucket-lab> invalid attribute capacity="-1": capacity must be a finite number greater than 0, got -1',
    'error: <bucket-lab> invalid attribute controls="send foo": controls must be "all", "none" or names from send, cost, burst, bucket, traffic, time separated by spaces or commas, got "send foo" (unknown control "foo")',
  ]);
  await page.context().close();
});

test('lang takes any tag of English or Portuguese, as mdBook and Hugo do, and refuses the rest', async () => {
  const page = await openHostile();
  await page.evaluate(() => {
    for (const [id, lang] of [['gb', 'EN-gb'], ['pt', 'pt-PT'], ['us', 'en_US'], ['fr', 'fr']]) {
      const element = Object.assign(document.createElement('bucket-lab'), { id });
      element.setAttribute('lang', lang);
      element.setAttribute('capacity', '2');
      document.body.append(element);
    }
  });
  await page.waitForFunction(() => ['gb', 'pt'].every((id) => document.getElementById(id).diagram)
    && ['us', 'fr'].every((id) => document.getElementById(id).shadowRoot.querySelector('.bl-error')));
  assert.equal(await counter(page, 'gb'), '2.0 / 2');
  assert.equal(await counter(page, 'pt'), '2,0 / 2');
  assert.equal(await inside(page, 'us', '.bl-error-detail'), 'lang: “en_US” is not allowed; use “pt-BR”, “en” or another tag of those languages (en-GB, pt-PT).');
  // Worded in the page's language, and marked so: inside lang="fr" a screen reader would read
  // them with a French voice.
  assert.equal(await page.evaluate(() => document.getElementById('fr').shadowRoot.querySelector('.bl-error').lang), 'en');
  assert.deepEqual(page.problems.sort(), [
    'error: <bucket-lab> invalid attribute lang="en_US": lang must be "pt-BR", "en" or another tag of those languages (en-GB, pt-PT), got "en_US"',
    'error: <bucket-lab> invalid attribute lang="fr": lang must be "pt-BR", "en" or another tag of those languages (en-GB, pt-PT), got "fr"',
  ]);
  await page.context().close();
});

test('controls="ALL" and " None " are read in any case and with spaces around, and paused="paused" stops time, as HTML writes a boolean', async () => {
  const page = await openHostile();
  await addElement(page, 'all', { controls: 'ALL', lang: 'en' });
  await addElement(page, 'none', { controls: ' None ', lang: 'en' });
  await addElement(page, 'still', { paused: 'paused', lang: 'en' });
  const shown = (id) => page.evaluate((id) => ['.bl-send', '.bl-burst', '.bl-pause', '.bl-capacity', '.bl-traffic']
    .map((selector) => document.getElementById(id).shadowRoot.querySelector(selector).checkVisibility()), id);
  assert.deepEqual(await shown('all'), [true, true, true, true, true]);
  assert.deepEqual(await shown('none'), [false, false, false, false, false]);
  assert.equal(await page.evaluate(() => document.getElementById('still').diagram.paused), true);
  assert.deepEqual(await page.evaluate(() => ['all', 'none', 'still'].map((id) => document.getElementById(id).error)), [null, null, null]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a course page on another site: fallback content until the element is defined, then a working element', async () => {
  // The site with the headers www/_headers gives it, and a course page on another origin.
  const hosted = await serveStatic(WWW, { hosted: true });
  const course = await serveStatic(WWW, {
    pages: { 'course.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,"></head><body><bucket-lab capacity="3" paused><p id="fallback">The diagram needs JavaScript.</p></bucket-lab></body></html>' },
  });
  try {
    const page = await openPage(browser);
    await page.goto(`${course.url}course.html`);
    assert.notEqual(hosted.origin, course.origin);
    assert.equal(await page.locator('#fallback').isVisible(), true, 'shown while the element is undefined');
    await page.addScriptTag({ type: 'module', url: `${hosted.url}bucket-lab.js` });
    await page.waitForFunction(() => document.querySelector('bucket-lab').diagram, null, { timeout: 10000 });
    assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-counter').textContent), '3.0 / 3');
    // The shadow root has no slot: once defined, the element shows only the diagram; the
    // fallback stays in the page, unrendered.
    assert.equal(await page.locator('#fallback').isVisible(), false, 'hidden once the element is defined');
    assert.equal(await page.locator('#fallback').count(), 1);
    const loaded = hosted.log.map((r) => r.path).sort();
    for (const path of ['bucket-lab.js', 'element/bucket-lab.css', 'element/widget.css', 'pkg/bucketlab.js', 'pkg/bucketlab_bg.wasm', 'i18n/translate.js']) {
      assert.ok(loaded.includes(path), `${path} came from the site: ${loaded.join(', ')}`);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await hosted.close();
    await course.close();
  }
});

test('removing an element stops its frame loop and frees its wasm object', async () => {
  const page = await openHostile();
  await page.evaluate(() => {
    const a = document.getElementById('a');
    a.removeAttribute('paused');
    a.diagram.send(5); // now refilling: the loop runs
  });
  await page.waitForFunction(() => document.getElementById('a').diagram.isAnimating);
  const start = await page.evaluate(() => window.__frames);
  await page.waitForFunction((n) => window.__frames > n + 3, start);
  const freed = await page.evaluate(async () => {
    const a = document.getElementById('a');
    window.__handle = a.diagram;
    a.remove();
    // The teardown waits a microtask (a move within the page keeps the diagram): let it run.
    await Promise.resolve();
    window.__afterRemove = window.__frames;
    try {
      window.__handle.tokens;
      return 'still usable';
    } catch (error) {
      return error.message;
    }
  });
  assert.match(freed, /null pointer|destroyed|moved/i, 'the handle is freed');
  // Wait for two frames of the page's own (not counted), then check none of ours ran.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
  const after = await page.evaluate(() => window.__frames - window.__afterRemove);
  assert.ok(after <= 3, `at most the frames already queued run after removal (${after}, counting our two)`);
  assert.equal(await page.evaluate(() => ['b', 'c'].every((id) => !document.getElementById(id).diagram.isAnimating)), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('embed-resizer.js fits the frame on a host page whose reset makes boxes border-box (Bootstrap, Moodle): no inner scroll', async () => {
  const hostPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <link rel="stylesheet" href="reset.css">
    <script src="${site.url}embed-resizer.js" defer></script></head><body>
    <iframe id="frame" title="Token bucket" width="600" height="150"
      src="${site.url}embed.html?lang=en&amp;paused"></iframe></body></html>`;
  const reset = '*, *::before, *::after { box-sizing: border-box; } iframe { border: 3px solid; padding: 2px; }';
  const host = await serveStatic(WWW, { pages: { 'host.html': hostPage, 'reset.css': reset } });
  try {
    const page = await openPage(browser);
    await page.goto(`${host.url}host.html`);
    await page.frameLocator('#frame').locator('bucket-lab .bl-counter').waitFor();
    await page.waitForFunction(() => document.getElementById('frame').style.height !== '');
    const content = await page.frame({ url: /embed\.html/ }).evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
    assert.ok(content > 400, `the widget is taller than the iframe's 150 px (${content})`);
    await page.waitForFunction((h) => document.getElementById('frame').clientHeight === h + 4, content);
    const inner = await page.frame({ url: /embed\.html/ }).evaluate(() => document.documentElement.scrollHeight - document.documentElement.clientHeight);
    assert.equal(inner, 0, 'nothing left to scroll inside the frame');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await host.close();
  }
});

test('the iframe embed fits its height to the widget and ignores foreign messages', async () => {
  // The host page lives on another origin than embed.html, as on a real course site.
  const widgetSite = site;
  const hostPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${widgetSite.url}embed-resizer.js" defer></script></head><body>
    <iframe id="frame" title="Token bucket" width="600" height="150"
      src="${widgetSite.url}embed.html?capacity=8&amp;refill-rate=2&amp;lang=en&amp;paused"></iframe></body></html>`;
  const host = await serveStatic(WWW, { pages: { 'host.html': hostPage } });
  try {
    const page = await openPage(browser);
    await page.goto(`${host.url}host.html`);
    const frame = page.frameLocator('#frame');
    await frame.locator('bucket-lab .bl-counter').waitFor();
    assert.equal(await frame.locator('bucket-lab .bl-counter').textContent(), '8.0 / 8');
    const contentHeight = () => page.frame({ url: /embed\.html/ }).evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
    // clientHeight: the iframe's own border is not part of the height the resizer sets.
    const frameHeight = () => page.evaluate(() => document.getElementById('frame').clientHeight);
    await page.waitForFunction(() => document.getElementById('frame').style.height !== '');
    const tall = await contentHeight();
    assert.ok(tall > 400, `the widget is taller than the iframe's 150 px (${tall})`);
    await page.waitForFunction((h) => document.getElementById('frame').clientHeight === h, tall);

    // Fewer controls: the content shrinks and so does the iframe.
    await page.frame({ url: /embed\.html/ }).evaluate(() => document.querySelector('bucket-lab').setAttribute('controls', 'none'));
    await page.waitForFunction((h) => document.getElementById('frame').clientHeight < h, tall);
    assert.equal(await frameHeight(), await contentHeight());

    // A message from the host's own origin, or of the wrong shape from the right one, is ignored.
    const before = await frameHeight();
    await page.evaluate(() => window.postMessage({ type: 'bucketlab:resize', height: 33 }, '*'));
    await page.frame({ url: /embed\.html/ }).evaluate(() => {
      parent.postMessage({ type: 'bucketlab:resize', height: '44' }, '*');
      parent.postMessage({ type: 'other', height: 55 }, '*');
      parent.postMessage({ type: 'bucketlab:resize', height: 1e9 }, '*');
      parent.postMessage('bucketlab:resize 66', '*');
    });
    // A round trip through the same channel guarantees those were handled before this check.
    await page.frame({ url: /embed\.html/ }).evaluate(() => parent.postMessage({ type: 'bucketlab:resize', height: 77 }, '*'));
    await page.waitForFunction(() => document.getElementById('frame').clientHeight === 77);
    assert.notEqual(before, 77);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await host.close();
  }
});

test('the demo course page: three elements and an iframe, styled its own way, at 375 px', async () => {
  const page = await openPage(browser, { viewport: { width: 375, height: 800 } });
  await page.goto(`${site.url}demo/embed-demo.html`);
  await page.waitForFunction(() => [...document.querySelectorAll('bucket-lab')].every((e) => e.diagram));
  const configs = await page.$$eval('bucket-lab', (all) => all.map((e) => [e.diagram.capacity, e.diagram.refillRate, e.diagram.cost, e.diagram.lang]));
  assert.deepEqual(configs, [[5, 1, 1, 'en'], [20, 10, 4, 'en'], [10, 0, 1, 'pt-BR']]);
  await page.locator('.demo-frame').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('.demo-frame').style.height !== '');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'nothing overflows sideways');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('when the wasm cannot load, each element says so instead of staying blank', async () => {
  const page = await openPage(browser);
  // Refused while the browser is online (an ad blocker, a filter): tried three times, then said.
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto(`${site.url}hostile.html`);
  await page.locator('#c .bl-error').waitFor();
  assert.equal(await page.evaluate(() => document.getElementById('c').error instanceof TypeError), true, 'the load\'s error, for scripts');
  assert.equal(await inside(page, 'a', '.bl-error-title'), 'The diagram could not be loaded');
  assert.equal(await inside(page, 'b', '.bl-error-title'), 'Não foi possível carregar o diagrama');
  const ours = page.problems.filter((p) => p.includes('<bucket-lab> could not load'));
  assert.equal(ours.length, 3, 'one console error per element');
  await page.context().close();
});

test('after a wasm load that failed (a dropped connection), a changed attribute loads it again and mounts the diagram', async () => {
  const page = await openPage(browser);
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto(`${site.url}hostile.html`);
  await page.locator('#a .bl-error').waitFor();
  // One refused by its page meanwhile (as embed.html refuses its address): heard once the module
  // is there to check the rest.
  await page.evaluate(() => {
    const d = document.createElement('bucket-lab');
    d.id = 'd';
    document.body.append(d);
    window.heardD = [];
    d.addEventListener('bucketlab:error', (event) => window.heardD.push(event.detail.error.message));
    d.refuseSettings([['Unknown setting in the address: colour', 'The known settings are: …']]);
  });
  await page.waitForFunction(() => window.heardD.length === 1);
  assert.match(await page.evaluate(() => window.heardD[0]), /WebAssembly|fetch|network/i, 'first the load failure');
  await page.unroute('**/*.wasm');
  await page.evaluate(() => document.getElementById('a').setAttribute('capacity', '4'));
  await page.waitForFunction(() => document.getElementById('a').diagram?.capacity === 4);
  await page.waitForFunction(() => window.heardD.length === 2);
  assert.deepEqual(await page.evaluate(() => [window.heardD[1], document.getElementById('d').error.message, document.getElementById('d').diagram]),
    ['Unknown setting in the address: colour', 'Unknown setting in the address: colour', null]);
  assert.equal(await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('.bl-error')), null);
  // The others that failed mount too, now that the module is there, with their own settings.
  await page.waitForFunction(() => ['b', 'c'].every((id) => document.getElementById(id).diagram));
  assert.deepEqual(await page.evaluate(() => ['a', 'b', 'c'].map((id) => {
    const element = document.getElementById(id);
    return [element.diagram.capacity, element.error, element.shadowRoot.querySelector('.bl-error')];
  })), [[4, null, null], [3, null, null], [40, null, null]]);
  await page.context().close();
});

test('a page that requires Trusted Types: the element works through its "bucketlab" policy, and says so when the page does not allow it', async () => {
  const page = await openPage(browser);
  await page.goto(`${site.url}trusted.html`);
  await page.waitForFunction(() => document.getElementById('a').diagram);
  await click(page, 'a', '.bl-send');
  assert.equal(await counter(page, 'a'), '1.0 / 2');
  assert.deepEqual(page.problems, []);
  await page.goto(`${site.url}untrusted.html`);
  await page.waitForFunction(() => document.getElementById('a').error);
  const detail = await inside(page, 'a', '.bl-error-detail');
  assert.equal(detail, 'This page’s Content Security Policy requires Trusted Types: add bucketlab to its trusted-types directive (and \'allow-duplicates\' if the page loads two copies of the element).');
  // A script gets the directive as the policy writes it.
  assert.match(await page.evaluate(() => document.getElementById('a').error.message), /requires Trusted Types .* add bucketlab to the trusted-types directive \(trusted-types bucketlab/);
  // In the diagram's language, as the other policies' refusals.
  await page.goto(`${site.url}untrusted-pt.html`);
  await page.waitForFunction(() => document.getElementById('a').error);
  assert.deepEqual([await inside(page, 'a', '.bl-error-title'), await inside(page, 'a', '.bl-error-detail')], [
    'Não foi possível montar o diagrama',
    'A Content Security Policy desta página exige Trusted Types: acrescente bucketlab à diretiva trusted-types dela (e \'allow-duplicates\' se a página carrega duas cópias do elemento).',
  ]);
  await page.context().close();
});

// A host page next to the package's files, as a bundler-free site that copied the package would be.
const HOST_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="./element/widget.css"></head>
<body>
  <div id="bad" data-capacity="-1"></div>
  <div id="bad-pt" data-capacity="10" data-refill-rate="fast" data-lang="pt-BR"></div>
  <div lang="pt-BR"><div id="bad-lang" data-lang="fr" data-capacity="0"></div></div>
  <div id="misspelled" data-capcity="3" data-refillRate="2" data-capacity="0" data-testid="lab" data-v-4f2a></div>
  <div id="element-only" data-cost="3" data-controls="send" data-paused="no" data-theme="dark" data-view="grid"></div>
  <div id="stopped" data-paused></div>
  <div id="running" data-paused="false"></div>
  <div id="good" data-capacity="4" data-refill-rate="1" data-paused data-testid="diagram" data-v-4f2a data-passed="3" data-lane="a" data-opacity="1" data-taken></div>
  <div id="since" data-capacity="4" data-refill-rate="0"></div>
  <bucket-lab id="element" capacity="3" refill-rate="1" paused></bucket-lab>
  <script type="module" src="./host.js"></script>
</body>
</html>`;
const HOST_SCRIPT = `
import init, { mountDiagram } from './index.js';
import './element/bucket-lab.js';
await init();
const attempt = (id) => {
  try {
    mountDiagram(document.getElementById(id));
    return null;
  } catch (error) {
    return error.message;
  }
};
window.thrown = { bad: attempt('bad'), badPt: attempt('bad-pt'), badLang: attempt('bad-lang'), misspelled: attempt('misspelled'), elementOnly: attempt('element-only') };
window.paused = ['stopped', 'running'].map((id) => mountDiagram(document.getElementById(id)).paused);
try {
  mountDiagram(document.createElement('div'), 'soon');
} catch (error) {
  window.thrown.since = error.message;
}
// Lesson time 0 five seconds ago: a click made then is the host's to hand over.
window.since = performance.now() - 5000;
window.sinceDiagram = mountDiagram(document.getElementById('since'), window.since);
window.good = mountDiagram(document.getElementById('good'));
// A second mount on a mounted root (a framework that mounts twice), and roots that are no element.
window.thrown.twice = attempt('good');
for (const [key, root] of [['none', null], ['text', 'good'], ['missing', undefined], ['number', 42]]) {
  try {
    mountDiagram(root);
  } catch (error) {
    window.thrown[key] = error.message;
  }
}
`;

test('the npm package: mountDiagram shows a bad setting\'s error in its element and throws it; the element works', async () => {
  // The assembled package (what `npm pack` ships), served with a host page next to its files.
  const work = await mkdtemp(join(tmpdir(), 'bucketlab-npm-browser-'));
  await assemblePackage(work);
  const host = await serveStatic(work, {
    headers: { 'content-security-policy': STRICT_CSP },
    pages: { 'host.html': HOST_PAGE, 'host.js': HOST_SCRIPT },
  });
  try {
    const page = await openPage(browser);
    await page.goto(`${host.url}host.html`);
    await page.waitForFunction(() => window.good && document.getElementById('element').diagram);
    const thrown = await page.evaluate(() => window.thrown);
    assert.match(thrown.bad, /^capacity must be a finite number greater than 0, got -1/);
    assert.match(thrown.badPt, /^refillRate must be a finite number of at least 0, got "fast"/);
    const box = (id) => page.evaluate((id) => ({
      role: document.querySelector(`#${id} .bl-error`)?.getAttribute('role'),
      title: document.querySelector(`#${id} .bl-error-title`)?.textContent,
      detail: document.querySelector(`#${id} .bl-error-detail`)?.textContent,
      widgets: document.querySelectorAll(`#${id} .bl-widget`).length,
    }), id);
    // Scripts get the API's names; the box, the reader's language and the visible labels.
    assert.deepEqual(await box('bad'), { role: 'alert', title: 'The diagram could not be built', detail: 'Capacity B: -1 is not allowed; use a number greater than 0.', widgets: 0 });
    // A language the lesson does not speak is refused, not shown in English unsaid; the box speaks
    // its place's language and lists the bad capacity too.
    assert.equal(thrown.badLang, 'data-lang must be "pt-BR", "en" or another tag of those languages (en-GB, pt-PT), got "fr"');
    assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#bad-lang .bl-error-detail')].map((p) => p.textContent)), [
      'data-lang: “fr” não é permitido; use “pt-BR”, “en” ou outra etiqueta dessas línguas (en-GB, pt-PT).',
      'Capacidade B: 0 não é permitido; use um número maior que 0.',
    ]);
    assert.equal(await page.getAttribute('#bad-lang .bl-error', 'lang'), 'pt-BR');
    // A setting's name written a little wrong is refused with the one it looks like, not left to
    // its default unseen (data-refillRate is data-refillrate to HTML); the page's own data-* pass.
    assert.equal(thrown.misspelled, '"data-capcity" is not a setting of the diagram; did you mean "data-capacity"?');
    assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#misspelled .bl-error-detail')].map((p) => p.textContent)), [
      'data-capcity: this diagram has no such setting; did you mean “data-capacity”?',
      'data-refillrate: this diagram has no such setting; did you mean “data-refill-rate”?',
      'Capacity B: 0 is not allowed; use a number greater than 0.',
    ]);
    // The element's cost and controls are refused with the handle's call that sets them (not
    // ignored); data-paused takes the element's values only. data-theme and data-view are the page's.
    assert.equal(thrown.elementOnly, 'data-cost is a setting of <bucket-lab> that mountDiagram does not read; after mounting, call the handle\'s setCost(3)');
    assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#element-only .bl-error-detail')].map((p) => p.textContent)), [
      'data-cost: mountDiagram does not read this setting of the <bucket-lab> element; after mounting, call the handle’s setCost(3).',
      'data-controls: mountDiagram does not read this setting of the <bucket-lab> element; after mounting, call the handle’s showControls(“send”).',
      'data-paused: “no” is not allowed; give the attribute no value (or “true”) to stop time, and “false” (or leave it out) to let time run.',
    ]);
    assert.deepEqual(await page.evaluate(() => window.paused), [true, false]);
    assert.deepEqual(await box('bad-pt'), { role: 'alert', title: 'Não foi possível montar o diagrama', detail: 'Taxa r (tokens/s): “fast” não é um número; use um número maior ou igual a 0.', widgets: 0 });
    assert.equal((await box('good')).widgets, 1);
    assert.equal(await page.textContent('#good .bl-counter'), '4.0 / 4');
    // Mounting again where a diagram lives throws and leaves that diagram as it is.
    assert.equal(thrown.twice, 'root already holds a mounted diagram: free() it before mounting another there');
    assert.equal((await box('good')).role, undefined);
    assert.deepEqual(await page.evaluate(() => [window.good.send(), window.good.tokens]), [true, 3]);
    assert.equal(await page.textContent('#good .bl-counter'), '3.0 / 4');
    assert.equal(thrown.none, 'root must be the element to mount the diagram in, got null');
    assert.equal(thrown.text, 'root must be the element to mount the diagram in, got a string "good"');
    assert.equal(thrown.missing, 'root must be the element to mount the diagram in, got undefined');
    assert.equal(thrown.number, 'root must be the element to mount the diagram in, got a number (42)');
    assert.equal(thrown.since, 'sinceMs must be a finite number (a performance.now() time) or undefined, got a value of type string');
    const since = await page.evaluate(() => {
      const d = window.sinceDiagram;
      return { now: d.now, sent: d.sendAt(window.since + 1000), tokens: d.tokens };
    });
    assert.ok(since.now >= 5, `lesson time counts from sinceMs: ${since.now}`);
    assert.deepEqual({ sent: since.sent, tokens: since.tokens }, { sent: true, tokens: 3 }, 'a click from sinceMs on is decided');
    const element = await page.evaluate(() => {
      const diagram = document.getElementById('element').diagram;
      diagram.send(1);
      return { tokens: diagram.tokens, counter: document.getElementById('element').shadowRoot.querySelector('.bl-counter').textContent };
    });
    assert.deepEqual(element, { tokens: 2, counter: '2.0 / 3' });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await host.close();
    await rm(work, { recursive: true, force: true });
  }
});

test('embed.html reads paused from its address: paused, paused=true and paused=1 stop time, paused=false and paused=0 do not', async () => {
  const page = await openPage(browser);
  for (const [query, paused] of [['paused', true], ['paused=true', true], ['paused=1', true], ['paused=false', false], ['paused=0', false], ['capacity=3', false]]) {
    await page.goto(`${site.url}embed.html?${query}`);
    await page.waitForFunction(() => document.querySelector('bucket-lab').diagram);
    assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').diagram.paused), paused, query);
  }
  for (const value of ['later', 'constructor']) {
    await page.goto(`${site.url}embed.html?paused=${value}`);
    await page.locator('bucket-lab .bl-error').waitFor();
    // The address's own rules and words: no attribute to give or leave out.
    assert.deepEqual(await embedError(page), {
      title: 'Configuração inválida no endereço: paused',
      details: [`paused: “${value}” não é permitido; use paused, paused=true ou paused=1 para parar o tempo, paused=false ou paused=0 (ou retire-o) para o tempo correr.`],
    });
  }
  await page.context().close();
});

test('embed.html at the largest and smallest capacities draws a full bucket and counts it full', async () => {
  const page = await openPage(browser);
  for (const [capacity, count] of [['1e308', '1e+308 / 1e+308'], ['1.7976931348623157e308', '1.79769313486232e+308 / 1.79769313486232e+308'], ['5e-324', undefined], ['5', '5.0 / 5']]) {
    await page.goto(`${site.url}embed.html?capacity=${capacity}&lang=en&paused`);
    await page.waitForFunction(() => document.querySelector('bucket-lab')?.diagram);
    const drawn = await page.evaluate(() => {
      const root = document.querySelector('bucket-lab').shadowRoot;
      const { tokens, capacity } = document.querySelector('bucket-lab').diagram;
      // The water is moved down from the brim (y = 70) by its y; 70 is full.
      return { full: tokens === capacity, offset: root.querySelector('.bl-fill').getAttribute('y'), counter: root.querySelector('.bl-counter').textContent };
    });
    assert.equal(drawn.full, true, capacity);
    assert.equal(drawn.offset, '70.00', capacity);
    // (Floored to a tenth, 5e-324 tokens read 0.0, as 0.05 do.)
    if (count) assert.equal(drawn.counter, count, capacity);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** The error box of embed.html's element: its title and each line under it. */
const embedError = (page) => page.evaluate(() => {
  const root = document.querySelector('bucket-lab').shadowRoot;
  return {
    title: root.querySelector('.bl-error-title')?.textContent,
    details: [...root.querySelectorAll('.bl-error-detail')].map((p) => p.textContent),
  };
});

test('when embed.html\'s own script does not arrive, or arrives cut short, its diagram says so in both languages instead of queueing clicks', async () => {
  // Dropped, or a partial upload the server sends whole (200, half the file): it does not parse.
  for (const fail of [(route) => route.abort(), async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    await route.fulfill({ response, body: body.subarray(0, body.length >> 1) });
  }]) {
    const page = await openPage(browser);
    await page.route('**/embed.bundle.js', fail);
    await page.goto(`${site.url}embed.html?lang=en`);
    await page.locator('bucket-lab .bl-error').waitFor();
    // The address's language is applied by that very script: the page says it both ways.
    assert.deepEqual(await embedError(page), {
      title: 'Não foi possível carregar o diagrama / The diagram could not be loaded',
      details: ['O script dele não chegou: a conexão pode ter caído, ou falta um arquivo no site. Recarregar a página pode resolver.',
        'Its script did not arrive: the connection may have dropped, or a file is missing from the site. Reloading the page may help.'],
    });
    assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-send')), null);
    assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').shadowRoot.querySelector('[role=alert]') !== null), true);
    await page.context().close();
  }
});

test('in a sandbox without allow-same-origin, embed.html names the missing permission, not a dropped connection', async () => {
  const page = await openPage(browser);
  // The frame's origin is opaque ("null"): the browser refuses its module scripts (CORS).
  await page.setContent(`<iframe sandbox="allow-scripts" src="${site.url}embed.html?lang=en" width="600" height="500"></iframe>`);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  await frame.locator('bucket-lab .bl-error').waitFor();
  assert.equal(await frame.evaluate(() => self.origin), 'null');
  assert.deepEqual(await embedError(frame), {
    title: 'Não foi possível carregar o diagrama / The diagram could not be loaded',
    details: ['Esta página roda num sandbox sem allow-same-origin (o atributo sandbox do iframe dela, ou a Content Security Policy dela), e por isso o navegador recusa os scripts dela: acrescente allow-same-origin ao lado de allow-scripts.',
      'This page runs in a sandbox without allow-same-origin (its iframe\'s sandbox attribute, or its Content Security Policy), so the browser refuses its scripts: add allow-same-origin beside allow-scripts.'],
  });
  // With the permission it is the page as usual.
  await page.setContent(`<iframe sandbox="allow-scripts allow-same-origin" src="${site.url}embed.html?lang=en" width="600" height="500"></iframe>`);
  const allowed = page.frames().find((f) => f !== page.mainFrame());
  await allowed.locator('bucket-lab .bl-widget[data-live]').waitFor();
  await page.context().close();
});

test('embed.html quotes a character that would reorder its message (U+202E) as its code, as the console does', async () => {
  const page = await openPage(browser);
  await page.goto(`${site.url}embed.html?lang=en&capacity=%E2%80%AE1%20si%20B%20%3A%20deilppa`);
  await page.locator('bucket-lab .bl-error').waitFor();
  assert.deepEqual(await embedError(page), {
    title: 'Invalid setting in the address: capacity',
    details: ['Capacity B: “\\u{202e}1 si B : deilppa” is not a number; use a number greater than 0.'],
  });
  assert.equal(page.problems.length, 1);
  assert.ok(!page.problems[0].includes('\u202e'), page.problems[0]);
  await page.context().close();
});

test('embed.html names every bad setting at once, in the page\'s language, by the label the reader sees', async () => {
  const page = await openPage(browser);
  await page.goto(`${site.url}embed.html?capacity=abc&refill-rate=-2&lang=en`);
  await page.locator('bucket-lab .bl-error').waitFor();
  assert.deepEqual(await embedError(page), {
    title: 'Invalid settings in the address: capacity, refill-rate',
    details: ['Capacity B: “abc” is not a number; use a number greater than 0.', 'Rate r (tokens/s): -2 is not allowed; use a number of at least 0.'],
  });
  assert.equal(page.problems.length, 2, 'one console error per bad setting');
  assert.match(page.problems[0], /^error: bucketlab embed: invalid setting capacity="abc": capacity must be a finite number greater than 0, got "abc"/);
  await page.goto(`${site.url}embed.html?capacity=0`);
  await page.locator('bucket-lab .bl-error').waitFor();
  assert.deepEqual(await embedError(page), {
    title: 'Configuração inválida no endereço: capacity',
    details: ['Capacidade B: 0 não é permitido; use um número maior que 0.'],
  });
  // An English author's thousands separator is neither a thousand nor a decimal: both are named.
  await page.goto(`${site.url}embed.html?capacity=1,000&lang=en`);
  await page.locator('bucket-lab .bl-error').waitFor();
  assert.deepEqual(await embedError(page), {
    title: 'Invalid setting in the address: capacity',
    details: ['Capacity B: in “1,000” the comma could group thousands or mark decimals; write 1000 or 1.000.'],
  });
  await page.context().close();
});

test('embed.html names a bad paused with the settings the element refuses, and after an unknown one; a script hears it all in one bucketlab:error', async () => {
  const page = await openPage(browser);
  await page.addInitScript(() => {
    window.heard = [];
    document.addEventListener('bucketlab:error', ({ detail: { error } }) => {
      window.heard.push({ message: error.message, attributes: error.errors.map((e) => e.attribute) });
    });
  });
  await page.goto(`${site.url}embed.html?paused=yes&lang=en&cost=9`);
  await page.waitForFunction(() => document.querySelector('bucket-lab').shadowRoot.querySelectorAll('.bl-error-detail').length === 2);
  assert.deepEqual(await embedError(page), {
    title: 'Invalid settings in the address: paused, cost',
    details: [
      'paused: “yes” is not allowed; use paused, paused=true or paused=1 to stop time, paused=false or paused=0 (or leave it out) to let time run.',
      'Cost c: 9 is not allowed; use a whole number from 1 to 5.',
    ],
  });
  assert.equal(page.problems.length, 2, page.problems.join('\n'));
  await page.goto(`${site.url}embed.html?refill_rate=2&cost=9&lang=en`);
  await page.waitForFunction(() => document.querySelector('bucket-lab').shadowRoot.querySelectorAll('.bl-error-detail').length === 3);
  assert.deepEqual(await embedError(page), {
    title: 'Unknown setting in the address: refill_rate',
    details: [
      'The known settings are: capacity, refill-rate, cost, tokens, lang, view, controls, paused, theme.',
      'Invalid setting in the address: cost',
      'Cost c: 9 is not allowed; use a whole number from 1 to 5.',
    ],
  });
  assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').diagram), null);
  // Once, when everything wrong is known: not first with the unknown setting alone.
  assert.deepEqual(await page.evaluate(() => window.heard.map((e) => e.attributes)), [['cost']]);
  assert.deepEqual(await page.evaluate(() => document.querySelector('bucket-lab').error.errors.map((e) => e.attribute)), ['cost']);
  // An unknown setting alone is heard too, with its title, once.
  await page.goto(`${site.url}embed.html?refill_rate=2&lang=en`);
  await page.waitForFunction(() => window.heard.length > 0);
  await page.waitForFunction(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-error-title'));
  assert.deepEqual(await page.evaluate(() => window.heard), [{ message: 'Unknown setting in the address: refill_rate', attributes: [] }]);
  await page.context().close();
});

test('embed.html refuses a setting it does not know, naming it and the known ones; what hosts append passes', async () => {
  const page = await openPage(browser);
  await page.goto(`${site.url}embed.html?refill_rate=20&capacity=10&lang=en`);
  await page.locator('bucket-lab .bl-error').waitFor();
  assert.deepEqual(await embedError(page), {
    title: 'Unknown setting in the address: refill_rate',
    details: ['The known settings are: capacity, refill-rate, cost, tokens, lang, view, controls, paused, theme.'],
  });
  assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').diagram), null);
  assert.deepEqual(page.problems, ['error: bucketlab embed: unknown setting "refill_rate"; known: capacity, refill-rate, cost, tokens, lang, view, controls, paused, theme']);
  await page.goto(`${site.url}embed.html?Capacity=3&theme=dark&colour=red`);
  await page.locator('bucket-lab .bl-error').waitFor();
  assert.equal((await embedError(page)).title, 'Configurações desconhecidas no endereço: Capacity, colour');
  page.problems.length = 0;
  await page.goto(`${site.url}embed.html?capacity=3&utm_source=moodle&fbclid=x&lang=en`);
  await page.waitForFunction(() => document.querySelector('bucket-lab').diagram);
  assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-counter').textContent), '3.0 / 3');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a long value or name is quoted cut at 40 characters, in the element\'s box and embed.html\'s, so an address cannot write a notice of its own there', async () => {
  const long = 'Your session has expired. Sign in again at https://login.example/sso to continue '.repeat(4);
  const page = await openHostile();
  const shown = async (id) => page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector('.bl-error').textContent, id);
  for (const name of ['view', 'controls', 'theme', 'paused', 'lang']) {
    await page.evaluate(([name, long]) => document.getElementById('c').setAttribute(name, long), [name, long]);
    await page.waitForFunction((name) => document.getElementById('c').error?.errors?.[0]?.attribute === name, name);
    const text = await shown('c');
    assert.ok(!text.includes(long.slice(0, 41)) && text.includes(`${long.slice(0, 40)}…`), `${name}: ${text}`);
    assert.ok(!page.problems.some((p) => p.includes(long.slice(0, 41))), `${name}: the console's line is cut too`);
    await page.evaluate(([name, value]) => {
      const c = document.getElementById('c');
      if (value === null) c.removeAttribute(name); else c.setAttribute(name, value);
    }, [name, name === 'lang' ? 'en' : name === 'paused' ? '' : null]);
    await page.waitForFunction(() => document.getElementById('c').diagram);
  }
  await page.context().close();
  const embed = await openPage(browser);
  await embed.goto(`${site.url}embed.html?${encodeURIComponent(long)}=1&paused=${encodeURIComponent(long)}&lang=en`);
  await embed.locator('bucket-lab .bl-error').waitFor();
  const { title, details } = await embedError(embed);
  for (const text of [title, ...details]) assert.ok(!text.includes(long.slice(0, 41)), text);
  assert.equal(title, `Unknown setting in the address: ${long.slice(0, 40)}…`);
  assert.ok(embed.problems.every((p) => !p.includes(long.slice(0, 41))), embed.problems.join('\n'));
  // A character that would reorder the box's text (U+202E) is quoted as its code.
  await embed.goto(`${site.url}embed.html?view=${encodeURIComponent('\u202egnissim')}&lang=en`);
  await embed.waitForFunction(() => document.querySelector('bucket-lab').error?.errors?.[0]?.attribute === 'view');
  const box = (await embedError(embed)).details.join(' ');
  assert.ok(!box.includes('\u202e') && box.includes('\\u{202e}gnissim'), box);
  await embed.context().close();
});

test('theme: the element takes the host page\'s colour scheme, or the one its theme attribute names', async () => {
  const LIGHT = 'rgb(251, 251, 253)';
  const DARK = 'rgb(18, 20, 26)';
  const backgrounds = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('bucket-lab')]
    .map((el) => [el.id, getComputedStyle(el.shadowRoot.querySelector('.bl-frame')).backgroundColor])));
  for (const [system, path, want] of [
    // A page that declares no scheme is a light page, whatever the system's setting.
    ['light', 'schemes.html', { none: LIGHT, light: LIGHT, dark: DARK, auto: LIGHT }],
    ['dark', 'schemes.html', { none: LIGHT, light: LIGHT, dark: DARK, auto: DARK }],
    // A dark page (mdBook's dark themes set color-scheme: dark) gets a dark widget.
    ['light', 'schemes-dark.html', { none: DARK, light: LIGHT, dark: DARK, auto: LIGHT }],
  ]) {
    const page = await openPage(browser, { colorScheme: system });
    await page.goto(`${site.url}${path}`);
    await page.waitForFunction(() => [...document.querySelectorAll('bucket-lab')].every((el) => el.diagram));
    assert.deepEqual(await backgrounds(page), want, `${system} system, ${path}`);
    if (path === 'schemes.html' && system === 'light') {
      // Changed at run time: the colours follow, the running diagram stays the same object.
      await page.evaluate(() => { window.before = document.getElementById('none').diagram; document.getElementById('none').setAttribute('theme', 'dark'); });
      assert.equal((await backgrounds(page)).none, DARK);
      assert.equal(await page.evaluate(() => document.getElementById('none').diagram === window.before), true);
      await page.evaluate(() => document.getElementById('light').setAttribute('theme', 'sepia'));
      await page.locator('#light .bl-error').waitFor();
      assert.equal(await page.locator('#light .bl-error-detail').textContent(), 'theme: “sepia” is not allowed; use “light”, “dark”, or “auto”. Without the attribute, the page’s colors apply.');
      page.problems.length = 0;
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('a host\'s inherited text styles (break-all, hyphens, small caps, a fill colour) stop at the element: its words wrap and read as the lesson\'s', async () => {
  const page = await openPage(browser);
  await page.goto(`${site.url}inherits.html`);
  await page.waitForFunction(() => document.getElementById('a').diagram);
  const styles = await page.evaluate(() => {
    const status = document.getElementById('a').shadowRoot.querySelector('.bl-status');
    const s = getComputedStyle(status);
    return [s.wordBreak, s.hyphens, s.fontVariantCaps, s.fontFeatureSettings, s.fontSizeAdjust, s.fontStretch, s.webkitTextFillColor === s.color];
  });
  assert.deepEqual(styles, ['normal', 'manual', 'normal', 'normal', 'none', '100%', true]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('stepping back by key after a 200 that followed 429s holds the element\'s timeline where it is, as the response takes the 429\'s room', async () => {
  const page = await openPage(browser, { viewport: { width: 1024, height: 768 } });
  await page.goto(`${site.url}long.html`);
  await page.waitForFunction(() => document.getElementById('a').diagram);
  await page.evaluate(() => {
    const d = document.getElementById('a').diagram;
    d.pause();
    for (let i = 0; i < 7; i++) d.send();
    d.step(1.5);
    d.send();
  });
  const scrub = page.locator('#a .bl-scrub');
  await page.evaluate(() => {
    const r = document.getElementById('a').shadowRoot.querySelector('.bl-scrub').getBoundingClientRect();
    scrollBy({ top: r.top + r.height / 2 - innerHeight / 2, behavior: 'instant' });
  });
  const before = (await scrub.boundingBox()).y;
  await scrub.focus();
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.getElementById('a').diagram.traveling);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const after = (await scrub.boundingBox()).y;
  assert.ok(Math.abs(after - before) <= 1, `the timeline stays where it was: ${before} → ${after}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('moved elsewhere in the page (appendChild), an element keeps its bucket; removed, it is freed', async () => {
  const page = await openPage(browser);
  await page.goto(`${site.url}hostile.html`);
  await page.waitForFunction(() => document.getElementById('a').diagram);
  const moved = await page.evaluate(async () => {
    const a = document.getElementById('a');
    const kept = a.diagram;
    kept.send(3);
    kept.send(3);
    const before = kept.tokens;
    const box = document.createElement('section');
    document.body.append(box);
    box.appendChild(a);
    await new Promise((resolve) => setTimeout(resolve, 0));
    return { before, same: a.diagram === kept, tokens: a.diagram.tokens, paused: a.diagram.paused, counter: a.shadowRoot.querySelector('.bl-counter').textContent };
  });
  assert.deepEqual(moved, { before: 4, same: true, tokens: 4, paused: true, counter: '4.0 / 10' });
  // Still live after the move: a send is decided against the kept level.
  assert.equal(await page.evaluate(() => document.getElementById('a').diagram.send(4)), true);
  assert.equal(await counter(page, 'a'), '0.0 / 10');
  const freed = await page.evaluate(async () => {
    const a = document.getElementById('a');
    const kept = a.diagram;
    a.remove();
    await Promise.resolve();
    try {
      kept.tokens;
      return 'still usable';
    } catch (error) {
      return error.message;
    }
  });
  assert.match(freed, /null pointer|destroyed|moved/i, 'removed for good, the handle is freed');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** A host page with `body`, loading the element. */
const hostPage = (body, lang = 'en') => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Host</title>
  <link rel="icon" href="data:,"><script type="module" src="./bucket-lab.js"></script></head><body>${body}</body></html>`;

test('a misspelled attribute (refill_rate, refillRate, capactiy) is refused with the setting it looks like; the page\'s and a framework\'s own attributes are let be', async () => {
  const body = `<bucket-lab id="snake" capacity="10" refill_rate="2"></bucket-lab>
    <bucket-lab id="camel" refillRate="2" capactiy="4" lang="pt-BR"></bucket-lab>
    <bucket-lab id="fine" capacity="3" class="x" title="A bucket" data-v-1a2b="" _ngcontent-ng-c12="" aria-describedby="x" paused></bucket-lab>
    <bucket-lab id="alpine" capacity="2" paused></bucket-lab>`;
  const host = await serveStatic(WWW, { headers: { 'content-security-policy': STRICT_CSP }, pages: { 'host.html': hostPage(body) } });
  try {
    const page = await openPage(browser);
    await page.goto(`${host.url}host.html`);
    await page.waitForFunction(() => document.getElementById('fine').diagram?.capacity === 3 && document.getElementById('alpine').diagram);
    // Alpine leaves its bindings (:capacity, @click) on the element: they are no settings.
    await page.evaluate(() => ['x-data', ':capacity', '@click', 'x-bind:cost'].forEach((name) => document.getElementById('alpine').setAttribute(name, 'b')));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    assert.equal(await page.evaluate(() => document.getElementById('alpine').diagram?.capacity), 2);
    await page.locator('#snake .bl-error').waitFor();
    await page.locator('#camel .bl-error').waitFor();
    const box = (id) => page.evaluate((id) => {
      const root = document.getElementById(id).shadowRoot;
      return [root.querySelector('.bl-error-title').textContent, ...[...root.querySelectorAll('.bl-error-detail')].map((p) => p.textContent)];
    }, id);
    assert.deepEqual(await box('snake'), ['Invalid attribute: refill_rate', 'refill_rate: this diagram has no such setting; did you mean “refill-rate”?']);
    // HTML reads refillRate as refillrate; the element's own language words the refusal.
    assert.deepEqual(await box('camel'), ['Atributos inválidos: refillrate, capactiy',
      'refillrate: este diagrama não tem essa configuração; você quis dizer “refill-rate”?',
      'capactiy: este diagrama não tem essa configuração; você quis dizer “capacity”?']);
    // One line per misspelling; the two elements render each on its own (their stylesheets load in
    // either order), so the lines may come in either element's order.
    assert.deepEqual([...page.problems].sort(), [
      'error: <bucket-lab> invalid attribute capactiy="4": "capactiy" is not an attribute of <bucket-lab>; did you mean "capacity"?',
      'error: <bucket-lab> invalid attribute refill_rate="2": "refill_rate" is not an attribute of <bucket-lab>; did you mean "refill-rate"?',
      'error: <bucket-lab> invalid attribute refillrate="2": "refillrate" is not an attribute of <bucket-lab>; did you mean "refill-rate"?',
    ]);
    // Fixed, the diagram comes back: the misspelling renamed, with its value.
    await page.evaluate(() => {
      const element = document.getElementById('snake');
      element.removeAttribute('refill_rate');
      element.setAttribute('refill-rate', '2');
    });
    await page.waitForFunction(() => document.getElementById('snake').diagram?.refillRate === 2);
    assert.equal(await inside(page, 'snake', '.bl-error'), null);
    // A misspelling added to a live diagram is refused at once.
    await page.evaluate(() => document.getElementById('fine').setAttribute('costs', '2'));
    await page.locator('#fine .bl-error').waitFor();
    assert.equal(await inside(page, 'fine', '.bl-error-title'), 'Invalid attribute: costs');
    await page.context().close();
  } finally {
    await host.close();
  }
});

test('stylesheets that fail or do not apply are said in the frame: embed.html\'s own (404), and the element\'s sent as text/plain', async () => {
  const said = /^Its stylesheets \((widget\.css|widget\.css, bucket-lab\.css)\) did not load or do not apply: the server must send them as text\/css/;
  // embed.html links them in its markup: one that failed before the element ran is still noticed.
  let page = await openPage(browser);
  await page.route((url) => url.pathname.endsWith('/element/widget.css'), (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto(`${site.url}embed.html?lang=en`);
  await page.locator('bucket-lab .bl-error').waitFor();
  assert.match(await page.locator('bucket-lab .bl-error-detail').first().textContent(), said);
  assert.ok(await page.locator('bucket-lab .bl-error').isVisible(), 'the frame shows the box, not a blank page');
  await page.context().close();
  // A host that sends CSS as text/plain: the browser loads the files and applies nothing.
  page = await openPage(browser);
  await page.route((url) => /\/element\/[^/]+\.css$/.test(url.pathname), async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'text/plain' } });
  });
  await page.goto(`${site.url}hostile.html`);
  await page.locator('#a .bl-error').waitFor();
  assert.match(await inside(page, 'a', '.bl-error-detail'), said);
  assert.equal(await page.evaluate(() => document.getElementById('a').diagram), null, 'no black, unstyled bucket');
  await page.context().close();
});

test('a host page\'s CSP: a wasm refusal names \'wasm-unsafe-eval\', unloaded stylesheets are said, a wasm download refused names connect-src, in the page\'s language', async () => {
  const body = '<bucket-lab id="x" capacity="3"></bucket-lab>';
  for (const [policy, lang, title, details] of [
    ["default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'", 'pt-BR',
      'Não foi possível carregar o diagrama',
      ["A Content Security Policy desta página não permite WebAssembly: acrescente 'wasm-unsafe-eval' ao script-src dela."]],
    ["default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'none'; connect-src 'self'", 'en',
      'The diagram could not be loaded',
      ['Its stylesheets (widget.css, bucket-lab.css) did not load or do not apply: the server must send them as text/css, and if this page has a Content Security Policy, its style-src must allow the site they come from.']],
    ["default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'none'", 'en',
      'The diagram could not be loaded',
      ['Its WebAssembly file (bucketlab_bg.wasm) could not be downloaded: the connection may have dropped, or, if this page has a Content Security Policy, its connect-src must allow the site it comes from.']],
    // Both at once: both are said, so the author fixes the policy in one go.
    ["default-src 'self'; script-src 'self'; style-src 'none'; connect-src 'self'", 'en',
      'The diagram could not be loaded',
      ["This page’s Content Security Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src.",
        'Its stylesheets (widget.css, bucket-lab.css) did not load or do not apply: the server must send them as text/css, and if this page has a Content Security Policy, its style-src must allow the site they come from.']],
  ]) {
    const host = await serveStatic(WWW, { headers: { 'content-security-policy': policy }, pages: { 'host.html': hostPage(body, lang) } });
    try {
      const page = await openPage(browser);
      await page.goto(`${host.url}host.html`);
      await page.locator('#x .bl-error').waitFor();
      assert.equal(await inside(page, 'x', '.bl-error-title'), title, policy);
      assert.deepEqual(await page.evaluate(() => [...document.getElementById('x').shadowRoot.querySelectorAll('.bl-error-detail')].map((p) => p.textContent)), details, policy);
      assert.ok(await page.locator('#x .bl-error').isVisible(), 'the box is seen, styled or not');
      assert.equal(await page.evaluate(() => document.getElementById('x').diagram), null);
      assert.ok(page.problems.some((p) => p.includes('<bucket-lab> could not load')), page.problems.join('\n'));
      await page.context().close();
    } finally {
      await host.close();
    }
  }
});

test('paused, the countdown says time is paused; with no send button, the status invites no click on it', async () => {
  const body = `<bucket-lab id="ex" capacity="3" refill-rate="1" cost="2" controls="send cost" paused></bucket-lab>
    <bucket-lab id="none" controls="none"></bucket-lab><bucket-lab id="pt" lang="pt-BR" controls="time bucket"></bucket-lab>`;
  const host = await serveStatic(WWW, { pages: { 'host.html': hostPage(body) } });
  try {
    const page = await openPage(browser);
    await page.goto(`${host.url}host.html`);
    await page.waitForFunction(() => [...document.querySelectorAll('bucket-lab')].every((e) => e.diagram));
    const after = (id) => page.evaluate((id) => {
      const countdown = document.getElementById(id).shadowRoot.querySelector('.bl-countdown');
      return [countdown.textContent, getComputedStyle(countdown, '::after').content];
    }, id);
    await click(page, 'ex', '.bl-send');
    await click(page, 'ex', '.bl-send');
    assert.equal(await inside(page, 'ex', '.bl-status'), 'Denied: 429 with Retry\u2011After: 1 (the exact wait: 1\u00a0s).');
    assert.deepEqual(await after('ex'), ['Wait: 1.0\u00a0s left', '" (time is paused)"']);
    // Time runs again: the countdown runs down, with nothing added.
    await page.evaluate(() => document.getElementById('ex').diagram.resume());
    assert.equal((await after('ex'))[1], 'none');
    await page.waitForFunction(() => document.getElementById('ex').shadowRoot.querySelector('.bl-countdown').textContent.startsWith('Wait over'));

    assert.equal(await inside(page, 'none', '.bl-status'), 'No request yet.');
    assert.equal(await inside(page, 'pt', '.bl-status'), 'Nenhuma requisição ainda.');
    // The send button back (at run time): the invitation comes back with it, and goes with it.
    await page.evaluate(() => document.getElementById('none').setAttribute('controls', 'send time'));
    assert.equal(await inside(page, 'none', '.bl-status'), 'No request yet: press “Send request”.');
    await page.evaluate(() => document.getElementById('none').setAttribute('controls', 'bucket'));
    assert.equal(await inside(page, 'none', '.bl-status'), 'No request yet.');
    // "Reset" (in the Time group) clears the panel with the same words.
    await page.evaluate(() => document.getElementById('pt').diagram.send(1));
    await click(page, 'pt', '.bl-reset');
    assert.equal(await inside(page, 'pt', '.bl-status'), 'Nenhuma requisição ainda.');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await host.close();
  }
});

test('without the Time group, the timeline\'s keys never leave time stopped: back at now it runs again, and a past moment names no hidden button', async () => {
  const page = await openPage(browser);
  await page.goto(`${site.url}embed.html?lang=en&controls=send`);
  await page.waitForFunction(() => document.querySelector('bucket-lab').diagram);
  const state = () => page.evaluate(() => {
    const { diagram, shadowRoot } = document.querySelector('bucket-lab');
    return { traveling: diagram.traveling, paused: diagram.paused, status: shadowRoot.querySelector('.bl-status').textContent };
  });
  await page.evaluate(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-scrub').focus());
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await state(), { traveling: true, paused: true, status: 'No request yet.' });
  // With a Resume button the keys that step keep time stopped; here nothing else could start it.
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await state(), { traveling: false, paused: false, status: 'No request yet: press “Send request”.' });
  await page.keyboard.press('Home');
  assert.equal((await state()).status, 'No request yet.', 'no "Resume" or "Back to live" to press');
  await page.keyboard.press('End');
  assert.deepEqual(await state(), { traveling: false, paused: false, status: 'No request yet: press “Send request”.' });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('embed.html refuses a setting given twice, naming it, rather than using the first', async () => {
  const page = await openPage(browser);
  await page.goto(`${site.url}embed.html?capacity=5&capacity=6&lang=en&utm_source=a&utm_source=b`);
  await page.locator('bucket-lab .bl-error').waitFor();
  assert.deepEqual(await embedError(page), {
    title: 'Setting given twice in the address: capacity',
    details: ['Give each setting once.'],
  });
  assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').diagram), null);
  assert.deepEqual(page.problems, ['error: bucketlab embed: "capacity" ("5", "6") given more than once; give each setting once']);
  // Every kind of mistake in the address at once.
  page.problems.length = 0;
  await page.goto(`${site.url}embed.html?colour=red&cost=1&cost=2&paused=yes`);
  await page.locator('bucket-lab .bl-error').waitFor();
  assert.deepEqual(await embedError(page), {
    title: 'Configuração desconhecida no endereço: colour',
    details: [
      'As configurações conhecidas são: capacity, refill-rate, cost, tokens, lang, view, controls, paused, theme.',
      'Configuração repetida no endereço: cost', 'Informe cada configuração uma única vez.',
      'Configuração inválida no endereço: paused',
      'paused: “yes” não é permitido; use paused, paused=true ou paused=1 para parar o tempo, paused=false ou paused=0 (ou retire-o) para o tempo correr.',
    ],
  });
  assert.equal(page.problems.length, 3, page.problems.join('\n'));
  await page.context().close();
});

test('before the wasm arrives an element shows its own language, and a click then is decided at its cost (the element and embed.html)', async () => {
  const page = await openPage(browser);
  let release;
  let held = new Promise((resolve) => { release = resolve; });
  await page.route('**/bucketlab_bg.wasm', async (route) => { await held; await route.continue(); });
  const decisions = [];
  await page.exposeFunction('decided', (detail) => decisions.push(detail));
  await page.addInitScript(() => document.addEventListener('bucketlab:decision', (e) => window.decided({ allowed: e.detail.allowed, tokens: e.detail.tokens })));
  await page.goto(`${site.url}early-settings.html`, { waitUntil: 'domcontentloaded' });
  const waiting = (id) => page.evaluate((id) => {
    const w = document.getElementById(id).shadowRoot.querySelector('.bl-widget');
    return { lang: w.lang, live: w.hasAttribute('data-live'), send: w.querySelector('.bl-send').textContent };
  }, id);
  await page.waitForFunction(() => document.getElementById('b').shadowRoot?.querySelector('.bl-widget'));
  assert.deepEqual(await waiting('b'), { lang: 'pt-BR', live: false, send: 'Enviar requisição' });
  // Made by a script, its attributes written after the constructor ran: the same once it is in the page.
  await page.evaluate(() => {
    const element = document.createElement('bucket-lab');
    element.id = 'c';
    element.setAttribute('lang', 'pt-BR');
    element.setAttribute('paused', '');
    document.body.append(element);
  });
  assert.deepEqual(await waiting('c'), { lang: 'pt-BR', live: false, send: 'Enviar requisição' });
  await page.locator('#b .bl-send').click();
  release();
  await page.waitForFunction(() => document.getElementById('b').diagram && document.getElementById('c').diagram);
  // One request at the element's cost of 2: 1 token of 3 left, not 2.
  assert.deepEqual(decisions, [{ allowed: true, tokens: 1 }]);
  assert.equal(await page.evaluate(() => document.getElementById('b').diagram.tokens), 1);
  assert.equal(await inside(page, 'b', '.bl-counter'), '1,0 / 3');

  // embed.html: cost 3 of 3, two clicks before the wasm: the second is refused.
  decisions.length = 0;
  held = new Promise((resolve) => { release = resolve; });
  await page.goto(`${site.url}embed.html?capacity=3&cost=3&lang=en&paused`, { waitUntil: 'domcontentloaded' });
  await page.locator('bucket-lab .bl-send').click();
  await page.locator('bucket-lab .bl-send').click();
  release();
  await page.waitForFunction(() => document.querySelector('bucket-lab').diagram);
  assert.deepEqual(decisions.map((d) => d.allowed), [true, false]);
  assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').diagram.tokens), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('controls="send" has its size from the first paint: before the wasm arrives the groups it leaves out are neither shown nor in the accessibility tree (the element and embed.html)', async () => {
  const body = `<bucket-lab id="send" lang="en" controls="send" paused></bucket-lab>
    <bucket-lab id="mixed" lang="en" controls="Time, BUCKET" paused></bucket-lab>
    <bucket-lab id="later" lang="en" paused></bucket-lab>
    <bucket-lab id="bad" lang="en" controls="send sned" paused></bucket-lab>`;
  const host = await serveStatic(WWW, { headers: { 'content-security-policy': STRICT_CSP }, pages: { 'host.html': hostPage(body) } });
  const page = await openPage(browser);
  try {
    let release;
    let held = new Promise((resolve) => { release = resolve; });
    await page.route('**/bucketlab_bg.wasm', async (route) => { await held; await route.continue(); });
    /** The element's height, whether it is live, and which of its parts show. */
    const look = (selector) => page.evaluate((selector) => {
      const element = document.querySelector(selector);
      const root = element.shadowRoot;
      const parts = ['.bl-row', '.bl-send', '.bl-cost', '.bl-burst-size', '.bl-burst', '.bl-capacity', '.bl-traffic', '.bl-pause'];
      return {
        height: element.getBoundingClientRect().height,
        live: Boolean(root.querySelector('.bl-widget[data-live]')),
        shown: parts.filter((part) => root.querySelector(part)?.checkVisibility()),
      };
    }, selector);
    /** The element's buttons and fields as assistive technology finds them (hidden ones are not). */
    const reached = async (selector) => {
      const element = page.locator(selector);
      return {
        buttons: await element.getByRole('button').allTextContents(),
        fields: await element.getByRole('textbox').count(),
        sliders: await element.getByRole('slider').count(),
        menus: await element.getByRole('combobox').count(),
      };
    };
    /** Waits until the element's frame paints (its stylesheets applied), the module still held. */
    const painted = (selector) => page.waitForFunction((selector) => {
      const frame = document.querySelector(selector)?.shadowRoot?.querySelector('.bl-frame');
      return frame && !frame.hidden && getComputedStyle(frame).visibility === 'visible';
    }, selector);

    await page.goto(`${host.url}host.html`, { waitUntil: 'domcontentloaded' });
    for (const id of ['send', 'mixed', 'later', 'bad']) await painted(`#${id}`);
    const early = await look('#send');
    const earlyReached = await reached('#send');
    const mixed = await look('#mixed');
    // Changed before the module arrives: the waiting markup follows.
    await page.evaluate(() => document.getElementById('later').setAttribute('controls', 'burst'));
    const later = await look('#later');
    const bad = await look('#bad');
    release();
    await page.waitForFunction(() => ['send', 'mixed', 'later'].every((id) => document.getElementById(id).diagram));
    await page.locator('#bad .bl-error').waitFor();
    const mounted = await look('#send');
    assert.equal(mounted.height, early.height, `the same height before the module mounts (${early.height} px) as after (${mounted.height} px)`);
    assert.deepEqual(mounted, { ...early, live: true });
    assert.deepEqual(early.shown, ['.bl-row', '.bl-send']);
    assert.deepEqual(earlyReached, { buttons: ['Send request'], fields: 0, sliders: 1, menus: 0 }, 'only the send button and the timeline');
    assert.deepEqual(await reached('#send'), earlyReached);
    // In any case and with commas, as the attribute is read: no request row at all.
    for (const shown of [mixed.shown, (await look('#mixed')).shown]) assert.deepEqual(shown, ['.bl-capacity', '.bl-pause']);
    for (const shown of [later.shown, (await look('#later')).shown]) assert.deepEqual(shown, ['.bl-row', '.bl-burst-size', '.bl-burst']);
    // A refused list shows every group until its error replaces the widget, as before.
    assert.deepEqual(bad.shown, ['.bl-row', '.bl-send', '.bl-cost', '.bl-burst-size', '.bl-burst', '.bl-capacity', '.bl-traffic', '.bl-pause']);

    // Changed live: the Time group comes and goes, and so does its height.
    await page.evaluate(() => document.getElementById('send').setAttribute('controls', 'send time'));
    const timed = await look('#send');
    assert.deepEqual(timed.shown, ['.bl-row', '.bl-send', '.bl-pause']);
    assert.ok(timed.height > early.height, `taller with the Time group: ${timed.height} px`);
    await page.evaluate(() => document.getElementById('send').setAttribute('controls', 'none'));
    assert.deepEqual((await look('#send')).shown, []);
    await page.evaluate(() => document.getElementById('send').setAttribute('controls', 'send'));
    assert.deepEqual(await look('#send'), mounted);
    assert.deepEqual(page.problems.filter((p) => !p.includes('controls="send sned"')), []);

    // embed.html sets the address's controls on its element before the module arrives.
    held = new Promise((resolve) => { release = resolve; });
    await page.goto(`${site.url}embed.html?lang=en&controls=send&paused`, { waitUntil: 'domcontentloaded' });
    await painted('bucket-lab');
    const framed = await look('bucket-lab');
    release();
    await page.waitForFunction(() => document.querySelector('bucket-lab').diagram);
    const framedLive = await look('bucket-lab');
    assert.equal(framedLive.height, framed.height, `embed.html: ${framed.height} px before, ${framedLive.height} px after`);
    assert.deepEqual(framedLive, { ...framed, live: true });
    assert.deepEqual(framed.shown, ['.bl-row', '.bl-send']);
  } finally {
    await page.context().close();
    await host.close();
  }
});

test('embed.html?lang=en is English from its first paint, before the wasm arrives; a click then is kept and decided on that markup', async () => {
  const page = await openPage(browser);
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/bucketlab_bg.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(`${site.url}embed.html?lang=en-GB&paused`, { waitUntil: 'domcontentloaded' });
  const widget = () => page.evaluate(() => {
    const root = document.querySelector('bucket-lab').shadowRoot;
    const w = root.querySelector('.bl-widget');
    return { lang: w.lang, send: root.querySelector('.bl-send').textContent, live: w.hasAttribute('data-live'), templates: root.querySelectorAll('template').length };
  });
  assert.deepEqual(await widget(), { lang: 'en', send: 'Send request', live: false, templates: 0 });
  await page.locator('bucket-lab .bl-send').click();
  release();
  await page.waitForFunction(() => document.querySelector('bucket-lab').diagram);
  assert.deepEqual(await widget(), { lang: 'en', send: 'Send request', live: true, templates: 0 });
  await page.waitForFunction(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-counter').textContent === '4.0 / 5');
  // A language the lesson does not speak is refused in English (i18n/translate.js's pickLang),
  // and the markup before it is English too, not Portuguese for a moment; a Portuguese tag keeps
  // the page's own Portuguese.
  for (const [tag, lang] of [['es', 'en'], ['de-AT', 'en'], ['PT-pt', 'pt-BR']]) {
    let releaseAgain;
    const heldAgain = new Promise((resolve) => { releaseAgain = resolve; });
    await page.unroute('**/bucketlab_bg.wasm');
    await page.route('**/bucketlab_bg.wasm', async (route) => { await heldAgain; await route.continue(); });
    await page.goto(`${site.url}embed.html?lang=${tag}`, { waitUntil: 'domcontentloaded' });
    assert.deepEqual({ ...await widget(), send: undefined }, { lang, send: undefined, live: false, templates: 0 }, tag);
    releaseAgain();
    if (lang === 'en') {
      const refused = () => document.querySelector('bucket-lab').shadowRoot.querySelector('[role=alert]')?.textContent;
      await page.waitForFunction(refused);
      assert.match(await page.evaluate(refused), new RegExp(`^Invalid setting in the address: lang.*lang: “${tag}” is not allowed`), tag);
    } else {
      await page.waitForFunction(() => document.querySelector('bucket-lab').diagram);
      assert.equal((await widget()).lang, lang, tag);
    }
  }
  // Without a language in the address, the page's own Portuguese stays.
  await page.unroute('**/bucketlab_bg.wasm');
  await page.goto(`${site.url}embed.html`, { waitUntil: 'domcontentloaded' });
  assert.equal((await widget()).lang, 'pt-BR');
  // The two refused languages' warnings, and nothing else.
  assert.deepEqual(page.problems.map((p) => /invalid setting lang="(es|de-AT)"/.exec(p)?.[1]), ['es', 'de-AT'], page.problems.join('\n'));
  await page.context().close();
});

test('embed.html is light unless its address says theme=dark or theme=auto, whatever the system\'s scheme', async () => {
  const LIGHT = 'rgb(251, 251, 253)';
  const DARK = 'rgb(18, 20, 26)';
  const page = await openPage(browser, { colorScheme: 'dark' });
  for (const [query, want] of [['', LIGHT], ['theme=light', LIGHT], ['theme=dark', DARK], ['theme=auto', DARK]]) {
    await page.goto(`${site.url}embed.html?${query}`);
    await page.waitForFunction(() => document.querySelector('bucket-lab').diagram);
    const background = await page.evaluate(() => getComputedStyle(document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-frame')).backgroundColor);
    assert.equal(background, want, query || 'no theme');
    // The frame's page takes the theme's scheme too: one that differs from the host page's is
    // painted opaque, a white slab under a dark widget on a dark course page.
    const scheme = await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme);
    assert.equal(scheme, { 'theme=light': 'light', 'theme=dark': 'dark', 'theme=auto': 'light dark' }[query] ?? 'normal', query || 'no theme');
  }
  assert.deepEqual(page.problems, []);
  await page.goto(`${site.url}embed.html?theme=sepia&lang=en`);
  await page.locator('bucket-lab .bl-error').waitFor();
  assert.deepEqual(await embedError(page), {
    title: 'Invalid setting in the address: theme',
    details: ['theme: “sepia” is not allowed; use “light”, “dark”, or “auto”. Without theme in the address, the diagram is light.'],
  });
  // The console says the same to the host's developer: absent is light here, not the page's scheme.
  assert.match(page.problems.join('\n'), /theme must be "light", "dark", "auto" or absent \(light\), got "sepia"/);
  page.problems.length = 0;
  await page.context().close();
});

test('embed-resizer.js fits an embed inside an open shadow root too', async () => {
  const hostPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${site.url}embed-resizer.js" defer></script></head><body><div id="card"></div>
    <script type="module">
      const root = document.getElementById('card').attachShadow({ mode: 'open' });
      const inner = document.createElement('div');
      root.append(inner);
      const deeper = inner.attachShadow({ mode: 'open' });
      deeper.innerHTML = '<iframe title="Token bucket" width="600" height="150" src="${site.url}embed.html?lang=en&amp;controls=none"></iframe>';
    </script></body></html>`;
  const host = await serveStatic(WWW, { pages: { 'host.html': hostPage } });
  try {
    const page = await openPage(browser);
    await page.goto(`${host.url}host.html`);
    const frame = () => page.evaluate(() => document.getElementById('card').shadowRoot.firstChild.shadowRoot.querySelector('iframe').style.height);
    await page.waitForFunction(() => document.getElementById('card').shadowRoot.firstChild.shadowRoot.querySelector('iframe').style.height !== '');
    const content = await page.frame({ url: /embed\.html/ }).evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
    assert.equal(await frame(), `${content}px`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await host.close();
  }
});

test('a language switch with a refused cost typed and a smaller B set live keeps that B, and the cost its attribute can no longer have is left out', async () => {
  const page = await openHostile();
  await addElement(page, 'switch', { capacity: '5', cost: '4', lang: 'en', paused: '' });
  await page.evaluate(() => {
    const element = document.getElementById('switch');
    element.diagram.configure(2, 1);
    const field = element.shadowRoot.querySelector('.bl-cost');
    field.value = '9';
    field.dispatchEvent(new Event('change'));
  });
  assert.ok(Number.isNaN(await page.evaluate(() => document.getElementById('switch').diagram.cost)), 'the typed cost is refused');
  await page.evaluate(() => document.getElementById('switch').setAttribute('lang', 'pt-BR'));
  await page.waitForFunction(() => document.getElementById('switch').diagram?.lang === 'pt-BR');
  assert.deepEqual(await page.evaluate(() => {
    const d = document.getElementById('switch').diagram;
    return [d.capacity, d.refillRate, d.cost];
  }), [2, 1, 1]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a cost attribute set after a slider or a script moved B is held to that live B, and the bucket stays as it is', async () => {
  const page = await openHostile();
  await addElement(page, 'costed', { capacity: '3', 'refill-rate': '1', lang: 'en', paused: '' });
  const state = () => page.evaluate(() => {
    const d = document.getElementById('costed').diagram;
    return d && { capacity: d.capacity, tokens: d.tokens, cost: d.cost, scenario: d.scenario };
  });
  await page.evaluate(() => {
    const d = document.getElementById('costed').diagram;
    d.configure(10, 1);
    d.step(8);
    d.send();
  });
  const before = await state();
  assert.equal(before.capacity, 10);
  // 8 is more than the attribute's B (3) but within the live one (10): taken, and the same
  // bucket, with its recording, goes on.
  await page.evaluate(() => document.getElementById('costed').setAttribute('cost', '8'));
  assert.deepEqual(await state(), { ...before, cost: 8 });
  // Another attribute changed later does not refuse that cost for the attribute's B.
  await page.evaluate(() => document.getElementById('costed').setAttribute('controls', 'send cost time'));
  await page.evaluate(() => document.getElementById('costed').setAttribute('refill-rate', '2'));
  const after = await state();
  assert.deepEqual([after.capacity, after.tokens, after.cost], [10, before.tokens, 8]);
  await page.evaluate(() => document.getElementById('costed').setAttribute('lang', 'pt-BR'));
  await page.waitForFunction(() => document.getElementById('costed').diagram?.lang === 'pt-BR');
  assert.deepEqual(await page.evaluate(() => {
    const d = document.getElementById('costed').diagram;
    return [d.capacity, d.refillRate, d.cost];
  }), [10, 2, 8]);
  // Over the live B it is refused, naming the live B's range.
  await page.evaluate(() => document.getElementById('costed').setAttribute('cost', '11'));
  await page.waitForFunction(() => !document.getElementById('costed').diagram);
  assert.match(await page.evaluate(() => document.getElementById('costed').shadowRoot.textContent), /11 n[ãa]o [ée] permitido; use um n[úu]mero inteiro de 1 a 10\./);
  await page.context().close();
});

test('settings written in the same task as lang (a framework\'s one update) are all taken, and so is a script\'s configure and send meanwhile', async () => {
  const page = await openHostile();
  await addElement(page, 'framed', { lang: 'en', capacity: '5', 'refill-rate': '1', paused: '' });
  const state = () => page.evaluate(() => {
    const d = document.getElementById('framed').diagram;
    return d && { lang: d.lang, capacity: d.capacity, refillRate: d.refillRate, paused: d.paused, cost: d.cost, tokens: d.tokens };
  });
  // React and Vue write the props in the order they are declared: lang first.
  await page.evaluate(() => {
    const el = document.getElementById('framed');
    el.setAttribute('lang', 'pt-BR');
    Object.assign(el, { capacity: 9, refillRate: 3, cost: 4, paused: false });
  });
  await page.waitForFunction(() => document.getElementById('framed').diagram?.lang === 'pt-BR');
  assert.deepEqual({ ...await state(), tokens: undefined }, { lang: 'pt-BR', capacity: 9, refillRate: 3, paused: false, cost: 4, tokens: undefined });
  // A script's calls between the lang write and the new mount go on in the new one.
  const level = await page.evaluate(() => {
    const el = document.getElementById('framed');
    el.paused = true;
    return el.diagram.tokens;
  });
  await page.evaluate(() => {
    const el = document.getElementById('framed');
    el.setAttribute('lang', 'en');
    el.diagram.configure(12, 2);
    el.diagram.send(5);
  });
  await page.waitForFunction(() => document.getElementById('framed').diagram?.lang === 'en');
  const after = await state();
  assert.deepEqual([after.capacity, after.refillRate, after.paused], [12, 2, true]);
  assert.ok(Math.abs(after.tokens - (level - 5)) < 0.01, `${level} − 5 tokens, got ${after.tokens}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a host that writes back what bucketlab:config told it changes nothing: one event per move, the cost kept, a past moment still shown', async () => {
  const page = await openHostile();
  await addElement(page, 'mirrored', { lang: 'en', capacity: '5', 'refill-rate': '1', paused: '' });
  await page.evaluate(() => {
    const el = document.getElementById('mirrored');
    window.__told = [];
    el.addEventListener('bucketlab:config', (e) => {
      window.__told.push(`${e.detail.capacity}/${e.detail.refillRate}`);
      // A controlled component: its state mirrors the event, then renders it back (debounced).
      setTimeout(() => { el.capacity = e.detail.capacity; el.refillRate = e.detail.refillRate; }, 50);
    });
    el.diagram.setCost(3);
  });
  const slide = (value) => page.evaluate((value) => {
    const input = document.getElementById('mirrored').shadowRoot.querySelector('.bl-capacity');
    input.value = String(value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, value);
  await slide(12);
  await page.waitForFunction(() => document.getElementById('mirrored').getAttribute('capacity') === '12');
  assert.deepEqual(await page.evaluate(() => [window.__told, document.getElementById('mirrored').diagram.cost]), [['12/1'], 3]);
  // A past moment the reader turned to right after a move stays through that move's write-back.
  await page.evaluate(() => {
    const d = document.getElementById('mirrored').diagram;
    d.send();
    d.step(1.5);
    window.__told = [];
    d.configure(12, 2);
    d.seek(0.5);
  });
  assert.equal(await page.evaluate(() => document.getElementById('mirrored').diagram.traveling), true);
  await page.waitForFunction(() => document.getElementById('mirrored').getAttribute('refill-rate') === '2');
  assert.deepEqual(await page.evaluate(() => [window.__told, document.getElementById('mirrored').diagram.traveling, document.getElementById('mirrored').diagram.cost]), [['12/2'], true, 3]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('attributes written while the element is out of the page for a move apply when it is back; an error box mends the same way', async () => {
  const page = await openHostile();
  await addElement(page, 'carried', { lang: 'en', capacity: '5', 'refill-rate': '1' });
  const state = () => page.evaluate(() => {
    const d = document.getElementById('carried').diagram;
    return d && { lang: d.lang, capacity: d.capacity, refillRate: d.refillRate, paused: d.paused };
  });
  await page.evaluate(() => {
    const el = document.getElementById('carried');
    const kept = el.diagram;
    kept.send(2);
    window.__kept = kept;
    el.remove();
    Object.assign(el, { capacity: 9, refillRate: 3, paused: true });
    document.body.prepend(el);
  });
  assert.deepEqual(await state(), { lang: 'en', capacity: 9, refillRate: 3, paused: true });
  assert.equal(await page.evaluate(() => document.getElementById('carried').diagram === window.__kept), true, 'the same bucket, moved');
  // lang and a refused value too.
  await page.evaluate(() => {
    const el = document.getElementById('carried');
    el.remove();
    el.setAttribute('lang', 'pt-BR');
    document.body.append(el);
  });
  await page.waitForFunction(() => document.getElementById('carried').diagram?.lang === 'pt-BR');
  assert.deepEqual(await state(), { lang: 'pt-BR', capacity: 9, refillRate: 3, paused: true });
  await page.evaluate(() => {
    const el = document.getElementById('carried');
    el.remove();
    el.capacity = -1;
    document.body.append(el);
  });
  await page.waitForFunction(() => !document.getElementById('carried').diagram && document.getElementById('carried').error);
  assert.match(await page.evaluate(() => document.getElementById('carried').shadowRoot.textContent), /capacity/);
  // Mended while out of the page: back with the good value.
  await page.evaluate(() => {
    const el = document.getElementById('carried');
    el.remove();
    el.capacity = 7;
    document.body.append(el);
  });
  await page.waitForFunction(() => document.getElementById('carried').diagram?.capacity === 7);
  assert.equal(await page.evaluate(() => document.getElementById('carried').error), null);
  // The same text written again puts B back, as in the page.
  await page.evaluate(() => {
    const el = document.getElementById('carried');
    el.diagram.configure(12, 3);
    el.remove();
    el.capacity = 7;
    document.body.append(el);
  });
  assert.equal(await page.evaluate(() => document.getElementById('carried').diagram.capacity), 7);
  // Freed by a script during the move: mounted afresh with what was written, and later writes
  // still apply.
  await page.evaluate(() => {
    const el = document.getElementById('carried');
    el.remove();
    el.capacity = 9;
    el.diagram.free();
    document.body.append(el);
  });
  await page.waitForFunction(() => document.getElementById('carried').diagram?.capacity === 9);
  await page.evaluate(() => Object.assign(document.getElementById('carried'), { capacity: 20, refillRate: 4 }));
  assert.deepEqual(await page.evaluate(() => [document.getElementById('carried').diagram.capacity, document.getElementById('carried').diagram.refillRate]), [20, 4]);
  // Mended during a move with other settings too: each is taken, none carried from before.
  await page.evaluate(() => {
    const el = document.getElementById('carried');
    el.diagram.send(3);
    el.capacity = -1;
  });
  await page.waitForFunction(() => !document.getElementById('carried').diagram);
  await page.evaluate(() => {
    const el = document.getElementById('carried');
    el.remove();
    el.refillRate = 3;
    el.tokens = 0;
    el.paused = false;
    el.capacity = 7;
    document.body.append(el);
  });
  await page.waitForFunction(() => document.getElementById('carried').diagram?.capacity === 7);
  const mended = await page.evaluate(() => { const d = document.getElementById('carried').diagram; return [d.refillRate, d.paused, d.tokens < 1]; });
  assert.deepEqual(mended, [3, false, true]);
  assert.equal(page.problems.filter((p) => !/capacity="-1"/.test(p)).length, 0, page.problems.join('\n'));
  await page.context().close();
});

test('a value refused on the way (a host\'s field cleared while typing) costs the reader nothing: the next good one goes on from their bucket', async () => {
  const page = await openHostile();
  await addElement(page, 'typed', { capacity: '5', 'refill-rate': '0', lang: 'en', paused: '' });
  const state = () => page.evaluate(() => {
    const d = document.getElementById('typed').diagram;
    return d && { capacity: d.capacity, refillRate: d.refillRate, tokens: d.tokens, paused: d.paused, cost: d.cost };
  });
  await page.evaluate(() => {
    const d = document.getElementById('typed').diagram;
    d.configure(4, 0);
    for (let i = 0; i < 3; i++) d.send(1);
    d.setCost(2);
  });
  assert.deepEqual(await state(), { capacity: 4, refillRate: 0, tokens: 1, paused: true, cost: 2 });
  await page.evaluate(() => document.getElementById('typed').setAttribute('capacity', 'oops'));
  assert.equal(await state(), null, 'the refusal is shown in its place');
  // A second refusal in a row forgets nothing either.
  await page.evaluate(() => document.getElementById('typed').setAttribute('capacity', '-1'));
  await page.evaluate(() => document.getElementById('typed').setAttribute('capacity', '6'));
  await page.waitForFunction(() => document.getElementById('typed').diagram);
  // The attribute's new B; the level, the paused clock, r and the cost as the reader left them.
  assert.deepEqual(await state(), { capacity: 6, refillRate: 0, tokens: 1, paused: true, cost: 2 });
  // A refused cost, then a good one: B and the level stay.
  await page.evaluate(() => document.getElementById('typed').setAttribute('cost', '9'));
  assert.equal(await state(), null);
  await page.evaluate(() => document.getElementById('typed').setAttribute('cost', '3'));
  await page.waitForFunction(() => document.getElementById('typed').diagram);
  assert.deepEqual(await state(), { capacity: 6, refillRate: 0, tokens: 1, paused: true, cost: 3 });
  // tokens is the level to start at: after a refusal it sets the level anew.
  await page.evaluate(() => document.getElementById('typed').setAttribute('tokens', 'x'));
  await page.evaluate(() => document.getElementById('typed').setAttribute('tokens', '4'));
  await page.waitForFunction(() => document.getElementById('typed').diagram);
  assert.equal((await state()).tokens, 4);
  await page.context().close();
});

test('attributes a framework writes in one go (capacity, then cost) apply together: no passing refusal, the bucket and its history kept', async () => {
  const page = await openHostile();
  await addElement(page, 'props', { capacity: '10', cost: '8', lang: 'en', paused: '' });
  await page.evaluate(() => {
    const element = document.getElementById('props');
    window.__heard = [];
    for (const type of ['bucketlab:error', 'bucketlab:ready', 'bucketlab:config']) {
      element.addEventListener(type, (event) => window.__heard.push([type.slice(10), event.detail?.capacity ?? null]));
    }
    element.diagram.send();
    element.diagram.step(0.5);
    element.diagram.setCost(1);
    element.diagram.send();
  });
  const state = () => page.evaluate(() => {
    const element = document.getElementById('props');
    const d = element.diagram;
    return d && { same: d === window.__first, capacity: d.capacity, cost: d.cost, tokens: d.tokens, scenario: d.scenario };
  });
  await page.evaluate(() => { window.__first = document.getElementById('props').diagram; });
  const before = await state();
  assert.equal(before.tokens, 1.5);
  // Lowered together, B first: B = 2 alone would refuse the cost 8 the attribute still says.
  await page.evaluate(() => {
    const element = document.getElementById('props');
    element.setAttribute('capacity', '2');
    element.setAttribute('cost', '1');
  });
  await page.waitForFunction(() => window.__heard.some(([type]) => type === 'config'));
  const lowered = await state();
  assert.deepEqual({ ...lowered, scenario: undefined }, { same: true, capacity: 2, cost: 1, tokens: 1.5, scenario: undefined });
  // The two sends are still on its record (`0s8,1_0.5s1,1`), then the new B.
  assert.match(lowered.scenario, /^1_10_1_10_[\d.]+_0s8,1_0\.5s1,1_0\.5C2,1$/, `${before.scenario} → ${lowered.scenario}`);
  // Raised together, cost first (5 against the live B of 2 alone would be refused).
  await page.evaluate(() => {
    const element = document.getElementById('props');
    element.setAttribute('cost', '5');
    element.setAttribute('capacity', '10');
  });
  await page.waitForFunction(() => window.__heard.filter(([type]) => type === 'config').length === 2);
  assert.deepEqual({ ...(await state()), scenario: undefined }, { same: true, capacity: 10, cost: 5, tokens: 1.5, scenario: undefined });
  assert.deepEqual(await page.evaluate(() => window.__heard), [['config', 2], ['config', 10]], 'no refusal and no new mount on the way');
  // Writes that still disagree at the end of the task are refused once, naming the one at fault.
  await page.evaluate(() => {
    const element = document.getElementById('props');
    element.setAttribute('capacity', '3');
    element.setAttribute('cost', '7');
  });
  await page.waitForFunction(() => window.__heard.some(([type]) => type === 'error'));
  assert.equal(await state(), null);
  assert.deepEqual(await page.evaluate(() => document.getElementById('props').error.errors.map((e) => e.attribute)), ['cost']);
  // Mended in a later task: mounted afresh on the kept bucket, and a host mirroring B hears it.
  await page.evaluate(() => document.getElementById('props').setAttribute('cost', '2'));
  await page.waitForFunction(() => window.__heard.filter(([type]) => type === 'config').length === 3);
  assert.deepEqual(await page.evaluate(() => window.__heard.slice(2)), [['error', null], ['ready', null], ['config', 3]]);
  // The batch's B, the level as it was (1.5 fits in 3), the mended cost.
  assert.deepEqual({ ...(await state()), same: undefined, scenario: undefined }, { same: undefined, capacity: 3, cost: 2, tokens: 1.5, scenario: undefined });
  // Moved in the same task (a framework re-parenting it a microtask later): the held writes
  // apply once it is back, to the same diagram.
  await page.evaluate(() => {
    const element = document.getElementById('props');
    window.__first = element.diagram;
    element.setAttribute('cost', '5');
    element.setAttribute('capacity', '6');
    Promise.resolve().then(() => document.body.prepend(element));
    element.remove();
  });
  await page.waitForFunction(() => window.__heard.filter(([type]) => type === 'config').length === 4);
  assert.deepEqual({ ...(await state()), scenario: undefined }, { same: true, capacity: 6, cost: 5, tokens: 1.5, scenario: undefined });
  assert.equal(await page.evaluate(() => window.__heard.filter(([type]) => type === 'error').length), 1, 'no refusal on the way');
  await page.context().close();
});

test('removing paused while the reader looks at a past moment lets the live clock run (the attribute is about lesson time, not the recording)', async () => {
  const page = await openHostile();
  await addElement(page, 'clock', { capacity: '3', 'refill-rate': '1', lang: 'en', paused: '' });
  await page.evaluate(() => {
    const d = document.getElementById('clock').diagram;
    d.send();
    d.step(1);
    d.send();
    d.stepBack(0.5);
  });
  assert.equal(await page.evaluate(() => document.getElementById('clock').diagram.traveling), true);
  await page.evaluate(() => document.getElementById('clock').removeAttribute('paused'));
  const at = await page.evaluate(() => document.getElementById('clock').diagram.now);
  await page.waitForFunction((t) => document.getElementById('clock').diagram.now > t + 0.2, at);
  assert.deepEqual(await page.evaluate(() => [document.getElementById('clock').diagram.traveling, document.getElementById('clock').diagram.paused]), [false, false]);
  // And set again, it stops the live clock.
  await page.evaluate(() => document.getElementById('clock').setAttribute('paused', ''));
  assert.equal(await page.evaluate(() => document.getElementById('clock').diagram.paused), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a refused tokens beside a refused capacity says "at least 0", never "to Infinity", in both languages', async () => {
  const page = await openPage(browser);
  for (const lang of ['en', 'pt-BR']) {
    await page.goto(`${site.url}embed.html?capacity=0&tokens=-1&lang=${lang}`);
    await page.waitForFunction(() => document.querySelector('bucket-lab')?.shadowRoot?.querySelector('.bl-error'));
    const box = await page.evaluate(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-error').textContent);
    assert.ok(!/Infinity|Infinito/.test(box), box);
    assert.match(box, lang === 'en' ? /-1 is not allowed; use a number of at least 0\./ : /-1 não é permitido; use um número maior ou igual a 0\./);
  }
  await page.context().close();
});

test('printed, an element takes the light palette whatever its theme, stays on one page, and its send button keeps a label paper shows', async () => {
  const page = await openHostile();
  await addElement(page, 'paper', { theme: 'dark', lang: 'en', paused: '' });
  const look = () => page.evaluate(() => {
    const root = document.getElementById('paper').shadowRoot;
    const send = getComputedStyle(root.querySelector('.bl-send'));
    return {
      scheme: getComputedStyle(root.querySelector('.bl-frame')).colorScheme,
      text: getComputedStyle(root.querySelector('.bl-widget')).color,
      label: send.color,
      fill: send.backgroundColor,
      breaks: getComputedStyle(root.querySelector('.bl-frame')).breakInside,
    };
  });
  assert.equal((await look()).scheme, 'dark');
  await page.emulateMedia({ media: 'print' });
  const paper = await look();
  assert.deepEqual([paper.scheme, paper.breaks, paper.fill], ['light', 'avoid', 'rgba(0, 0, 0, 0)']);
  assert.equal(paper.label, paper.text);
  assert.equal(paper.text, 'rgb(27, 30, 39)', 'the light palette\'s text colour');
  await page.context().close();
});

test('beside a sidebar (a grid track of 1fr, a flex item) the element takes the column\'s width and the page never scrolls sideways', async () => {
  const body = `<div style="display:grid;grid-template-columns:220px 1fr"><nav>menu</nav><article><bucket-lab id="in-grid"></bucket-lab></article></div>
    <div style="display:flex"><nav style="width:220px;flex:none">menu</nav><article style="flex:1"><bucket-lab id="in-flex"></bucket-lab></article></div>`;
  const host = await serveStatic(WWW, { headers: { 'content-security-policy': STRICT_CSP }, pages: { 'host.html': hostPage(body) } });
  try {
    for (const width of [768, 600]) {
      const page = await openPage(browser, { viewport: { width, height: 800 } });
      await page.goto(`${host.url}host.html`);
      await page.waitForFunction(() => [...document.querySelectorAll('bucket-lab')].every((e) => e.diagram));
      const seen = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        widths: [...document.querySelectorAll('bucket-lab')].map((e) => Math.round(e.getBoundingClientRect().right)),
      }));
      assert.ok(seen.scroll <= width, `${width} px: the page is ${seen.scroll} px wide`);
      for (const right of seen.widths) assert.ok(right <= width, `${width} px: an element ends at ${right} px`);
      await page.context().close();
    }
  } finally {
    await host.close();
  }
});

test('a diagram a script freed is mounted afresh when the element is moved; the events reach a document over another component\'s shadow root', async () => {
  const body = '<div id="one"><bucket-lab id="x" capacity="3" paused></bucket-lab></div><div id="two"></div><my-card id="card"></my-card>';
  const host = await serveStatic(WWW, { headers: { 'content-security-policy': STRICT_CSP }, pages: { 'host.html': hostPage(body) } });
  try {
    const page = await openPage(browser);
    await page.goto(`${host.url}host.html`);
    await page.waitForFunction(() => document.getElementById('x').diagram);
    await page.evaluate(() => {
      const x = document.getElementById('x');
      x.diagram.free();
      document.getElementById('two').append(x);
    });
    await page.waitForFunction(() => document.getElementById('x').diagram?.capacity === 3);
    assert.equal(await inside(page, 'x', '.bl-counter'), '3.0 / 3');
    // A component that keeps the element in its own shadow root: the page still hears it.
    const heard = await page.evaluate(async () => {
      customElements.define('my-card', class extends HTMLElement {
        constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<bucket-lab capacity="2" paused></bucket-lab>'; }
      });
      const seen = [];
      for (const type of ['bucketlab:ready', 'bucketlab:decision']) document.addEventListener(type, (e) => seen.push([type, e.target.id]));
      const inner = document.getElementById('card').shadowRoot.querySelector('bucket-lab');
      await new Promise((resolve) => inner.addEventListener('bucketlab:ready', resolve, { once: true }));
      inner.diagram.send();
      return seen;
    });
    assert.deepEqual(heard, [['bucketlab:ready', 'card'], ['bucketlab:decision', 'card']]);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await host.close();
  }
});

test('a wasm file the server does not have (404), or answers with a page, is said in the page\'s language, naming the address or the file', async () => {
  const body = '<bucket-lab id="x" capacity="3"></bucket-lab>';
  for (const [lang, detail, status = 404] of [
    ['en', /^Its WebAssembly file is not at http:\/\/127\.0\.0\.1:\d+\/pkg\/bucketlab_bg\.wasm \(the server answered 404 Not Found\): serve the package's pkg\/bucketlab_bg\.wasm there\.$/],
    ['pt-BR', /^O arquivo WebAssembly dele não está em http:\/\/127\.0\.0\.1:\d+\/pkg\/bucketlab_bg\.wasm \(o servidor respondeu 404 Not Found\): sirva ali o pkg\/bucketlab_bg\.wasm do pacote\.$/],
    // Another status is the server's trouble, not a file left out: no advice to copy it.
    ['en', /^Its WebAssembly file could not be downloaded from http:\/\/127\.0\.0\.1:\d+\/pkg\/bucketlab_bg\.wasm \(the server answered 503 Service Unavailable\): reload the page to try again\.$/, 503],
    // A host that answers a missing file with its own page (200, HTML): not the compiler's
    // "expected magic word 00 61 73 6d", but what arrived and what to do.
    ['pt-BR', /^O arquivo WebAssembly dele \(bucketlab_bg\.wasm\) está danificado, não é WebAssembly ou é de outra versão do site .*: recarregue a página; se não adiantar, sirva ali de novo o pkg\/bucketlab_bg\.wasm do pacote\.$/, 200],
  ]) {
    const host = await serveStatic(WWW, { headers: { 'content-security-policy': STRICT_CSP }, pages: { 'host.html': hostPage(body, lang) } });
    try {
      const page = await openPage(browser);
      await page.route('**/bucketlab_bg.wasm', (route) => route.fulfill({ status, contentType: status === 200 ? 'text/html' : undefined, body: status === 200 ? '<!doctype html><title>Not found</title>' : 'not here' }));
      await page.goto(`${host.url}host.html`);
      await page.locator('#x .bl-error').waitFor();
      assert.match(await inside(page, 'x', '.bl-error-detail'), detail);
      await page.context().close();
    } finally {
      await host.close();
    }
  }
});

test('on a phone, stepping back with the bucket half scrolled away leaves the page where it is (the held bucket is no scroll anchor)', async () => {
  const page = await openPage(browser, { viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });
  await page.goto(`${site.url}embed.html?lang=en`);
  await page.waitForFunction(() => document.querySelector('bucket-lab')?.diagram);
  await page.evaluate(() => {
    const { diagram } = document.querySelector('bucket-lab');
    for (let i = 0; i < 6; i++) diagram.send();
  });
  // Only the bucket's foot left at the screen's top.
  const scrolled = await page.evaluate(() => {
    const bucket = document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-diagram').getBoundingClientRect();
    window.scrollBy(0, bucket.bottom - 60);
    return window.scrollY;
  });
  assert.ok(scrolled > 0, 'the page scrolled');
  const frames = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(resolve)))));
  // The timeline dragged back with the pointer: the bucket is then held at the screen's top.
  const box = await page.locator('bucket-lab .bl-scrub').boundingBox();
  const y = box.y + box.height / 2;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: box.x + box.width - 10, y }] });
  for (let x = box.x + box.width - 20; x > box.x + box.width / 2; x -= 20) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
    await frames();
    assert.ok(Math.abs(await page.evaluate(() => window.scrollY) - scrolled) <= 2, `at x = ${x}: the page stayed at ${scrolled}, not ${await page.evaluate(() => window.scrollY)}`);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').diagram.traveling), true, 'a past moment is shown');
  await page.context().close();
});
