// Completes a page's module preloads: each module the page names in a
// `<link rel="modulepreload" href="./…">` comes with every module it imports statically, at any
// depth, so the browser asks for the whole graph at once instead of one level of imports per round
// trip (the lesson's hero waited on main.js, then mount.js, then markup.js, each a wave). Dynamic
// `import()`s, which load later parts on demand, are left out. Used by scripts/pages.mjs.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const WWW = join(dirname(fileURLToPath(import.meta.url)), '..', 'www');
const MODULE_PRELOAD = /<link rel="modulepreload" href="\.\/([^"]+)">/g;
const ANY_PRELOAD = /<link rel="(?:module)?preload"[^>]*>/g;

/**
 * The specifiers of a module's static `import … from` and `export … from` declarations, read by
 * TypeScript's parser (not `import()` calls, nor anything in strings or comments).
 */
export function staticImports(name, source) {
  const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  return file.statements
    .filter((s) => (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier)
    .map((s) => s.moduleSpecifier.text);
}

/** `entries` (paths under `www`) and every module they import statically, depth first, once each. */
export function staticGraph(entries, www = WWW) {
  const seen = new Set();
  const visit = (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const spec of staticImports(path, readFileSync(join(www, path), 'utf8'))) {
      if (spec.startsWith('./') || spec.startsWith('../')) visit(relative(www, join(www, dirname(path), spec)));
    }
  };
  entries.forEach(visit);
  return [...seen];
}

/**
 * `html` with a modulepreload for each module its preloaded modules import, after its last preload
 * (so the page's own choice, the wasm among it, is asked for first).
 */
export function completePreloads(html, www = WWW) {
  const named = [...html.matchAll(MODULE_PRELOAD)];
  if (!named.length) return html;
  const listed = new Set(named.map((m) => m[1]));
  const missing = staticGraph([...listed], www).filter((p) => !listed.has(p));
  const last = [...html.matchAll(ANY_PRELOAD)].at(-1);
  const at = last.index + last[0].length;
  const links = missing.map((path) => `\n  <link rel="modulepreload" href="./${path}">`).join('');
  return html.slice(0, at) + links + html.slice(at);
}
