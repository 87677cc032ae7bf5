// The words of the <bucket-lab> element itself (the diagram's own words live in the wasm view),
// one table per language with the same keys. `{name}` marks are filled in by the element.
export const STRINGS = {
  'pt-BR': {
    invalidAttribute: 'Atributo inválido: {name}',
    loadFailed: 'Não foi possível carregar o diagrama',
    crashed: 'O diagrama parou por um erro interno; recarregue a página',
    frameTitle: 'Diagrama interativo do balde de tokens',
  },
  en: {
    invalidAttribute: 'Invalid attribute: {name}',
    loadFailed: 'The diagram could not be loaded',
    crashed: 'The diagram stopped after an internal error; reload the page',
    frameTitle: 'Interactive token-bucket diagram',
  },
};

/** The table for a language tag: English for `en…`, Brazilian Portuguese otherwise. */
export function stringsFor(lang) {
  return /^en\b/i.test(lang ?? '') ? STRINGS.en : STRINGS['pt-BR'];
}
