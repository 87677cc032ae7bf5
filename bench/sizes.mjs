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

/** Files the lesson page (www/index.html) loads, relative to www/, as of this writing; bench/run.mjs
 * uses the list of what the page really requested instead whenever it has one. */
export const LESSON_FILES = [
  'index.html',
  'lesson.css',
  'widget.css',
  'main.js',
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
