// The lesson's "Embed this" panel: snippets for the live configuration, copy buttons, both
// languages, and a copied snippet that really works on another page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { launch, openPage } from './harness.mjs';
import { serveStatic } from './static-server.mjs';

const WWW = new URL('../../www/', import.meta.url).pathname;
let site;
let browser;
before(async () => {
  // Module scripts and fetches from another origin need CORS; GitHub Pages, for one, sends this.
  site = await serveStatic(WWW, { headers: { 'access-control-allow-origin': '*' } });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.close();
});

async function openLesson() {
  const page = await openPage(browser);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
  await page.goto(`${site.url}?capacity=10&refill-rate=5`);
  await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
  await page.locator('#bucket-widget').scrollIntoViewIfNeeded(); // the panel under it loads when near
  await page.click('#embed-panel summary');
  return page;
}

const snippet = (page, kind) => page.textContent(`#embed-panel [data-snippet=${kind}] >> xpath=../following-sibling::pre[1]`);

test('the snippets follow the diagram and copy to the clipboard', async () => {
  const page = await openLesson();
  // Its fallback, shown where the script never runs, opens the same diagram on its own page.
  assert.equal(await snippet(page, 'element'),
    `<script type="module" src="${site.url}bucket-lab.js"></script>\n<bucket-lab capacity="10" refill-rate="5" lang="pt-BR"><a href="${site.url}embed.html?capacity=10&amp;refill-rate=5&amp;lang=pt-BR">Abrir o diagrama interativo do balde de tokens</a></bucket-lab>`);
  assert.match(await snippet(page, 'iframe'), new RegExp(`^<iframe src="${site.url}embed\\.html\\?capacity=10&amp;refill-rate=5&amp;lang=pt-BR" title="Diagrama interativo do balde de tokens"`));
  // Pasted into a course page: with the script, the diagram and no link; with its script missing
  // (a wrong SITE), the link, not an empty gap.
  const pasted = await snippet(page, 'element');
  for (const [body, mounted] of [[pasted, true], [pasted.replace('bucket-lab.js', 'missing/bucket-lab.js'), false]]) {
    const host = await page.context().newPage();
    await host.route(`${site.url}course.html`, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="pt-BR"><body>${body}</body></html>` }));
    await host.goto(`${site.url}course.html`);
    if (mounted) await host.waitForFunction(() => document.querySelector('bucket-lab').diagram);
    else await host.waitForLoadState('load');
    const link = host.locator('bucket-lab > a');
    assert.equal(await link.isVisible(), !mounted, mounted ? 'the diagram instead of its link' : 'the link where no diagram comes');
    assert.equal(await link.getAttribute('href'), `${site.url}embed.html?capacity=10&refill-rate=5&lang=pt-BR`);
    await host.close();
  }

  await page.focus('#bucket-widget .bl-capacity');
  await page.keyboard.press('ArrowRight');
  await page.fill('#bucket-widget .bl-cost', '3');
  assert.match(await snippet(page, 'element'), /<bucket-lab capacity="11" refill-rate="5" cost="3" lang="pt-BR">/);
  assert.match(await page.textContent('#embed-panel .details-body > p'), /B = 11, r = 5\/s/);
  // A decimal as the page writes it, every digit (the snippet keeps the point an attribute takes).
  await page.focus('#bucket-widget .bl-rate');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /r = 5,5\/s/.test(document.querySelector('#embed-panel .details-body > p').textContent));
  assert.match(await snippet(page, 'element'), /refill-rate="5.5"/);
  // A sentence to read, not a field to type back: 1,234, not a form's 1,2340.
  await page.evaluate(() => window.bucketlab.diagram.configure(11, 1.234));
  await page.waitForFunction(() => /r = 1,234\/s/.test(document.querySelector('#embed-panel .details-body > p').textContent));
  assert.match(await snippet(page, 'element'), /refill-rate="1.234"/);

  await page.focus('#embed-panel [data-snippet=iframe]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#embed-panel [role=status]').textContent !== '');
  assert.equal(await page.textContent('#embed-panel [role=status]'), 'Trecho copiado.');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await snippet(page, 'iframe'));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a copied element snippet works on another page', async () => {
  const page = await openLesson();
  await page.click('#embed-panel [data-snippet=element]');
  await page.waitForFunction(() => document.querySelector('#embed-panel [role=status]').textContent !== '');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const course = await serveStatic(WWW, { pages: { 'course.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>${copied}</body></html>` } });
  try {
    const other = await openPage(browser);
    await other.goto(`${course.url}course.html`);
    await other.waitForFunction(() => document.querySelector('bucket-lab')?.diagram);
    assert.equal(await other.locator('bucket-lab .bl-counter').textContent(), '10,0 / 10', 'pt-BR, B = 10, as on the lesson');
    assert.deepEqual(other.problems, []);
    await other.context().close();
  } finally {
    await course.close();
  }
  await page.context().close();
});

test('the panel switches language with the page and can be used from the keyboard', async () => {
  const page = await openLesson();
  await page.evaluate(() => {
    document.documentElement.lang = 'en';
    document.dispatchEvent(new CustomEvent('bucketlab:langchange', { detail: { lang: 'en' } }));
  });
  assert.equal(await page.textContent('#embed-panel summary'), 'Embed this diagram');
  assert.equal(await page.getAttribute('#embed-panel details', 'open'), '', 'it stays open');
  assert.match(await snippet(page, 'element'), /lang="en"/);
  assert.equal(await page.getAttribute('#embed-panel [data-snippet=element]', 'aria-label'), 'Copy the element snippet');
  await page.focus('#embed-panel summary');
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('#embed-panel details', 'open'), null, 'Enter on the summary closes it');
  await page.context().close();
});

/** The height an iframe snippet gives, and its address with `SITE/` on this site. */
function iframeOf(snippet) {
  const [, src, height] = snippet.match(/<iframe src="([^"]+)"[^>]* height="(\d+)"/);
  return { src: src.replaceAll('&amp;', '&').replace(/^SITE\//, site.url), height: Number(height) };
}

/** Whether `src` fits in `height` px at each usual column width (no resizer: iframe-only hosts). */
async function fitsAt(src, height, where) {
  for (const width of [480, 600, 700, 800]) {
    const page = await openPage(browser, { viewport: { width, height } });
    await page.goto(src);
    await page.waitForFunction(() => document.querySelector('bucket-lab').diagram);
    // Its tallest moments: a refusal shows the status, the countdown, the response's head, the
    // formula and the exact wait (taller than the idle widget by some 250 px); once time has run,
    // their numbers have decimals and the lines are longer ("min(5, 0 + 0.283·1) = 0.283").
    const content = await page.evaluate(() => {
      const diagram = document.querySelector('bucket-lab').diagram;
      const tall = () => Math.ceil(document.body.getBoundingClientRect().height);
      const heights = [tall()];
      diagram.pause();
      while (diagram.send(1));
      heights.push(tall());
      for (const seconds of [0.2834, 0.1377, 0.0419, 1.2983, 0.7771]) {
        diagram.step(seconds);
        diagram.send(1);
        heights.push(tall());
      }
      return Math.max(...heights);
    });
    assert.ok(content <= height, `${where}: at ${width} px the diagram is ${content} px tall after a 429, over the snippet's height="${height}"`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
}

test('the iframe snippets\' height, the panel\'s and the guides\', fits the diagram at 480 to 800 px without the resizer', async () => {
  const page = await openLesson();
  const panel = iframeOf(await snippet(page, 'iframe'));
  await page.context().close();
  await fitsAt(panel.src, panel.height, 'the panel');
  for (const file of ['README.md', 'docs/embedding.md', 'docs/embedding.pt-BR.md']) {
    const text = await readFile(new URL(`../../${file}`, import.meta.url), 'utf8');
    const { src, height } = iframeOf(text.match(/<iframe src="SITE[^]*?<\/iframe>/)[0].replace(/\n\s*/g, ' '));
    await fitsAt(src, height, file);
  }
});
