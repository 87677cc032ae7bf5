// <bucket-lab capacity="5" refill-rate="1" cost="1" lang="en" controls="send time">: the
// token-bucket diagram as a custom element, for course pages. Everything lives in a shadow root
// with its own stylesheets, so the host's CSS can't reach in and the widget's can't leak out.
// All instances on a page share one WebAssembly instance, loaded on first use. The widget's markup
// (rendered at build time by the Rust view) is in the shadow root from the start, so it paints at
// once; a click on send before the wasm attaches is queued and decided at its time (early.js).
// A page may give the element that markup itself, in a declarative shadow root (embed.html does).
import init, { checkSetting } from '../pkg/bucketlab.js';
import tables from '../i18n/locales/element.js';
import { cut, intl, langOf, languageOf, translator } from '../i18n/translate.js';
import { showError } from './error-box.js';
import { wasmFailureSaid } from './load-failure.js';
import { loadRetrying, sayRetrying } from './load-retry.js';
import { insertMarkup, mountDiagram, PAUSED_VALUES, pausedRefused } from './mount.js';
import { misspelledOf } from './misspelled.js';
import { onWasmTrap } from './trap.js';
import './keep-target.js';

/** Every attribute the element reads; changing any of them at run time takes effect at once. */
export const ATTRIBUTES = ['capacity', 'refill-rate', 'cost', 'tokens', 'lang', 'view', 'controls', 'paused', 'theme'];
/** `theme`'s values: the colour scheme, fixed or the system's (none: the host page's). */
const THEMES = ['light', 'dark', 'auto'];
/** The views the element can show (one so far: the live diagram). */
export const VIEWS = ['diagram'];
/**
 * The groups `controls` can name: the diagram's `CONTROL_GROUPS` (src/limiter/groups.rs), which a
 * Node test keeps equal to this list.
 */
export const CONTROL_GROUPS = ['send', 'cost', 'burst', 'bucket', 'traffic', 'time'];
/**
 * The diagram's events, which stop at the shadow root (they are not composed): the element
 * dispatches each again from itself, so a page can listen on the element or the document.
 */
export const EVENTS = ['bucketlab:decision', 'bucketlab:config'];
// `?no-inline`: Vite would inline a small stylesheet as a data: URL, which a strict style-src refuses.
// The H5P script (scripts/h5p.mjs) and the npm package (scripts/npm-package.mjs) put each one's
// text here instead, as a constructed sheet (see scripts/inline-stylesheets.mjs).
const STYLESHEETS = [new URL('./widget.css?no-inline', import.meta.url), new URL('./bucket-lab.css?no-inline', import.meta.url)];
const DEFAULTS = { capacity: '5', 'refill-rate': '1' };
/** The attributes that are properties too, by property name (see the end of this file). */
const REFLECTED = Object.fromEntries(ATTRIBUTES.filter((name) => name !== 'lang')
  .map((name) => [name.replace(/-(\w)/g, (_, letter) => letter.toUpperCase()), name]));

let moduleReady = null;
/** Elements showing that the module failed to load: each mounts once a later load succeeds. */
const awaitingModule = new Set();
/**
 * Loads and instantiates the wasm once per page, however many elements there are. A failed load
 * is not kept: the next render asks again (after the page's own `init({ module_or_path })`, say),
 * and when that load succeeds, every element that failed before mounts too.
 */
function loadModule() {
  // A download the network broke is tried again, the elements' markup kept with its queued clicks.
  const retrying = () => {
    for (const element of document.querySelectorAll('bucket-lab')) sayRetrying([element.shadowRoot], translator(tables, langOf(element))('wasmRetrying'));
  };
  moduleReady ??= loadRetrying(() => init(), retrying).then((exports) => {
    const waiting = [...awaitingModule];
    awaitingModule.clear();
    for (const retry of waiting) retry();
    return exports;
  }, (error) => {
    moduleReady = null;
    throw error;
  });
  return moduleReady;
}

/** Each connected element's call for a change of `<html lang>` (one without a `lang` of its own follows it). */
const followers = new Set();
let pageLang = null;
/** Calls `onChange` for each follower when `<html lang>` changes (a page's language switch). */
function followPageLang(onChange) {
  followers.add(onChange);
  pageLang ??= new MutationObserver(() => {
    for (const follow of followers) follow();
  });
  pageLang.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  return () => followers.delete(onChange);
}

/**
 * An attribute that can't be used: `message` names it, the value and what is allowed (for the
 * console and scripts); `localized` says the same to the page's reader in its language.
 */
class AttributeError extends Error {
  constructor(attribute, message, localized) {
    super(message);
    this.attribute = attribute;
    if (localized !== undefined) this.localized = localized;
  }
}

/** Every invalid attribute of an element at once (a fix at a time would be a slow round trip). */
class AttributeErrors extends Error {
  constructor(errors) {
    super(errors.map((error) => error.message).join('; '));
    this.errors = errors;
  }
}

/** `values` quoted and joined with "or" in `lang`'s way: “light”, “dark” ou “auto”. */
function either(values, lang) {
  return intl(Intl.ListFormat, lang, { type: 'disjunction' }).format(values.map((value) => `“${value}”`));
}

/**
 * The groups `list` shows, lowercased, in its order (`all`: every group; `none`: none), or why it
 * can't be a `controls` value: `all`, `none`, or group names in any case, separated by spaces or
 * commas. The diagram's showControls applies the same rule when the element mounts; checking
 * here lets a bad list be named with every other bad attribute, and the markup show the groups
 * before the module arrives.
 */
function parseControls(list) {
  const names = list.split(/[\s,]+/).filter(Boolean);
  if (names.length === 0) return { problem: 'no control named' };
  const lower = names.map((name) => name.toLowerCase());
  if (names.length === 1 && lower[0] === 'all') return { groups: CONTROL_GROUPS };
  if (names.length === 1 && lower[0] === 'none') return { groups: [] };
  const unknown = names.find((_, i) => !CONTROL_GROUPS.includes(lower[i]));
  return unknown === undefined ? { groups: lower } : { problem: `unknown control "${unknown}"` };
}

/** Attributes every element has, never taken for a misspelled setting. */
const GLOBAL_ATTRIBUTES = new Set(['id', 'class', 'style', 'title', 'dir', 'hidden', 'slot', 'part', 'role', 'tabindex', 'is',
  'nonce', 'inert', 'translate', 'draggable', 'accesskey', 'autofocus', 'popover', 'exportparts', 'contenteditable', 'spellcheck']);

/**
 * The setting an attribute name looks like a misspelling of (misspelled.js), or undefined. Any
 * other attribute is left alone: a host's framework adds its own (data-v-…, _ngcontent-…), and
 * data-* and aria-* are the page's.
 */
function misspelledSetting(name) {
  // Only a name made as a setting's is (Alpine's `:capacity` and `@click`, `x-bind:…` are bindings).
  if (!/^[a-z][a-z0-9_-]*$/.test(name)) return undefined;
  if (GLOBAL_ATTRIBUTES.has(name) || /^(data-|aria-|on)/.test(name)) return undefined;
  return misspelledOf(name, ATTRIBUTES);
}

/**
 * Reads and checks the element's attributes; throws AttributeErrors naming every bad one. Once
 * the diagram is `mounted`, `tokens` has done its work (the level it started at) and is not held
 * to a `capacity` changed since: the live bucket keeps its level, capped at the new B. `cost` is
 * held to the attribute's B, or with `liveCapacity` (the B a slider or a script set since
 * mounting) to that one: alone for a new cost, which must fit the bucket as it is (`costFits:
 * 'live'`); else to either of the two, so that a cost accepted once is not refused later, on
 * another attribute's change that keeps the live bucket (`lang`: the re-render leaves out one that
 * the carried B can't take). A fresh start from the attributes alone (a `tokens` change, the
 * element added again after its removal) has no live B: the cost is held to the attribute's, as
 * the attributes must then agree among themselves.
 */
function readSettings(element, { mounted = false, liveCapacity, costFits = 'either' } = {}) {
  const text = (name) => element.getAttribute(name) ?? DEFAULTS[name] ?? null;
  const errors = [];
  const given = text('lang');
  const lang = given === null ? langOf(document.documentElement) : languageOf(given);
  // The messages' language: the element's own when valid, else the page's.
  const t = translator(tables, lang ?? langOf(document.documentElement));
  const refuse = (name, message, key, values) => {
    errors.push(new AttributeError(name, message, t(key, { value: cut(text(name)), ...values })));
  };
  if (!lang) refuse('lang', `lang must be "pt-BR", "en" or another tag of those languages (en-GB, pt-PT), got "${cut(given)}"`, 'badLang', { name: 'lang' });
  // A misspelled setting would leave its default in place unseen (embed.html's address and the
  // mdBook and Hugo integrations refuse any name they don't know).
  for (const name of element.getAttributeNames()) {
    const known = misspelledSetting(name);
    if (known) errors.push(new AttributeError(name, `"${name}" is not an attribute of <bucket-lab>; did you mean "${known}"?`, t('misspelledAttribute', { name, known })));
  }
  const number = (name, capacity) => {
    if (text(name) === null) return undefined;
    try {
      return checkSetting(name, text(name), capacity, t.lang);
    } catch (error) {
      errors.push(new AttributeError(name, error.message, error.localized));
      return undefined;
    }
  };
  const capacity = number('capacity');
  const refillRate = number('refill-rate');
  const costBound = liveCapacity === undefined ? capacity
    : costFits === 'live' || capacity === undefined ? liveCapacity : Math.max(capacity, liveCapacity);
  const cost = number('cost', costBound);
  const tokens = number('tokens', mounted ? undefined : capacity);
  const view = text('view') ?? 'diagram';
  if (!VIEWS.includes(view)) {
    refuse('view', `view must be ${VIEWS.map((v) => `"${v}"`).join(' or ')}, got "${cut(view)}"`, 'badChoice', { name: 'view', allowed: either(VIEWS, t.lang) });
  }
  const controls = text('controls') ?? 'all';
  const wrongControls = parseControls(controls).problem;
  if (wrongControls !== undefined) {
    const groups = CONTROL_GROUPS.join(', ');
    refuse('controls', `controls must be "all", "none" or names from ${groups} separated by spaces or commas, got "${cut(controls)}" (${cut(wrongControls)})`, 'badControls', { groups });
  }
  const theme = text('theme');
  if (theme !== null && !THEMES.includes(theme)) {
    // In embed.html's address, no theme means light (it can't see its host page's scheme).
    const absent = element.addressSettings ? 'absent (light)' : "absent (the page's colour scheme)";
    refuse('theme', `theme must be ${THEMES.map((v) => `"${v}"`).join(', ')} or ${absent}, got "${cut(theme)}"`, element.addressSettings ? 'badThemeAddress' : 'badTheme', { allowed: either(THEMES, t.lang) });
  }
  // A boolean attribute is on whenever present, but frameworks write a false one as
  // `paused="false"` in the HTML they render on a server (Svelte, Lit): it lets time run, as it
  // says, and as embed.html's `paused=false` does. Any other value is refused rather than guessed.
  const paused = text('paused');
  if (paused !== null && !PAUSED_VALUES.includes(paused)) refuse('paused', pausedRefused('paused', paused), 'badPaused', { name: 'paused' });
  if (errors.length > 0) throw new AttributeErrors(errors);
  return { capacity, refillRate, cost, tokens, lang, controls, paused: paused !== null && paused !== 'false' };
}

/**
 * What a new mount carries over from `live` (a diagram): its level, a paused clock, and the B, r
 * and cost the reader or a script set since (the cost NaN while its field holds a value it
 * refuses: the attribute's, then).
 */
const carry = (live) => ({
  level: live.tokens, paused: live.paused, capacity: live.capacity, refillRate: live.refillRate,
  cost: Number.isNaN(live.cost) ? undefined : live.cost,
});

/** Calls `then` once the window has loaded (at once if it has). */
const afterLoad = (then) => (document.readyState === 'complete' ? then() : addEventListener('load', then, { once: true }));

/** The files' names, from their addresses: `widget.css, bucket-lab.css`. */
const fileNames = (hrefs) => hrefs.map((href) => new URL(href).pathname.split('/').pop()).join(', ');

/** The attributes a live diagram takes without mounting afresh. */
const APPLIED_LIVE = ['capacity', 'refill-rate', 'cost', 'controls', 'paused', 'theme'];

/** The carried setting each attribute sets. */
const CARRIED = { capacity: 'capacity', 'refill-rate': 'refillRate', cost: 'cost', paused: 'paused' };

// On a server (a framework rendering pages in Node) there is no HTMLElement: importing the element
// there defines nothing and does not fail, and the browser's import defines it.
const ElementBase = globalThis.HTMLElement ?? class {};

export class BucketLabElement extends ElementBase {
  static observedAttributes = ATTRIBUTES;

  #frame;
  /** Whether the frame is the page's own markup (embed.html's), not one the element made. */
  #givenFrame = false;
  #stylesReady;
  #diagram = null;
  /** Whether a script's `free()` let go of the last diagram (a new one is mounted on reconnecting). */
  #freedByHost = false;
  #stopWatching = null;
  /** Renders again when a misspelled setting comes or goes (observedAttributes has only the right names). */
  #watchNames = null;
  /** Counts renders, so a slow one that was overtaken (or outlived the element) does nothing. */
  #generation = 0;
  /**
   * The bucket as the reader left it when a changed attribute was refused (a host's field cleared
   * while typing): the next good value goes on from it, as a change of language does, instead of
   * starting a full bucket. Without the settings the attributes changed since.
   */
  #kept = null;
  /** Whether an attribute changed while the element, with no diagram, was out of the document. */
  #staleWhileOut = false;
  /** The attributes written since a refused write in the same task, or null (see #change). */
  #held = null;
  /** The B and r the page last heard of (`bucketlab:config`, or the mount), or null. */
  #told = null;
  /** Set by refuseSettings: the settings are wrong at their source, so nothing renders. */
  #refused = false;
  /** Set while connectedCallback passes properties set before the upgrade on to the attributes. */
  #upgrading = false;
  /** refuseSettings' `refusals`: each [title, ...details], shown before the attributes' errors. */
  #refusals = [];
  /** refuseSettings' `invalid`: settings refused before they became attributes, named with theirs. */
  #invalid = [];
  /**
   * Set by a page that takes the settings from its address (embed.html): a refusal then names a
   * setting in the address, not an attribute.
   */
  addressSettings = false;
  /** The error the element shows instead of the diagram, or null. */
  #error = null;
  #stopFollowing = null;
  /** The page's language the element last followed: a write of `<html lang>` that leaves it is no change. */
  #followedLang = null;
  #onLangChange = () => {
    const lang = langOf(document.documentElement);
    // A browser translating the page (Chrome, Safari, Edge) rewrites <html lang> and marks the page
    // `translated-ltr`: that is no switch of the page's language, and a new mount would drop the
    // learner's bucket and timeline.
    const translated = /\btranslated-(ltr|rtl)\b/.test(document.documentElement.className);
    if (this.hasAttribute('lang') || lang === this.#followedLang || translated) return;
    this.#followedLang = lang;
    this.#render({ keepLevel: true });
  };
  // (A refused element renders too: its refusals are reported once the module can check them.)
  #retryLoad = () => {
    if (this.isConnected && !this.#diagram) this.#render();
  };

  constructor() {
    super();
    // A declarative shadow root from the page already holds the stylesheets and the markup.
    const given = this.shadowRoot?.querySelector('.bl-frame');
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    for (const type of EVENTS) {
      shadow.addEventListener(type, (event) => {
        if (type === 'bucketlab:config') this.#told = { capacity: event.detail.capacity, refillRate: event.detail.refillRate };
        this.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true, detail: event.detail }));
      });
    }
    // A stylesheet is an address, linked, or a sheet already built from its text (the H5P
    // script's, scripts/h5p.mjs), adopted: that one applies at once and under any CSP.
    const links = given ? [...shadow.querySelectorAll('link')] : STYLESHEETS.filter((sheet) => sheet instanceof URL).map((href) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      return link;
    });
    // (A sheet that could not be built from its text, in a DOM emulation, is null: left out.)
    if (!given) shadow.adoptedStyleSheets = STYLESHEETS.filter((sheet) => sheet && !(sheet instanceof URL));
    // Resolves to the stylesheets that did not load (a host's CSP without the site in its
    // style-src, a wrong path): without them the bucket would paint as a black shape.
    // (A refused link may still get an empty `sheet`: the event says which happened.)
    this.#stylesReady = Promise.all(links.map((link) => link.sheet || new Promise((resolve) => {
      link.addEventListener('load', () => resolve(null), { once: true });
      link.addEventListener('error', () => resolve(link.href), { once: true });
      // A link of the page's own markup (embed.html's) may have failed before this ran, its error
      // event gone: once the window has loaded every such stylesheet has settled, and one with no
      // sheet did not load.
      if (given) afterLoad(() => resolve(link.sheet ? null : link.href));
    }))).then((failed) => {
      const unstyled = failed.filter((href) => typeof href === 'string');
      // Every file arrived, yet widget.css does not apply (a server that sends it as text/plain,
      // which the browser loads and ignores): its custom property is not set.
      if (unstyled.length === 0 && links.length > 0 && !getComputedStyle(this).getPropertyValue('--bl-styled')) {
        return links.map((link) => link.href);
      }
      return unstyled;
    });
    if (given) {
      this.#frame = given;
      this.#givenFrame = true;
      return;
    }
    this.#frame = document.createElement('div');
    this.#frame.className = 'bl-frame';
    this.#frame.setAttribute('part', 'frame');
    try {
      insertMarkup(this.#frame, this.#wordsLang());
    } catch (error) {
      // A page whose Trusted Types refuse the markup: mounting tries again and shows why.
      if (!error?.trustedTypes) throw error;
    }
    // Shown once the styles apply, so the widget never flashes unstyled.
    this.#frame.hidden = true;
    this.#stylesReady.then(() => {
      this.#frame.hidden = false;
    });
    shadow.append(...links, this.#frame);
  }

  /**
   * The mounted diagram's handle (`send`, `pause`, `step`, `tokens`, …), or null: while loading,
   * in error, and once it is freed, by the element or by a script's `free()`.
   */
  get diagram() {
    return this.#diagram;
  }

  /**
   * Why the element shows an error instead of the diagram, or null (before any failure, and once
   * the diagram is mounted): the error the last `bucketlab:error` carried (or, for embed.html's
   * refused settings, the one it will carry once the module has checked the rest). Invalid attributes give one
   * error whose `errors` name each (`attribute`, `message`, `localized`).
   */
  get error() {
    return this.#error;
  }

  /**
   * What to say of the stylesheets in `unstyled` (their addresses) that did not load: nothing, or
   * one line naming them, said on the console too. The frame then shows whatever its styles:
   * bucket-lab.css shows it only once widget.css has loaded, and the error must show anyway.
   */
  #unstyledSaid(unstyled) {
    if (unstyled.length === 0) return [];
    console.error(`<bucket-lab> could not load its stylesheets: ${unstyled.join(', ')} (they must be served as text/css, and a Content-Security-Policy's style-src must allow them)`);
    this.#frame.style.visibility = 'visible';
    return [this.#t('stylesFailed', { files: fileNames(unstyled) })];
  }

  /** Shows `error`'s box (`title` above `details`) and tells the page. */
  #showFailure(error, title, details) {
    showError(this.#frame, title, details, this.#wordsLang());
    this.#report(error);
  }

  /** Tells the page the element shows `error`: the `error` getter and a `bucketlab:error` event. */
  #report(error) {
    this.#error = error;
    this.dispatchEvent(new CustomEvent('bucketlab:error', { bubbles: true, composed: true, detail: { error } }));
  }

  connectedCallback() {
    // Moved within the page (disconnected, then connected again before the teardown's
    // microtask): still mounted, with the learner's bucket as it was; or, if a script freed that
    // diagram, mounted afresh, as a connected element with no diagram is.
    if (this.#stopWatching) {
      const stale = this.#staleWhileOut;
      this.#staleWhileOut = false;
      // Writes held while it was out of the document (see #change) apply now, or go with a
      // mount afresh, which reads every attribute.
      const held = this.#held;
      this.#held = null;
      if (this.#freedByHost || (stale && !this.#diagram)) return void this.#render();
      if (held && this.#diagram) this.#change(held);
      return;
    }
    // A property a framework set before this module defined the element (Lit's .capacity, a
    // script's) is a field of its own, hiding the accessor: passed on through it to its
    // attribute. The render below reads them all; their callbacks have nothing to add.
    this.#upgrading = true;
    for (const property of Object.keys(REFLECTED).filter((name) => Object.hasOwn(this, name))) {
      const value = this[property];
      delete this[property];
      this[property] = value;
    }
    this.#upgrading = false;
    // An element the parser made after this module defined it got its attributes after the
    // constructor: its waiting markup is put again in its own language (no click can have been
    // queued on it yet). embed.html's markup, its page's, is early.js's to swap.
    const waiting = this.#frame.querySelector('.bl-widget:not([data-live])');
    if (!this.#givenFrame && waiting && waiting.lang !== this.#wordsLang()) {
      try {
        insertMarkup(this.#frame, this.#wordsLang());
      } catch (error) {
        if (!error?.trustedTypes) throw error;
      }
    }
    this.#followedLang = langOf(document.documentElement);
    this.#stopFollowing = followPageLang(this.#onLangChange);
    // A trap leaves the shared module unusable: show an error instead of a frozen widget.
    this.#stopWatching = onWasmTrap((error) => {
      this.#generation += 1;
      this.#diagram = null; // not freed: the module can't be trusted any more
      this.#showFailure(error, this.#t('crashed'), error);
    });
    this.#watchNames = new MutationObserver((records) => {
      if (!this.#refused && records.some(({ attributeName }) => misspelledSetting(attributeName))) this.#render();
    });
    this.#watchNames.observe(this, { attributes: true });
    this.#render();
  }

  disconnectedCallback() {
    // Re-parenting (appendChild elsewhere: tabs, slides, frameworks) disconnects and connects in
    // one go; only an element still out of the document a microtask later is torn down.
    queueMicrotask(() => {
      if (this.isConnected || !this.#stopWatching) return;
      this.#stopFollowing();
      awaitingModule.delete(this.#retryLoad);
      this.#stopWatching();
      this.#stopWatching = null;
      this.#watchNames.disconnect();
      this.#watchNames = null;
      this.#generation += 1;
      this.#kept = null;
      this.#held = null;
      this.#staleWhileOut = false;
      this.#unmount();
    });
  }

  attributeChangedCallback(name, previous, value) {
    if (this.#refused || this.#upgrading) return;
    // Not in the page and not being moved (never connected, or torn down): the first render
    // reads every attribute.
    if (!this.isConnected && !this.#stopWatching) return;
    // The same text again is news only to a live diagram whose B, r, cost or clock the reader or a
    // script changed since: `capacity="5"` written again puts B back to 5 after the slider's 12.
    // Otherwise it is nothing (a host that writes back what bucketlab:config tells it must not
    // set off another one, nor end a past moment the reader is looking at).
    if (previous === value && !(this.#diagram && CARRIED[name] && this.#movedFrom(name))) return;
    if (!this.#diagram) {
      this.#forget(name);
      // Out of the page while being moved: the error box (or the load) reads the attributes
      // afresh when it is back (connectedCallback).
      if (!this.isConnected) return void (this.#staleWhileOut = true);
      return void this.#render();
    }
    // Out of the page while being moved: applies when it is back (connectedCallback takes
    // #held), or goes with the diagram if it is not.
    if (!this.isConnected) return void (this.#held ??= new Set()).add(name);
    // Writes that follow a refused one in the same task join it (see #change).
    if (this.#held) return void this.#held.add(name);
    this.#change(new Set([name]), { hold: true });
  }

  /** Whether the live diagram's setting `name` is no longer what its unchanged attribute says. */
  #movedFrom(name) {
    const diagram = this.#diagram;
    let settings;
    try {
      settings = readSettings(this, { mounted: true, liveCapacity: diagram.capacity });
    } catch {
      return true; // applied, the refusal is shown
    }
    if (name === 'capacity') return diagram.capacity !== settings.capacity;
    if (name === 'refill-rate') return diagram.refillRate !== settings.refillRate;
    if (name === 'cost') return diagram.cost !== (settings.cost ?? 1);
    // At a past moment the clock is the recording's: the attribute is about the live one.
    return !diagram.traveling && diagram.paused !== settings.paused;
  }

  /**
   * Applies the attributes `names` changed to the live diagram. A refusal with `hold` waits for the
   * end of the task: a framework lowering B and the cost together writes `capacity="2"`, then
   * `cost="1"`, and the first write alone (the old cost 8 against B = 2) is refused. The writes
   * that come meanwhile join it, and they all apply together if they then agree; else the
   * refusal is shown as it stands.
   */
  #change(names, { hold = false } = {}) {
    const diagram = this.#diagram;
    const has = (name) => names.has(name);
    let settings;
    try {
      // The live B, unless a change sets B from the attributes again.
      const fresh = has('capacity') || has('tokens');
      settings = readSettings(this, { mounted: !has('tokens'), liveCapacity: fresh ? undefined : diagram.capacity, costFits: has('cost') ? 'live' : 'either' });
    } catch (error) {
      if (hold) {
        this.#held = names;
        return void queueMicrotask(() => {
          // Out of the document (being moved), they wait for it to be connected again.
          if (!this.isConnected) return;
          const held = this.#held;
          this.#held = null;
          if (held && this.#diagram === diagram) this.#change(held);
        });
      }
      this.#keep(diagram, names);
      return void this.#fail(error);
    }
    let name = 'capacity';
    try {
      if (has('capacity') || has('refill-rate')) {
        // The attributes that changed; another setting stays as it is live (a slider or a script
        // may have moved it since).
        const capacity = has('capacity') ? settings.capacity : diagram.capacity;
        const refillRate = has('refill-rate') ? settings.refillRate : diagram.refillRate;
        // A host writing back what bucketlab:config told it (the live B and r already) changes
        // nothing: no second event, and a past moment the reader is looking at stays.
        const newCapacity = capacity !== diagram.capacity;
        if (newCapacity || refillRate !== diagram.refillRate) diagram.configure(capacity, refillRate);
        // A new B from the attribute: the attribute's cost applies again (checked against it).
        if (has('capacity') && newCapacity && settings.cost !== undefined) diagram.setCost(settings.cost);
      }
      if (has('cost')) {
        name = 'cost';
        diagram.setCost(settings.cost ?? 1);
      }
      if (has('controls')) {
        name = 'controls';
        diagram.showControls(settings.controls);
      }
      if (has('paused')) {
        // The attribute is about the live clock: a past moment the reader was looking at gives
        // way to it (pause() and resume() there would stop or play the recording, as the button).
        if (diagram.traveling) diagram.live();
        if (settings.paused) diagram.pause(); else diagram.resume();
      }
      // bucket-lab.css picks the theme's colours from the attribute itself: nothing to redraw.
      // Any other attribute (lang, tokens, view) mounts afresh, the live bucket carried but for
      // a new `tokens`.
      if ([...names].some((changed) => !APPLIED_LIVE.includes(changed))) this.#render({ keepLevel: !has('tokens') });
    } catch (error) {
      this.#keep(diagram, names);
      this.#fail(new AttributeError(name, error.message, error.localized));
    }
  }

  /** What attribute `name` now sets is no longer carried over; a new `tokens` starts afresh. */
  #forget(name) {
    if (name === 'tokens') this.#kept = null;
    else if (this.#kept && CARRIED[name]) this.#kept = { ...this.#kept, [CARRIED[name]]: undefined };
  }

  /** Keeps the live bucket for the next good value, but what the refused `names` set. */
  #keep(diagram, names) {
    const kept = carry(diagram);
    for (const name of names) if (CARRIED[name]) kept[CARRIED[name]] = undefined;
    this.#kept = names.has('tokens') ? null : kept;
  }

  /**
   * Mounts the diagram afresh from the attributes; `keepLevel` carries the live bucket over: its
   * level, a paused clock, and the B, r and cost the reader or a script set since.
   */
  async #render({ keepLevel = false } = {}) {
    const generation = ++this.#generation;
    let unstyled;
    awaitingModule.delete(this.#retryLoad);
    this.#showWaitingControls();
    try {
      [, unstyled] = await Promise.all([loadModule(), this.#stylesReady]);
    } catch (error) {
      if (generation !== this.#generation) return;
      const detail = String(error?.message ?? error);
      console.error(`<bucket-lab> could not load its WebAssembly module: ${detail}`);
      const said = wasmFailureSaid(error, (key, values) => this.#t(key, values), 'bucketlab_bg.wasm');
      // Stylesheets the same policy refused are said too: fixing one thing, the author learns all.
      const unstyledToo = await this.#stylesReady;
      if (generation !== this.#generation) return;
      this.#showFailure(error, this.#t('loadFailed'), [said, ...this.#unstyledSaid(unstyledToo)]);
      awaitingModule.add(this.#retryLoad);
      return;
    }
    if (generation !== this.#generation) return;
    // A re-render in another language keeps the bucket as the reader left it (its history starts
    // anew: the timeline is the new language's), and so does the first one after a refused value.
    // Taken now, not before the await: writes made meanwhile (`capacity` after `lang` in one task,
    // a script's configure or send) went to the live diagram and are carried too.
    const live = keepLevel ? this.#diagram : null;
    const carried = live ? carry(live) : this.#kept ?? {};
    if (unstyled.length > 0) {
      this.#showFailure(new Error(`could not load its stylesheets: ${fileNames(unstyled)}`), this.#t('loadFailed'), this.#unstyledSaid(unstyled));
      return;
    }
    this.#unmount();
    let settings;
    try {
      // A level carried over is the bucket's own: `tokens` is not held to a B lowered since.
      settings = readSettings(this, { mounted: carried.level !== undefined, liveCapacity: carried.capacity });
    } catch (error) {
      if (carried.level !== undefined) this.#kept = carried;
      return void this.#fail(error);
    }
    // refuseSettings showed its refusals already, and the attributes add none: now the page hears
    // of them, once, with everything that is wrong.
    if (this.#refused) return void this.#fail(new AttributeErrors([]));
    const frame = this.#frame;
    for (const name of [...frame.getAttributeNames()]) if (name.startsWith('data-')) frame.removeAttribute(name);
    const capacity = carried.capacity ?? settings.capacity;
    frame.dataset.capacity = capacity;
    frame.dataset.refillRate = carried.refillRate ?? settings.refillRate;
    frame.dataset.lang = settings.lang;
    const tokens = carried.level === undefined ? settings.tokens : Math.min(carried.level, capacity);
    if (tokens !== undefined) frame.dataset.tokens = tokens;
    if (settings.paused || carried.paused) frame.dataset.paused = '';
    // The attribute's cost was checked against the attribute's B, not a B carried over. Set
    // before the clicks queued while the module loaded are decided: each takes this cost.
    const cost = carried.cost ?? (settings.cost <= capacity ? settings.cost : undefined);
    // The attributes were checked above, so mounting and the cost can't fail on them; a page's
    // Trusted Types can refuse the markup, which mountDiagram shows in the frame.
    try {
      this.#diagram = this.#owned(mountDiagram(frame, undefined, (diagram) => cost !== undefined && diagram.setCost(cost)));
      this.#freedByHost = false;
      this.#kept = null;
    } catch (error) {
      return void this.#report(error);
    }
    try {
      this.#diagram.showControls(settings.controls);
    } catch (error) {
      return void this.#fail(new AttributeError('controls', error.message, error.localized));
    }
    this.#error = null;
    this.dispatchEvent(new CustomEvent('bucketlab:ready', { bubbles: true, composed: true, detail: { diagram: this.#diagram } }));
    // Mounted afresh with another B or r than the page last heard of (a refused capacity, then a
    // good one): it hears of the change as it would of a slider's.
    const { capacity: b, refillRate: r } = this.#diagram;
    const told = this.#told;
    this.#told = { capacity: b, refillRate: r };
    if (told && (told.capacity !== b || told.refillRate !== r)) {
      this.dispatchEvent(new CustomEvent('bucketlab:config', { bubbles: true, composed: true, detail: { capacity: b, refillRate: r } }));
    }
  }

  /**
   * Shows on the markup that waits for the module the groups `controls` names, as the diagram's
   * showControls does once mounted: the same `data-shown`, which widget.css reads, so the element
   * has its size from its first paint rather than shrinking when the module arrives. A refused
   * list shows every group, until its error replaces the markup.
   */
  #showWaitingControls() {
    const waiting = this.#frame.querySelector('.bl-widget:not([data-live])');
    if (!waiting) return;
    const { groups } = parseControls(this.getAttribute('controls') ?? 'all');
    if (groups) waiting.dataset.shown = groups.join(' ');
    else delete waiting.dataset.shown;
  }

  /**
   * Shows why the element can't render: refuseSettings' refusals, then every invalid setting
   * (refuseSettings' and the attributes' `error`) under one title; says each invalid attribute
   * once on the console.
   */
  #fail(error, { report = true } = {}) {
    this.#unmount();
    if (!(error instanceof AttributeError || error instanceof AttributeErrors)) throw error;
    const errors = error.errors ?? [error];
    const [source, title] = this.addressSettings ? ['bucketlab embed: invalid setting', 'invalidSetting'] : ['<bucket-lab> invalid attribute', 'invalidAttribute'];
    for (const { attribute, message } of errors) {
      console.error(`${source} ${attribute}="${cut(this.getAttribute(attribute))}": ${message}`);
    }
    const invalid = [...this.#invalid, ...errors];
    const name = invalid.map((e) => e.attribute).join(', ');
    const groups = [...this.#refusals, ...(invalid.length > 0 ? [[this.#t(title, { name, count: invalid.length }), ...invalid]] : [])];
    const [[heading, ...details], ...others] = groups;
    // What a script hears: the invalid settings, or else the refusals' titles (an unknown setting).
    const reported = invalid.length > 0 || this.#refusals.length === 0 ? new AttributeErrors(invalid)
      : Object.assign(new Error(this.#refusals.map(([refusal]) => refusal).join('; ')), { errors: [] });
    showError(this.#frame, heading, [...details, ...others.flat()], this.#wordsLang());
    if (report) this.#report(reported);
    else this.#error = reported;
  }

  /**
   * For the page that configures this element from elsewhere (embed.html's address): what that
   * source gets wrong, shown in the error box instead of the diagram with whatever the attributes
   * get wrong too, so every wrong setting is named at once. `refusals` are other kinds of mistake,
   * each [title, ...details] (an unknown setting); `invalid` are settings refused before they
   * became attributes, each { attribute, message, localized }, named under the same title as
   * the attributes' errors. The page says them on the console itself; nothing renders after this.
   */
  refuseSettings(refusals, invalid = []) {
    this.#refused = true;
    this.#refusals = refusals;
    this.#invalid = invalid;
    this.#generation += 1;
    // Shown at once; the attributes' errors join them once the module can check the numbers, and
    // then the page hears of them all in one bucketlab:error (or of the module's failure to load).
    this.#fail(new AttributeErrors([]), { report: false });
    if (this.isConnected) this.#render();
  }

  /** The element's own words: in its `lang` if that is valid, else in the page's. */
  #t(key, values) {
    return this.#translator()(key, values);
  }

  /** The language #t's words are in. */
  #wordsLang() {
    return this.#translator().lang;
  }

  #translator() {
    return translator(tables, languageOf(this.getAttribute('lang')) ?? langOf(document.documentElement));
  }

  /** Releases the diagram: its frame loop, listeners, observer and wasm memory (freeing empties
   * the frame; the next mount puts the markup back). */
  #unmount() {
    this.#diagram?.free();
    this.#diagram = null;
    // The element's own free, not a script's: nothing to mount again on a move.
    this.#freedByHost = false;
  }

  /**
   * `diagram`, whose `free()` (and `using`'s dispose) also lets the element go of it: a host that
   * frees the handle then reads `diagram` as null, not a handle that throws, and the element
   * mounts afresh when an attribute changes or it is connected again.
   */
  #owned(diagram) {
    const free = diagram.free;
    diagram.free = () => {
      if (this.#diagram === diagram) {
        this.#diagram = null;
        this.#freedByHost = true;
      }
      free.call(diagram);
    };
    if (Symbol.dispose) diagram[Symbol.dispose] = diagram.free;
    return diagram;
  }
}

// Each attribute is a property too, reflected (`lang` is HTMLElement's own): `el.capacity = 10`
// writes capacity="10", `el.refillRate`, `el.paused = true` (a boolean, read as the attribute
// means it: "false" runs), and null or undefined removes the attribute. A framework that binds
// properties (Lit's `.capacity=${10}`, React 19 and Vue where the name is one) reaches the same
// settings, checked the same way, rather than setting a field the element never reads.
for (const [property, name] of Object.entries(REFLECTED)) {
  Object.defineProperty(BucketLabElement.prototype, property, {
    configurable: true,
    get() {
      const value = this.getAttribute(name);
      return name === 'paused' ? value !== null && value !== 'false' : value;
    },
    set(value) {
      if (name === 'paused' ? !value || value === 'false' : value === null || value === undefined) this.removeAttribute(name);
      else this.setAttribute(name, name === 'paused' ? '' : String(value));
    },
  });
}

if (globalThis.customElements && !customElements.get('bucket-lab')) customElements.define('bucket-lab', BucketLabElement);
