// The permalink: B, r, cost, language, tab and code language in the URL hash
// (#b=20&r=2&c=3&lang=en&tab=config&code=go), and a recorded scenario (s=1_5_1_5_2.4_0s1,6…,
// whose text the core checks when the diagram plays it). Reading only checks each value against its rule;
// anything else is set aside with what was allowed, for a visible notice. Nothing from the hash is
// ever run or written as HTML.
import { LANGS } from '../i18n/translate.js';

export const TABS = ['algorithm', 'config', 'usage'];
export const TECHS = ['rust', 'python', 'javascript', 'go'];
const KEYS = ['b', 'r', 'c', 'lang', 'tab', 'code'];
/** The scenario's key; its value is passed on as written (the core reads and checks it). */
const SCENARIO = 's';
const ALLOWED = Object.fromEntries([...KEYS, SCENARIO].map((key) => [key, `allowed_${key}`]));
/** Longest value quoted back in a notice. */
const MAX_QUOTED = 40;

/** Whether `hash` is a permalink (has name=value pairs) rather than a link to a section. */
export const isPermalink = (hash) => hash.includes('=');

/**
 * Whether a comma in `text` could group thousands as well as mark decimals (1,000; -12,500), which
 * the core refuses too (src/limiter/error.rs `thousands_like`): neither reading is guessed.
 */
export const thousandsLike = (text) => /^\s*[-+]?[1-9]\d{0,2},\d{3}\s*$/.test(text);

/**
 * A typed number: a plain decimal, with a decimal comma if no point (2,5), as ?capacity= reads it;
 * else NaN, as for a comma that could group thousands (1,000).
 */
export function typedNumber(text) {
  if (thousandsLike(text)) return NaN;
  const plain = text.includes(',') && !text.includes('.') ? text.replace(',', '.') : text;
  return /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(plain) ? Number(plain) : NaN;
}

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
    const quoted = value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED)}…` : value;
    rejected.push({ name: name.slice(0, MAX_QUOTED), value: quoted, allowed, ...(reason && { reason }), ...(reasonValues && { reasonValues }) });
  };
  // 1,000 could be a thousand or 1.000: the two readings are named, to write the one meant.
  const ambiguous = (name, value) => {
    if (!thousandsLike(value)) return false;
    const text = value.trim();
    reject(name, value, ALLOWED[name], 'reason_ambiguous', { whole: text.replace(',', ''), point: text.replace(',', '.') });
    return true;
  };
  // 1e400 is not "not greater than 0": it is too large; 1e-400 is not 0 (which r allows): too small.
  const size = (n, text) => {
    if (Math.abs(n) === Infinity) return 'reason_too_large';
    return n === 0 && /[1-9]/.test(text.split(/e/i)[0]) ? 'reason_too_small' : undefined;
  };
  // The scenarios as written: URLSearchParams would turn "+" into a space, %E0%A4%A into "�%A".
  const scenarios = hash.replace(/^#/, '').split('&').filter((part) => part.startsWith(`${SCENARIO}=`)).map((part) => part.slice(SCENARIO.length + 1));
  const seen = new Set();
  for (const [name, decoded] of params) {
    const value = name === SCENARIO ? scenarios.shift() ?? decoded : decoded;
    // One value per name: a second one is named, not silently dropped.
    if (seen.has(name) && ALLOWED[name]) {
      reject(name, value, ALLOWED[name], 'reason_repeated');
      continue;
    }
    seen.add(name);
    if (['b', 'r', 'c'].includes(name) && ambiguous(name, value)) continue;
    switch (name) {
      case 'b': {
        const b = typedNumber(value);
        if (Number.isFinite(b) && b > 0) values.b = b;
        else reject(name, value, 'allowed_b', size(b, value));
        break;
      }
      case 'r': {
        const r = typedNumber(value);
        if (Number.isFinite(r) && r >= 0 && !size(r, value)) values.r = r;
        else reject(name, value, 'allowed_r', size(r, value));
        break;
      }
      case 'c': {
        const c = typedNumber(value);
        if (Number.isInteger(c) && c >= 1) values.c = c;
        else reject(name, value, 'allowed_c', size(c, value));
        break;
      }
      case 'lang':
        if (LANGS.includes(value)) values.lang = value;
        else reject(name, value, 'allowed_lang');
        break;
      case 'tab':
        if (TABS.includes(value)) values.tab = value;
        else reject(name, value, 'allowed_tab');
        break;
      case SCENARIO: {
        try {
          values.s = decodeURIComponent(value);
        } catch {
          reject(name, value, 'allowed_s', 'reason_bad_escape');
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
 * The hash for a state `{ b, r, c, lang, tab, code, s }`, keys in a fixed order; the scenario `s`
 * last and unescaped (its characters need no escaping in a hash).
 */
export function permalinkHash(state) {
  const params = new URLSearchParams();
  for (const key of KEYS) if (state[key] !== undefined && state[key] !== null) params.set(key, String(state[key]));
  const pairs = [...(params.size ? [String(params)] : []), ...(state.s ? [`${SCENARIO}=${state.s}`] : [])];
  return `#${pairs.join('&')}`;
}
