#!/usr/bin/env node
// Assembles the npm package `bucketlab` from packages/bucketlab/ (package.json, types, the Node
// entries) and the built site (www/pkg/, www/element/ and the element's words in www/i18n/, after
// scripts/build.sh) into target/npm/bucketlab/; with --pack, also runs `npm pack` there. The
// package keeps www/'s layout (element/, i18n/ and pkg/ side by side), so the element's relative
// URLs still hold; its stylesheets are inlined in its script. The repository's LICENSE goes in beside package.json (npm packs it whatever
// `files` says). packages/bucketlab/package.json's `prepack` script stops a plain `npm pack` in
// that folder (it would pack the sources without pkg/, element/ and i18n/); the assembled copy
// drops it.
// Usage: node scripts/npm-package.mjs [--pack] [output directory]
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { inlineStylesheets, SHEET_DEFINITION, SHEET_FUNCTION } from './inline-stylesheets.mjs';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SOURCE = join(ROOT, 'packages', 'bucketlab');
const WWW = join(ROOT, 'www');

/** Copies the package into `out` (emptied first); returns its package.json. */
export async function assemblePackage(out = join(ROOT, 'target', 'npm', 'bucketlab')) {
  const manifest = JSON.parse(await readFile(join(SOURCE, 'package.json'), 'utf8'));
  const cargo = (await readFile(join(ROOT, 'Cargo.toml'), 'utf8')).match(/^version\s*=\s*"([^"]+)"/m)[1];
  if (manifest.version !== cargo) {
    throw new Error(`packages/bucketlab/package.json has version ${manifest.version}, Cargo.toml ${cargo}: make them equal`);
  }
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  await cp(SOURCE, out, { recursive: true });
  await cp(join(ROOT, 'LICENSE'), join(out, 'LICENSE'));
  const { prepack, ...scripts } = manifest.scripts ?? {};
  const published = { ...manifest, scripts };
  if (!Object.keys(scripts).length) delete published.scripts;
  await writeFile(join(out, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
  for (const file of manifest.files) {
    if (file.startsWith('pkg/') || !(await exists(join(out, file)))) {
      await cp(join(WWW, file), join(out, file));
    }
  }
  // The element's own stylesheets inside its script (scripts/inline-stylesheets.mjs): a site's CSS
  // rule in its bundler (Docusaurus's, a webpack app's) would otherwise process the files the
  // element links, and esbuild would leave them to be copied by hand. widget.css stays a file too,
  // for a page that mounts the diagram itself (`bucketlab/widget.css`).
  const element = join(out, 'element', 'bucket-lab.js');
  const code = await inlineStylesheets(await readFile(element, 'utf8'), join(WWW, 'element', 'bucket-lab.js'));
  if (code.split(`${SHEET_FUNCTION}(`).length !== 3 || /\.css\b[^\n]*import\.meta\.url/.test(code)) {
    throw new Error('www/element/bucket-lab.js no longer names its two stylesheets as scripts/inline-stylesheets.mjs reads them: update one or the other');
  }
  await writeFile(element, `${code}\n${SHEET_DEFINITION}\n`);
  return manifest;
}

async function exists(path) {
  return readFile(path).then(() => true, () => false);
}

/** Runs `npm pack` on an assembled package; returns the tarball's path. */
export function pack(dir, destination = dirname(dir)) {
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: dir, encoding: 'utf8' });
  return join(destination, JSON.parse(output)[0].filename);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const out = args.find((a) => !a.startsWith('--'));
  const dir = resolve(out ?? join(ROOT, 'target', 'npm', 'bucketlab'));
  const manifest = await assemblePackage(dir);
  console.log(`npm package ${manifest.name}@${manifest.version} in ${dir}`);
  if (args.includes('--pack')) console.log(`packed: ${pack(dir)}`);
}
