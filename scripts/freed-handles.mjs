#!/usr/bin/env node
// Makes a freed handle of the widget module say so. wasm-bindgen's glue passes a freed object's
// pointer (0) to the module, which throws "null pointer passed to rust", and a second `free()`
// throws the same; it has no option to word either. This rewrites the glue's classes: each method
// reads the pointer through `__live()`, which throws `FREED[class]` for a freed handle, and
// `free()` on a freed handle does nothing. Usage: node scripts/freed-handles.mjs www/pkg/bucketlab.js
import { readFileSync, writeFileSync } from 'node:fs';

/** What a call on a freed handle of each class throws: what happened, and what to do instead. */
const FREED = {
  BucketDiagram: 'this diagram was freed (free() was called or its element removed); mount a new one',
  TokenBucket: 'this TokenBucket was freed (free() was called); create a new one',
};

const [gluePath] = process.argv.slice(2);
if (!gluePath) {
  console.error('usage: freed-handles.mjs GLUE.js');
  process.exit(2);
}
let glue = readFileSync(gluePath, 'utf8');
const done = new Set();
glue = glue.replace(/^export class (\w+) \{\n[\s\S]*?^\}\n/gm, (body, name) => {
  const freed = FREED[name];
  if (!freed) throw new Error(`freed-handles: no message for class ${name}`);
  done.add(name);
  const live = `    __live() {\n        if (this.__wbg_ptr === 0) throw new Error(${JSON.stringify(freed)});\n        return this.__wbg_ptr;\n    }\n`;
  return body
    .replace(/^( {4}__destroy_into_raw\(\) \{)/m, `${live}$1`)
    .replace(/(const ptr = this\.__destroy_into_raw\(\);\n)/, '$1        if (ptr === 0) return;\n')
    .replace(/(wasm\.[\w$]+\()this\.__wbg_ptr\b/g, '$1this.__live()');
});
for (const name of Object.keys(FREED)) {
  if (!done.has(name)) throw new Error(`freed-handles: class ${name} not found in ${gluePath}`);
}
if (glue.split('if (ptr === 0) return;').length !== done.size + 1 || /wasm\.[\w$]+\(this\.__wbg_ptr/.test(glue)) {
  throw new Error(`freed-handles: the glue of ${gluePath} no longer has the expected shape`);
}
writeFileSync(gluePath, glue);
console.log(`freed-handles: ${done.size} classes`);
