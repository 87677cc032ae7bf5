// make dist's course packages for the e2e tests, built into a temporary folder: the site
// (scripts/dist.mjs), the SCORM zips (scripts/scorm.mjs) and the H5P file (scripts/h5p.mjs), each
// unpacked with Info-ZIP's unzip the way an LMS unpacks an upload. The packages need www/ built
// first (scripts/build.sh).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDist } from '../../scripts/dist.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Builds the site into `<dir>/site` (its policy allowing `lrs`, origins, as `make dist LRS=…`
 * does), packs `packers` ({ name: pack(site) }) and unpacks each file they write into
 * `<dir>/<its name without extension>/`; `runtimes` ({ name: path under the repository }) are
 * linked into `<dir>/<name>`. Resolves to { dir, site, files, remove() }.
 */
export async function buildPackages(packers, runtimes = {}, lrs = []) {
  const dir = await mkdtemp(join(tmpdir(), 'bucketlab-lms-'));
  const site = join(dir, 'site');
  await buildDist(join(ROOT, 'www'), site, { lrs });
  const files = {};
  for (const pack of Object.values(packers)) {
    for (const file of await pack(site)) {
      const name = file.split('/').pop();
      files[name] = file;
      execFileSync('unzip', ['-q', file, '-d', join(dir, name.replace(/\.[a-z0-9]+$/, ''))]);
    }
  }
  for (const [name, path] of Object.entries(runtimes)) await symlink(join(ROOT, path), join(dir, name));
  return { dir, site, files, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The paths inside `zip`, from `unzip -Z1`. */
export function zipEntries(zip) {
  return execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter((p) => p && !p.endsWith('/'));
}
