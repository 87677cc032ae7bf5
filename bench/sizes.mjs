// Byte sizes of the built module and of what the lesson page transfers, raw and compressed
// the way a static server would serve them (gzip -9, brotli quality 11).
import { readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

export const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;

export const brotliSize = (bytes) =>
  brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  }).length;

/** Files the lesson page (www/index.html) loads at start, relative to www/ (what headless
 * Chromium requested up to network idle, the lazily loaded parts' modules excluded: the lab's, the
 * several servers', the clients', the defense's, the traffic's and the "Embed this" panel's load only when they come near); bench/run.mjs uses the list of what the page really requested instead whenever it
 * has one, and tests/node/size_budget.test.mjs checks that the page's static references are here. */
export const LESSON_FILES = [
  'index.html',
  'lesson/lesson.css',
  'lesson/code.css',
  'element/widget.css',
  // main.js and every module it imports (the LMS link, the lazily loaded parts' loaders) in one
  // file (scripts/bundle.mjs); lms/scorm.js and lms/lrs.js load only in an LMS or for an LRS
  // launch, the parts' code and stylesheets (lab.css, servers.css, …) when they come near.
  'lesson/main.bundle.js',
  'pkg/bucketlab.js',
  'pkg/bucketlab_bg.wasm',
];

/** Sizes in bytes; throws if a file is missing (the module is not built). `pageFiles` are the
 * files, relative to www/, that make up the lesson page's transfer. */
export function measureSizes(wwwDir, pageFiles = LESSON_FILES) {
  const read = (name) => readFileSync(new URL(name, wwwDir));
  const wasm = read('pkg/bucketlab_bg.wasm');
  const glue = read('pkg/bucketlab.js');
  let pageGzip = 0;
  for (const name of pageFiles) pageGzip += gzipSize(read(name));
  return {
    pageFiles: [...pageFiles],
    wasmRaw: wasm.length,
    wasmGzip: gzipSize(wasm),
    wasmBrotli: brotliSize(wasm),
    glueRaw: glue.length,
    glueGzip: gzipSize(glue),
    pageGzip,
  };
}
