// The npm package as a user gets it: packed with `npm pack`, installed offline from the tarball
// into an empty project, imported by name under Node, and type-checked by TypeScript.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { access, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assemblePackage, pack } from '../../scripts/npm-package.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
let work;
let project;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'bucketlab-npm-'));
  await assemblePackage(join(work, 'package'));
  const tarball = pack(join(work, 'package'), work);
  project = join(work, 'consumer');
  execFileSync('mkdir', [project]);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, stdio: 'pipe' });
});
after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Runs an ES module in the consumer project and returns what it printed as JSON. */
function run(source) {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', source], { cwd: project, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test('the installed package gives TokenBucket to Node, ready on import', () => {
  const out = run(`
    import { TokenBucket } from 'bucketlab';
    const bucket = new TokenBucket({ capacity: 10, refillRate: 5 });
    const first = [];
    for (let i = 0; i < 10; i++) first.push(bucket.tryAcquireAt(1, 0).allowed);
    let error = null;
    try { new TokenBucket({ capacity: 10, refill_rate: 5 }); } catch (e) { error = e.message; }
    // The README's clock: a new bucket's starts at its first call, or at tryAcquireAt(0, now).
    const idle = new TokenBucket({ capacity: 10, refillRate: 1, tokens: 0 });
    const unstarted = idle.tokensAt(100);
    idle.tryAcquireAt(0, 0);
    // index.d.ts: a wait too long for a number has no retryAfter, though the request is not "never".
    // Checked here, before JSON would write Infinity as null too.
    const wait = new TokenBucket({ capacity: 1, refillRate: 1e-320, tokens: 0 }).tryAcquireAt(1, 0).retryAfter;
    const endless = { ...new TokenBucket({ capacity: 1, refillRate: 1e-320, tokens: 0 }).tryAcquireAt(1, 0), retryAfterIsNull: wait === null };
    let diagram = null;
    try { (await import('bucketlab')).mountDiagram({}); } catch (e) { diagram = e.message; }
    console.log(JSON.stringify({
      first, denied: bucket.tryAcquireAt(1, 0), retry: bucket.tryAcquireAt(1, 0.2).allowed,
      later: bucket.tokensAt(10), error, unstarted, started: idle.tokensAt(100), diagram, endless,
    }));
  `);
  assert.equal(out.unstarted, 0, 'before its first call a bucket holds its starting tokens');
  assert.equal(out.started, 10, 'tryAcquireAt(0, now) starts its clock');
  assert.match(out.diagram, /^bucketlab: mountDiagram needs a browser page/);
  assert.deepEqual(out.endless, { allowed: false, tokens: 0, retryAfter: null, never: null, retryAfterIsNull: true });
  assert.deepEqual(out.first, Array(10).fill(true));
  assert.deepEqual(out.denied, { allowed: false, tokens: 0, retryAfter: 0.2, never: null });
  assert.equal(out.retry, true, 'a retry exactly retryAfter later passes');
  assert.equal(out.later, 10);
  assert.match(out.error, /unknown field "refill_rate"/);
});

test('the manifest: name, version of the crate, exports that resolve, only the listed files', async () => {
  const cargo = (await readFile(join(ROOT, 'Cargo.toml'), 'utf8')).match(/^version\s*=\s*"([^"]+)"/m)[1];
  const out = run(`
    import manifest from 'bucketlab/package.json' with { type: 'json' };
    const resolved = ['bucketlab', 'bucketlab/element', 'bucketlab/widget.css', 'bucketlab/bucketlab_bg.wasm']
      .map((s) => import.meta.resolve(s).split('/node_modules/bucketlab/')[1]);
    console.log(JSON.stringify({ name: manifest.name, version: manifest.version, resolved }));
  `);
  assert.deepEqual(out, { name: 'bucketlab', version: cargo, resolved: ['node.js', 'element/bucket-lab.js', 'element/widget.css', 'pkg/bucketlab_bg.wasm'] });
  const installed = execFileSync('find', ['.', '-type', 'f'], { cwd: join(project, 'node_modules', 'bucketlab'), encoding: 'utf8' })
    .split('\n').filter(Boolean).map((f) => f.slice(2)).sort();
  assert.deepEqual(installed, ['LICENSE', 'README.md', 'THIRD-PARTY-NOTICES.txt', 'element.d.ts', 'element/bucket-lab.css', 'element/bucket-lab.js', 'element/early.js',
    'element/error-box.js', 'element/keep-target.js', 'element/load-failure.js', 'element/load-retry.js', 'element/markup.js', 'element/misspelled.js', 'element/mount.js', 'element/range-touch.js', 'element/trap.js', 'element/widget.css', 'i18n/locales/element.js',
    'i18n/translate.js', 'index.d.ts', 'index.js', 'node.js', 'package.json', 'pkg/bucketlab.js', 'pkg/bucketlab_bg.wasm', 'react.d.ts']);
  const license = await readFile(join(project, 'node_modules', 'bucketlab', 'LICENSE'), 'utf8');
  assert.equal(license, await readFile(join(ROOT, 'LICENSE'), 'utf8'));
  assert.match(license, /^MIT License\n\nCopyright \(c\) 2026 the bucketlab authors\n/);
  const installedManifest = JSON.parse(await readFile(join(project, 'node_modules', 'bucketlab', 'package.json'), 'utf8'));
  assert.equal(installedManifest.license, 'MIT');
  assert.equal(installedManifest.scripts, undefined, 'the source folder\'s prepack guard is not published');
});

test('the type declarations accept correct use and reject mistakes', async () => {
  // A usual lib setting, without esnext.disposable: the declarations bring in what they need.
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [] },
  }));
  // One compiler run over two files (tsc is slow): good.ts must check cleanly, bad.ts must not.
  await writeFile(join(project, 'good.ts'), `
    import init, { TokenBucket, mountDiagram, checkSetting, type Decision, type SettingError } from 'bucketlab';
    import { CONTROL_GROUPS, EVENTS, type BucketLabAttributes } from 'bucketlab/element';
    const bucket = new TokenBucket({ capacity: 10, refillRate: 5, tokens: 0 });
    const d: Decision = bucket.tryAcquireAt(1, 0);
    const wait: number | null = d.retryAfter;
    const attrs: BucketLabAttributes = { capacity: 10, 'refill-rate': '2,5', lang: 'en', controls: 'send time' };
    // Another tag of the two languages, as the element reads it.
    const british: BucketLabAttributes = { lang: 'en-GB', paused: 'true' };
    export async function page(root: HTMLElement) {
      await init();
      const diagram = mountDiagram(root);
      diagram.configure(20, 2);
      diagram.showControls('none');
      diagram.send();
      diagram.stepBack();
      diagram.seek(diagram.viewTime);
      const link: string = diagram.scenario;
      diagram.live();
      const el = document.querySelector('bucket-lab');
      // The element's events are typed: their detail needs no cast.
      el?.addEventListener('bucketlab:ready', (e) => e.detail.diagram.send());
      el?.addEventListener('bucketlab:decision', (e) => { const s: 200 | 429 = e.detail.status; return [s, e.detail.retryAfter]; });
      el?.addEventListener('bucketlab:error', (e) => e.detail.error.errors?.map((p) => [p.attribute, p.localized]));
      // They bubble: the document hears them, typed too.
      document.addEventListener('bucketlab:decision', (e) => e.detail.head.length);
      const shown: string | undefined = el?.error?.message;
      // Its attributes as properties, reflected.
      if (el) { el.capacity = 10; el.refillRate = '2,5'; el.paused = true; el.theme = null; }
      const capacity: string | null | undefined = el?.capacity;
      const groups: readonly string[] = [...CONTROL_GROUPS, ...EVENTS];
      let words = '';
      try { checkSetting('capacity', '0', null, 'en'); } catch (error) { words = (error as SettingError).localized; }
      return [diagram.tokens, el?.diagram?.paused, wait, attrs, british, link, diagram.traveling, words, groups, shown, capacity];
    }
  `);
  await writeFile(join(project, 'bad.ts'), `
    import { TokenBucket } from 'bucketlab';
    const bucket = new TokenBucket({ capacity: 10, refilRate: 5 });
    export const allowed: string = bucket.tryAcquireAt(1, 0).allowed;
    export const late = (d: import('bucketlab').BucketDiagram) => d.send(null);
  `);
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: project, encoding: 'utf8' });
  const errors = tsc.stdout.split('\n').filter((line) => /error TS/.test(line));
  assert.deepEqual(errors.filter((line) => !line.startsWith('bad.ts')), [], 'correct use type-checks');
  assert.equal(errors.length, 3, tsc.stdout);
  assert.match(errors[0], /refilRate/, 'a misspelt field is caught');
  assert.match(errors[1], /'boolean' is not assignable to type 'string'/, 'results are typed, not any');
  assert.match(errors[2], /'null' is not assignable/, 'a cost is a number or left out, never null');
});

test('React 19 JSX: bucketlab/react types <bucket-lab> and its attributes, its events heard in an effect as the docs show', async () => {
  const dir = join(project, 'react-app');
  execFileSync('mkdir', ['-p', dir, join(project, 'node_modules', '@types')]);
  // React's types beside the package, as an app that uses React has them (the repository's pinned copy).
  await symlink(join(ROOT, 'node_modules/@types/react'), join(project, 'node_modules/@types/react'));
  await symlink(join(ROOT, 'node_modules/csstype'), join(project, 'node_modules/csstype'));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], jsx: 'react-jsx', types: [] },
  }));
  // docs/embedding.md's snippet, as written there (the Portuguese gives the same code, its
  // comment translated).
  const docs = await readFile(join(ROOT, 'docs/embedding.md'), 'utf8');
  const snippet = /\*\*With React 19 and TypeScript\*\*[^]*?```tsx\n([^]*?)```/.exec(docs)[1];
  await writeFile(join(dir, 'docs.tsx'), snippet);
  // The installed package's README shows the same code (it ships without the repository's docs).
  const readme = await readFile(join(project, 'node_modules/bucketlab/README.md'), 'utf8');
  assert.equal(/```tsx\n([^]*?)```/.exec(readme)?.[1], snippet, 'the package README\'s React snippet is the docs\'');
  await writeFile(join(dir, 'good.tsx'), `
    import type {} from 'bucketlab/react';
    import type { BucketLabElement } from 'bucketlab/element';
    export const lab = <bucket-lab capacity={10} refill-rate="2,5" lang="en" controls="send time" paused
      ref={(el: BucketLabElement | null) => {
        el?.addEventListener('bucketlab:decision', (e) => { const s: 200 | 429 = e.detail.status; return s; });
        el?.addEventListener('bucketlab:error', (e) => e.detail.error.errors?.[0]?.attribute);
        el?.diagram?.send();
      }} />;
  `);
  await writeFile(join(dir, 'bad.tsx'), `
    export const misspelt = <bucket-lab capacty={10} />;
    export const french = <bucket-lab lang="fr" />;
    export const status = <bucket-lab ref={(el) => el?.addEventListener('bucketlab:decision', (e) => { const s: string = e.detail.status; return s; })} />;
  `);
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: dir, encoding: 'utf8' });
  const errors = tsc.stdout.split('\n').filter((line) => /error TS/.test(line));
  assert.deepEqual(errors.filter((line) => !line.startsWith('bad.tsx')), [], tsc.stdout);
  assert.equal(errors.length, 3, tsc.stdout);
  assert.match(errors[0], /'capacty' does not exist|capacty/);
  assert.match(errors[1], /'"fr"' is not assignable/);
  assert.match(errors[2], /is not assignable to type 'string'/, 'an event\'s detail is typed');
});

test('the types check in a Node project without the dom lib, as the README\'s Node example uses them', async () => {
  const dir = join(project, 'node-only');
  execFileSync('mkdir', ['-p', dir]);
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], types: [], skipLibCheck: false },
  }));
  await writeFile(join(dir, 'server.ts'), `
    import { TokenBucket, mountDiagram } from 'bucketlab';
    const bucket = new TokenBucket({ capacity: 10, refillRate: 5 });
    export const allowed: boolean = bucket.tryAcquireAt(1, 0).allowed;
    // The package brings in no DOM globals, which a server does not have at run time.
    // @ts-expect-error
    export const title = document.title;
    // @ts-expect-error: a diagram needs a page
    mountDiagram({});
  `);
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: dir, encoding: 'utf8' });
  assert.equal(tsc.status, 0, tsc.stdout);
});

test('importing the element on a server (Node, no DOM) defines nothing and does not throw', () => {
  const out = run(`
    const element = await import('bucketlab/element');
    console.log(JSON.stringify({ exports: Object.keys(element).sort(), events: element.EVENTS }));
  `);
  assert.deepEqual(out, { exports: ['ATTRIBUTES', 'BucketLabElement', 'CONTROL_GROUPS', 'EVENTS', 'VIEWS'], events: ['bucketlab:decision', 'bucketlab:config'] });
});

test('the element\'s types state the defaults the element uses', async () => {
  const types = await readFile('packages/bucketlab/element.d.ts', 'utf8');
  const element = await readFile('www/element/bucket-lab.js', 'utf8');
  const defaults = Object.fromEntries([...element.match(/const DEFAULTS = \{([^}]*)\}/)[1].matchAll(/'?([\w-]+)'?: '([^']*)'/g)].map((m) => [m[1], m[2]]));
  assert.deepEqual(Object.keys(defaults), ['capacity', 'refill-rate']);
  for (const [name, value] of Object.entries(defaults)) {
    const doc = types.match(new RegExp(`/\\*\\*([^*]*)\\*/\\s*'?${name}'?\\?:`))[1];
    assert.match(doc, new RegExp(`\\(default ${value.replace('.', '\\.')}\\)`), `${name}: ${doc}`);
  }
});

test('the package\'s README lists every attribute the element reads', async () => {
  const readme = await readFile('packages/bucketlab/README.md', 'utf8');
  const element = await readFile('www/element/bucket-lab.js', 'utf8');
  const attributes = [...element.match(/export const ATTRIBUTES = \[([^\]]*)\]/)[1].matchAll(/'([\w-]+)'/g)].map((m) => m[1]);
  assert.ok(attributes.includes('theme'), attributes.join(' '));
  const listed = readme.match(/^Attributes: ([\s\S]*?)\.\n/m)[1];
  assert.deepEqual(attributes.filter((name) => !listed.includes(`\`${name}\``)), [], listed);
});

test('the README\'s HTML snippets load the element by a path a browser resolves, into the installed package', async () => {
  const readme = await readFile('packages/bucketlab/README.md', 'utf8');
  const html = [...readme.matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
  // A bare specifier (`import 'bucketlab/element'`) in a plain page fails without a bundler.
  assert.doesNotMatch(html, /import\s*['"]bucketlab/, 'no bare specifier in a page\'s script');
  const sources = [...html.matchAll(/<script type="module" src="\.\/(node_modules\/[^"]+)"/g)].map((m) => m[1]);
  assert.ok(sources.length > 0, html);
  for (const source of sources) await access(join(project, source));
});

test('npm pack in packages/bucketlab refuses, naming the command that packs the package', async () => {
  const destination = await mkdtemp(join(tmpdir(), 'bucketlab-npm-source-'));
  try {
    // Scripts on, as npm's default: a run from `npm run` on a machine whose npm config sets
    // ignore-scripts hands that to the child (and the guard is a script; nothing can stop a
    // pack made with scripts off).
    const env = { ...process.env, npm_config_ignore_scripts: 'false' };
    const result = spawnSync('npm', ['pack', '--pack-destination', destination], { cwd: join(ROOT, 'packages', 'bucketlab'), encoding: 'utf8', env });
    assert.notEqual(result.status, 0, result.stdout);
    assert.match(result.stderr, /no pkg\/, element\/ or i18n\//);
    assert.match(result.stderr, /node scripts\/npm-package\.mjs --pack/);
    assert.deepEqual(await readdir(destination), [], 'no tarball written');
  } finally {
    await rm(destination, { recursive: true, force: true });
  }
});
