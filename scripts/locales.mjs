#!/usr/bin/env node
// Every word bucketlab shows, one table per product and language: locales/<lang>/<product>.json.
//   lesson.json    the lesson page's text, rendered into the pages by scripts/pages.mjs
//   widget.json    the Rust widget's words (src/view/), compiled into its wasm
//   ui.json, lab.json, servers.json, element.json, embed.json, clients.json, lms.json,
//   defense.json, traffic.json, errors.json (a refused value's words, www/i18n/refusal.js):
//   words the scripts need at run time (RUN_TIME below)
// This script checks that the languages agree (the same products, keys, kinds of value and
// {placeholders}, the same plural entries) and that each plural entry is well formed, and writes each run-time product's tables as one ES module with both languages,
// www/i18n/locales/<product>.js (git-ignored), which www/i18n/translate.js reads. Scripts import
// their tables statically, so the words load with the code: no fetch, nothing inline.
// A plural entry is one value with a text per CLDR category, `{ "one": "{count} line", "other":
// "{count} lines" }`: t(key, { count }) picks the form with Intl.PluralRules (see translate.js).
// Its categories may differ per language (each language's own), but not which keys are plural.
// Usage: node scripts/locales.mjs (scripts/build.sh runs it).
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLURAL_CATEGORIES, isPlural } from '../www/i18n/translate.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const LOCALES = join(ROOT, 'locales');
const OUT = join(ROOT, 'www', 'i18n', 'locales');

/** The languages, the default first (the same list as www/i18n/translate.js's LANGS). */
export const LANGS = ['pt-BR', 'en'];
/** The products whose words the page's scripts need at run time. */
export const RUN_TIME = ['ui', 'lab', 'servers', 'element', 'embed', 'clients', 'lms', 'defense', 'traffic', 'errors'];

/** One product's table in one language. */
export function readTable(lang, product) {
  return JSON.parse(readFileSync(join(LOCALES, lang, `${product}.json`), 'utf8'));
}

/** Every table under `dir`: { product: { lang: table } }, for every language folder found. */
export function readTables(dir = LOCALES) {
  const tables = {};
  for (const lang of readdirSync(dir).sort()) {
    for (const file of readdirSync(join(dir, lang)).filter((f) => f.endsWith('.json')).sort()) {
      const product = file.slice(0, -'.json'.length);
      tables[product] ??= {};
      tables[product][lang] = JSON.parse(readFileSync(join(dir, lang, file), 'utf8'));
    }
  }
  return tables;
}

/** Every leaf of a table as [dotted path, value]; list items are `[i]`; a plural entry is one leaf. */
export function leaves(node, path = '') {
  if (Array.isArray(node)) return node.flatMap((item, i) => leaves(item, `${path}[${i}]`));
  if (isPlural(node)) return [[path, node]];
  if (node !== null && typeof node === 'object') {
    return Object.entries(node).flatMap(([key, value]) => leaves(value, path ? `${path}.${key}` : key));
  }
  return [[path, node]];
}

/** The `{name}` marks of a text, sorted (of a plural entry: every mark of any of its forms). */
export function placeholders(text) {
  if (isPlural(text)) return [...new Set(Object.values(text).flatMap(placeholders))].sort();
  return typeof text === 'string' ? [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort() : [];
}

/** A value's kind, for messages: a plural entry is not any object. */
const kindOf = (value) => (isPlural(value) ? 'plural entry' : typeof value);

/**
 * What is wrong with plural entry `forms` in `lang`, one sentence each: no `other`, a key that is
 * not a CLDR category, a category the language never picks (its form would never show), a form
 * that is not a text or is empty, forms with other {placeholders} than their siblings (`count`
 * apart: a form may spell its number out, "the only request").
 */
function pluralProblems(forms, lang, where) {
  const problems = [];
  const used = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
  const strangers = Object.keys(forms).filter((key) => !PLURAL_CATEGORIES.includes(key));
  if (strangers.length) {
    // A table with a key such as "other" among its own is read as a plural entry: say why.
    const named = Object.keys(forms).filter((key) => PLURAL_CATEGORIES.includes(key));
    problems.push(`${where}: ${strangers.map((k) => `"${k}"`).join(', ')} in ${lang} ${strangers.length > 1 ? 'are not plural categories' : 'is not a plural category'} (${PLURAL_CATEGORIES.join(', ')}), yet ${named.map((k) => `"${k}"`).join(', ')} ${named.length > 1 ? 'make' : 'makes'} it a plural entry`);
  }
  if (!('other' in forms)) problems.push(`${where}: plural entry in ${lang} has no "other" form`);
  for (const [category, text] of Object.entries(forms)) {
    if (PLURAL_CATEGORIES.includes(category) && !used.includes(category)) {
      problems.push(`${where}: ${lang} never uses the plural category "${category}" (only ${used.join(', ')})`);
    }
    if (typeof text !== 'string') problems.push(`${where}: the "${category}" form in ${lang} is a ${typeof text}, not a text`);
    else if (text.trim() === '') problems.push(`${where}: the "${category}" form is empty in ${lang}`);
  }
  const marks = Object.entries(forms).map(([category, text]) => [category, placeholders(text).filter((m) => m !== 'count').join(', ')]);
  if (!strangers.length && new Set(marks.map(([, m]) => m)).size > 1) {
    problems.push(`${where}: the forms in ${lang} have other placeholders (${marks.map(([c, m]) => `${c}: {${m}}`).join('; ')})`);
  }
  return problems;
}

/**
 * Where the languages disagree, one sentence each (an empty list when they agree): a product or a
 * key missing in a language, an empty text, a value of another kind (a plural entry in one
 * language and a text in the other, too), other {placeholders}, an ill-formed plural entry.
 */
export function parityProblems(tables, langs = LANGS) {
  const problems = [];
  for (const [product, byLang] of Object.entries(tables)) {
    const missing = langs.filter((lang) => !(lang in byLang));
    if (missing.length) problems.push(`${product}: no ${missing.map((l) => `locales/${l}/${product}.json`).join(', ')}`);
    const extra = Object.keys(byLang).filter((lang) => !langs.includes(lang));
    if (extra.length) problems.push(`${product}: unknown language ${extra.join(', ')}`);
    const present = langs.filter((lang) => lang in byLang);
    const maps = present.map((lang) => new Map(leaves(byLang[lang])));
    const keys = [...new Set(maps.flatMap((map) => [...map.keys()]))].sort();
    for (const key of keys) {
      const values = maps.map((map) => map.get(key));
      const where = key ? `${product}.json ${key}` : `${product}.json (the table itself)`;
      const without = present.filter((_, i) => values[i] === undefined);
      if (without.length) {
        problems.push(`${where}: missing in ${without.join(', ')}`);
        continue;
      }
      if (new Set(values.map(kindOf)).size > 1) {
        problems.push(`${where}: ${present.map((lang, i) => `${lang} has a ${kindOf(values[i])}`).join(', ')}`);
        continue;
      }
      for (const [i, value] of values.entries()) {
        if (typeof value === 'string' && value.trim() === '') problems.push(`${where}: empty in ${present[i]}`);
        if (isPlural(value)) problems.push(...pluralProblems(value, present[i], where));
        // lesson.json is rendered by mustache and widget.json compiled into Rust: plain texts only.
        if (isPlural(value) && !RUN_TIME.includes(product)) {
          problems.push(`${where}: a plural entry in ${present[i]}, but only the run-time tables (${RUN_TIME.join(', ')}) have plural forms`);
        }
      }
      const marks = values.map((v) => placeholders(v).join(', '));
      if (new Set(marks).size > 1) {
        problems.push(`${where}: placeholders differ (${present.map((lang, i) => `${lang}: {${marks[i]}}`).join('; ')})`);
      }
    }
  }
  return problems;
}

/** Checks every table and writes the run-time ones as modules; throws on any disagreement. */
export function build() {
  const tables = readTables();
  const problems = parityProblems(tables);
  if (problems.length) throw new Error(`locales/ disagree:\n  ${problems.join('\n  ')}`);
  mkdirSync(OUT, { recursive: true });
  for (const product of RUN_TIME) {
    if (!tables[product]) throw new Error(`no locales/<lang>/${product}.json`);
    const both = Object.fromEntries(LANGS.map((lang) => [lang, tables[product][lang]]));
    writeFileSync(join(OUT, `${product}.js`),
      `// Generated by scripts/locales.mjs from locales/*/${product}.json: edit those, not this.\n` +
      `export default ${JSON.stringify(both)};\n`);
  }
  console.log(`locales: ${Object.keys(tables).length} products in ${LANGS.join(', ')} agree; ` +
    `www/i18n/locales/{${RUN_TIME.join(',')}}.js`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) build();
