#!/usr/bin/env node
// The lesson as xAPI ("Tin Can") packages, for LMSs that import an activity with its own LRS
// (SCORM Cloud, and the xAPI plugins of Moodle, WordPress and others): make dist's site, both
// languages, zipped with LICENSE and a tincan.xml that names one activity, the lesson, and the page
// that launches it: index.html (Portuguese) or, in the -en package, en.html (English).
//   bucketlab-xapi.zip, bucketlab-xapi-en.zip
// The LMS launches that page with the Tin Can launch's parameters (endpoint, auth, actor,
// registration, activity_id: www/lms/launch.js), and the page sends its statements there; the
// lesson's own `completed` is on the activity id given here, which the pages also carry
// (data-xapi-activity on <body>) for a launch without activity_id. That id is the author's, an absolute
// http(s) address that stays the same from one release to the next (XAPI_ACTIVITY); the default
// only suits a try-out, as every course built with it would share it.
// The LRS is the LMS's, often not known when the package is built: the pages' Content-Security-
// Policy lets them connect to any https origin, unless `make dist LRS=…` named the LRS, which is
// then the only one allowed, as on the site.
// Usage: [XAPI_ACTIVITY=https://courses.example/rate-limiting] node scripts/tincan.mjs [site]
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { readTable } from './locales.mjs';
import { allowConnect, shippedPolicy } from './csp.mjs';
import { entry, escape, LAUNCHES, lessonFiles, zipLesson } from './scorm.mjs';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');

/** The activity id of a package built without XAPI_ACTIVITY. */
const TRY_OUT_ACTIVITY = 'https://bucketlab.invalid/lesson';

/** The zip's name for the package launching `lang`'s page. */
export function tincanZipName(lang) {
  return `bucketlab-xapi${entry(LAUNCHES, 'lang', lang).suffix}.zip`;
}

/** `text` as an activity id: an absolute http(s) address (what the lesson's launch accepts), else an error naming it. */
export function checkActivity(text) {
  let url = null;
  try {
    url = new URL(text);
  } catch {
    // named below
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password) {
    throw new Error(`XAPI_ACTIVITY ${JSON.stringify(text)} is not an activity id: it must be an absolute http(s) address `
      + 'without credentials, the same in every release, like https://courses.example/rate-limiting');
  }
  return url.href;
}

/**
 * tincan.xml for the activity `id` launched by `lang`'s page: its name and description in both
 * languages, the launched one first.
 */
export function tincanXml(id, lang) {
  const languages = [lang, ...Object.keys(LAUNCHES).filter((other) => other !== lang)];
  const lines = (element, text) => languages.map((l) => `      <${element} lang="${l}">${escape(text(l))}</${element}>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<tincan xmlns="http://projecttincan.com/tincan.xsd">
  <activities>
    <activity id="${escape(checkActivity(id))}" type="http://adlnet.gov/expapi/activities/lesson">
${lines('name', (l) => readTable(l, 'lms').lessonName)}
${lines('description', (l) => readTable(l, 'lesson').meta.description)}
      <launch lang="${lang}">${LAUNCHES[lang].href}</launch>
    </activity>
  </activities>
</tincan>
`;
}

/**
 * The pages' policy in the package: the site's, whose `connect-src` names the LRS when
 * `make dist LRS=…` gave one; else one that lets them reach an LRS at any https origin.
 */
export function tincanPolicy(policy) {
  return /(^|;)\s*connect-src\b/.test(policy) ? policy : allowConnect(policy, ['https:']);
}

/**
 * A lesson page (`file`, its `html`) that names the activity `id` on its <body>
 * (data-xapi-activity): the lesson's id when the LMS's launch has no activity_id, as tincan.xml
 * says, rather than the package's folder. Other files are left as they are.
 */
export function withActivity(file, html, id) {
  if (!Object.values(LAUNCHES).some(({ href }) => href === file)) return html;
  const edited = html.replace(/<body(?=[\s>])/, `<body data-xapi-activity="${escape(checkActivity(id))}"`);
  if (edited === html) throw new Error(`${file} has no <body> to name the activity on`);
  return edited;
}

/** Writes the two xAPI zips (one per launch language) into `site`; resolves to their paths. */
export async function pack(site = join(ROOT, 'dist'), activity = process.env.XAPI_ACTIVITY || TRY_OUT_ACTIVITY) {
  const files = await lessonFiles(site);
  const policy = tincanPolicy(shippedPolicy(join(site, '_headers')));
  const written = [];
  for (const lang of Object.keys(LAUNCHES)) {
    const zipFile = join(site, tincanZipName(lang));
    await zipLesson(site, files, policy, { 'tincan.xml': tincanXml(activity, lang) }, zipFile, (file, html) => withActivity(file, html, activity));
    written.push(zipFile);
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = resolve(process.argv[2] ?? join(ROOT, 'dist'));
  try {
    for (const zip of await pack(site)) console.log(`tincan: ${relative(process.cwd(), zip)} ${(await readFile(zip)).length} bytes`);
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
}
