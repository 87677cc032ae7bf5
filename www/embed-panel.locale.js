// The "Embed this" panel's words, one table per language with the same keys. `{b}` and `{r}`
// are the diagram's capacity and refill rate.
export const STRINGS = {
  'pt-BR': {
    summary: 'Incorporar este diagrama',
    intro: 'Leve este diagrama para a sua página ou curso com a configuração atual (B = {b}, r = {r} tokens/s). Os trechos mudam junto com os controles.',
    elementTitle: 'Elemento <bucket-lab>',
    elementHint: 'Para páginas em que você pode incluir um script: o diagrama fica isolado do CSS da página, e cada atributo pode mudar depois.',
    iframeTitle: 'iframe',
    iframeHint: 'Para plataformas que só aceitam iframes. O script opcional ajusta a altura do iframe ao conteúdo.',
    copy: 'Copiar',
    copyElement: 'Copiar o trecho do elemento',
    copyIframe: 'Copiar o trecho do iframe',
    copied: 'Trecho copiado.',
    copyFailed: 'Não foi possível copiar automaticamente: o trecho ficou selecionado, use Ctrl+C (⌘C no Mac).',
    frameTitle: 'Diagrama interativo do balde de tokens',
  },
  en: {
    summary: 'Embed this diagram',
    intro: 'Take this diagram to your own page or course with its current configuration (B = {b}, r = {r} tokens/s). The snippets follow the controls.',
    elementTitle: 'The <bucket-lab> element',
    elementHint: 'For pages where you can add a script: the diagram is shielded from the page’s CSS, and every attribute can change later.',
    iframeTitle: 'iframe',
    iframeHint: 'For platforms that only accept iframes. The optional script fits the iframe’s height to its content.',
    copy: 'Copy',
    copyElement: 'Copy the element snippet',
    copyIframe: 'Copy the iframe snippet',
    copied: 'Snippet copied.',
    copyFailed: 'Could not copy automatically: the snippet is selected, press Ctrl+C (⌘C on a Mac).',
    frameTitle: 'Interactive token-bucket diagram',
  },
};

/** The table for a language tag: English for `en…`, Brazilian Portuguese otherwise. */
export function stringsFor(lang) {
  return /^en\b/i.test(lang ?? '') ? STRINGS.en : STRINGS['pt-BR'];
}
