// Which traps are the widget's: the stacks Chromium and Firefox write for a trap in the widget's
// module (named bucketlab) and in another module on the page, as recorded from those browsers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromWidget } from '../../www/element/trap.js';

const trap = (...frames) => ({ stack: ['RuntimeError: unreachable', ...frames].join('\n') });

test("a trap is the widget's when its first wasm frame names the widget's module or file, or names none", () => {
  const widget = {
    'Chromium, streamed': trap('    at bucketlab (http://127.0.0.1:8090/pkg/bucketlab_bg.wasm:wasm-function[219]:0xe517)', '    at BucketDiagram.send (http://127.0.0.1:8090/pkg/bucketlab.js:1:1954)'),
    'Chromium, from bytes': trap('    at bucketlab (wasm://wasm/bucketlab-0007b502:wasm-function[221]:0xee66)'),
    'Firefox, streamed': trap('bucketlab.@http://127.0.0.1:8090/pkg/bucketlab_bg.wasm:wasm-function[219]:0xe517', 'send@http://127.0.0.1:8090/pkg/bucketlab.js:1:1954'),
    'Firefox, from bytes (the H5P script)': trap('bucketlab.@http://h/H5P.BucketLab-1.0/bucket-lab-h5p.js line 1 > WebAssembly.instantiate:wasm-function[221]:0xee66'),
    'Firefox, a bundler\'s hashed name': trap('bucketlab.@http://h/assets/3c1e5f7a9b2d.wasm:wasm-function[221]:0xee66'),
    'dist\'s hashed name, unnamed frame': trap('    at http://h/pkg/bucketlab_bg.3c1e5f7a9b.wasm:wasm-function[221]:0xee66'),
    'WebKit': trap('<?>.wasm-function[221]@[wasm code]'),
    'thrown by a script': trap('    at http://h/app.js:3:9'),
  };
  for (const [name, error] of Object.entries(widget)) assert.equal(fromWidget(error), true, name);
  const other = {
    'Chromium, another module from bytes': trap('    at wasm://wasm/e30a2672:wasm-function[0]:0x1e'),
    'Chromium, the lab\'s module': trap('    at http://h/pkg/bucketlab_lab_bg.wasm:wasm-function[12]:0x1e'),
    'Firefox, another module from bytes': trap('@http://h/embed-demo.html line 3 > WebAssembly.Module:wasm-function[0]:0x1e'),
    'Firefox, Pyodide': trap('pyodide.asm.wasm.@http://h/pyodide.asm.wasm:wasm-function[77]:0x1e'),
  };
  for (const [name, error] of Object.entries(other)) assert.equal(fromWidget(error), false, name);
});
