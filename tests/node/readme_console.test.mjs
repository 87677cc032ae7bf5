// README's "Scripting it from the console" block, run against the built module: each bucket line
// gives the result the README prints under it, a line the README shows throwing throws that exact
// message, and the bucket lines are the lesson's own section-5 transcript (locales/en/lesson.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { initSync, TokenBucket } from '../../www/pkg/bucketlab.js';
import { transcript } from '../console-transcript.mjs';

initSync({ module: readFileSync(new URL('../../www/pkg/bucketlab_bg.wasm', import.meta.url)) });

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('## Scripting it from the console'));
const block = section.slice(section.indexOf('```js\n') + 6, section.indexOf('\n```', section.indexOf('```js\n')));

test("README's console block gives the results it prints", () => {
  const bucketlab = { TokenBucket };
  const scope = {};
  const run = (input) => {
    const body = input.startsWith('const ') ? `${input.replace(/^const (\w+) =/, 'scope.$1 =')};` : `return (${input});`;
    return new Function('bucketlab', 'scope', `with (scope) { ${body} }`)(bucketlab, scope);
  };
  const lines = transcript(block).filter((s) => !s.input.startsWith('bucketlab.diagram'));
  assert.ok(lines.length >= 5, `bucket lines found: ${lines.length}`);
  let thrown = 0;
  for (const { input, expected } of lines) {
    if (expected?.startsWith('Uncaught Error: ')) {
      assert.throws(() => run(input), { message: expected.slice('Uncaught Error: '.length) }, `> ${input}`);
      thrown++;
    } else if (expected !== null) {
      // The README writes objects as the console does (unquoted keys): make them JSON to compare.
      const json = expected.replace(/([{,]\s*)(\w+):/g, '$1"$2":');
      assert.deepEqual(run(input), JSON.parse(json), `> ${input}`);
    } else {
      run(input);
    }
  }
  assert.equal(thrown, 1, 'the refused argument is shown');
});

test("README's bucket lines are the lesson's section-5 transcript", () => {
  const lesson = JSON.parse(readFileSync(new URL('../../locales/en/lesson.json', import.meta.url), 'utf8'));
  const page = transcript(lesson.diagram.console_example).filter((s) => !s.input.startsWith('bucketlab.'));
  const ours = transcript(block).filter((s) => !s.input.startsWith('bucketlab.') && !s.input.startsWith('new '));
  assert.deepEqual(ours, page);
});
