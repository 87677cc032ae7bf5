// Language for the lab: the page's <html lang> at mount, then whatever `bucketlab:langchange` says.
import ptBR from './locale.pt-BR.js';
import en from './locale.en.js';

export const LOCALES = { 'pt-BR': ptBR, en };

/** 'pt-BR' or 'en' from a lang attribute (pt, pt-BR → pt-BR; anything else → en). */
export function pickLang(lang) {
  return /^pt\b/i.test(lang ?? '') ? 'pt-BR' : 'en';
}

/** A translator for `lang`: t('quiz.score', { correct: 1 }), numbers formatted for the language. */
export function translator(lang) {
  const table = LOCALES[lang];
  const numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 3 });
  const t = (key, vars = {}) => {
    const value = key.split('.').reduce((node, part) => node?.[part], table);
    if (typeof value !== 'string') throw new Error(`lab locale ${lang}: no text for ${key}`);
    return value.replace(/\{(\w+)\}/g, (_, name) => {
      const v = vars[name];
      return typeof v === 'number' ? numbers.format(v) : String(v ?? `{${name}}`);
    });
  };
  t.raw = (key) => key.split('.').reduce((node, part) => node?.[part], table);
  t.number = (value, digits = 3) =>
    new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(value);
  t.lang = lang;
  return t;
}
