// The package's entry point under Node: the same module as in browsers, already instantiated
// from the wasm file next to it (no fetch, no DOM), so `TokenBucket` works right after import.
import { readFileSync } from 'node:fs';
import { initSync } from './pkg/bucketlab.js';

initSync({ module: readFileSync(new URL('./pkg/bucketlab_bg.wasm', import.meta.url)) });

export * from './pkg/bucketlab.js';
export { default } from './pkg/bucketlab.js';
