// Which page to show: ?lang= or the permalink's lang= first, then the reader's remembered choice.
// Each language is its own page (built by scripts/pages.mjs), so switching is a link that also
// works without JavaScript; with it, the link carries the current state along.
import { LANGS } from '../i18n/translate.js';
import { pageLang } from './strings.js';

/** Each language's page, in the lesson's folder. */
export const PAGE = { 'pt-BR': './index.html', en: './en.html' };

/**
 * Where the choice is kept: one per folder the lesson is served from. An LMS serves every course's
 * SCORM package from one origin, each in its own folder, and each package opens in its own
 * language: a learner's switch in one course must not open another course in the other language.
 */
function key() {
  return `bucketlab:lang:${new URL('.', location.href).pathname}`;
}

function remembered() {
  try {
    // A choice kept before it was kept per folder (one key for the whole origin): moved to this
    // folder's key once, so a returning reader keeps it.
    const old = localStorage.getItem('bucketlab:lang');
    if (old !== null) {
      localStorage.removeItem('bucketlab:lang');
      if (localStorage.getItem(key()) === null) localStorage.setItem(key(), old);
    }
    return localStorage.getItem(key());
  } catch {
    return null;
  }
}

function remember(lang) {
  try {
    localStorage.setItem(key(), lang);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
}

/**
 * Goes to the other language's page when asked for (`explicit`: from ?lang or the permalink) or
 * remembered: by the course (`course`: the language an LMS's resumed sitting was left in, which
 * may have been chosen on another computer), else by this browser; returns true when the page is
 * being replaced.
 */
export function switchPageIfAsked(explicit, course = null) {
  const wanted = LANGS.includes(explicit) ? explicit : null;
  // A reload, or Back and Forward, return to this page as it was: a choice made since in another
  // tab (or on the other page, which Back leaves) does not send the reader away from it. Nor is
  // the address's language, which the page writes there itself as the reader acts, a choice
  // to remember then: only a link opened afresh asks for one.
  const returning = ['reload', 'back_forward'].includes(performance.getEntriesByType?.('navigation')[0]?.type);
  if (wanted && !returning) remember(wanted);
  const kept = wanted || returning ? null : LANGS.includes(course) ? course : remembered();
  const lang = wanted ?? (LANGS.includes(kept) ? kept : null);
  if (!lang || lang === pageLang()) return false;
  const target = new URL(PAGE[lang], location.href);
  target.search = location.search;
  target.hash = location.hash;
  // The other page carries a course platform's session on (lms/lesson.js keeps it open).
  document.dispatchEvent(new Event('bucketlab:to-other-language'));
  location.replace(target);
  return true;
}

/** The sections a reader's place is one of (same ids on both pages). */
const SECTIONS = 'main section[id]:not(.tabpanel)';

/** The section whose id is `id` when it is one of SECTIONS (a place handed back from elsewhere), else null. */
export function readingSection(id) {
  const section = typeof id === 'string' && id ? document.getElementById(id) : null;
  return section?.matches(SECTIONS) ? section : null;
}

/** The last section begun above the window's upper third; null above them. */
function readingAt() {
  let at = null;
  for (const section of document.querySelectorAll(SECTIONS)) {
    if (section.getBoundingClientRect().top <= innerHeight / 3) at = section.id;
  }
  return at;
}

/** How long the window rests on a section before it counts as the reader's place, in ms. */
const DWELL_MS = 1000;

/**
 * The section the reader was last reading, for a switch in view: the switch is in the page's
 * header, and reaching it scrolls to the top (by finger, wheel or Tab), so where the window is at
 * the click says nothing. Kept as the section the window last rested on for `DWELL_MS` with the
 * header out of view (passing sections on the way up don't count); shown as the switch's
 * `data-reading-at` (none: the top).
 */
function followReading(nav) {
  let inView = true;
  let timer;
  const rest = () => {
    clearTimeout(timer);
    if (inView) return;
    timer = setTimeout(() => {
      const at = readingAt();
      if (at) nav.dataset.readingAt = at;
      else delete nav.dataset.readingAt;
    }, DWELL_MS);
  };
  new IntersectionObserver((entries) => {
    inView = entries.at(-1).isIntersecting;
    rest();
  }).observe(nav);
  addEventListener('scroll', rest, { passive: true });
  // At the click the switch's place is measured, not taken from the observer, whose word on a
  // scroll comes a frame later: a script's scroll and click in one task must see the scroll.
  return () => {
    const { top, bottom } = nav.getBoundingClientRect();
    return bottom > 0 && top < innerHeight ? nav.dataset.readingAt ?? null : readingAt();
  };
}

let place = () => null;

/** The id of the section the reader is in, as a language link hands it over; null at the top or before the page has started. */
export const readingPlace = () => place();

/**
 * The language links remember the choice and carry `stateHash()` (the permalink) along; what a
 * link can't hold goes in session storage for `takeHandoff()` there: the section the reader was in
 * (`at`), which disclosures are open (`open`) and `handoff()` (the diagrams' recordings).
 */
export function wireLanguageLinks(stateHash, handoff) {
  const nav = document.querySelector('.lang-switch');
  place = nav ? followReading(nav) : readingAt;
  for (const link of document.querySelectorAll('.lang-switch a[data-lang]')) {
    link.addEventListener('click', () => {
      remember(link.dataset.lang);
      const target = new URL(PAGE[link.dataset.lang], location.href);
      const params = new URLSearchParams(location.search);
      params.delete('lang');
      target.search = params.toString();
      target.hash = stateHash(link.dataset.lang);
      link.href = target.href;
      try {
        sessionStorage.setItem(key(), JSON.stringify({ href: link.href, at: place(), open: disclosures(), ...handoff() }));
      } catch {
        // no storage: the other page opens at its top
      }
    });
  }
}

/** Which of the page's disclosures (the FAQ's answers, the console block: same ids on both pages) are open. */
const disclosures = () => Object.fromEntries([...document.querySelectorAll('main details[id]')].map((d) => [d.id, d.open]));

/** Opens and closes the disclosures as the reader left them on the other page (`handed.open`). */
export function openAsHanded(handed) {
  for (const [id, open] of Object.entries(handed?.open ?? {})) {
    const details = document.getElementById(id);
    if (details instanceof HTMLDetailsElement) details.open = open === true;
  }
}

/** On the page a language link led to, what it handed over (read once: a reload is no switch); else null. */
export function takeHandoff() {
  try {
    const handed = JSON.parse(sessionStorage.getItem(key()));
    sessionStorage.removeItem(key());
    return handed?.href === location.href ? handed : null;
  } catch {
    return null;
  }
}
