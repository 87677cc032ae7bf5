// Shared e2e set-up: a static server for www/ on a free loopback port and Debian's Chromium
// driven by playwright-core, with every console message and page error collected.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { before, after } from 'node:test';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { shippedPolicy } from '../../scripts/csp.mjs';

const ROOT = new URL('../../www/', import.meta.url).pathname;
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/**
 * The policy every page must work under, as www/_headers ships it (SECURITY.md explains each
 * part). `'wasm-unsafe-eval'` lets the page compile WebAssembly without allowing `eval`; the one
 * `'sha256-…'` source is the inlined early.js.
 */
export const CSP = shippedPolicy();

/** A port free on loopback now, for a server a test starts in a process of its own. */
export const freePort = () => new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});

/**
 * Serves www/ on 127.0.0.1 with the strict CSP on every response (`{ csp: false }` leaves it
 * out); `mounts` serves other folders (paths ending in /) under a path of the site
 * (`{ 'bench/': dir }`: pages that use the site's files but are not part of it). `hold` lists
 * paths (`'/pkg/bucketlab_bg.wasm'`) whose responses wait until `release(path)` is called, so a
 * test can act while they load. `compress` gzips what a static host compresses (text and wasm)
 * for a client that accepts it, as the hosts the site is made for do (`dist/` ships precompressed
 * copies); off by default, since on loopback it only adds work. Resolves to { url, close, release }.
 */
export async function serve({ csp = true, mounts = {}, hold = [], compress = false } = {}) {
  const policy = csp ? { 'content-security-policy': CSP } : {};
  const held = new Map(hold.map((path) => {
    let release;
    const released = new Promise((resolve) => { release = resolve; });
    return [path, { released, release }];
  }));
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    await held.get(path)?.released;
    const prefix = Object.keys(mounts).find((p) => path.startsWith(`/${p}`));
    const [root, rest] = prefix ? [mounts[prefix], path.slice(prefix.length + 1)] : [ROOT, path];
    const file = join(root, rest.endsWith('/') ? `${rest}index.html` : rest);
    if (!file.startsWith(root)) return void res.writeHead(403).end();
    try {
      const body = await readFile(file);
      const type = TYPES[extname(file)];
      const headers = { 'content-type': type ?? 'application/octet-stream', ...(compress && { vary: 'accept-encoding' }), ...policy };
      // Every type the server names is text or wasm, which static hosts compress.
      const gzip = compress && type !== undefined && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
      res.writeHead(200, gzip ? { ...headers, 'content-encoding': 'gzip' } : headers);
      res.end(gzip ? gzipSync(body) : body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  return {
    url,
    close: () => new Promise((resolve) => server.close(resolve)),
    release: (path) => held.get(path).release(),
  };
}

/** Launches headless Chromium with the flags this machine needs. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/**
 * A new page whose console errors, warnings, uncaught errors and CSP violations (in any frame)
 * land in `page.problems`.
 */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.problems = [];
  await page.exposeBinding('__bucketlabCspViolation', (_source, text) => page.problems.push(`csp: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__bucketlabCspViolation(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') page.problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  return page;
}

/**
 * Waits until the diagram is mounted (or an error replaced it): its build-time markup is there
 * from the start, so "mounted" is the wasm's mark on it, `data-live`.
 */
export async function waitForWidget(page) {
  await page.waitForSelector('#bucket-widget .bl-widget[data-live], #bucket-widget .bl-error');
  // Then the lesson's sections laid out for good (www/lesson/expose-sections.js, while the page is
  // idle), which moves the scroll position by scroll anchoring and takes main-thread time: a test
  // starts after it.
  await page.waitForFunction(() => !document.querySelector('#bucket-widget .bl-widget[data-live]')
    || !document.querySelector('main > section:not(.laid-out)'));
}

/**
 * Starts the server and the browser before the file's tests and stops them after; the returned
 * object's `server` and `browser` are set once `before` has run.
 */
export function useBrowser() {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await serve();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}
