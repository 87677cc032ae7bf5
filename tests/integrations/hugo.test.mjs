// The Hugo shortcode (integrations/hugo/layouts/shortcodes/bucket-lab.html) with Debian's hugo
// (installed by scripts/setup.sh --test): a one-page site whose two shortcodes become two working
// elements, served under the site's sub-path with the strict CSP, and a bad parameter stopping
// the build with the page, the line and the rule.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { assemblePackage } from '../../scripts/npm-package.mjs';
import { launch, openPage } from '../e2e/harness.mjs';
import { serveStatic, STRICT_CSP } from '../e2e/static-server.mjs';
import { copyFixture, mustRun, ROOT, run, sendUntilRefused } from './helpers.mjs';

const SHORTCODE = join(ROOT, 'integrations/hugo/layouts/shortcodes/bucket-lab.html');

let pkg, site, server, browser;

/** A copy of the sample site set up as the author guide says: the shortcode and the files. */
async function authorSite() {
  const dir = await copyFixture('hugo-site');
  await mkdir(join(dir, 'layouts', 'shortcodes'), { recursive: true });
  await cp(SHORTCODE, join(dir, 'layouts', 'shortcodes', 'bucket-lab.html'));
  for (const folder of ['element', 'i18n', 'pkg']) {
    await cp(join(pkg, folder), join(dir, 'static', 'bucketlab', folder), { recursive: true });
  }
  return dir;
}

before(async () => {
  pkg = join(await mkdtemp(join(tmpdir(), 'bucketlab-npm-')), 'bucketlab');
  await assemblePackage(pkg);
  site = await authorSite();
  await mustRun('hugo', ['--source', site, '--quiet']);
  // baseURL is http://example.org/course/: the pages link to /course/…
  server = await serveStatic(join(site, 'public'), { prefix: '/course/', headers: { 'content-security-policy': STRICT_CSP } });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  for (const dir of [pkg, site]) if (dir) await rm(dirname(dir), { recursive: true, force: true });
});

test('hugo: two shortcodes make two working elements, each with the module script, which the browser loads once', async () => {
  const html = await readFile(join(site, 'public', 'index.html'), 'utf8');
  // No flag in the page's scratch pad: since Hugo 0.138 it outlives `hugo server`'s rebuilds.
  assert.equal(html.match(/<script type="module" src="\/course\/bucketlab\/element\/bucket-lab\.js"><\/script>/g)?.length, 2, html);
  const page = await openPage(browser);
  await page.goto(`${server.origin}/course/`);
  await page.waitForFunction(() => [...document.querySelectorAll('bucket-lab')].every((e) => e.diagram));
  assert.equal(await page.locator('bucket-lab').count(), 2);
  const en = await sendUntilRefused(page, 'bucket-lab[lang="en"]', 3);
  assert.ok(en.slice(0, 3).every((l) => l.startsWith('Admitted')), en.join(' | '));
  assert.match(en[3], /^Denied: 429/);
  const pt = await sendUntilRefused(page, 'bucket-lab[lang="pt-BR"]', 4);
  assert.ok(pt.slice(0, 4).every((l) => l.startsWith('Admitida')), pt.join(' | '));
  assert.match(pt[4], /^Negada: 429/);
  assert.match(await page.locator('bucket-lab[lang="pt-BR"] .bl-diagram').textContent(), /r = 2,5\/s/);
  assert.equal(server.log.filter((r) => r.path === 'bucketlab/element/bucket-lab.js').length, 1, 'one fetch of the module');
  const wasm = server.log.filter((r) => r.path.endsWith('.wasm'));
  assert.deepEqual(wasm.map((r) => [r.path, r.type]), [['bucketlab/pkg/bucketlab_bg.wasm', 'application/wasm']]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('hugo: a bad parameter fails the build naming the page, the line and the rule', async () => {
  const bad = await authorSite();
  try {
    for (const [params, message] of [
      ['capacity="0"', 'capacity must be a finite number greater than 0, got "0"'],
      ['capacity="lots"', 'capacity must be a finite number greater than 0, got "lots"'],
      ['capacity="3" cost="4"', 'cost must be a whole number from 1 to 3, got "4"'],
      ['lang="fr"', 'lang must be "pt-BR", "en" or another tag of those languages (en-GB, pt-PT), got "fr"'],
      ['lang="en_GB"', 'lang must be "pt-BR", "en" or another tag of those languages (en-GB, pt-PT), got "en_GB"'],
      ['controls="send foo"', 'controls must be "all", "none" or names from send, cost, burst, bucket, traffic, time separated by spaces or commas, got "send foo"'],
      ['paused="yes"', 'paused is "true", "false" or absent, got "yes"'],
      // Unquoted, a value Hugo reads as a number: quoted in the message all the same.
      ['paused=1', 'paused is "true", "false" or absent, got "1"'],
      ['refill-rate=""', 'bucket-lab parameter refill-rate is empty: give it a value, or leave it out for its default'],
      ['colour="red"', 'unknown bucket-lab parameter "colour"; known: capacity, refill-rate, cost, tokens, lang, view, controls, paused, theme'],
      ['theme="sepia"', 'theme must be "light", "dark" or "auto", got "sepia"'],
      // Out of f64's range: the rule, not Hugo's "unable to cast".
      ['capacity="1e999"', 'capacity must be a finite number greater than 0, got "1e999"'],
      ['refill-rate="12345678901234567890e300"', 'refill-rate must be a finite number of at least 0, got "12345678901234567890e300"'],
      ['tokens="1e123456"', 'tokens must be a finite number from 0 to 5, got "1e123456"'],
      // A number other than 0 too small for a float, as the element and mdBook refuse it.
      ['refill-rate="1e-400"', 'refill-rate must be a finite number of at least 0, got "1e-400", which is too small to tell from 0'],
      ['tokens="0,5e-400"', 'tokens must be a finite number from 0 to 5, got "0,5e-400", which is too small to tell from 0'],
      // A comma that could group thousands, as the element refuses it: this message only.
      ['capacity="1,000"', 'capacity "1,000" is ambiguous: the comma could group thousands or mark decimals; write 1000 for the whole number, or a point for decimals'],
      ['capacity="20" cost="2,500"', 'cost "2,500" is ambiguous: the comma could group thousands or mark decimals; write 2500 for the whole number, or a point for decimals'],
      ['capacity="3" cost="2.5"', 'cost must be a whole number from 1 to 3, got "2.5"'],
      // The core's cost is a u32, as the element and mdBook take it; a large bound in digits.
      ['capacity="1e10" cost="5000000000"', 'cost must be a whole number from 1 to 4294967295, got "5000000000"'],
      ['capacity="99999999.5" cost="100000000"', 'cost must be a whole number from 1 to 99999999, got "100000000"'],
      // Unquoted numbers (Hugo's ints and floats) are checked, and quoted, as written.
      ['cost=9', 'cost must be a whole number from 1 to 5, got "9"'],
      ['capacity=0', 'capacity must be a finite number greater than 0, got "0"'],
      ['capacity=-1', 'capacity must be a finite number greater than 0, got "-1"'],
      ['refill-rate=-0.5', 'refill-rate must be a finite number of at least 0, got "-0.5"'],
      ['cost=true', 'cost must be a whole number from 1 to 5, got "true"'],
      // A bare word: one message that says how to write it, and nothing garbled after it.
      ['paused', 'bucket-lab takes named parameters (capacity="10", paused="true"), got "paused"'],
    ]) {
      const page = join(bad, 'content', '_index.md');
      const text = await readFile(join(ROOT, 'tests/fixtures/hugo-site/content/_index.md'), 'utf8');
      await writeFile(page, text.replace(/\{\{< bucket-lab [^>]*>\}\}\n\nThe same/, `{{< bucket-lab ${params} >}}\n\nThe same`));
      const result = await run('hugo', ['--source', bad]); // not --quiet: it hides the error
      assert.notEqual(result.code, 0, params);
      // hugo logs the error on stdout and says that the build failed on stderr.
      const output = result.stdout + result.stderr;
      assert.ok(output.includes(`content/_index.md:7:1": ${message}`), `${params}:\n${output}`);
      assert.equal(output.split('content/_index.md:7:1": ').length, 2, `${params}: one message:\n${output}`);
      assert.ok(!/unable to cast|\\x00/.test(output), `${params}: only the rule's message:\n${output}`);
    }
    // Numbers at the edges of the digit check still build, written as given; so do what the
    // element takes beyond the plainest spellings: any tag of the two languages, a controls list
    // with commas and capitals, `all` with a stray comma.
    const page = join(bad, 'content', '_index.md');
    const text = await readFile(join(ROOT, 'tests/fixtures/hugo-site/content/_index.md'), 'utf8');
    for (const edges of [
      'capacity="1.5e307" refill-rate="0,000000e-99999" tokens="12e306"',
      'lang="en-GB" controls="Send, TIME"',
      'lang="PT-pt" controls="all,"',
      'controls="ALL"',
      'controls=" None "',
      // A whole cost in the element's other spellings.
      'capacity="5" cost="3.0"',
      'capacity="5" cost="+3"',
      'capacity="5" cost="2,0"',
      'capacity="1e10" cost="4294967295"',
    ]) {
      await writeFile(page, text.replace(/\{\{< bucket-lab [^>]*>\}\}\n\nThe same/, `{{< bucket-lab ${edges} >}}\n\nThe same`));
      const result = await run('hugo', ['--source', bad]);
      assert.equal(result.code, 0, `${edges}:\n${result.stdout}${result.stderr}`);
    }
    // Unquoted zeros are values, not absences: an empty bucket that never refills.
    await writeFile(page, text.replace(/\{\{< bucket-lab [^>]*>\}\}\n\nThe same/, '{{< bucket-lab capacity=3 refill-rate=0 tokens=0 >}}\n\nThe same'));
    const zeros = await run('hugo', ['--source', bad]);
    assert.equal(zeros.code, 0, zeros.stdout + zeros.stderr);
    assert.match(await readFile(join(bad, 'public', 'index.html'), 'utf8'), /<bucket-lab capacity="3" refill-rate="0" tokens="0"><\/bucket-lab>/);
    // Unquoted, paused=true is a boolean to Hugo: the element is paused, as with "true"; an
    // unquoted paused=false is no pause, and neither is "false", as the element takes it.
    for (const [given, paused] of [['paused=true', true], ['paused=false', false], ['paused="false"', false]]) {
      await writeFile(page, text.replace(/\{\{< bucket-lab [^>]*>\}\}\n\nThe same/, `{{< bucket-lab capacity=3 ${given} >}}\n\nThe same`));
      const result = await run('hugo', ['--source', bad]);
      assert.equal(result.code, 0, `${given}:\n${result.stdout}${result.stderr}`);
      const html = await readFile(join(bad, 'public', 'index.html'), 'utf8');
      assert.equal(/<bucket-lab capacity="3"[^>]* paused><\/bucket-lab>/.test(html), paused, `${given}: ${html}`);
    }
    // Spaces around a number, which the element takes: the build goes on (Hugo's float does not
    // take them).
    await writeFile(page, text.replace(/\{\{< bucket-lab [^>]*>\}\}\n\nThe same/, '{{< bucket-lab capacity=" 10 " refill-rate="2 " cost=" 2" >}}\n\nThe same'));
    const spaced = await run('hugo', ['--source', bad]);
    assert.equal(spaced.code, 0, spaced.stdout + spaced.stderr);
    assert.match(await readFile(join(bad, 'public', 'index.html'), 'utf8'), /<bucket-lab capacity=" 10 " refill-rate="2 " cost=" 2"><\/bucket-lab>/);
    // The files' folder given without its final slash is still a folder, and with a first slash
    // still the site's (not the domain's root, outside /course/).
    await writeFile(page, text);
    const config = join(bad, 'hugo.toml');
    const settings = await readFile(config, 'utf8');
    for (const base of ['vendor/bucketlab', '/vendor/bucketlab/']) {
      await writeFile(config, `${settings}\n[params.bucketlab]\nbase = "${base}"\n`);
      const result = await run('hugo', ['--source', bad]);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const html = await readFile(join(bad, 'public', 'index.html'), 'utf8');
      assert.match(html, /<script type="module" src="\/course\/vendor\/bucketlab\/element\/bucket-lab\.js"><\/script>/, base);
    }
  } finally {
    await rm(dirname(bad), { recursive: true, force: true });
  }
});
