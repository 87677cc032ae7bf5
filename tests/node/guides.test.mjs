// The author guide in its two languages says the same things: every code span of one (a setting,
// a file, a parameter, a command) is in the other, but for the few that are translated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const spans = (file) => new Set(readFileSync(new URL(`../../docs/${file}`, import.meta.url), 'utf8').match(/`[^`\n]+`/g));
/** English span → its Portuguese version (examples written in the reader's language). */
const TRANSLATED = {
  '`https://example.org/courses/rate-limiting`': '`https://example.org/cursos/limitacao-de-taxa`',
  // The sub-path of that same example address.
  '`/courses/rate-limiting/`': '`/cursos/limitacao-de-taxa/`',
  '`make dist BASE=/courses/rate-limiting/`': '`make dist BASE=/cursos/limitacao-de-taxa/`',
  '`name=value`': '`nome=valor`',
  '`npm install path/to/target/npm/bucketlab-0.1.0.tgz`': '`npm install caminho/para/target/npm/bucketlab-0.1.0.tgz`',
};

test('docs/embedding.md and docs/embedding.pt-BR.md name the same settings, files and commands', () => {
  const en = spans('embedding.md');
  const pt = spans('embedding.pt-BR.md');
  const missing = [...en].map((span) => TRANSLATED[span] ?? span).filter((span) => !pt.has(span));
  const extra = [...pt].filter((span) => !en.has(span) && !Object.values(TRANSLATED).includes(span));
  assert.deepEqual(missing, [], 'in the English guide, not in the Portuguese one');
  assert.deepEqual(extra, [], 'in the Portuguese guide, not in the English one');
});
