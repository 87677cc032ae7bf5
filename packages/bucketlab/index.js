// The package's entry point for browsers and bundlers: the wasm module's API (await init() first),
// with the mountDiagram that also shows a bad setting's error inside the element it was given.
export * from './pkg/bucketlab.js';
export { default } from './pkg/bucketlab.js';
export { mountDiagram } from './element/mount.js';
