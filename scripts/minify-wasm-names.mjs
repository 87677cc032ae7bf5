#!/usr/bin/env node
// Shortens the import and export names of a wasm-bindgen module and rewrites its JavaScript glue
// to match. wasm-bindgen names every import `__wbg_<method>_<16 hex digits>`: about a hundred
// hashes that gzip can't compress, over a kilobyte of the module. binaryen's
// --minify-imports-and-exports-and-modules renames them (`a`, `b`, … in module `a`) and prints
// the old → new map, which this script applies to the glue's import object and `wasm.<export>`
// uses. Usage: node scripts/minify-wasm-names.mjs www/pkg/bucketlab_bg.wasm www/pkg/bucketlab.js
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [wasmPath, gluePath] = process.argv.slice(2);
if (!wasmPath || !gluePath) {
  console.error('usage: minify-wasm-names.mjs MODULE.wasm GLUE.js');
  process.exit(2);
}
const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const modulesOf = (bytes) =>
  [...new Set(WebAssembly.Module.imports(new WebAssembly.Module(bytes)).map((i) => i.module))];

const before = modulesOf(readFileSync(wasmPath));
const output = execFileSync(
  join(ROOT, 'node_modules', '.bin', 'wasm-opt'),
  [
    '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
    '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue',
    '--minify-imports-and-exports-and-modules', wasmPath, '-o', wasmPath,
  ],
  { encoding: 'utf8' },
);
const map = JSON.parse(output.slice(output.indexOf('{')));
const after = modulesOf(readFileSync(wasmPath));
if (before.length !== 1 || after.length !== 1) {
  throw new Error(`expected one import module before and after, got ${before} → ${after}`);
}

// A literal pattern for `name` (export and import names may contain `$`).
const literal = (name) => name.replace(/[$.*+?^(){}|[\]\\]/g, '\\$&');
let glue = readFileSync(gluePath, 'utf8');
const replaceExactly = (pattern, replacement, expected, what) => {
  let count = 0;
  glue = glue.replace(pattern, () => {
    count += 1;
    return replacement;
  });
  if (count < expected) throw new Error(`${what} not found in ${gluePath}`);
};
replaceExactly(new RegExp(`"${literal(before[0])}":`, 'g'), `"${after[0]}":`, 1, `module ${before[0]}`);
for (const [, name, short] of map.imports) {
  // An import is a key of the glue's import object: `name: function(…)`.
  replaceExactly(new RegExp(`(?<![\\w$])${literal(name)}(?=\\s*:)`, 'g'), short, 1, `import ${name}`);
}
for (const [name, short] of map.exports) {
  // Exports the glue never calls (wasm-bindgen's internal ones) may be absent.
  replaceExactly(new RegExp(`\\bwasm\\.${literal(name)}(?![\\w$])`, 'g'), `wasm.${short}`, 0, `export ${name}`);
}
writeFileSync(gluePath, glue);
console.log(`minify-wasm-names: ${map.imports.length} imports, ${map.exports.length} exports renamed`);
