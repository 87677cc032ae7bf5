// The build finds cargo's output where cargo puts it: with CARGO_TARGET_DIR set (as `make dist`
// or `make test` may run), scripts/markup.mjs runs the render-markup that scripts/build.sh just
// built there, not a stale or missing target/debug/render-markup; and no script or bench names
// target/debug, target/release or `--target-dir target` itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** scripts/markup.mjs's render-markup path, asked in a fresh Node with `env`. */
function renderMarkupPath(env) {
  const code = "import('./scripts/markup.mjs').then((m) => process.stdout.write(m.renderMarkupPath()))";
  return execFileSync(process.execPath, ['-e', code], { cwd: ROOT, env, encoding: 'utf8' });
}

test('scripts/markup.mjs runs the render-markup in CARGO_TARGET_DIR when it is set, else in target/', () => {
  const { CARGO_TARGET_DIR: _, ...without } = process.env;
  assert.equal(renderMarkupPath({ ...without, CARGO_TARGET_DIR: '/tmp/bucketlab-elsewhere' }),
    '/tmp/bucketlab-elsewhere/debug/render-markup');
  // Relative: the repository's, as scripts/build.sh runs cargo there.
  assert.equal(renderMarkupPath({ ...without, CARGO_TARGET_DIR: 'out' }), join(ROOT, 'out', 'debug', 'render-markup'));
  assert.equal(renderMarkupPath(without), join(ROOT, 'target', 'debug', 'render-markup'));
});

test('no build script or bench hard-codes a cargo output folder under target/', () => {
  const files = [
    ...readdirSync(join(ROOT, 'scripts')).map((name) => join('scripts', name)),
    ...readdirSync(join(ROOT, 'bench')).filter((name) => name.endsWith('.mjs')).map((name) => join('bench', name)),
    'Makefile',
  ];
  const hardCoded = /target\/(debug|release)\b|'target',\s*'(debug|release)'|--target-dir\s+"?target\b|\bdir=target\b/;
  for (const file of files) {
    readFileSync(join(ROOT, file), 'utf8').split('\n').forEach((line, i) => {
      if (line.trimStart().startsWith('#') || line.trimStart().startsWith('//')) return;
      assert.doesNotMatch(line, hardCoded, `${file}:${i + 1}`);
    });
  }
});
