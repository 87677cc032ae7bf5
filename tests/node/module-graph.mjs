// Reads the static import graph of the site's modules, as the browser would follow it: each
// module's `import … from` and `export … from`, at any depth; dynamic `import()`s, which load later
// parts on demand, are left out. The tests check the bundles (scripts/bundle.mjs) and the page's
// size list against it.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const WWW = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'www');

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
