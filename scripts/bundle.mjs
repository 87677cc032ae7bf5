// Bundles each page's start-up script with every module it imports statically into one file, which
// the page loads and preloads instead:
//  - www/lesson/main.js (the hero's mount, the tabs, the copy buttons, the LMS link, the lazily
//    loaded parts' tiny loaders…) → www/lesson/main.bundle.js, for the lesson (lesson/template.html);
//  - www/embed/embed.js (the iframe page's settings and the <bucket-lab> element's modules) →
//    www/embed/embed.bundle.js, for embed.html (lesson/embed.html). Other sites keep loading the
//    element from www/bucket-lab.js, unbundled.
// Why one file: as 34 modules (24 of them preloaded), the lesson's fetching and compiling competed
// with the page's parse and first paint on a 2-CPU machine; as one, the page paints sooner and the
// hero attaches sooner (BENCHMARKS.md, "one file for the start-up script"); embed.html's 10 modules
// likewise.
// What stays at its own URL, spelled again to reach it from the bundle's folder:
//  - the wasm glue (www/pkg/): it finds its .wasm next to itself, and the page's other parts
//    import the same instance;
//  - every import(): the parts loaded on demand stay separate files, loaded when needed;
//  - every file a module names with `new URL('./x.css', import.meta.url)` (the parts' stylesheets).
// Any other use of import.meta would read the bundle's URL, so the build refuses it.
// The source modules stay as they are, and the parts loaded later import the ones they share
// (translate.js, strings.js, copy.js) on their own: those hold no state that must be shared.
// Run by scripts/pages.mjs before it writes the pages (so `node scripts/pages.mjs` after an edit
// of www/lesson/, www/element/ or www/embed/ is enough); `node scripts/bundle.mjs` alone works too.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const WWW = join(dirname(fileURLToPath(import.meta.url)), '..', 'www');

/** The lesson's entry (under www/) and the bundle it becomes. */
export const LESSON_BUNDLE = { entry: 'lesson/main.js', out: 'lesson/main.bundle.js' };
/** embed.html's. */
export const EMBED_BUNDLE = { entry: 'embed/embed.js', out: 'embed/embed.bundle.js' };
/** Every bundle the build writes. */
export const BUNDLES = [LESSON_BUNDLE, EMBED_BUNDLE];

/** A file named relative to the module: `new URL('./x.css', import.meta.url)`. */
const URL_OF_FILE = /new URL\((['"])(\.\.?\/[^'"]+)\1, import\.meta\.url\)/g;

/** `target` (an absolute path) as a relative module specifier from the folder `from`. */
function specifierFrom(from, target) {
  const path = relative(from, target).split('\\').join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/**
 * The esbuild plugin that keeps the glue (`www`/pkg/), the import()s and the files named by
 * `new URL('./…', import.meta.url)` outside the bundle, pointing at the same files from `outDir`,
 * and refuses any other use of import.meta.
 */
function keepOutside(www, outDir) {
  const pkg = join(www, 'pkg');
  return {
    name: 'bucketlab-keep-outside',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = resolve(args.resolveDir, args.path);
        if (args.kind !== 'dynamic-import' && !target.startsWith(`${pkg}/`)) return undefined;
        return { path: specifierFrom(outDir, target), external: true };
      });
      // `new URL('./lab.css', import.meta.url)`: the same file, spelled from the bundle's folder.
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const contents = source.replace(URL_OF_FILE, (_, _quote, spec) =>
          `new URL(${JSON.stringify(specifierFrom(outDir, resolve(dirname(args.path), spec)))}, import.meta.url)`);
        const code = source.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').replace(URL_OF_FILE, '');
        if (/\bimport\.meta\b/.test(code)) {
          return { errors: [{ text: `${relative(www, args.path)} reads import.meta other than in new URL('./…', import.meta.url), which in the bundle would be the bundle's URL` }] };
        }
        return { contents, loader: 'js' };
      });
    },
  };
}

/**
 * Writes www/<out> from www/<entry>; resolves to the www/-relative paths of the modules inside it.
 * Minified by esbuild (its syntax, layout and local names), with a linked source map
 * (www/<out>.map, which only a browser's developer tools fetch) that shows each module as written,
 * names and all: 6.2 KB gzip less on the lesson's start-up than as written, 3.1 KB of it the names
 * (2026-12-07). Properties, exports and the element's tag are not renamed, so what scripts and
 * the console reach is as documented.
 */
export async function bundleScript({ entry, out }, www = WWW) {
  const outfile = join(www, out);
  const result = await build({
    entryPoints: [join(www, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    charset: 'utf8',
    legalComments: 'none',
    minifySyntax: true,
    minifyWhitespace: true,
    minifyIdentifiers: true,
    sourcemap: 'linked',
    metafile: true,
    // The metafile names each module by its path from the repository's root (www/…).
    absWorkingDir: join(www, '..'),
    logLevel: 'silent',
    plugins: [keepOutside(www, dirname(outfile))],
  });
  return Object.keys(result.metafile.inputs).map((path) => relative(www, resolve(www, '..', path)));
}

/** Writes every bundle; resolves to one line per bundle saying what it holds. */
export async function bundleAll(www = WWW) {
  return Promise.all(BUNDLES.map(async (bundle) =>
    `www/${bundle.out} (${(await bundleScript(bundle, www)).length} modules from www/${bundle.entry})`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`bundles: ${(await bundleAll()).join(', ')}`);
