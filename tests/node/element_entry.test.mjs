// www/bucket-lab.js, the URL course pages load the element from, names every module the element
// imports at any depth, so that a browser fetches them all together after that one file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { staticGraph, staticImports } from './module-graph.mjs';

test('www/bucket-lab.js imports the whole of the element\'s static graph itself, one level deep', () => {
  const source = readFileSync(new URL('../../www/bucket-lab.js', import.meta.url), 'utf8');
  const named = staticImports('bucket-lab.js', source).map((spec) => spec.replace(/^\.\//, ''));
  assert.deepEqual([...named].sort(), [...staticGraph(['element/bucket-lab.js'])].sort());
  assert.equal(named.at(-1), 'element/bucket-lab.js', 'the element\'s exports, last');
});
