#!/usr/bin/env node
// Copies the built site (www/, after scripts/build.sh) into dist/ for static hosting:
//  - every asset gets a content-hashed name (main.3f9a1c2b.js) and every reference to it, in HTML,
//    CSS and JS, is rewritten, so hosts can cache assets forever; pages (*.html) and the public
//    entry points that course pages link to (bucket-lab.js, embed-resizer.js) keep their names;
//  - references stay relative, so the site works under any sub-path (/courses/rate-limiting/);
//  - text and wasm get precompressed .gz and .br copies next to them, and a .nojekyll is added;
//  - _headers (the response headers of hosts that read it: Netlify, Cloudflare Pages) has its
//    paths under BASE, the site's path on its host (they match from the host's root, which is
//    where such hosts read the file), and gets the rules that cache each folder of hashed assets
//    for a year and have the pages and entry points asked for again on every use; with LRS (an
//    xAPI Learning Record Store's address, or several separated by spaces), its pages'
//    Content-Security-Policy also lets them POST statements to that origin;
//  - with SITE (the site's absolute address, https://example.org/courses/rate-limiting/), each
//    page a search engine may list gets its canonical address, its other languages' (hreflang)
//    and og:url, and a sitemap.xml lists them: tags a page can't carry with relative URLs only.
// It copies whatever the served directory holds (pages are not listed here), minus build
// leftovers. Usage: [BASE=/courses/rate-limiting/] [LRS=https://lrs.example/xAPI/]
// [SITE=https://example.org/courses/rate-limiting/]
// [XAPI_ACTIVITY=https://courses.example/rate-limiting] node scripts/dist.mjs [source] [output]
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, extname, join, posix, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { allowConnect } from './csp.mjs';
import { readTable } from './locales.mjs';
import { escape } from './scorm.mjs';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SOURCE = resolve(process.argv[2] ?? join(ROOT, 'www'));
const OUT = resolve(process.argv[3] ?? join(ROOT, 'dist'));

/** Names other sites link to: they must not change between releases. */
export const STABLE = new Set(['bucket-lab.js', 'embed-resizer.js', 'THIRD-PARTY-NOTICES.txt']);
/** Files the static host itself reads by name (response headers such as the CSP). */
export const HOST_FILES = new Set(['_headers']);
/** Files in the served directory that are not part of the site. */
const SKIP = [
  /(^|\/)\./, // dotfiles (pkg/.gitignore)
  /\.d\.ts$/, // wasm-bindgen's type declarations (the npm package ships its own)
  /^pkg\/package\.json$/,
];
/** Files whose text may reference other files. */
const TEXT = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.webmanifest', '.txt']);
/** Files worth precompressing. */
const COMPRESS = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.wasm', '.webmanifest', '.txt']);
/**
 * A quoted string, a CSS url(…) or a script's source-map comment that may name a file: `./a/b.js`,
 * `../../x.css`, `c.wasm?v#h`, `//# sourceMappingURL=main.bundle.js.map`.
 */
const REFERENCE = /(["'`])((?:\.\/|(?:\.\.\/)+)?[\w@-][\w@./-]*\.[a-z0-9]+)([?#][^"'`]*)?\1|url\(\s*((?:\.\/|(?:\.\.\/)+)?[\w@-][\w@./-]*\.[a-z0-9]+)\s*\)|\/\/# sourceMappingURL=([\w@-][\w@./-]*\.map)/gi;

async function walk(dir, root = dir) {
  const files = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...await walk(path, root));
    else files.push(relative(root, path).split('\\').join('/'));
  }
  return files;
}

/** The site file a reference in `from` points to, or null. */
function target(from, spec, files) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec) || spec.startsWith('/')) return null;
  const path = posix.normalize(posix.join(posix.dirname(from), spec));
  return files.has(path) ? path : null;
}

/** `spec` rewritten to reach `path`'s new name, keeping its own style (./ prefix or not). */
function respell(spec, path, names) {
  const renamed = posix.basename(names.get(path));
  return spec.slice(0, spec.length - posix.basename(spec).length) + renamed;
}

/**
 * A site path BASE may be: from the host's root, in folders, ending with `/`. Only characters a
 * URL's path holds as they are: `_headers` names paths as hosts match them, and how a host spells
 * any other (ç, a space) is its own.
 */
const BASE_PATTERN = /^\/(?:[A-Za-z0-9._~-]+\/)*$/;

/**
 * `base` if a site path can be it, else an error that names it, what is allowed, and the way out:
 * BASE changes only the paths in `_headers` (the site's references are relative).
 */
export function checkBase(base) {
  if (BASE_PATTERN.test(base) && !/(^|\/)\.{1,2}\//.test(base)) return base;
  throw new Error(`dist: BASE ${JSON.stringify(base)} is not a site path: it must start and end with "/" `
    + '(like /courses/rate-limiting/, or / for the host\'s root), with folders of ASCII letters, digits and . _ ~ - '
    + 'between (none of them . or ..). The site itself works under any path, as its references are relative: '
    + 'for such a path, build with BASE=/ and move the paths in dist/_headers under it by hand, spelled as your host matches them');
}

/**
 * The origins of the LRS addresses in `text` (absolute http(s) addresses separated by spaces or
 * commas: an endpoint such as https://lrs.example/xAPI/, or its origin), each once, for the pages'
 * `connect-src`; else an error that names the address and what is allowed.
 */
export function checkLrs(text) {
  const origins = [];
  for (const given of text.split(/[\s,]+/).filter(Boolean)) {
    let url = null;
    try {
      url = new URL(given);
    } catch {
      // Refused below, with the others.
    }
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password) {
      throw new Error(`dist: LRS ${JSON.stringify(given)} is not an LRS address: it must be an absolute http(s) address `
        + 'without credentials, like https://lrs.example/xAPI/ (several separated by spaces)');
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return origins;
}

/**
 * `text` as the site's absolute address (the folder the lesson is served from: http(s), no
 * credentials, query or fragment, ending with "/"), else an error that names it and what is allowed.
 */
export function checkSite(text) {
  let url = null;
  try {
    url = new URL(text);
  } catch {
    // Refused below.
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash
    || !url.pathname.endsWith('/') || url.href !== text) {
    throw new Error(`dist: SITE ${JSON.stringify(text)} is not the site's address: it must be the absolute http(s) address `
      + 'of the folder the lesson is served from, ending with "/", without credentials, query or fragment, '
      + 'written as a browser writes it (like https://example.org/courses/rate-limiting/)');
  }
  return url.href;
}

/** The width and height of the PNG in `bytes` (its IHDR chunk, first in every PNG). */
function pngSize(bytes) {
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/**
 * Puts into `output` (name → content; `names`: source path → name in it) the tags that need the
 * site's absolute address `site` (from checkSite), in each page a search engine may list (a
 * top-level page without robots noindex: the lesson in each language): its canonical address,
 * every language's page (hreflang, and x-default: index.html's), og:url, and the picture a shared
 * link shows (og:image, www/social.png by its hashed name, with its size; Twitter's card then
 * large); and a sitemap.xml that lists them so. Returns the pages' names.
 */
function addSiteTags(output, names, site) {
  const picture = names.get('social.png');
  const image = picture && [new URL(picture, site).href, ...pngSize(output.get(picture))];
  const pages = [...output].filter(([name]) => name.endsWith('.html') && !name.includes('/'))
    .map(([name, content]) => ({ name, html: content.toString('utf8') }))
    .filter(({ html }) => !/<meta name="robots" content="[^"]*noindex/.test(html))
    .map((page) => ({ ...page, lang: page.html.match(/<html lang="([^"]+)"/)?.[1], url: page.name === 'index.html' ? site : new URL(page.name, site).href }));
  const unsaid = pages.find((page) => !page.lang);
  if (unsaid) throw new Error(`dist: ${unsaid.name} has no <html lang>, which its hreflang needs`);
  const fallback = pages.find((page) => page.name === 'index.html') ?? pages[0];
  const alternates = [...pages.map((page) => [page.lang, page.url]), ['x-default', fallback.url]];
  for (const page of pages) {
    const tags = [
      `<link rel="canonical" href="${escape(page.url)}">`,
      ...alternates.map(([lang, url]) => `<link rel="alternate" hreflang="${lang}" href="${escape(url)}">`),
      `<meta property="og:url" content="${escape(page.url)}">`,
    ];
    let html = page.html;
    if (image) {
      const [url, width, height] = image;
      // Described in the page's language, after the picture (Open Graph ties og:image:* to the og:image before).
      const alt = readTable(page.lang, 'lesson').meta.imageAlt;
      tags.push(`<meta property="og:image" content="${escape(url)}">`, '<meta property="og:image:type" content="image/png">',
        `<meta property="og:image:width" content="${width}">`, `<meta property="og:image:height" content="${height}">`,
        `<meta property="og:image:alt" content="${escape(alt)}">`);
      html = html.replace('<meta name="twitter:card" content="summary">', '<meta name="twitter:card" content="summary_large_image">');
    }
    output.set(page.name, Buffer.from(html.replace('</head>', () => `  ${tags.join('\n  ')}\n</head>`)));
  }
  const links = alternates.map(([lang, url]) => `    <xhtml:link rel="alternate" hreflang="${lang}" href="${escape(url)}"/>`).join('\n');
  output.set('sitemap.xml', Buffer.from(['<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...pages.map((page) => `  <url>\n    <loc>${escape(page.url)}</loc>\n${links}\n  </url>`),
    '</urlset>', ''].join('\n')));
  return pages.map((page) => page.name);
}

/**
 * The paths a host serves `file` (a path in dist/) at: its own; a page also at its folder's
 * (index.html) or, as Cloudflare Pages redirects to it, without `.html`.
 */
function servedAt(file) {
  if (!file.endsWith('.html')) return [file];
  return posix.basename(file) === 'index.html' ? [file.slice(0, -'index.html'.length), file] : [file, file.slice(0, -'.html'.length)];
}

/**
 * The host's `_headers` for a site at `base`: every rule's path (a line that starts with `/`) moved
 * under `base`, then the caching of every file (`names`: source path → name in dist/): the pages
 * and the stable entry points, whose names stay from one release to the next, are asked for again
 * on every use (`no-cache`: a 304 while unchanged), so a release shows at once; each top-level
 * folder in which every file has a hashed name, and each hashed file elsewhere, is kept a year.
 * No path matches two of these rules, where Cloudflare Pages would join the two values.
 * Every Content-Security-Policy in it also allows `lrs` (origins, from checkLrs) in `connect-src`.
 */
function headersFile(text, base, names, lrs = []) {
  const moved = text.replace(/^\/(?=\S)/gm, base)
    .replace(/^(\s+Content-Security-Policy:\s*)(.*)$/gm, (line, name, policy) => `${name}${allowConnect(policy, lrs)}`);
  const kept = [...names].filter(([path, name]) => name === path && !HOST_FILES.has(path)).flatMap(([path]) => servedAt(path)).sort();
  const folders = new Map();
  for (const [path, name] of names) {
    const slash = path.indexOf('/');
    if (slash < 0) continue;
    const folder = path.slice(0, slash);
    folders.set(folder, (folders.get(folder) ?? true) && name !== path);
  }
  const cached = [...folders].filter(([, allHashed]) => allHashed).map(([folder]) => folder).sort();
  // A hashed file beside names that stay (demo/'s stylesheet beside its page, the icon beside the
  // pages at the top): a rule of its own.
  const single = [...names].filter(([path, name]) => name !== path && !cached.includes(path.split('/')[0]))
    .map(([, name]) => name).sort();
  const rule = (path, value) => `${base}${path}\n  Cache-Control: ${value}`;
  const year = [...cached.map((folder) => `${folder}/*`), ...single].map((path) => rule(path, 'public, max-age=31536000, immutable'));
  return [moved.trimEnd(), '',
    '# Written by scripts/dist.mjs: pages and entry points keep their names from one release to the next,',
    '# so browsers ask for them again on every use (and get a 304 while they are unchanged).',
    ...kept.map((path) => rule(path, 'no-cache')),
    '# These folders and files hold only content-hashed names, which never change content, so',
    '# browsers may keep them a year without asking again.',
    ...year, ''].join('\n');
}

function hashed(path, content) {
  if (path.endsWith('.html') || STABLE.has(path) || HOST_FILES.has(path)) return path;
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 10);
  const ext = extname(path);
  return `${path.slice(0, -ext.length)}.${hash}${ext}`;
}

export async function buildDist(source = SOURCE, out = OUT, { base = '/', lrs = [], site = null } = {}) {
  checkBase(base);
  if (site && new URL(site).pathname !== base) {
    throw new Error(`dist: SITE ${site} and BASE ${base} name different paths: the pages would name one place and _headers `
      + `the other; give BASE=${new URL(site).pathname}, or leave BASE out and it is SITE's`);
  }
  const all = (await walk(source)).filter((path) => !SKIP.some((re) => re.test(path))).sort();
  const files = new Set(all);
  const contents = new Map();
  const references = new Map();
  for (const path of all) {
    const content = await readFile(join(source, path));
    contents.set(path, content);
    const refs = new Set();
    if (TEXT.has(extname(path))) {
      for (const match of content.toString('utf8').matchAll(REFERENCE)) {
        const found = target(path, match[2] ?? match[4] ?? match[5], files);
        if (found && found !== path) refs.add(found);
      }
    }
    references.set(path, refs);
  }

  // Name each file after the files it references have their final names (depth first).
  const names = new Map();
  const output = new Map();
  const visiting = [];
  const visit = (path) => {
    if (names.has(path)) return;
    if (visiting.includes(path)) {
      throw new Error(`circular references, can't hash: ${[...visiting.slice(visiting.indexOf(path)), path].join(' → ')}`);
    }
    visiting.push(path);
    for (const ref of references.get(path)) visit(ref);
    visiting.pop();
    let content = contents.get(path);
    if (references.get(path).size > 0) {
      content = Buffer.from(content.toString('utf8').replace(REFERENCE, (whole, quote, spec, suffix, cssSpec, mapSpec) => {
        const found = target(path, spec ?? cssSpec ?? mapSpec, files);
        if (!found || found === path) return whole;
        if (mapSpec) return `//# sourceMappingURL=${respell(mapSpec, found, names)}`;
        return spec ? `${quote}${respell(spec, found, names)}${suffix ?? ''}${quote}` : `url(${respell(cssSpec, found, names)})`;
      }));
    }
    names.set(path, hashed(path, content));
    output.set(names.get(path), content);
  };
  all.forEach(visit);
  if (site) {
    addSiteTags(output, names, site);
    names.set('sitemap.xml', 'sitemap.xml');
  }
  if (output.has('_headers')) {
    output.set('_headers', Buffer.from(headersFile(output.get('_headers').toString('utf8'), base, names, lrs)));
  }

  await rm(out, { recursive: true, force: true });
  let raw = 0;
  let brotli = 0;
  for (const [name, content] of output) {
    const file = join(out, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
    raw += content.length;
    if (!COMPRESS.has(extname(name))) continue;
    const br = brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    });
    await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
    await writeFile(`${file}.br`, br);
    brotli += br.length;
  }
  // GitHub Pages would otherwise run Jekyll, which hides files and folders starting with _ or .
  await writeFile(join(out, '.nojekyll'), '');
  return { names, raw, brotli };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let built;
  let lrs;
  try {
    lrs = checkLrs(process.env.LRS ?? '');
    const activity = process.env.XAPI_ACTIVITY && (await import('./tincan.mjs')).checkActivity(process.env.XAPI_ACTIVITY);
    // The launch reads the id as a URL, so the packages carry it in that form: say so when it differs.
    if (activity && activity !== process.env.XAPI_ACTIVITY) {
      console.log(`dist: XAPI_ACTIVITY goes into the packages as ${activity}, its form as a URL, which is the id the LRS records`);
    }
    const site = process.env.SITE ? checkSite(process.env.SITE) : null;
    built = await buildDist(SOURCE, OUT, { base: process.env.BASE || (site ? new URL(site).pathname : '/'), lrs, site });
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
  const { names, raw, brotli } = built;
  const wasm = [...names.values()].find((name) => name.endsWith('.wasm'));
  console.log(`dist: ${names.size} files into ${relative(process.cwd(), OUT) || '.'}/, ${raw} bytes (${brotli} with brotli)`);
  if (wasm) console.log(`dist: ${wasm}`);
  if (lrs.length) console.log(`dist: _headers lets the pages send xAPI statements to ${lrs.join(' ')} (connect-src)`);
  if (process.env.SITE) console.log(`dist: canonical, hreflang and og:url for ${process.env.SITE}, and sitemap.xml`);
  // Course-platform packages beside the site: SCORM zips (scripts/scorm.mjs), xAPI zips
  // (scripts/tincan.mjs, their activity id from XAPI_ACTIVITY), H5P (scripts/h5p.mjs).
  try {
    for (const pack of ['scorm', 'tincan', 'h5p']) for (const file of await (await import(`./${pack}.mjs`)).pack(OUT)) console.log(`dist: ${relative(process.cwd(), file)}`);
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
  if (!process.env.XAPI_ACTIVITY) console.log('dist: the xAPI packages name the try-out activity id; set XAPI_ACTIVITY=https://… to your own for a course');
}
