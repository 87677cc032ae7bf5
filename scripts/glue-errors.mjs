#!/usr/bin/env node
// Words two misuses of the widget module's API, where wasm-bindgen's glue has no option to:
// - a freed handle. The glue passes a freed object's pointer (0) to the module, which throws "null
//   pointer passed to rust", and a second `free()` throws the same. Each class's methods now read
//   the pointer through `__live()`, which throws `FREED[class]`, and `free()` on a freed handle
//   does nothing;
// - a call before `init()`. The glue reads the exports of a module not loaded yet and throws
//   "Cannot read properties of undefined (reading 'tokenbucket_new')". Until `init()` (or
//   `initSync`) has run, the exports are a stand-in that throws `NOT_READY`.
// Usage: node scripts/glue-errors.mjs www/pkg/bucketlab.js
import { readFileSync, writeFileSync } from 'node:fs';

/** What a call on a freed handle of each class throws: what happened, and what to do instead. */
const FREED = {
  BucketDiagram: 'this diagram was freed (free() was called or its element removed); mount a new one',
  TokenBucket: 'this TokenBucket was freed (free() was called); create a new one',
};

/** What a call before the module is loaded throws, and what to do instead. */
const NOT_READY = 'bucketlab is not loaded yet: await init() (the default export) before using its API';

const [gluePath] = process.argv.slice(2);
if (!gluePath) {
  console.error('usage: glue-errors.mjs GLUE.js');
  process.exit(2);
}
let glue = readFileSync(gluePath, 'utf8');
const done = new Set();
glue = glue.replace(/^export class (\w+) \{\n[\s\S]*?^\}\n/gm, (body, name) => {
  const freed = FREED[name];
  if (!freed) throw new Error(`glue-errors: no message for class ${name}`);
  done.add(name);
  const live = `    __live() {\n        if (this.__wbg_ptr === 0) throw new Error(${JSON.stringify(freed)});\n        return this.__wbg_ptr;\n    }\n`;
  return body
    .replace(/^( {4}__destroy_into_raw\(\) \{)/m, `${live}$1`)
    .replace(/(const ptr = this\.__destroy_into_raw\(\);\n)/, '$1        if (ptr === 0) return;\n')
    .replace(/(wasm\.[\w$]+\()this\.__wbg_ptr\b/g, '$1this.__live()');
});
for (const name of Object.keys(FREED)) {
  if (!done.has(name)) throw new Error(`glue-errors: class ${name} not found in ${gluePath}`);
}
if (glue.split('if (ptr === 0) return;').length !== done.size + 1 || /wasm\.[\w$]+\(this\.__wbg_ptr/.test(glue)) {
  throw new Error(`glue-errors: the glue of ${gluePath} no longer has the expected shape`);
}

// The stand-in is what `wasm` holds until the module is instantiated; the glue's two "already
// loaded?" checks compare against it instead of `undefined`.
const declared = 'let wasmModule, wasmInstance, wasm;\n';
const loaded = 'if (wasm !== undefined) return wasm;';
if (glue.split(declared).length !== 2 || glue.split(loaded).length !== 3) {
  throw new Error(`glue-errors: the glue of ${gluePath} no longer declares and checks its module as expected`);
}
glue = glue
  .replace(declared, `const notReady = new Proxy({}, { get() { throw new Error(${JSON.stringify(NOT_READY)}); } });\nlet wasmModule, wasmInstance, wasm = notReady;\n`)
  .replaceAll(loaded, 'if (wasm !== notReady) return wasm;');

writeFileSync(gluePath, glue);
console.log(`glue-errors: ${done.size} classes, and calls before init()`);
