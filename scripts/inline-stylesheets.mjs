// The element's stylesheets built from their text by its own script, for the copies of the element
// that can't rely on finding them beside it: the H5P library's bundle (scripts/h5p.mjs), whose
// hosts serve aggregated scripts from another folder, and the npm package (scripts/npm-package.mjs),
// whose bundlers apply a site's own CSS rule to `new URL('./widget.css', import.meta.url)` too
// (Docusaurus's css-loader and mini-css-extract-plugin turn it into a file of JavaScript). As
// constructed sheets, adopted by the shadow root, they apply under whatever CSP the host sets:
// browsers apply no style-src to a sheet a script builds.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A stylesheet a module finds beside itself: `new URL('./widget.css?no-inline', import.meta.url)`. */
const STYLESHEET_URL = /new URL\(\s*(['"])(\.{1,2}\/[^'"?#]+\.css)(?:[?#][^'"]*)?\1\s*,\s*import\.meta\.url\s*\)/g;

/** The function the rewritten code calls with a stylesheet's text. */
export const SHEET_FUNCTION = '__bucketlabStylesheet';

/**
 * Its definition: a `CSSStyleSheet` built from the text; in a browser without constructed sheets
 * in shadow roots (Safari before 16.4), a blob: URL of the text, which the element links (styled
 * wherever the host's CSP allows blob:); on a server, where the element is never constructed, or
 * in a DOM emulation that has neither (jsdom), null: importing the module never throws.
 */
export const SHEET_DEFINITION = [
  `function ${SHEET_FUNCTION}(text) {`,
  '  try { if ("adoptedStyleSheets" in ShadowRoot.prototype) { var sheet = new CSSStyleSheet(); sheet.replaceSync(text); return sheet; } } catch (e) {}',
  '  try { if (typeof document !== "undefined") return new URL(URL.createObjectURL(new Blob([text], { type: "text/css" }))); } catch (e) {}',
  '  return null;',
  '}',
].join('\n');

/**
 * `code` (the module at `path`) with each stylesheet it finds beside itself replaced by a call of
 * SHEET_FUNCTION with that file's text.
 */
export async function inlineStylesheets(code, path) {
  const texts = new Map();
  for (const [, , file] of code.matchAll(STYLESHEET_URL)) {
    texts.set(file, await readFile(join(dirname(path), file), 'utf8'));
  }
  return code.replace(STYLESHEET_URL, (_, _quote, file) => `${SHEET_FUNCTION}(${JSON.stringify(texts.get(file))})`);
}
