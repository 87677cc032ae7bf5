// The npm package in a fresh app built by Vite 8, by webpack 5 (as it is, and with a site's own CSS
// rule) and by esbuild (with the wasm copied as docs/embedding.md says, since esbuild leaves
// `new URL(…, import.meta.url)` alone): `npm pack` of the package,
// `npm install` of that tarball into a fresh copy of the app (tests/fixtures/bundler-app) for
// each, a production build with the repository's pinned Vite and webpack, and the built app in
// Chromium under the strict CSP: the element sends requests until a 429, the wasm comes from the
// bundle's emitted asset, and the app's own script uses the package's TokenBucket.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { build as esbuild } from 'esbuild';
import { assemblePackage, pack } from '../../scripts/npm-package.mjs';
import { launch, openPage } from '../e2e/harness.mjs';
import { serveStatic, STRICT_CSP } from '../e2e/static-server.mjs';
import { copyFixture, mustRun, ROOT, sendUntilRefused } from './helpers.mjs';

let work, tarball, browser;
const cleanup = [];
before(async () => {
  work = await mkdtemp(join(tmpdir(), 'bucketlab-npm-'));
  await assemblePackage(join(work, 'bucketlab'));
  tarball = pack(join(work, 'bucketlab'), work);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  for (const dir of [work, ...cleanup]) await rm(dir, { recursive: true, force: true });
});

/** A copy of the fixture app with the packed package installed by npm, offline. */
async function freshApp() {
  const app = await copyFixture('bundler-app');
  cleanup.push(join(app, '..'));
  await mustRun('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: app });
  return app;
}

/**
 * The app's own stylesheet in `dir`, named by `name`, which must hold the package's widget.css
 * that main.js imports (the element's own two are inside its script).
 */
async function checkStylesheet(dir, name) {
  const css = (await readdir(dir)).filter((f) => name.test(f));
  assert.equal(css.length, 1, `the app's stylesheet is emitted, not dropped: ${await readdir(dir)}`);
  assert.match(await readFile(join(dir, css[0]), 'utf8'), /\.bl-widget/);
}

/** Opens the built app and checks the element, the wasm's URL and the app's script. */
async function checkBuiltApp(dist, wasmPath) {
  const site = await serveStatic(dist, { headers: { 'content-security-policy': STRICT_CSP } });
  try {
    const page = await openPage(browser);
    await page.goto(site.url);
    await page.waitForFunction(() => document.getElementById('lab')?.diagram);
    const lines = await sendUntilRefused(page, '#lab', 3);
    assert.ok(lines.slice(0, 3).every((l) => l.startsWith('Admitted')), lines.join(' | '));
    assert.match(lines[3], /^Denied: 429/);
    assert.equal(await page.textContent('#script'), '10 admitted, 1 refused');
    const wasm = site.log.filter((r) => r.path.endsWith('.wasm'));
    assert.equal(wasm.length, 1, `one wasm fetch: ${JSON.stringify(wasm)}`);
    assert.match(wasm[0].path, wasmPath);
    assert.equal(wasm[0].type, 'application/wasm');
    assert.deepEqual(site.log.filter((r) => r.status === 404), []);
    // Both of the element's stylesheets apply in its shadow root (unstyled, it still works).
    assert.deepEqual(await page.evaluate(() => {
      const host = document.getElementById('lab');
      return [getComputedStyle(host).getPropertyValue('--bl-styled').trim(), getComputedStyle(host.shadowRoot.querySelector('.bl-frame')).containerType];
    }), ['visible', 'inline-size'], 'widget.css and bucket-lab.css apply');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await site.close();
  }
}

test('vite: a production build of a fresh app runs the element and loads the emitted wasm', async () => {
  const app = await freshApp();
  await build({ root: app, logLevel: 'warn', configFile: false });
  const assets = await readdir(join(app, 'dist', 'assets'));
  const emitted = assets.find((f) => f.endsWith('.wasm'));
  assert.ok(emitted, `the wasm is an emitted asset: ${assets}`);
  await checkStylesheet(join(app, 'dist', 'assets'), /^index-.*\.css$/);
  await checkBuiltApp(join(app, 'dist'), new RegExp(`^assets/${emitted.replace('.', '\\.')}$`));
});

test('webpack: a production build of a fresh app runs the element and loads the emitted wasm', async () => {
  const app = await freshApp();
  await mustRun(join(ROOT, 'node_modules', '.bin', 'webpack'), ['--mode', 'production'], { cwd: app });
  await copyFile(join(app, 'index.html'), join(app, 'dist', 'index.html'));
  const files = await readdir(join(app, 'dist'));
  const emitted = files.find((f) => f.endsWith('.wasm'));
  assert.ok(emitted, `the wasm is an emitted asset: ${files}`);
  await checkStylesheet(join(app, 'dist'), /^main\.css$/);
  await checkBuiltApp(join(app, 'dist'), new RegExp(`^${emitted.replace('.', '\\.')}$`));
});

// A site's own CSS rule, as Docusaurus and many webpack apps have (css-loader, then
// mini-css-extract-plugin), applies to every .css the build meets, a `new URL('./x.css', …)` too:
// the element's stylesheets are inside its script, so the rule never turns them into JavaScript.
const WEBPACK_CSS_RULE = `import MiniCssExtractPlugin from ${JSON.stringify(join(ROOT, 'node_modules', 'mini-css-extract-plugin', 'dist', 'index.js'))};
export default { mode: 'production', entry: './main.js',
  module: { rules: [{ test: /\\.css$/, use: [MiniCssExtractPlugin.loader, ${JSON.stringify(join(ROOT, 'node_modules', 'css-loader', 'dist', 'cjs.js'))}] }] },
  plugins: [new MiniCssExtractPlugin()],
  output: { path: new URL('dist', import.meta.url).pathname, filename: 'main.js' } };
`;

test('webpack with a site\'s CSS rule (css-loader and mini-css-extract-plugin, as Docusaurus has): the element is styled and works', async () => {
  const app = await freshApp();
  await writeFile(join(app, 'webpack.config.js'), WEBPACK_CSS_RULE);
  await mustRun(join(ROOT, 'node_modules', '.bin', 'webpack'), [], { cwd: app });
  await copyFile(join(app, 'index.html'), join(app, 'dist', 'index.html'));
  const files = await readdir(join(app, 'dist'));
  await checkStylesheet(join(app, 'dist'), /^main\.css$/);
  await checkBuiltApp(join(app, 'dist'), new RegExp(`^${files.find((f) => f.endsWith('.wasm')).replace('.', '\\.')}$`));
});

test('esbuild: a bundle of a fresh app, with the wasm copied beside it as the docs say, runs the element', async () => {
  const app = await freshApp();
  const out = join(app, 'dist');
  await esbuild({ entryPoints: [join(app, 'main.js')], bundle: true, format: 'esm', target: 'es2022', outfile: join(out, 'main.js'), logLevel: 'warning' });
  await copyFile(join(app, 'node_modules', 'bucketlab', 'pkg', 'bucketlab_bg.wasm'), join(out, 'bucketlab_bg.wasm'));
  await copyFile(join(app, 'index.html'), join(out, 'index.html'));
  await checkBuiltApp(out, /^bucketlab_bg\.wasm$/);
});

// A server that imports the package and is bundled for Node: each bundler inlines node.js (which
// sideEffects must list, or the wasm's set-up is dropped) away from its pkg/ folder.
const SERVER = `import { TokenBucket } from 'bucketlab';
const bucket = new TokenBucket({ capacity: 1, refillRate: 2 });
console.log(JSON.stringify([bucket.tryAcquireAt(1, 0).allowed, bucket.tryAcquireAt(1, 0).retryAfter]));
`;
const WEBPACK_SERVER = `export default { mode: 'production', target: 'node', entry: './server.js', experiments: { outputModule: true },
  output: { path: new URL('server/webpack', import.meta.url).pathname, filename: 'server.mjs', module: true, library: { type: 'module' } } };
`;

test('server bundles (esbuild for Node as ESM and CommonJS, Vite\'s SSR build with the package inlined, webpack\'s node target) run TokenBucket', async () => {
  const app = await freshApp();
  await writeFile(join(app, 'server.js'), SERVER);
  await writeFile(join(app, 'webpack.server.js'), WEBPACK_SERVER);
  await esbuild({ entryPoints: [join(app, 'server.js')], bundle: true, platform: 'node', format: 'esm', outfile: join(app, 'server', 'esbuild.mjs'), logLevel: 'warning' });
  // esbuild's default format for Node is CommonJS, where import.meta.url is empty (it warns so).
  await esbuild({ entryPoints: [join(app, 'server.js')], bundle: true, platform: 'node', outfile: join(app, 'server', 'esbuild.cjs'), logLevel: 'error' });
  await build({ root: app, logLevel: 'warn', configFile: false, ssr: { noExternal: true }, build: { ssr: join(app, 'server.js'), outDir: join(app, 'server', 'vite') } });
  await mustRun(join(ROOT, 'node_modules', '.bin', 'webpack'), ['--config', 'webpack.server.js'], { cwd: app });
  for (const bundle of ['server/esbuild.mjs', 'server/esbuild.cjs', 'server/vite/server.js', 'server/webpack/server.mjs']) {
    const source = await readFile(join(app, bundle), 'utf8');
    assert.doesNotMatch(source, /from\s*["']bucketlab["']/, `${bundle} inlines the package`);
    const run = spawnSync(process.execPath, [bundle], { cwd: app, encoding: 'utf8' });
    assert.equal(run.status, 0, `${bundle}: ${run.stderr}`);
    assert.equal(run.stdout.trim(), '[true,0.5]', bundle);
  }
});
