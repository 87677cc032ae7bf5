// The <bucket-lab> element's public URL, which course pages link to; importing it defines the element.
// Every module the element imports, at any depth, is named here too: a browser fetches all of a
// module's static imports at once when it has read it, so the whole graph comes one request after
// this file instead of one level at a time (five round trips before the element could run, on a
// slow network). tests/node/element_entry.test.mjs keeps the list equal to the element's graph.
import './pkg/bucketlab.js';
import './i18n/locales/element.js';
import './i18n/translate.js';
import './element/error-box.js';
import './element/load-failure.js';
import './element/load-retry.js';
import './element/mount.js';
import './element/early.js';
import './element/range-touch.js';
import './element/keep-target.js';
import './element/misspelled.js';
import './element/markup.js';
import './element/trap.js';
export * from './element/bucket-lab.js';
