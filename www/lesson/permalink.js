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
/** Longest value quoted back in a notice. */
const MAX_QUOTED = 40;

/** Whether `hash` is a permalink (has name=value pairs) rather than a link to a section. */
export const isPermalink = (hash) => hash.includes('=');

/**
 * Reads a permalink hash. Returns `{ values, rejected }`: `values` holds each accepted entry
 * (numbers as numbers), `rejected` lists `{ name, value, allowed }` with `allowed` a strings key.
 */
export function readPermalink(hash) {
  const values = {};
  const rejected = [];
  if (!isPermalink(hash)) return { values, rejected };
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const reject = (name, value, allowed) => {
    const quoted = value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED)}…` : value;
    rejected.push({ name: name.slice(0, MAX_QUOTED), value: quoted, allowed });
  };
  const number = (text) => (/^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(text) ? Number(text) : NaN);
  for (const [name, value] of params) {
    switch (name) {
      case 'b': {
        const b = number(value);
        if (Number.isFinite(b) && b > 0) values.b = b;
        else reject(name, value, 'allowed_b');
        break;
      }
      case 'r': {
        const r = number(value);
        if (Number.isFinite(r) && r >= 0) values.r = r;
        else reject(name, value, 'allowed_r');
        break;
      }
      case 'c': {
        const c = number(value);
        if (Number.isInteger(c) && c >= 1) values.c = c;
        else reject(name, value, 'allowed_c');
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
        // Read from the raw hash: URLSearchParams would turn a "+" into a space.
        const raw = hash.replace(/^#/, '').split('&').find((part) => part.startsWith(`${SCENARIO}=`));
        try {
          values.s = decodeURIComponent(raw.slice(SCENARIO.length + 1));
        } catch {
          reject(name, value, 'allowed_s');
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
  // The cost must fit in the bucket, or the request could never pass.
  if (values.c !== undefined && values.c > Math.max(1, Math.floor(values.b ?? 5))) {
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
