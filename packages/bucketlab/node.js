// The package's entry point under Node: the same module as in browsers, already instantiated
// from the wasm file next to it (no fetch, no DOM), so `TokenBucket` works right after import.
// A server bundle (esbuild --platform=node, Vite's SSR build with the package not external,
// webpack's node target) moves this file's code into the bundle, away from pkg/: the wasm is then
// the installed package's, found from the bundle's folder as `import 'bucketlab'` would be.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initSync } from './pkg/bucketlab.js';

/**
 * The wasm's bytes: the file beside this one, else the first node_modules/bucketlab up from this
 * code's folder (where Node would find the package; a plain walk, which bundlers leave alone,
 * where webpack would bundle the file a `require.resolve` names).
 */
function wasmBytes() {
  // In a CommonJS bundle (esbuild's default for --platform=node) import.meta.url is empty: the
  // bundle's own folder is __dirname there.
  const here = import.meta.url ? dirname(fileURLToPath(import.meta.url)) : __dirname;
  const beside = join(here, 'pkg', 'bucketlab_bg.wasm');
  if (existsSync(beside)) return readFileSync(beside);
  for (let dir = here; ; dir = dirname(dir)) {
    const installed = join(dir, 'node_modules', 'bucketlab', 'pkg', 'bucketlab_bg.wasm');
    if (existsSync(installed)) return readFileSync(installed);
    if (dirname(dir) === dir) break;
  }
  throw new Error(`bucketlab: its WebAssembly file is neither at ${beside} nor in a node_modules/bucketlab above that folder. A server bundle needs the package installed where it runs (or kept external), or pkg/bucketlab_bg.wasm copied beside the bundle.`);
}

initSync({ module: wasmBytes() });

export * from './pkg/bucketlab.js';
export { default } from './pkg/bucketlab.js';

/** The diagram needs a page: under Node this says so, instead of failing inside the wasm. */
export function mountDiagram() {
  throw new Error('bucketlab: mountDiagram needs a browser page (a DOM); under Node the package gives TokenBucket and checkSetting');
}
