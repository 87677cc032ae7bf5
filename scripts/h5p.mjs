#!/usr/bin/env node
// The diagram as an H5P content type, bucketlab.h5p, for H5P hosts (Moodle, WordPress, Drupal,
// Lumi, h5p.com): h5p.json and content/content.json (a sample: the lesson's bucket) beside the
// library H5P.BucketLab-1.0/ from packages/h5p/: library.json, semantics.json (what an author
// edits; language/pt-br.json words it for Portuguese editors), the frame's stylesheet
// bucket-lab-h5p.css, LICENSE.txt, and one classic script that rolldown bundles from the
// <bucket-lab> element with the wasm inlined as base64, because H5P hosts refuse .wasm files.
// The element's own stylesheets (widget.css, bucket-lab.css) are inlined in that script too: hosts
// that aggregate libraries' scripts (WordPress' H5P plugin by default, the Moodle app) serve it from
// another folder (…/h5p/cachedassets/<hash>.js), where a stylesheet found next to the script's URL
// is a 404 and the widget would show unstyled. Inlined, the library works wherever its script is,
// and as constructed sheets, under whatever CSP its host sets: browsers apply no style-src to a
// sheet a script builds (a blob: or data: URL would need the host's style-src to list it).
// Usage: node scripts/h5p.mjs [site] (default dist/); bucketlab.h5p is written into the site folder.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { rolldown } from 'rolldown';
import { inlineStylesheets, SHEET_DEFINITION } from './inline-stylesheets.mjs';
import { zipFolder } from './scorm.mjs';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SOURCE = join(ROOT, 'packages', 'h5p');
const LIBRARY = 'H5P.BucketLab-1.0';

/**
 * The library's script: packages/h5p/bucket-lab-h5p.js and what it imports, as one IIFE.
 * `bucketlab:wasm` is the widget's wasm as base64. Each stylesheet a module finds with
 * `new URL('./x.css', import.meta.url)` becomes a `CSSStyleSheet` built from its text, inlined
 * here, which the element adopts in its shadow root instead of linking it: nothing to fetch from a
 * folder that aggregating hosts don't serve, and nothing a host's style-src can refuse (in a
 * browser without adopted sheets, a blob: URL of the text, linked). Any other `import.meta.url`
 * becomes the script's own address, read when H5P loads it.
 */
export async function bundle() {
  const wasm = await readFile(join(ROOT, 'www', 'pkg', 'bucketlab_bg.wasm'));
  const build = await rolldown({
    input: join(SOURCE, 'bucket-lab-h5p.js'),
    logLevel: 'warn',
    plugins: [{
      name: 'bucketlab-h5p',
      resolveId: (id) => (id === 'bucketlab:wasm' ? id : null),
      load: (id) => (id === 'bucketlab:wasm' ? `export default ${JSON.stringify(wasm.toString('base64'))};` : null),
      async transform(code, id) {
        if (!code.includes('import.meta.url')) return null;
        return (await inlineStylesheets(code, id)).replaceAll('import.meta.url', '__bucketlabScript');
      },
    }],
  });
  const { output } = await build.generate({
    format: 'iife',
    minify: true,
    banner: ['var __bucketlabScript = document.currentScript && document.currentScript.src;', SHEET_DEFINITION].join('\n'),
  });
  await build.close();
  return output[0].code;
}

/** Writes bucketlab.h5p into `site`; resolves to its path. */
export async function pack(site = join(ROOT, 'dist')) {
  const dir = await mkdtemp(join(tmpdir(), 'bucketlab-h5p-'));
  try {
    const library = JSON.parse(await readFile(join(SOURCE, 'library.json'), 'utf8'));
    const licence = await readFile(join(ROOT, 'LICENSE'), 'utf8');
    const lib = join(dir, LIBRARY);
    await mkdir(join(dir, 'content'), { recursive: true });
    await mkdir(join(lib, 'language'), { recursive: true });
    await writeFile(join(dir, 'h5p.json'), `${JSON.stringify({
      title: 'Bucket Lab',
      language: 'und',
      mainLibrary: library.machineName,
      embedTypes: library.embedTypes,
      // The content's licence, in H5P's terms: h5p.json takes only H5P's own list (CC licences, GNU
      // GPL, PD, ODC PDDL, CC PDM, C, U), and H5P hosts refuse a package with "MIT" there ("The
      // main h5p.json file is not valid"). So "U" (not listed) and the MIT licence itself in
      // licenseExtras, on one line (H5P's check for it matches no line break), which the player
      // shows under "Rights of use". The library's own library.json says MIT, which H5P accepts.
      license: 'U',
      licenseExtras: licence.replace(/\s+/g, ' ').trim(),
      preloadedDependencies: [{ machineName: library.machineName, majorVersion: library.majorVersion, minorVersion: library.minorVersion }],
    }, null, 2)}\n`);
    await writeFile(join(dir, 'content', 'content.json'), `${JSON.stringify({
      capacity: 5, refillRate: 1, cost: 1, language: 'en', question: true,
      controls: { send: true, cost: true, burst: true, bucket: true, traffic: true, time: true },
    }, null, 2)}\n`);
    for (const file of ['library.json', 'semantics.json', 'bucket-lab-h5p.css', 'language/pt-br.json']) {
      await copyFile(join(SOURCE, file), join(lib, file));
    }
    // .txt: H5P hosts refuse a file whose extension is not on their list, and a bare LICENSE has none.
    await copyFile(join(ROOT, 'LICENSE'), join(lib, 'LICENSE.txt'));
    // The script holds the widget's wasm: the notices of the crates compiled into it go with it.
    await copyFile(join(ROOT, 'www', 'THIRD-PARTY-NOTICES.txt'), join(lib, 'THIRD-PARTY-NOTICES.txt'));
    await writeFile(join(lib, 'bucket-lab-h5p.js'), await bundle());
    const h5p = join(site, 'bucketlab.h5p');
    await rm(h5p, { force: true });
    await zipFolder(dir, h5p);
    return [h5p];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file] = await pack(resolve(process.argv[2] ?? join(ROOT, 'dist')));
  console.log(`h5p: ${relative(process.cwd(), file)} ${(await readFile(file)).length} bytes`);
}
