// The mdBook preprocessor in a real `mdbook build` (mdBook 0.5, installed by scripts/setup.sh
// --test): `mdbook-bucketlab install` on a copy of the two-chapter sample book, the built book in
// Chromium with a working element in each chapter, and a bad parameter stopping the build.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { launch, openPage } from '../e2e/harness.mjs';
import { serveStatic } from '../e2e/static-server.mjs';
import { copyFixture, mustRun, ROOT, run, sendUntilRefused } from './helpers.mjs';

const TARGET = process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target');
// mdbook runs the preprocessor by its command name, as an author's PATH would have it after
// `cargo install`.
const ENV = { ...process.env, PATH: `${join(TARGET, 'debug')}:${process.env.PATH}` };
const FIXTURE_TOML = await readFile(join(ROOT, 'tests/fixtures/mdbook-book/book.toml'), 'utf8');

let book, site, browser;
before(async () => {
  await mustRun('cargo', ['build', '-q', '-p', 'mdbook-bucketlab'], { cwd: ROOT });
  book = await copyFixture('mdbook-book');
  await mustRun('mdbook-bucketlab', ['install', book], { env: ENV });
  await mustRun('mdbook', ['build', book], { env: ENV });
  site = await serveStatic(join(book, 'book'));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.close();
  if (book) await rm(dirname(book), { recursive: true, force: true });
});

test('mdbook: install adds the preprocessor to book.toml and keeps what was there', async () => {
  const toml = await readFile(join(book, 'book.toml'), 'utf8');
  assert.ok(toml.startsWith(FIXTURE_TOML), toml);
  assert.match(toml, /\[preprocessor\.bucket-lab\]\ncommand = "mdbook-bucketlab"\nbefore = \["links"\]\n/);
  const again = await mustRun('mdbook-bucketlab', ['install', book], { env: ENV });
  assert.match(again.stdout, /already there/);
  assert.equal(await readFile(join(book, 'book.toml'), 'utf8'), toml);
});

for (const [chapter, capacity, lang, refusal] of [
  ['bucket.html', 3, 'en', 'Denied: 429'],
  ['sending/requests.html', 4, 'pt-BR', 'Negada: 429'],
]) {
  test(`mdbook: ${chapter} holds a working element (B = ${capacity}, ${lang}) until a 429`, async () => {
    const page = await openPage(browser);
    await page.goto(`${site.url}${chapter}`);
    await page.waitForFunction(() => document.querySelector('bucket-lab')?.diagram);
    assert.equal(await page.locator('bucket-lab').count(), 1);
    assert.equal(await page.locator('bucket-lab').getAttribute('lang'), lang);
    // mdBook's theme sets the root's font size to 62.5 %: the widget keeps the reader's size.
    const sizes = await page.evaluate(() => {
      const root = document.querySelector('bucket-lab').shadowRoot;
      const px = (selector) => getComputedStyle(root.querySelector(selector)).fontSize;
      return { root: getComputedStyle(document.documentElement).fontSize, send: px('.bl-send'), label: px('.bl-field-label'), sendHeight: root.querySelector('.bl-send').getBoundingClientRect().height };
    });
    assert.deepEqual(sizes, { root: '10px', send: '16px', label: '13.6px', sendHeight: 44 });
    const lines = await sendUntilRefused(page, 'bucket-lab', capacity);
    assert.equal(lines.length, capacity + 1);
    assert.ok(lines.slice(0, capacity).every((l) => !l.includes('429')), `admitted first: ${lines}`);
    assert.ok(lines[capacity].startsWith(refusal), lines[capacity]);
    const wasm = site.log.filter((r) => r.path === 'bucketlab/pkg/bucketlab_bg.wasm');
    assert.equal(wasm[0]?.type, 'application/wasm', 'the wasm comes from the book\'s own copy');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('mdbook: the element takes the book\'s theme, whatever the system\'s setting', async () => {
  for (const [system, theme, scheme, background] of [
    ['light', 'coal', 'dark', 'rgb(18, 20, 26)'],
    ['dark', 'light', 'light', 'rgb(251, 251, 253)'],
    ['dark', null, 'dark', 'rgb(18, 20, 26)'], // no choice made: mdBook's default dark theme
  ]) {
    // The reader's choice in mdBook's theme menu, which mdBook keeps in localStorage; mdBook
    // sets the page's color-scheme from the theme.
    const page = await openPage(browser, { colorScheme: system });
    if (theme) await page.addInitScript((value) => localStorage.setItem('mdbook-theme', value), theme);
    await page.goto(`${site.url}bucket.html`);
    await page.waitForFunction(() => document.querySelector('bucket-lab')?.diagram);
    const seen = await page.evaluate(() => ({
      scheme: getComputedStyle(document.documentElement).colorScheme,
      frame: getComputedStyle(document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-frame')).backgroundColor,
    }));
    assert.deepEqual(seen, { scheme, frame: background }, `${theme} theme, ${system} system`);
    await page.context().close();
  }
});

test('mdbook: the print page, holding both chapters, has both elements working', async () => {
  const page = await openPage(browser);
  await page.goto(`${site.url}print.html`);
  await page.waitForFunction(() => [...document.querySelectorAll('bucket-lab')].every((e) => e.diagram));
  assert.equal(await page.locator('bucket-lab').count(), 2);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('mdbook: an escaped directive is printed as text', async () => {
  const html = await readFile(join(book, 'book', 'bucket.html'), 'utf8');
  assert.match(html, /<code>\{\{#bucket-lab capacity=3\}\}<\/code>/);
});

/**
 * Runs `use(book)` on a fresh copy of the sample book with the preprocessor installed, its
 * `src/bucket.md` replaced by `chapter` when one is given; the copy is removed after.
 */
async function withBook(chapter, use) {
  const book = await copyFixture('mdbook-book');
  try {
    await mustRun('mdbook-bucketlab', ['install', book], { env: ENV });
    if (chapter !== undefined) await writeFile(join(book, 'src/bucket.md'), chapter);
    return await use(book);
  } finally {
    await rm(dirname(book), { recursive: true, force: true });
  }
}

/** Runs `use(server)` with `book`'s built book served; the server is closed after. */
async function withServed(book, use) {
  const server = await serveStatic(join(book, 'book'));
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

test('mdbook: a bad parameter fails the build naming the chapter, its file, the line and the rule', () => withBook(undefined, async (bad) => {
  const chapter = join(bad, 'src/sending/requests.md');
  await writeFile(chapter, (await readFile(chapter, 'utf8')).replace('refill-rate=2', 'refill-rate=fast'));
  const result = await run('mdbook', ['build', bad], { env: ENV });
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /mdbook-bucketlab: chapter "Sending requests" \(src\/sending\/requests\.md\), line 6: refill-rate must be a finite number of at least 0, got "fast"/);
}));

test('mdbook: two directives in a row, one with single quotes, make two elements with space between them', () => withBook(
  "# Two buckets\n\n{{#bucket-lab capacity='3' controls='send time' lang=en paused}}\n{{#bucket-lab capacity=4 lang=en paused}}\n",
  async (twice) => {
    await mustRun('mdbook', ['build', twice], { env: ENV });
    await withServed(twice, async (server) => {
      const page = await openPage(browser);
      await page.goto(`${server.url}bucket.html`);
      await page.waitForFunction(() => [...document.querySelectorAll('bucket-lab')].every((e) => e.diagram));
      const boxes = await page.evaluate(() => [...document.querySelectorAll('bucket-lab')].map((e) => {
        const { top, bottom } = e.getBoundingClientRect();
        return { top, bottom, capacity: e.diagram.capacity, controls: e.getAttribute('controls') };
      }));
      assert.deepEqual(boxes.map((b) => [b.capacity, b.controls]), [[3, 'send time'], [4, null]]);
      const gap = boxes[1].top - boxes[0].bottom;
      assert.ok(gap >= 20, `${gap} px between the two elements`);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    });
  },
));

test('mdbook: a directive in a list item and in a quote builds with no HTML warning, the element inside its item and quote', () => withBook(
  '# Nested\n\n- Try it:\n\n  {{#bucket-lab capacity=3 lang=en paused}}\n\n> {{#bucket-lab capacity=4 lang=en paused}}\n',
  async (nested) => {
    const result = await mustRun('mdbook', ['build', nested], { env: ENV });
    assert.doesNotMatch(`${result.stdout}${result.stderr}`, /WARN|unclosed|unexpected HTML/, 'mdbook warns of nothing');
    const html = await readFile(join(nested, 'book/bucket.html'), 'utf8');
    assert.match(html, /<li>[\s\S]*<bucket-lab capacity="3" lang="en" paused(="")?>\s*<\/bucket-lab>[\s\S]*<\/li>/);
    assert.match(html, /<blockquote>[\s\S]*<bucket-lab capacity="4" lang="en" paused(="")?>\s*<\/bucket-lab>[\s\S]*<\/blockquote>/);
  },
));

test('mdbook: two diagrams side by side in a table make one row with no HTML warning; a near spelling fails the build', () => withBook(
  '# Side by side\n\n| small bucket | big bucket |\n|---|---|\n| {{#bucket-lab capacity=3 lang=en paused}} | {{ #bucket-lab capacity=10 lang=en paused }} |\n',
  async (table) => {
    const result = await mustRun('mdbook', ['build', table], { env: ENV });
    assert.doesNotMatch(`${result.stdout}${result.stderr}`, /WARN|unclosed|unexpected HTML/, 'mdbook warns of nothing');
    const html = await readFile(join(table, 'book/bucket.html'), 'utf8');
    const body = html.match(/<tbody>([\s\S]*?)<\/tbody>/)[1];
    assert.equal(body.match(/<tr>/g).length, 1, body);
    assert.match(body, /<td><bucket-lab capacity="3" lang="en" paused(="")?><\/bucket-lab><\/td>\s*<td><bucket-lab capacity="10" lang="en" paused(="")?><\/bucket-lab><\/td>/);
    // The name as the command spells it is no directive: mdBook would show it to readers as text.
    await writeFile(join(table, 'src/bucket.md'), '# Typo\n\n{{#bucketlab capacity=3}}\n');
    const typo = await run('mdbook', ['build', table], { env: ENV });
    assert.notEqual(typo.code, 0);
    assert.match(typo.stderr, /mdbook-bucketlab: chapter "The bucket" \(src\/bucket\.md\), line 3: "\{\{#bucketlab" is not a directive: write "\{\{#bucket-lab"/);
  },
));

test('mdbook: a link to a section below diagrams lands on it once they have drawn, not the page\'s height above it', () => withBook(
  `# Three buckets\n\n{{#bucket-lab capacity=3 lang=en paused}}\n\n{{#bucket-lab capacity=4 lang=en paused}}\n\n{{#bucket-lab capacity=5 lang=en paused}}\n\n## Later section\n\n${'More text.\n\n'.repeat(40)}`,
  async (below) => {
    await mustRun('mdbook', ['build', below], { env: ENV });
    await withServed(below, async (server) => {
      const page = await openPage(browser, { viewport: { width: 1280, height: 900 } });
      await page.goto(`${server.url}bucket.html#later-section`);
      await page.waitForFunction(() => [...document.querySelectorAll('bucket-lab')].every((e) => e.diagram));
      // The page grew by three diagrams above the heading; the heading is still where the link went.
      await page.waitForFunction(() => {
        const top = document.getElementById('later-section').getBoundingClientRect().top;
        return top >= -1 && top < 200;
      });
      assert.ok(await page.evaluate(() => scrollY) > 1000, 'scrolled past the three diagrams');
      assert.deepEqual(page.problems, []);
      await page.context().close();
    });
  },
));
