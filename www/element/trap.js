// A Rust panic inside the widget's wasm ends in a trap (the build uses `panic = "abort"`): a
// `WebAssembly.RuntimeError` thrown out of whatever called into the module (a click listener, a
// frame callback), after which the module's state can't be trusted. The widget's wasm has no room
// for a panic hook under its size budget, so the page watches for the trap instead and turns every
// widget into an error box, rather than leaving a frozen diagram. Costs nothing until it happens.

const watchers = new Set();
let listening = false;

/**
 * Whether the trap `error` came from the widget's module, as far as its stack tells. The module
 * is named bucketlab (scripts/name-wasm-module.mjs), which Chromium writes in its frames' address
 * (wasm://wasm/bucketlab-8c2dc4ba, for a module instantiated from bytes) and Firefox before each
 * frame (bucketlab.@…, whatever the file is called: a bundler's hashed name, the H5P script's
 * bytes); either also writes a streamed module's file (bucketlab_bg.wasm). A trap in another
 * module on the page (another widget's, Pyodide's) leaves the diagrams alone. A stack that names
 * no module (WebKit's [wasm code], a RuntimeError a script threw) can't tell, and counts as the
 * widget's.
 */
export function fromWidget(error) {
  const frame = String(error?.stack ?? '').split('\n').find((line) => line.includes('wasm-function['));
  if (frame === undefined || /wasm:\/\/wasm\/bucketlab-|^\s*(at )?bucketlab[.\s(@]|\bbucketlab_bg\b[^/\s]*\.wasm\b/.test(frame)) return true;
  return !/wasm:\/\/wasm\/|\.wasm(?!-function)\b|WebAssembly\./.test(frame);
}

function check(error) {
  // (A browser without WebAssembly has no trap to watch for.)
  if (typeof WebAssembly !== 'object' || !(error instanceof WebAssembly.RuntimeError) || !fromWidget(error)) return;
  console.error(`bucketlab stopped after an internal error (please report it): ${error.message}`);
  const pending = [...watchers];
  watchers.clear();
  for (const watcher of pending) watcher(error);
}

/**
 * Calls `onTrap(error)` the first time a wasm trap reaches the window (as an uncaught error or an
 * unhandled rejection). Returns a function that stops watching.
 */
export function onWasmTrap(onTrap) {
  watchers.add(onTrap);
  if (!listening) {
    listening = true;
    addEventListener('error', (event) => check(event.error));
    addEventListener('unhandledrejection', (event) => check(event.reason));
  }
  return () => watchers.delete(onTrap);
}
