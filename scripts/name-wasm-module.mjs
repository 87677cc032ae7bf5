#!/usr/bin/env node
// Gives a wasm module a name: a "name" section holding only the module's name (no function names,
// which would cost kilobytes). Browsers write it in a trap's stack (Chromium:
// wasm://wasm/bucketlab-8c2dc4ba), which is how the page tells the widget's trap from another
// module's (www/element/trap.js). The build strips every name first (wasm-bindgen
// --remove-name-section), so the module has no name section of its own to clash with.
// Usage: node scripts/name-wasm-module.mjs MODULE.wasm NAME
import { readFileSync, writeFileSync } from 'node:fs';

const [path, name] = process.argv.slice(2);
if (!path || !/^[\w-]+$/.test(name ?? '')) {
  console.error('usage: name-wasm-module.mjs MODULE.wasm NAME (letters, digits, _ and -)');
  process.exit(2);
}

/** `n` as an unsigned LEB128. */
function leb(n) {
  const out = [];
  do {
    out.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return out;
}
const text = (s) => [...leb(Buffer.byteLength(s)), ...Buffer.from(s)];

const module = readFileSync(path);
if (WebAssembly.Module.customSections(new WebAssembly.Module(module), 'name').length > 0) {
  throw new Error(`${path} already has a name section`);
}
// Subsection 0 is the module's name.
const moduleName = [0, ...leb(text(name).length), ...text(name)];
const payload = [...text('name'), ...moduleName];
const named = Buffer.concat([module, Buffer.from([0, ...leb(payload.length), ...payload])]);
new WebAssembly.Module(named); // still valid
writeFileSync(path, named);
