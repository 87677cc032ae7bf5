// dist/ as a static host serves it: content-hashed names, relative URLs only (so it works under
// a sub-path), precompressed copies, a wasm that loads even with the wrong MIME type, and a
// _headers file whose rules match the site's sub-path (built with BASE, as a host reads it) and
// whose policy lets the pages reach the LRS the build was given (LRS).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { launch, openPage } from './harness.mjs';
import { hostRules, serveStatic, STRICT_CSP } from './static-server.mjs';
import { buildDist, checkBase, checkLrs, checkSite, HOST_FILES, STABLE } from '../../scripts/dist.mjs';
import { allowConnect } from '../../scripts/csp.mjs';
import { startLrs } from '../lms/lrs-stand-in.mjs';
import { collectStatements, sendUntilRefused } from '../lms/learner.mjs';

const SUB_PATH = '/courses/rate-limiting/';
let out;
let files;
let browser;
/** The LRS the site is built for (make dist LRS=…), on another origin. */
let lrs;

before(async () => {
  out = await mkdtemp(join(tmpdir(), 'bucketlab-dist-'));
  lrs = await startLrs();
  await buildDist(new URL('../../www/', import.meta.url).pathname, out, { base: SUB_PATH, lrs: checkLrs(lrs.endpoint) });
  files = await list(out);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await lrs?.close();
  if (out) await rm(out, { recursive: true, force: true });
});

async function list(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) found.push(relative(dir, join(entry.parentPath ?? entry.path, entry.name)));
  }
  return found.sort();
}

/** The names of a wasm module's custom sections. */
function customSections(bytes) {
  const names = [];
  let at = 8;
  const leb = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 0) {
      const length = leb();
      names.push(bytes.subarray(at, at + length).toString('utf8'));
    }
    at = end;
  }
  return names;
}

test('assets have content-hashed names; pages and public entry points keep theirs', async () => {
  const served = files.filter((f) => !/\.(gz|br)$/.test(f));
  assert.ok(served.includes('.nojekyll'));
  for (const name of ['index.html', 'embed.html', ...STABLE, ...HOST_FILES]) assert.ok(served.includes(name), `${name} is in dist/`);
  assert.ok(!served.some((f) => f.startsWith('bench-') || f.endsWith('.d.ts')), 'no developer-only files');
  const assets = served.filter((f) => f !== '.nojekyll' && !f.endsWith('.html') && !STABLE.has(f) && !HOST_FILES.has(f));
  assert.ok(assets.some((f) => f.endsWith('.wasm')) && assets.some((f) => f.endsWith('.css')));
  for (const asset of assets) {
    const hash = asset.match(/\.([0-9a-f]{10})\.[a-z]+$/)?.[1];
    assert.ok(hash, `${asset} has a hash in its name`);
    const content = await readFile(join(out, asset));
    assert.equal(createHash('sha256').update(content).digest('hex').slice(0, 10), hash, `${asset}: the hash is of its content`);
  }
});

test('buildDist reads the folder it is given: a copy of www/ elsewhere builds the same files', async () => {
  const copy = await mkdtemp(join(tmpdir(), 'bucketlab-www-'));
  const again = await mkdtemp(join(tmpdir(), 'bucketlab-dist-'));
  try {
    await cp(new URL('../../www/', import.meta.url).pathname, copy, { recursive: true });
    await buildDist(copy, again, { base: SUB_PATH, lrs: checkLrs(lrs.endpoint) });
    assert.deepEqual(await list(again), files);
  } finally {
    await rm(copy, { recursive: true, force: true });
    await rm(again, { recursive: true, force: true });
  }
});

test('every reference is relative and resolves to a file in dist/', async () => {
  const texts = files.filter((f) => /\.(html|js|css)$/.test(f));
  for (const file of texts) {
    const text = await readFile(join(out, file), 'utf8');
    assert.doesNotMatch(text, /\b(?:src|href|action)\s*=\s*["'](?:\/|https?:)/i, `${file}: no absolute or external URL in markup`);
    assert.doesNotMatch(text, /url\(\s*["']?(?:\/|https?:)/i, `${file}: no absolute or external url() in CSS`);
    const references = [...text.matchAll(/(?:\b(?:src|href)\s*=\s*|import\s*(?:[\w{}\s,*]+from\s*)?|new URL\()\s*["']((?:\.\/|(?:\.\.\/)+)?\w[^"'?#]*\.(?:js|css|wasm))["']/g)];
    for (const [, spec] of references) {
      const path = join(out, file, '..', spec);
      assert.ok(await stat(path).then(() => true, () => false), `${file} references ${spec}, which exists`);
    }
  }
  // The bundles' source maps, renamed with them (a developer tool asks for them by that comment).
  const mapped = [];
  for (const file of texts.filter((f) => f.endsWith('.js'))) {
    const [, spec] = (await readFile(join(out, file), 'utf8')).match(/\/\/# sourceMappingURL=(\S+)/) ?? [];
    if (!spec) continue;
    assert.match(spec, /\.[0-9a-f]{10}\.map$/, `${file}'s map has a hashed name`);
    assert.ok(JSON.parse(await readFile(join(out, file, '..', spec), 'utf8')).sourcesContent.length > 0, `${file}'s map ${spec} holds the modules`);
    mapped.push(file);
  }
  assert.ok(mapped.some((f) => /^lesson\/main\.bundle\.[0-9a-f]{10}\.js$/.test(f)), `the lesson's bundle has its map: ${mapped}`);
});

test('precompressed copies decompress to the file; the wasm modules carry no producers section, and no names but the widget module\'s own', async () => {
  const modules = files.filter((f) => f.endsWith('.wasm'));
  assert.equal(modules.filter((f) => /(^|\/)bucketlab_bg\.[0-9a-f]+\.wasm$/.test(f)).length, 1, `the widget's module among ${modules}`);
  for (const file of modules) {
    const module = await readFile(join(out, file));
    assert.deepEqual(customSections(module).filter((n) => n === 'producers'), [], file);
    // The widget's module is named, so that a trap's stack tells it from another module's
    // (scripts/name-wasm-module.mjs): its name alone (subsection 0), no function's.
    const names = WebAssembly.Module.customSections(new WebAssembly.Module(module), 'name').map((s) => [...new Uint8Array(s)]);
    const widget = /(^|\/)bucketlab_bg\.[0-9a-f]+\.wasm$/.test(file);
    assert.deepEqual(names, widget ? [[0, 10, 9, ...Buffer.from('bucketlab')]] : [], file);
  }
  const wasm = files.find((f) => f.endsWith('.wasm'));
  const bytes = await readFile(join(out, wasm));
  for (const file of files.filter((f) => /\.(html|js|css|wasm)$/.test(f))) {
    const content = await readFile(join(out, file));
    assert.ok(gunzipSync(await readFile(join(out, `${file}.gz`))).equals(content), `${file}.gz`);
    assert.ok(brotliDecompressSync(await readFile(join(out, `${file}.br`))).equals(content), `${file}.br`);
  }
  const br = await readFile(join(out, `${wasm}.br`));
  assert.ok(br.length < bytes.length * 0.6, `brotli shrinks the wasm (${bytes.length} → ${br.length})`);
});

test('under a sub-path, with brotli and a strict CSP, the lesson and the embed page work', async () => {
  // The CSP comes from dist/_headers, whose rules name the sub-path (as a host matches them).
  const site = await serveStatic(out, { prefix: SUB_PATH, precompressed: true, hosted: true });
  try {
    const page = await openPage(browser);
    const csp = [];
    page.on('response', (r) => { if (r.request().resourceType() === 'document') csp.push(r.headers()['content-security-policy']); });
    const foreign = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(`${site.origin}/`) && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    await page.goto(`${site.url}?capacity=4&refill-rate=1`);
    await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
    await page.evaluate(() => window.bucketlab.diagram.pause());
    await page.click('#bucket-widget .bl-reset');
    await page.click('#bucket-widget .bl-send');
    assert.equal(await page.textContent('#bucket-widget .bl-counter'), '3,0 / 4');

    await page.goto(`${site.url}embed.html?capacity=6&refill-rate=2&lang=en&paused`);
    await page.locator('bucket-lab .bl-send').click();
    assert.equal(await page.locator('bucket-lab .bl-counter').textContent(), '5.0 / 6');
    assert.deepEqual(page.problems, []);
    assert.deepEqual(foreign, [], 'dist/ requests its own origin only');
    assert.deepEqual(site.log.filter((r) => r.status === 404), [], 'nothing missing');
    assert.ok(site.log.some((r) => r.path.endsWith('.wasm') && r.encoding === 'br'), 'the wasm came brotli-compressed');
    const policy = allowConnect(STRICT_CSP, [new URL(lrs.endpoint).origin]);
    assert.ok(csp.length >= 2 && csp.every((value) => value === policy), `each page under the CSP: ${csp}`);
    await page.context().close();
  } finally {
    await site.close();
  }
});

test('_headers under the sub-path: a course page on another site gets the element; hashed files are cached a year, pages and entry points asked for again', async () => {
  const site = await serveStatic(out, { prefix: SUB_PATH, hosted: true });
  const course = await serveStatic(out, {
    pages: { 'course.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,"></head><body><bucket-lab capacity="3" paused><p>The diagram needs JavaScript.</p></bucket-lab></body></html>' },
  });
  try {
    const page = await openPage(browser);
    const cached = new Map();
    page.on('response', (r) => cached.set(new URL(r.url()).pathname, r.headers()['cache-control']));
    await page.goto(`${course.url}course.html`);
    await page.addScriptTag({ type: 'module', url: `${site.url}bucket-lab.js` });
    await page.waitForFunction(() => document.querySelector('bucket-lab').diagram, null, { timeout: 10000 });
    assert.equal(await page.evaluate(() => document.querySelector('bucket-lab').shadowRoot.querySelector('.bl-counter').textContent), '3.0 / 3');
    assert.deepEqual(page.problems, []);
    const wasm = [...cached.keys()].find((path) => path.endsWith('.wasm'));
    assert.match(wasm, /^\/courses\/rate-limiting\/pkg\/bucketlab_bg\.[0-9a-f]{10}\.wasm$/);
    assert.equal(cached.get(wasm), 'public, max-age=31536000, immutable');
    // The entry point keeps its name across releases: asked for again on every use.
    assert.equal(cached.get(`${SUB_PATH}bucket-lab.js`), 'no-cache');
    await page.goto(site.url);
    await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
    assert.equal(cached.get(SUB_PATH), 'no-cache', 'a page is asked for again on every use');
    await page.context().close();
  } finally {
    await site.close();
    await course.close();
  }
  // Every folder the rules cache holds hashed names only (demo/ holds a page: not cached).
  const rules = await readFile(join(out, '_headers'), 'utf8');
  const folders = [...rules.matchAll(/^\/courses\/rate-limiting\/(\w+)\/\*\n  Cache-Control/gm)].map((m) => m[1]);
  assert.ok(folders.includes('pkg') && folders.includes('lesson') && !folders.includes('demo'), folders.join(', '));
  for (const file of files.filter((f) => folders.includes(f.split('/')[0]) && !/\.(gz|br)$/.test(f))) {
    assert.match(file, /\.[0-9a-f]{10}\.\w+$/, `${file} is under an immutable rule`);
  }
  // demo/'s hashed stylesheet has a rule of its own; its page is asked for again.
  const demoCss = files.find((f) => /^demo\/.*\.[0-9a-f]{10}\.css$/.test(f));
  assert.ok(demoCss, files.filter((f) => f.startsWith('demo/')).join(', '));
  assert.ok(rules.includes(`${SUB_PATH}${demoCss}\n  Cache-Control: public, max-age=31536000, immutable`), rules);
  // One caching rule for each file (a host joins the values of two): a year for a hashed name,
  // no-cache for a name that stays (pages, entry points), also where a host serves a page at its
  // folder (index.html) or, as Cloudflare Pages does, without .html.
  const caching = hostRules(rules).filter((rule) => rule.headers['cache-control']);
  const cacheControl = (path) => caching.filter((rule) => rule.pattern.test(`${SUB_PATH}${path}`)).map((rule) => rule.headers['cache-control']);
  const served = files.filter((f) => !/\.(gz|br)$/.test(f) && f !== '.nojekyll' && !HOST_FILES.has(f));
  for (const file of served) {
    assert.deepEqual(cacheControl(file), [/\.[0-9a-f]{10}\.\w+$/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache'], file);
  }
  for (const path of ['index.html', 'en.html', 'embed.html', 'demo/embed-demo.html', ...STABLE, '', 'en', 'embed', 'demo/embed-demo']) {
    assert.deepEqual(cacheControl(path), ['no-cache'], `${SUB_PATH}${path}`);
  }
  assert.doesNotMatch(rules, /^\/(?!courses\/rate-limiting\/)/m, 'every rule is under the sub-path');
});

test('a site built with LRS sends its statements there under its own _headers policy', async () => {
  const site = await serveStatic(out, { prefix: SUB_PATH, hosted: true });
  try {
    const page = await openPage(browser);
    await collectStatements(page);
    const auth = 'Basic dGVzdDp0ZXN0';
    await page.goto(`${site.url}en.html?${new URLSearchParams({ endpoint: lrs.endpoint, auth, actor: '{"mbox":"mailto:ana@example.org"}' })}`);
    await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
    await sendUntilRefused(page.mainFrame());
    await page.waitForFunction(() => window.statements.length === 2 && window.bucketlab.xapi.pending === 0);
    assert.deepEqual(lrs.statements.map((s) => s.id), await page.evaluate(() => window.statements.map((s) => s.id)));
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await site.close();
  }
});

test('LRS must be absolute http(s) addresses: their origins join connect-src, a bad one is named', () => {
  assert.deepEqual(checkLrs(''), []);
  assert.deepEqual(checkLrs('https://lrs.example/xAPI/ https://lrs.example:8443, http://other.example/x https://lrs.example/'),
    ['https://lrs.example', 'https://lrs.example:8443', 'http://other.example']);
  for (const bad of ['lrs.example/xAPI/', 'ftp://lrs.example/', 'https://user:pw@lrs.example/', 'javascript:alert(1)']) {
    assert.throws(() => checkLrs(`https://ok.example/ ${bad}`), (error) => error.message.startsWith(`dist: LRS ${JSON.stringify(bad)} is not an LRS address`)
      && error.message.includes('absolute http(s) address'));
  }
  assert.equal(allowConnect("default-src 'self'", ['https://a.example', 'https://b.example']), "default-src 'self'; connect-src 'self' https://a.example https://b.example");
  assert.equal(allowConnect("default-src 'self'; connect-src 'self'", ['https://a.example']), "default-src 'self'; connect-src https://a.example 'self'");
  assert.equal(allowConnect("default-src 'self'", []), "default-src 'self'");
});

test('BASE must be a site path: the error names the value, what is allowed, and the way out for another path', () => {
  for (const good of ['/', '/courses/rate-limiting/', '/a.b/c_d~e-f/']) assert.equal(checkBase(good), good);
  for (const bad of ['', 'courses/', '/courses', '/a b/', '//', '/../x/', '/x/./', '/cursos/limitação de taxa/']) {
    assert.throws(() => checkBase(bad), (error) => error.message.includes(`BASE ${JSON.stringify(bad)} is not a site path`)
      && error.message.includes('start and end with "/"')
      && error.message.includes('with folders of ASCII letters, digits and . _ ~ - between (none of them . or ..)')
      && error.message.includes('build with BASE=/ and move the paths in dist/_headers under it by hand'));
  }
});

/** The link-preview and search tags of a page's head: [tag, attribute, value] in order. */
function headTags(html) {
  const head = html.slice(0, html.indexOf('</head>'));
  return [...head.matchAll(/<(link|meta) (rel|property|name)="(canonical|alternate|og:[\w:]+|twitter:card)"(?: hreflang="([^"]+)")? (?:href|content)="([^"]*)">/g)]
    .map(([, , , kind, lang, value]) => [lang ? `${kind} ${lang}` : kind, value]);
}

test('a lesson page carries its link preview; with SITE, its canonical, every language\'s page and og:url, and sitemap.xml lists them', async () => {
  const plain = headTags(await readFile(join(out, 'en.html'), 'utf8'));
  assert.deepEqual(plain, [
    ['og:type', 'website'], ['og:site_name', 'bucketlab'], ['og:title', 'Rate limiting with the token bucket · bucketlab'],
    ['og:description', plain.find(([k]) => k === 'og:description')[1]], ['og:locale', 'en_US'], ['og:locale:alternate', 'pt_BR'],
    ['twitter:card', 'summary'],
  ]);
  assert.ok(!files.includes('sitemap.xml'), 'no sitemap without the site\'s address');
  const site = 'https://example.org/courses/rate-limiting/';
  const built = await mkdtemp(join(tmpdir(), 'bucketlab-dist-'));
  try {
    await buildDist(new URL('../../www/', import.meta.url).pathname, built, { base: SUB_PATH, site: checkSite(site) });
    const alternates = [['alternate pt-BR', site], ['alternate en', `${site}en.html`], ['alternate x-default', site]];
    const picture = (await readdir(built)).find((name) => /^social\.[0-9a-f]{10}\.png$/.test(name));
    assert.ok(picture, 'the shared link\'s picture, by its hashed name');
    for (const [page, url, locale] of [['index.html', site, 'pt_BR'], ['en.html', `${site}en.html`, 'en_US']]) {
      const tags = headTags(await readFile(join(built, page), 'utf8'));
      assert.deepEqual(tags.slice(-10, -1), [['canonical', url], ...alternates, ['og:url', url],
        ['og:image', `${site}${picture}`], ['og:image:type', 'image/png'], ['og:image:width', '1200'], ['og:image:height', '630']], page);
      const [alt, text] = tags.at(-1);
      assert.equal(alt, 'og:image:alt', page);
      assert.match(text, locale === 'pt_BR' ? /^O balde de tokens da lição/ : /^The lesson's token bucket/, page);
      assert.deepEqual(tags.find(([k]) => k === 'og:locale'), ['og:locale', locale], page);
      assert.deepEqual(tags.find(([k]) => k === 'twitter:card'), ['twitter:card', 'summary_large_image'], page);
    }
    // Pages kept out of search results get none of it.
    for (const page of ['embed.html', 'demo/embed-demo.html']) {
      assert.deepEqual(headTags(await readFile(join(built, page), 'utf8')).filter(([k]) => /^(canonical|alternate|og:url)/.test(k)), [], page);
    }
    const sitemap = await readFile(join(built, 'sitemap.xml'), 'utf8');
    assert.deepEqual([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]), [site, `${site}en.html`]);
    assert.equal([...sitemap.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].length, 6);
    assert.match(await readFile(join(built, '_headers'), 'utf8'), new RegExp(`^${SUB_PATH}sitemap\\.xml\n  Cache-Control: no-cache$`, 'm'));
  } finally {
    await rm(built, { recursive: true, force: true });
  }
});

test('SITE must be the site\'s absolute folder address: a bad one is named with what is allowed; BASE, when given, its path', async () => {
  await assert.rejects(buildDist(new URL('../../www/', import.meta.url).pathname, join(tmpdir(), 'bucketlab-never'), { base: SUB_PATH, site: 'https://example.org/other/' }),
    /^Error: dist: SITE https:\/\/example\.org\/other\/ and BASE \/courses\/rate-limiting\/ name different paths/);
  assert.equal(checkSite('https://example.org/courses/rate-limiting/'), 'https://example.org/courses/rate-limiting/');
  for (const bad of ['example.org/', 'https://example.org/courses', 'ftp://example.org/', 'https://u:p@example.org/', 'https://example.org/?a=1', 'https://example.org/#x', 'https://EXAMPLE.org/']) {
    assert.throws(() => checkSite(bad), (error) => error.message.startsWith(`dist: SITE ${JSON.stringify(bad)} is not the site's address`)
      && error.message.includes('ending with "/"'));
  }
});

test('a host that serves .wasm as application/octet-stream still gets a working widget', async () => {
  const site = await serveStatic(out, { prefix: SUB_PATH, wasmType: 'application/octet-stream' });
  try {
    const page = await openPage(browser);
    await page.goto(`${site.url}embed.html?capacity=3&refill-rate=1&paused`);
    await page.locator('bucket-lab .bl-send').click();
    assert.equal(await page.locator('bucket-lab .bl-counter').textContent(), '2,0 / 3');
    await page.goto(site.url);
    await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
    assert.ok(site.log.some((r) => r.path.endsWith('.wasm') && r.type === 'application/octet-stream'));
    // wasm-bindgen's loader says why it fell back from instantiateStreaming; nothing else is logged.
    assert.ok(page.problems.length > 0);
    for (const problem of page.problems) assert.match(problem, /^warning: `WebAssembly\.instantiateStreaming` failed .*application\/wasm/);
    await page.context().close();
  } finally {
    await site.close();
  }
});

test('the iframe embed from dist/ fits its height on a host page of another origin', async () => {
  const site = await serveStatic(out, { prefix: SUB_PATH });
  const hostPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
    <iframe id="frame" title="Token bucket" src="${site.url}embed.html?lang=en&amp;controls=send"></iframe>
    <script src="${site.url}embed-resizer.js"></script></body></html>`;
  const host = await serveStatic(out, { pages: { 'host.html': hostPage } });
  try {
    const page = await openPage(browser, { viewport: { width: 375, height: 700 } });
    await page.goto(`${host.url}host.html`);
    await page.frameLocator('#frame').locator('bucket-lab .bl-counter').waitFor();
    const embed = page.frame({ url: /embed\.html/ });
    await embed.waitForFunction(() => document.querySelector('bucket-lab').diagram);
    const content = await embed.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
    assert.ok(content > 300, `the widget at 375 px is taller than an iframe's default 150 px (${content})`);
    await page.waitForFunction((h) => document.getElementById('frame').clientHeight === h, content);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await host.close();
    await site.close();
  }
});
