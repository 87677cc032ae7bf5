// The words of the <bucket-lab> element itself (the diagram's own words live in the wasm view),
// one table per language with the same keys. `{name}` marks are filled in by the element.
export const STRINGS = {
  'pt-BR': {
    invalidAttribute: 'Atributo inválido: {name}',
    loadFailed: 'Não foi possível carregar o diagrama',
    frameTitle: 'Diagrama interativo do balde de tokens',
  },
  en: {
    invalidAttribute: 'Invalid attribute: {name}',
    loadFailed: 'The diagram could not be loaded',
    frameTitle: 'Interactive token-bucket diagram',
  },
};

/** The table for a language tag: English for `en…`, Brazilian Portuguese otherwise. */
export function stringsFor(lang) {
  return /^en\b/i.test(lang ?? '') ? STRINGS.en : STRINGS['pt-BR'];
}
