// The permalink: B, r, cost, language, tab and code language in the URL hash
// (#b=20&r=2&c=3&lang=en&tab=config&code=go), a recorded scenario (s=1_5_1_5_2.4_0s1,6…, whose
// text the core checks when the diagram plays it) and the algorithm lab's lanes (lab=burst;size=25…,
// which the lab reads: www/lesson/lab/link.js). Reading only checks each value against its rule;
// anything else is set aside with what was allowed, for a visible notice. Nothing from the hash is
// ever run or written as HTML.
import { cut, languageOf } from '../i18n/translate.js';
import { readings, typedNumber, unreadable } from '../i18n/typed-number.js';
import { misspelledOf } from '../element/misspelled.js';

const TABS = ['algorithm', 'config', 'usage'];
export const TECHS = ['rust', 'python', 'javascript', 'go'];
const KEYS = ['b', 'r', 'c', 'lang', 'tab', 'code'];
/** The scenario's key and the lab's: their values are passed on as written (the core or the lab
 * reads and checks them), after the others, unescaped (their characters need none in a hash). */
const SCENARIO = 's';
const LAB = 'lab';
const RAW = [SCENARIO, LAB];
const ALLOWED = Object.fromEntries([...KEYS, ...RAW].map((key) => [key, `allowed_${key}`]));
/** The settings of the address the lesson reads; the only ones a link for others carries. */
const LESSON_SETTINGS = ['lang', 'capacity', 'refill-rate', 'tokens'];
/** The notice's reason for each way a number can't be read (www/i18n/typed-number.js `unreadable`). */
const REASONS = { ambiguous: 'reason_ambiguous', tooLarge: 'reason_too_large', tooSmall: 'reason_too_small' };

/** The largest cost the widget takes (a `u32`: `cost_rule` in src/view/controls.rs). */
const MAX_COST = 4294967295;

/** Whether `hash` is a permalink (has name=value pairs) rather than a link to a section. */
export const isPermalink = (hash) => hash.includes('=');

/**
 * Reads a permalink hash. Returns `{ values, rejected }`: `values` holds each accepted entry
 * (numbers as numbers), `rejected` lists `{ name, value, allowed, reason?, reasonValues? }`, strings
 * keys (`reason` when the rule alone would not say what is wrong, filled with `reasonValues`).
 */
export function readPermalink(hash) {
  const values = {};
  const rejected = [];
  if (!isPermalink(hash)) return { values, rejected };
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const reject = (name, value, allowed, reason, reasonValues) => {
    rejected.push({ name: cut(name), value: cut(value), allowed, ...(reason && { reason }), ...(reasonValues && { reasonValues }) });
  };
  // B, r and c: kept if a number that `allowed` accepts. Else the reason when the rule alone would not
  // say it: 1e400 is too large (not "not greater than 0"), 1e-400 too small (not the 0 r allows),
  // and 1,000 could be a thousand or 1.000, both named (the decimal also as a link writes it
  // shortest, 1: to a Brazilian reader 1.000 is a thousand).
  const number = (name, value, allowed) => {
    const why = unreadable(value);
    const n = typedNumber(value);
    if (!why && allowed(n)) values[name] = n;
    else reject(name, value, ALLOWED[name], REASONS[why], why === 'ambiguous' ? ambiguous(value) : undefined);
  };
  const ambiguous = (value) => {
    const both = readings(value);
    return { ...both, link: String(Number(both.point)) };
  };
  // The scenarios and lab links as written: URLSearchParams would turn "+" into a space,
  // %E0%A4%A into "�%A".
  const parts = hash.replace(/^#/, '').split('&');
  const written = Object.fromEntries(RAW.map((key) => [key, parts.filter((part) => part.startsWith(`${key}=`)).map((part) => part.slice(key.length + 1))]));
  const seen = new Set();
  for (const [name, decoded] of params) {
    const value = RAW.includes(name) ? written[name].shift() ?? decoded : decoded;
    // One value per name: a second one is named, not silently dropped.
    // (A name of the link's own only: `toString` given twice is an unknown name twice.)
    if (seen.has(name) && Object.hasOwn(ALLOWED, name)) {
      reject(name, value, ALLOWED[name], 'reason_repeated');
      continue;
    }
    seen.add(name);
    switch (name) {
      case 'b':
        number(name, value, (b) => b > 0);
        break;
      case 'r':
        number(name, value, (r) => r >= 0);
        break;
      case 'c':
        number(name, value, (c) => Number.isInteger(c) && c >= 1);
        // The core counts a cost in 32 bits: a larger one is refused there whatever B is.
        if (values.c > MAX_COST) {
          reject(name, value, ALLOWED.c, 'reason_cost_most', { most: String(MAX_COST) });
          delete values.c;
        }
        break;
      case 'lang': {
        // Any tag of the two languages (en-GB, pt-PT), as the element and embed.html take them.
        const lang = languageOf(value);
        if (lang) values.lang = lang;
        else reject(name, value, 'allowed_lang');
        break;
      }
      case 'tab':
        if (TABS.includes(value)) values.tab = value;
        else reject(name, value, 'allowed_tab');
        break;
      case SCENARIO:
      case LAB: {
        try {
          values[name] = decodeURIComponent(value);
        } catch {
          reject(name, value, ALLOWED[name], 'reason_bad_escape');
        }
        break;
      }
      case 'code':
        if (TECHS.includes(value)) values.code = value;
        else reject(name, value, 'allowed_code');
        break;
      default:
        reject(name, value, 'allowed_key');
    }
  }
  // The cost must fit in the bucket, or the request could never pass (without B here, setCost
  // checks it against the diagram's B, which ?capacity= may have set).
  if (values.c !== undefined && values.b !== undefined && values.c > Math.max(1, Math.floor(values.b))) {
    reject('c', String(values.c), 'allowed_c');
    delete values.c;
  }
  return { values, rejected };
}

/**
 * The hash for a state `{ b, r, c, lang, tab, code, s, lab }`, keys in a fixed order; the scenario
 * `s` and the lab's `lab` last and unescaped.
 */
export function permalinkHash(state) {
  const params = new URLSearchParams();
  for (const key of KEYS) if (state[key] !== undefined && state[key] !== null) params.set(key, String(state[key]));
  const pairs = [...(params.size ? [String(params)] : []), ...RAW.filter((key) => state[key]).map((key) => `${key}=${state[key]}`)];
  return `#${pairs.join('&')}`;
}

/**
 * The address's refused names among the lesson's settings (`?capcity=3`, `?refill_rate=2`, a
 * second `?capacity=`), as the notice lists them: any other name is another's (an LMS's launch)
 * and let be. A short setting is matched but for its separators and case only: `?token=` and
 * `?lng=` are common names of other software, not a misspelled `tokens` or `lang`.
 */
export function refusedSettings(search) {
  const refused = [];
  const seen = new Set();
  for (const [name, value] of new URLSearchParams(search)) {
    const lower = name.toLowerCase();
    const known = LESSON_SETTINGS.includes(name) ? undefined
      : LESSON_SETTINGS.includes(lower) ? lower : misspelledOf(lower, LESSON_SETTINGS, { close: true, shortest: 7 });
    if (known) refused.push({ name: cut(name), value: cut(value), reason: 'reason_misspelled', reasonValues: { known } });
    else if (seen.has(name)) refused.push({ name, value: cut(value), reason: 'reason_repeated' });
    if (LESSON_SETTINGS.includes(name)) seen.add(name);
  }
  return refused;
}

/**
 * The address of this page with the hash for `state` (see permalinkHash), as a link for someone
 * else: of the address's own query, the lesson's settings only. What else it holds is another's
 * (an LMS's xAPI launch: the LRS's endpoint and credentials, the learner's identity).
 */
export function shareableUrl(state) {
  const kept = [...new URLSearchParams(location.search)].filter(([name]) => LESSON_SETTINGS.includes(name));
  const search = kept.length ? `?${new URLSearchParams(kept)}` : '';
  return `${location.origin}${location.pathname}${search}${permalinkHash(state)}`;
}
