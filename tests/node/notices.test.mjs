// The notices shipped beside the wasm modules (www/THIRD-PARTY-NOTICES.txt, by scripts/build.sh):
// current with Cargo.lock, and naming every crate compiled into a module with its licence texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { linkedCrates, noticesText } from '../../scripts/notices.mjs';

const shipped = readFileSync(new URL('../../www/THIRD-PARTY-NOTICES.txt', import.meta.url), 'utf8');

test('the shipped notices are those of the crates the modules link now', () => {
  assert.equal(shipped, noticesText(), 'www/THIRD-PARTY-NOTICES.txt is stale: run node scripts/notices.mjs (scripts/build.sh does)');
});

test('every linked crate is named with its licence and at least one licence text; build-time macros are not', () => {
  const crates = linkedCrates();
  const names = crates.map((c) => c.name);
  for (const name of ['wasm-bindgen', 'js-sys', 'web-sys', 'talc', 'libm', 'fastrand', 'serde_norway', 'memchr', 'simdutf8']) {
    assert.ok(names.includes(name), `${name} is linked into a module: ${names.join(', ')}`);
  }
  for (const macro of ['syn', 'quote', 'proc-macro2', 'wasm-bindgen-macro', 'serde_derive']) {
    assert.ok(!names.includes(macro), `${macro} runs at build time only`);
  }
  for (const { name, version } of crates) {
    const line = shipped.split('\n').find((l) => l.startsWith(`${name} ${version}: `));
    assert.ok(line, `${name} ${version} is listed`);
    const numbers = [...line.matchAll(/\[(\d+)\]/g)].map((m) => m[1]);
    assert.ok(numbers.length > 0, `${line}: no licence text`);
    for (const n of numbers) assert.match(shipped, new RegExp(`^\\[${n}\\] shipped by .*${name} ${version.replace(/\./g, '\\.')}`, 'm'));
  }
  assert.match(shipped, /^Rust's standard library/m);
  assert.match(shipped, /Permission is hereby granted, free of charge/);
  assert.match(shipped, /Apache License\s+Version 2\.0/);
});
