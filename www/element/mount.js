// mountDiagram as hosts get it: the wasm view's mountDiagram throws on a bad data-* attribute and
// leaves the root alone; this one also shows that error in the root (in the root's language), so
// a page never keeps a blank space where the diagram should be. The lesson, the <bucket-lab>
// element and the npm package's `mountDiagram` all mount through it.
import { mountDiagram as mountBare } from '../pkg/bucketlab.js';
import tables from '../i18n/locales/element.js';
import { langOf, translator } from '../i18n/translate.js';
import { showError } from './error-box.js';

/** Mounts the diagram into `root` (see the wasm module's mountDiagram); shows and rethrows its error. */
export function mountDiagram(root) {
  try {
    return mountBare(root);
  } catch (error) {
    showError(root, translator(tables, langOf(root))('buildFailed'), error);
    throw error;
  }
}
