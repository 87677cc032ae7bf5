#!/usr/bin/env node
// The notices of the Rust crates compiled into the site's WebAssembly modules, whose licences ask
// that copies of the software carry them: www/THIRD-PARTY-NOTICES.txt, shipped with the
// modules by the site (dist/) and the npm package. For each module's feature set, the crates of its
// dependency tree for wasm32 (`cargo tree`; build-time macros left out, as nothing of them is in
// the module), each with its licence expression and the licence files of its source package, then
// Rust's standard library, which every module links. Run by scripts/build.sh.
// Usage: node scripts/notices.mjs [out] (default www/THIRD-PARTY-NOTICES.txt).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');

/** The feature each wasm module is built with (scripts/build.sh's wasm_module calls). */
const MODULE_FEATURES = ['diagram', 'lab', 'replay', 'config'];

/** A package's files that hold its licence or notice. */
const LICENCE_FILE = /^(licen[cs]e|copying|notice|copyright)/i;

const cargo = (args) => execFileSync('cargo', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * The crates (name and version, sorted) linked into the modules: every module's wasm32 tree of
 * normal dependencies, without proc-macros and what only they use, and without bucketlab itself.
 */
export function linkedCrates() {
  const found = new Set();
  for (const feature of MODULE_FEATURES) {
    const tree = cargo(['tree', '--target', 'wasm32-unknown-unknown', '--no-default-features', '--features', feature,
      '-e', 'normal,no-proc-macro', '--prefix', 'none', '--format', '{p}']);
    for (const line of tree.split('\n')) {
      const match = line.match(/^(\S+) v(\S+)/);
      if (match && match[1] !== 'bucketlab') found.add(`${match[1]} ${match[2]}`);
    }
  }
  return [...found].sort().map((entry) => {
    const [name, version] = entry.split(' ');
    return { name, version };
  });
}

/** Each linked crate with its licence expression and the texts of its licence files. */
export function notices() {
  const { packages } = JSON.parse(cargo(['metadata', '--format-version', '1', '--all-features']));
  return linkedCrates().map(({ name, version }) => {
    const found = packages.find((p) => p.name === name && p.version === version);
    if (!found) throw new Error(`cargo metadata has no package ${name} ${version}`);
    const dir = dirname(found.manifest_path);
    const files = readdirSync(dir).filter((file) => LICENCE_FILE.test(file)).sort();
    if (files.length === 0) throw new Error(`${name} ${version} ships no licence file in ${dir}: its notice can't be carried`);
    return { name, version, license: found.license ?? found.license_file, texts: files.map((file) => [file, readFileSync(join(dir, file), 'utf8').trim()]) };
  });
}

/** Rust's standard library, linked into every module (core, alloc, std): MIT OR Apache-2.0. */
const STD_NOTICE = `Rust's standard library (core, alloc, std), linked into every module
Licence: MIT OR Apache-2.0

Copyright (c) The Rust Project Contributors

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute,
sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

/**
 * The file's text: each crate with its licence and the numbers of its licence texts, then each
 * distinct text once (most crates ship the same Apache-2.0 text), naming the crates that ship it.
 */
export function noticesText() {
  const rule = '='.repeat(78);
  const texts = [];
  const crates = notices().map(({ name, version, license, texts: own }) => {
    const numbers = own.map(([file, text]) => {
      // The same text laid out otherwise (wrapped, indented) is the same text.
      const key = text.replace(/\s+/g, ' ');
      let index = texts.findIndex((t) => t.key === key);
      if (index < 0) index = texts.push({ key, text, shippedBy: [] }) - 1;
      texts[index].shippedBy.push(`${name} ${version} (${file})`);
      return `[${index + 1}]`;
    });
    return `${name} ${version}: ${license}; ${numbers.join(' ')}`;
  });
  return [
    'bucketlab: notices of the third-party software in its WebAssembly modules (pkg/*.wasm)',
    'bucketlab itself is under the MIT licence (LICENSE). The modules also hold the code of the\n' +
      'crates below, each under the licence named, with the numbers of the licence texts it ships.',
    `${rule}\n${crates.join('\n')}`,
    ...texts.map(({ text, shippedBy }, i) => `${rule}\n[${i + 1}] shipped by ${shippedBy.join(', ')}\n\n${text}`),
    `${rule}\n${STD_NOTICE}`,
  ].join('\n\n') + '\n';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = resolve(process.argv[2] ?? join(ROOT, 'www', 'THIRD-PARTY-NOTICES.txt'));
  const text = noticesText();
  writeFileSync(out, text);
  console.log(`notices: ${out} (${notices().length} crates, ${text.length} bytes)`);
}
