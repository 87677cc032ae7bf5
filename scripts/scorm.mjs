#!/usr/bin/env node
// The lesson as SCORM packages for LMSs (Moodle, Canvas, Blackboard, Open edX): make dist's site,
// both languages, zipped with LICENSE and an imsmanifest.xml whose one `sco` resource launches one
// page: index.html (Portuguese) or, in the -en packages, en.html (English). A manifest names one
// launch page, so each language has its own packages; either way the page's own language link
// reaches the other. Every URL in the site is relative, so the LMS may unpack it under any path.
// The page itself finds the LMS's API (www/lms/scorm.js).
//   bucketlab-scorm12.zip, bucketlab-scorm12-en.zip      SCORM 1.2 (imscp_rootv1p1p2, adlcp:scormtype)
//   bucketlab-scorm2004.zip, bucketlab-scorm2004-en.zip  SCORM 2004 4th edition (imscp_v1p1, adlcp:scormType)
// Zipping uses Info-ZIP's `zip` (Debian's package `zip`): no npm zip library is installed here.
// Usage: node scripts/scorm.mjs [site] (default dist/); the zips are written into the site folder.
import { execFileSync } from 'node:child_process';
import { copyFile, cp, mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { readTable } from './locales.mjs';
import { shippedPolicy, withMetaPolicy } from './csp.mjs';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
/**
 * Site files that are not the lesson: precompressed copies, host settings, other packages, and
 * what only the open web reads (a shared link's picture, the sitemap).
 */
const NOT_LESSON = [/\.(gz|br|zip|h5p)$/, /(^|\/)\./, /^_headers$/, /^social(\.[0-9a-f]{10})?\.png$/, /^sitemap\.xml$/];

/** The two SCORM versions: where each puts its namespaces and metadata. */
const VERSIONS = {
  '1.2': {
    file: 'bucketlab-scorm12',
    namespaces: 'xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"',
    schemaversion: '1.2',
    scormType: 'adlcp:scormtype',
  },
  2004: {
    file: 'bucketlab-scorm2004',
    namespaces: 'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"',
    schemaversion: '2004 4th Edition',
    scormType: 'adlcp:scormType',
  },
};

/** The lesson's languages: the page each one's packages launch and the end of their names. */
export const LAUNCHES = {
  'pt-BR': { href: 'index.html', suffix: '', identifier: 'bucketlab-lesson' },
  en: { href: 'en.html', suffix: '-en', identifier: 'bucketlab-lesson-en' },
};

/** `table[value]`, or an error naming `field`, the value and the ones allowed. */
export function entry(table, field, value) {
  if (!Object.hasOwn(table, value)) {
    throw new Error(`${field} must be ${Object.keys(table).map((key) => `"${key}"`).join(' or ')}, got "${value}"`);
  }
  return table[value];
}

/** The zip's name for `version` launching `lang`: bucketlab-scorm12.zip, bucketlab-scorm2004-en.zip. */
export function zipName(version, lang) {
  return `${entry(VERSIONS, 'version', version).file}${entry(LAUNCHES, 'lang', lang).suffix}.zip`;
}

export const escape = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * imsmanifest.xml for `version` launching `lang`'s page, listing `files` (paths relative to the
 * package's root). The title names the lesson in the launched language first.
 */
export function manifest(version, files, lang = 'pt-BR') {
  const { namespaces, schemaversion, scormType } = entry(VERSIONS, 'version', version);
  const { href, identifier } = entry(LAUNCHES, 'lang', lang);
  const languages = [lang, ...Object.keys(LAUNCHES).filter((other) => other !== lang)];
  const title = escape(languages.map((l) => readTable(l, 'lms').lessonName).join(' / '));
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${identifier}" version="1" ${namespaces}>
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>${schemaversion}</schemaversion>
  </metadata>
  <organizations default="bucketlab-org">
    <organization identifier="bucketlab-org">
      <title>${title}</title>
      <item identifier="bucketlab-item" identifierref="bucketlab-sco">
        <title>${title}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="bucketlab-sco" type="webcontent" ${scormType}="sco" href="${href}">
${files.map((file) => `      <file href="${escape(file)}"/>`).join('\n')}
    </resource>
  </resources>
</manifest>
`;
}

/**
 * The time every packed file is given: a zip records each file's time, so the same files zip to
 * the same bytes from one build to the next (`SOURCE_DATE_EPOCH`, in seconds, when set).
 */
const PACKED_AT = new Date(Number(process.env.SOURCE_DATE_EPOCH ?? Date.UTC(2026, 0, 1) / 1000) * 1000);

/**
 * Zips `dir`'s contents (paths relative to it) into `zipFile` with Info-ZIP's zip, in name order,
 * each entry dated `PACKED_AT` (`dir` is a staging folder: its files' times are set to that).
 */
export async function zipFolder(dir, zipFile) {
  const entries = (await readdir(dir, { recursive: true })).sort();
  for (const entry of [...entries, '.']) await utimes(join(dir, entry), PACKED_AT, PACKED_AT);
  try {
    execFileSync('zip', ['-q', '-X', '-D', '-9', zipFile, '-@'], { cwd: dir, input: entries.join('\n'), stdio: ['pipe', 'ignore', 'inherit'] });
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error('packing needs Info-ZIP\'s zip: apt-get install zip (scripts/setup.sh does it)');
    throw error;
  }
}

/** The site's files that go into a course package (paths relative to `site`, sorted). */
export async function lessonFiles(site) {
  const found = await readdir(site, { recursive: true, withFileTypes: true });
  return found.filter((entry) => entry.isFile())
    .map((entry) => relative(site, join(entry.parentPath ?? entry.path, entry.name)).split('\\').join('/'))
    .filter((path) => !NOT_LESSON.some((re) => re.test(path)))
    .sort();
}

/** Writes the four SCORM zips (two versions, two languages) into `site`; resolves to their paths. */
export async function pack(site = join(ROOT, 'dist')) {
  const files = await lessonFiles(site);
  for (const { href } of Object.values(LAUNCHES)) {
    if (!files.includes(href)) throw new Error(`${site} has no ${href}: run make dist first`);
  }
  // An LMS serves the package with its own headers, not the site's _headers: the pages carry the
  // site's policy themselves (no inline script but early.js, connections to the site and the
  // LRS it was built for only).
  const policy = shippedPolicy(join(site, '_headers'));
  const written = [];
  for (const version of Object.keys(VERSIONS)) {
    for (const lang of Object.keys(LAUNCHES)) {
      const zipFile = join(site, zipName(version, lang));
      await zipLesson(site, files, policy, { 'imsmanifest.xml': manifest(version, ['LICENSE', ...files], lang) }, zipFile);
      written.push(zipFile);
    }
  }
  return written;
}

/**
 * Zips a course package into `zipFile`: the site's `files`, each page carrying `policy` in a
 * <meta> (an LMS serves the package with its own headers), LICENSE at the root and `descriptors`
 * ({ name: text }, the platform's manifest); `editPage(file, html)` may change a page's HTML. It
 * is staged in a folder of its own, so the site folder is never touched but for the zip.
 */
export async function zipLesson(site, files, policy, descriptors, zipFile, editPage = (file, html) => html) {
  const stage = await mkdtemp(join(tmpdir(), 'bucketlab-package-'));
  try {
    for (const [name, text] of Object.entries(descriptors)) await writeFile(join(stage, name), text);
    await copyFile(join(ROOT, 'LICENSE'), join(stage, 'LICENSE'));
    for (const file of files) {
      await cp(join(site, file), join(stage, file));
      if (file.endsWith('.html')) await writeFile(join(stage, file), withMetaPolicy(editPage(file, await readFile(join(site, file), 'utf8')), policy));
    }
    await rm(zipFile, { force: true });
    await zipFolder(stage, zipFile);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = resolve(process.argv[2] ?? join(ROOT, 'dist'));
  for (const zip of await pack(site)) {
    console.log(`scorm: ${relative(process.cwd(), zip)} ${(await readFile(zip)).length} bytes`);
  }
}
