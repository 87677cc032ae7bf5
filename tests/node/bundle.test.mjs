// The pages' start-up scripts, each in one file (scripts/bundle.mjs): a bundle holds its entry's
// whole static graph but the wasm glue, which stays shared at its own URL, and every import() and
// file URL still reaches its file from the bundle's folder. Needs the build (scripts/build.sh
// writes www/lesson/main.bundle.js and www/embed/embed.bundle.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { BUNDLES, EMBED_BUNDLE, LESSON_BUNDLE, bundleScript } from '../../scripts/bundle.mjs';
import { staticGraph, staticImports } from './module-graph.mjs';

const WWW = new URL('../../www/', import.meta.url);
/** `path` (from www/) as spelled from the folder of `from` (also from www/). */
const relativeTo = (from, path) => posix.relative(posix.dirname(from), path);
const built = ({ out }) => readFileSync(new URL(out, WWW), 'utf8');
// A bundle's text but its last line, the comment that names its source map after the bundle's file.
const code = (text) => text.replace(/\n\/\/# sourceMappingURL=\S+\n?$/, '');
// A module each bundle must hold: the lesson's hero mount and LMS link, the iframe page's element.
const HOLDS = new Map([[LESSON_BUNDLE, ['element/mount.js', 'lms/lesson.js']], [EMBED_BUNDLE, ['element/bucket-lab.js', 'element/mount.js']]]);

test('each bundle holds every module its entry imports statically, and imports only the wasm glue', async () => {
  assert.deepEqual(BUNDLES, [...HOLDS.keys()]);
  for (const bundle of BUNDLES) {
    // Bundled again beside the built one (the same folder, so the same specifiers), then compared.
    const out = `${dirname(bundle.out)}/.bundle-test-${process.pid}.js`;
    try {
      const inside = await bundleScript({ entry: bundle.entry, out }, WWW.pathname.replace(/\/$/, ''));
      const again = readFileSync(new URL(out, WWW), 'utf8');
      const graph = staticGraph([bundle.entry]).filter((path) => !path.startsWith('pkg/'));
      assert.deepEqual([...inside].sort(), [...graph].sort(), bundle.out);
      for (const path of HOLDS.get(bundle)) assert.ok(graph.includes(path), `${bundle.entry} reaches ${path}: ${graph}`);
      assert.equal(code(again), code(built(bundle)), `www/${bundle.out} is what the sources bundle to now (run node scripts/pages.mjs)`);
      assert.match(again, /\n\/\/# sourceMappingURL=\.bundle-test-\d+\.js\.map\n$/, 'a bundle names its source map');
      const map = JSON.parse(readFileSync(new URL(`${out}.map`, WWW), 'utf8'));
      assert.equal(map.sources.length, map.sourcesContent.length);
      assert.ok(map.sources.includes(relativeTo(bundle.out, bundle.entry)), `the map shows ${bundle.entry} as written: ${map.sources}`);
    } finally {
      rmSync(new URL(out, WWW), { force: true });
      rmSync(new URL(`${out}.map`, WWW), { force: true });
    }
    assert.deepEqual([...new Set(staticImports(bundle.out, built(bundle)))], ['../pkg/bucketlab.js'], bundle.out);
  }
  assert.ok(staticGraph([LESSON_BUNDLE.entry]).length >= 20 && staticGraph([EMBED_BUNDLE.entry]).length >= 8);
  // The graph reader the test trusts: static imports and re-exports, not import(), strings or comments.
  assert.deepEqual(staticImports('x.js', "import a from './a.js';\nexport { b } from '../b.js';\nimport './c.js';\n" +
    "const d = import('./d.js'); // import e from './e.js'\nconst f = \"import g from './g.js'\";"), ['./a.js', '../b.js', './c.js']);
});

test('each import() and each new URL(…, import.meta.url) in a bundle reaches an existing file from its folder', () => {
  const embed = [...built(EMBED_BUNDLE).matchAll(/new URL\("([^"]+)",\s*import\.meta\.url\)/g)].map((m) => m[1]);
  // The element's stylesheets, from embed/ now.
  assert.deepEqual(embed.filter((spec) => spec.includes('.css')), ['../element/widget.css?no-inline', '../element/bucket-lab.css?no-inline']);
  for (const spec of embed) assert.ok(existsSync(new URL(spec, new URL(EMBED_BUNDLE.out, WWW))), `${spec} from ${EMBED_BUNDLE.out} is missing`);
  const bundle = new URL(LESSON_BUNDLE.out, WWW);
  const dynamic = [...built(LESSON_BUNDLE).matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]);
  // The Config tab's editor (its YAML parser's glue is the editor's own import), the SCORM and LRS
  // modules, a refused scenario link's reasons, the lab.
  for (const spec of ['./policy.js', '../lms/scorm.js', '../lms/lrs.js', './scenario-reason.js', './lab/app.js']) {
    assert.ok(dynamic.includes(spec), `import("${spec}") in ${dynamic}`);
  }
  const files = [...built(LESSON_BUNDLE).matchAll(/new URL\("([^"]+)",\s*import\.meta\.url\)/g)].map((m) => m[1]);
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
    await assert.rejects(bundleScript({ entry: 'lesson/main.js', out: 'lesson/out.js' }, www),
      /lesson\/parts\/where\.js reads import\.meta other than in new URL\('\.\/…', import\.meta\.url\)/);
    // A file named relative to the module is named relative to the bundle; comments don't count.
    write('lesson/parts/where.js', "// import.meta.url\nexport const url = new URL('./x.css', import.meta.url);\n");
    assert.deepEqual((await bundleScript({ entry: 'lesson/main.js', out: 'lesson/out.js' }, www)).sort(), ['lesson/main.js', 'lesson/parts/where.js']);
    assert.match(readFileSync(join(www, 'lesson/out.js'), 'utf8'), /new URL\("\.\/parts\/x\.css",\s*import\.meta\.url\)/);
  } finally {
    rmSync(www, { recursive: true, force: true });
  }
});
