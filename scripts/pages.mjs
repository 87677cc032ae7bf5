// Generates the lesson's pages from one template and the locale tables of each language:
//   lesson/template.html + locales/<lang>/lesson.json (+ the ui, defense, traffic and element
//   tables: readLocale)  →  www/index.html (pt-BR), www/en.html
// and the iframe page lesson/embed.html → www/embed.html. The diagram's markup in them is rendered
// at build time by the Rust view (scripts/markup.mjs), so it paints before the wasm arrives.
// (ui.json, the words the page's scripts use at run time, is also `{{ui.…}}` here; the scripts get
// it from scripts/locales.mjs.) Code blocks are files embedded at build time and highlighted here
// by highlight.js, so the page ships plain HTML with classes and loads no highlighter.
//
// In the template:
//   {{#file}}path/to/any/file.ext{{/file}}        one highlighted code block with a copy button
//   {{#techgroup}}a.rs b.py c.js d.go{{/techgroup}} the same idea in several languages; the tech
//                                                  toggle shows one of them, all without JavaScript
//   {{#widget}}bucket-widget{{/widget}}            the diagram's markup for the mount element with
//   {{#widget}}hero-widget hero{{/widget}}         that id (configured like #bucket-widget); `hero`:
//                                                  the compact look
// Each page loads one bundled start-up script (scripts/bundle.mjs), which it preloads with the
// wasm glue and the wasm.
// Files under lesson/code/ are templates themselves: their comments are locale keys
// ({{comments.refill}}), so a sample reads in the page's language. Any other file is embedded
// verbatim (the Rust core is shown exactly as it is compiled).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Mustache from 'mustache';
import hljs from 'highlight.js/lib/core';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import lua from 'highlight.js/lib/languages/lua';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import yaml from 'highlight.js/lib/languages/yaml';
import { LANGS, readTable } from './locales.mjs';
import { isPlural } from '../www/i18n/translate.js';
import { lessonConfig, renderWidget } from './markup.mjs';
import { shippedPolicy } from './csp.mjs';
import { bundleAll } from './bundle.mjs';
import { transformSync } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const LESSON = join(ROOT, 'lesson');
const OUT = join(ROOT, 'www');

/** The pages: the first is the default (index.html). */
export const PAGES = [
  { lang: 'pt-BR', file: 'index.html', name: 'Português (Brasil)' },
  { lang: 'en', file: 'en.html', name: 'English' },
];

/** The languages a code block can be in, in toggle order; `ext` picks it from a file name. */
export const TECHS = [
  { id: 'rust', name: 'Rust', ext: '.rs', grammar: rust },
  { id: 'python', name: 'Python', ext: '.py', grammar: python },
  { id: 'javascript', name: 'JavaScript', ext: '.js', grammar: javascript },
  { id: 'go', name: 'Go', ext: '.go', grammar: go },
];
// Other files' grammars: [highlight.js id, grammar, the name the caption shows].
const OTHER_GRAMMARS = { '.yaml': ['yaml', yaml, 'YAML'], '.yml': ['yaml', yaml, 'YAML'], '.lua': ['lua', lua, 'Lua'] };

for (const tech of TECHS) hljs.registerLanguage(tech.id, tech.grammar);
for (const [id, grammar] of Object.values(OTHER_GRAMMARS)) hljs.registerLanguage(id, grammar);

/** The page's words in `lang`: locales/<lang>/lesson.json, with ui.json as its `ui` part. */
export function readLocale(lang) {
  return { ...readTable(lang, 'lesson'), ui: readTable(lang, 'ui'), defense: readTable(lang, 'defense'), traffic: readTable(lang, 'traffic'), element: readTable(lang, 'element') };
}

/** The text of a file embedded in the page: code samples get their comments in `lang`. */
export function embeddedSource(path, locale) {
  const text = readFileSync(join(ROOT, path), 'utf8');
  if (!path.startsWith('lesson/code/')) return text;
  requireKeys(Mustache.parse(text), locale, path);
  return Mustache.render(text, locale, {}, { escape: (s) => s });
}

/** Fails the build when the template names a key the locale lacks (mustache would print ""), or a plural entry. */
function requireKeys(tokens, view, where, stack = [view]) {
  for (const token of tokens) {
    const [kind, name, , , children] = token;
    if (!['name', '&', '{', '#', '^'].includes(kind) || name === '.') continue;
    const found = stack.some((scope) => lookup(scope, name) !== undefined);
    if (!found) {
      throw new Error(`${where}: no locale key "${name}"`);
    }
    // A plural entry is picked at run time by www/i18n/translate.js; mustache would print [object Object].
    if (kind !== '#' && kind !== '^' && stack.some((scope) => isPlural(lookup(scope, name)))) {
      throw new Error(`${where}: "${name}" is a plural entry, which only the page's scripts can show`);
    }
    if (kind === '#' && children) {
      const value = stack.map((scope) => lookup(scope, name)).find((v) => v !== undefined);
      const items = Array.isArray(value) ? value : [value];
      for (const item of items) {
        if (item && typeof item === 'object') requireKeys(children, view, where, [item, ...stack]);
        else requireKeys(children, view, where, stack);
      }
    }
  }
}

function lookup(scope, dotted) {
  return dotted.split('.').reduce((v, k) => (v !== null && typeof v === 'object' ? v[k] : undefined), scope);
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** One code block: caption, copy button, highlighted source. */
function codeBlock(path, locale, tech) {
  const ext = extname(path);
  const known = TECHS.find((t) => t.ext === ext);
  const grammar = known ? known.id : OTHER_GRAMMARS[ext]?.[0];
  if (!grammar) throw new Error(`${path}: no highlighter for "${ext}" files`);
  const source = embeddedSource(path, locale).replace(/\n$/, '');
  const html = hljs.highlight(source, { language: grammar }).value;
  const label = known ? known.name : OTHER_GRAMMARS[ext][2];
  const techAttr = tech ? ` data-tech="${tech}"` : '';
  return `<figure class="code-block"${techAttr} data-source="${escapeHtml(path)}">
  <figcaption class="code-caption"><code>${escapeHtml(basename(path))}</code> <span class="code-lang">${label}</span></figcaption>
  <div class="code-tools" hidden><button type="button" class="copy" data-copied="${escapeHtml(locale.ui.copied)}">${escapeHtml(locale.ui.copy)}</button><span class="copy-feedback" aria-hidden="true"></span></div>
  <pre translate="no" tabindex="0" role="region" aria-label="${escapeHtml(basename(path))} (${label})"><code class="hljs language-${grammar}">${html}</code></pre>
</figure>`;
}

/**
 * A template's text without its HTML comments: they explain the markup to whoever edits it, and a
 * visitor's browser would only download them (about 0.5 KB gzip of the lesson page). A comment on
 * a line of its own goes with its line. Code blocks are rendered after this, so their text is never
 * touched.
 */
export function withoutComments(template) {
  return template.replace(/^[ \t]*<!--[\s\S]*?-->[ \t]*\n/gm, '').replace(/<!--[\s\S]*?-->/g, '');
}

/** Renders one language's page. */
export function renderPage(page, locale) {
  const template = withoutComments(readFileSync(join(LESSON, 'template.html'), 'utf8'));
  const view = {
    ...locale,
    lang: page.lang,
    alternates: PAGES.map((p) => ({ lang: p.lang, href: `./${p.file}`, name: p.name, current: p === page })),
    techs: TECHS.map(({ id, name }) => ({ id, name })),
    widget: () => (text) => {
      const [id, look] = text.trim().split(/\s+/);
      return renderWidget({ lang: page.lang, id, ...lessonConfig(), hero: look === 'hero' });
    },
    file: () => (text, render) => codeBlock(render(text).trim(), locale, null),
    techgroup: () => (text, render) => {
      const blocks = render(text).trim().split(/\s+/).map((path) => {
        const tech = TECHS.find((t) => t.ext === extname(path));
        if (!tech) throw new Error(`${path}: a tech group holds only ${TECHS.map((t) => t.ext).join(' ')} files`);
        return codeBlock(path, locale, tech.id);
      });
      return `<div class="tech-group">\n${blocks.join('\n')}\n</div>`;
    },
  };
  requireKeys(Mustache.parse(template), view, `template (${page.lang})`);
  return Mustache.render(template, view);
}

/**
 * The iframe page: its <bucket-lab> holds the widget's markup in a declarative shadow root (the
 * element's frame and stylesheets, as the element builds them), so it paints before any script.
 * The stylesheets come after the markup: in front of it they hold the parser until they arrive
 * (about 25 ms later in the usable bench), while the page waits for them to paint either way.
 */
export function renderEmbed() {
  const template = withoutComments(readFileSync(join(LESSON, 'embed.html'), 'utf8'));
  const widget = renderWidget({ lang: 'pt-BR', id: 'bl', ...lessonConfig() });
  const shadow = '<template shadowrootmode="open">' +
    `<div class="bl-frame" part="frame">${widget}</div>` +
    '<link rel="stylesheet" href="./element/widget.css"><link rel="stylesheet" href="./element/bucket-lab.css"></template>';
  const heading = Mustache.escape(readTable('pt-BR', 'element').frameTitle);
  const others = LANGS.filter((lang) => lang !== 'pt-BR')
    .map((lang) => `<template data-bucketlab-markup="${lang}">${renderWidget({ lang, id: 'bl', ...lessonConfig() })}</template>`);
  // What early.js shows if the page's script does not arrive: the words in both languages, as
  // the page's <noscript> has them (the address's `lang` is applied by that script); the detail
  // one line per language.
  const both = (key, between) => Mustache.escape(['pt-BR', 'en'].map((lang) => readTable(lang, 'element')[key]).join(between));
  return template.replace('{{{element}}}', () => shadow).replace('{{{otherMarkup}}}', () => others.join(''))
    .replace('{{frameTitle}}', () => heading)
    .replace('{{loadFailed}}', () => both('loadFailed', ' / '))
    .replace(/\{\{(script\w+)\}\}/g, (_, key) => both(key, '\n'));
}

/** Where the templates load www/element/early.js; the build puts the script itself there. */
const EARLY_TAG = '<script src="./element/early.js"></script>';

/**
 * www/element/early.js (it queues clicks on a send button made before the wasm attaches) and the
 * CSP source that allows exactly that text inline: `'sha256-…'`.
 */
export function earlyScript() {
  // Without its comments and spaces (esbuild; its names kept): a visitor's browser would only
  // download them, about 0.8 KB gzip of the lesson page's start-up transfer.
  const file = readFileSync(join(OUT, 'element', 'early.js'), 'utf8');
  const source = transformSync(file, { loader: 'js', legalComments: 'none', minifyWhitespace: true, minifySyntax: true }).code.trim();
  return { source, hash: `'sha256-${createHash('sha256').update(source).digest('base64')}'` };
}

/**
 * `html` with early.js inside its head instead of loaded from it: the button then works from the
 * moment it is parsed, with no request before it (the element imports the file for other pages).
 */
export function inlineEarly(html, { source } = earlyScript()) {
  if (!html.includes(EARLY_TAG)) throw new Error(`pages: the template has no ${EARLY_TAG} to inline`);
  return html.replace(EARLY_TAG, () => `<script>${source}</script>`);
}

/** Fails the build when the site's policy (www/_headers) does not allow the inlined early.js. */
function requireEarlyHash({ hash }) {
  const scripts = shippedPolicy().match(/script-src ([^;]*)/)?.[1].split(' ') ?? [];
  if (!scripts.includes(hash)) {
    throw new Error(`www/_headers: script-src must allow the inlined www/element/early.js by its hash, ${hash} ` +
      '(early.js changed: put the new hash there and in SECURITY.md)');
  }
}

/**
 * Builds the pages' start-up bundles (scripts/bundle.mjs), then every page (scripts/locales.mjs
 * has checked that the languages agree).
 */
export async function build() {
  console.log(`bundles: ${(await bundleAll()).join(', ')}`);
  const early = earlyScript();
  requireEarlyHash(early);
  const finish = (html) => inlineEarly(html, early);
  for (const page of PAGES) writeFileSync(join(OUT, page.file), finish(renderPage(page, readLocale(page.lang))));
  writeFileSync(join(OUT, 'embed.html'), finish(renderEmbed()));
  console.log(`pages: ${PAGES.map((p) => `www/${p.file} (${p.lang})`).join(', ')}, www/embed.html`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();
