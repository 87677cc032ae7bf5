// Which page to show: ?lang= or the permalink's lang= first, then the reader's remembered choice.
// Each language is its own page (built by scripts/pages.mjs), so switching is a link that also
// works without JavaScript; with it, the link carries the current state along.
import { LANGS } from '../i18n/translate.js';
import { pageLang } from './strings.js';

const KEY = 'bucketlab:lang';
const PAGE = { 'pt-BR': './index.html', en: './en.html' };

function remembered() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function remember(lang) {
  try {
    localStorage.setItem(KEY, lang);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
}

/**
 * Goes to the other language's page when asked for (`explicit`: from ?lang or the permalink) or
 * remembered; returns true when the page is being replaced.
 */
export function switchPageIfAsked(explicit) {
  const wanted = LANGS.includes(explicit) ? explicit : null;
  if (wanted) remember(wanted);
  const lang = wanted ?? (LANGS.includes(remembered()) ? remembered() : null);
  if (!lang || lang === pageLang()) return false;
  const target = new URL(PAGE[lang], location.href);
  target.search = location.search;
  target.hash = location.hash;
  location.replace(target);
  return true;
}

/** The language links remember the choice and carry `stateHash()` (the permalink) along. */
export function wireLanguageLinks(stateHash) {
  for (const link of document.querySelectorAll('.lang-switch a[data-lang]')) {
    link.addEventListener('click', () => {
      remember(link.dataset.lang);
      const target = new URL(PAGE[link.dataset.lang], location.href);
      const params = new URLSearchParams(location.search);
      params.delete('lang');
      target.search = params.toString();
      target.hash = stateHash(link.dataset.lang);
      link.href = target.href;
    });
  }
}
