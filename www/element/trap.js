// A Rust panic inside the widget's wasm ends in a trap (the build uses `panic = "abort"`): a
// `WebAssembly.RuntimeError` thrown out of whatever called into the module (a click listener, a
// frame callback), after which the module's state can't be trusted. The widget's wasm has no room
// for a panic hook under its size budget, so the page watches for the trap instead and turns every
// widget into an error box, rather than leaving a frozen diagram. Costs nothing until it happens.

const watchers = new Set();
let listening = false;

function check(error) {
  if (!(error instanceof WebAssembly.RuntimeError)) return;
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
