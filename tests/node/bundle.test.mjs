// The lesson's start-up script in one file (scripts/bundle.mjs): it holds main.js's whole static
// graph but the wasm glue, which stays shared at its own URL, and every import() and file URL
// still reaches its file from the bundle's folder. Needs the build (scripts/build.sh writes www/lesson/main.bundle.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LESSON_BUNDLE, bundleLesson } from '../../scripts/bundle.mjs';
import { staticGraph, staticImports } from '../../scripts/preload.mjs';

const WWW = new URL('../../www/', import.meta.url);
const built = () => readFileSync(new URL(LESSON_BUNDLE.out, WWW), 'utf8');

test('the bundle holds every module main.js imports statically, and imports only the wasm glue', async () => {
  // Bundled again beside the built one (the same folder, so the same specifiers), then compared.
  const out = `lesson/.bundle-test-${process.pid}.js`;
  try {
    const inside = await bundleLesson({ entry: LESSON_BUNDLE.entry, out }, WWW.pathname.replace(/\/$/, ''));
    const again = readFileSync(new URL(out, WWW), 'utf8');
    const graph = staticGraph([LESSON_BUNDLE.entry]).filter((path) => !path.startsWith('pkg/'));
    assert.deepEqual([...inside].sort(), [...graph].sort());
    assert.ok(graph.includes('element/mount.js') && graph.includes('lms/lesson.js') && graph.length >= 20, `${graph}`);
    assert.equal(again, built(), 'www/lesson/main.bundle.js is what the sources bundle to now (run node scripts/pages.mjs)');
  } finally {
    rmSync(new URL(out, WWW), { force: true });
  }
  assert.deepEqual([...new Set(staticImports(LESSON_BUNDLE.out, built()))], ['../pkg/bucketlab.js']);
});

test('each import() and each new URL(…, import.meta.url) in the bundle reaches an existing file from its folder', () => {
  const bundle = new URL(LESSON_BUNDLE.out, WWW);
  const dynamic = [...built().matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]);
  // The YAML parser's glue, the SCORM and LRS modules, the scenario reasons in Portuguese, the lab.
  for (const spec of ['../pkg/bucketlab_config.js', '../lms/scorm.js', '../lms/lrs.js', './scenario-reason.js', './lab/app.js']) {
    assert.ok(dynamic.includes(spec), `import("${spec}") in ${dynamic}`);
  }
  const files = [...built().matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map((m) => m[1]);
  // The parts' stylesheets, named by their loaders.
  for (const spec of ['./lab/lab.css', './defense/defense.css', '../embed/embed-panel.css']) {
    assert.ok(files.includes(spec), `new URL("${spec}", import.meta.url) in ${files}`);
  }
  for (const spec of [...dynamic, ...files]) assert.ok(existsSync(new URL(spec, bundle)), `${spec} from ${LESSON_BUNDLE.out} is missing`);
});

test('a bundled module\'s relative file URL is spelled from the bundle; any other import.meta fails the build, named', async () => {
  const www = mkdtempSync(join(tmpdir(), 'bucketlab-www-'));
  try {
    const write = (path, text) => {
      mkdirSync(dirname(join(www, path)), { recursive: true });
      writeFileSync(join(www, path), text);
    };
    write('lesson/main.js', "import { url } from './parts/where.js';\nconsole.log(url);\n");
    write('lesson/parts/where.js', "export const base = import.meta.url;\nexport const url = new URL('./x.css', import.meta.url);\n");
    await assert.rejects(bundleLesson({ entry: 'lesson/main.js', out: 'lesson/out.js' }, www),
      /lesson\/parts\/where\.js reads import\.meta other than in new URL\('\.\/…', import\.meta\.url\)/);
    // A file named relative to the module is named relative to the bundle; comments don't count.
    write('lesson/parts/where.js', "// import.meta.url\nexport const url = new URL('./x.css', import.meta.url);\n");
    assert.deepEqual((await bundleLesson({ entry: 'lesson/main.js', out: 'lesson/out.js' }, www)).sort(), ['lesson/main.js', 'lesson/parts/where.js']);
    assert.match(readFileSync(join(www, 'lesson/out.js'), 'utf8'), /new URL\("\.\/parts\/x\.css", import\.meta\.url\)/);
  } finally {
    rmSync(www, { recursive: true, force: true });
  }
});
