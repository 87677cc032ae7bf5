// "Embed this": under the lesson's diagram, the <bucket-lab> and iframe snippets for the
// diagram's current configuration, with copy buttons. The snippets point at this site (wherever
// it is hosted), read B, r and the cost from the live diagram (window.bucketlab.diagram, set by
// main.js), and follow the page language (the lesson's bucketlab:langchange event). The page
// loads it when the diagram's section comes near (panel-loader.js), with its stylesheet.
import tables from '../i18n/locales/embed.js';
import { langOf, pickLang, translator } from '../i18n/translate.js';

/** The public URLs the snippets give, wherever this site is hosted (they sit at its root). */
const PUBLIC = {
  element: new URL('../bucket-lab.js', import.meta.url),
  iframe: new URL('../embed.html', import.meta.url),
  resizer: new URL('../embed-resizer.js', import.meta.url),
};
/** The diagram's configuration now, or the mount's attributes before it is mounted. */
function configuration() {
  const diagram = window.bucketlab?.diagram;
  if (diagram) return { capacity: diagram.capacity, refillRate: diagram.refillRate, cost: diagram.cost };
  const root = document.getElementById('bucket-widget');
  return { capacity: Number(root?.dataset.capacity ?? 5), refillRate: Number(root?.dataset.refillRate ?? 1), cost: 1 };
}

/**
 * The iframe's height before (or without) embed-resizer.js, which hosts that take only iframes
 * often can't add: the widget with every control, as the snippets give it, fits at the usual
 * widths of a course's column, 480 to 800 px (tests/e2e/embed-panel.test.mjs measures it); wider,
 * some space is left below it; narrower, it scrolls inside the frame.
 */
const FRAME_HEIGHT = 1480;

/** Escapes text for an HTML attribute value. */
const attr = (value) => String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
/** Escapes text for HTML content. */
const text = (value) => String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * The two snippets for a configuration and a language. The element's holds a fallback, a link to
 * the same diagram on its own page: it shows while the script loads, and for good where it never
 * runs (a site without CORS, a blocked script, a page opened from a file), instead of nothing.
 */
export function snippets({ capacity, refillRate, cost }, lang, frameTitle, fallback) {
  const settings = [['capacity', capacity], ['refill-rate', refillRate]];
  if (Number.isInteger(cost) && cost !== 1) settings.push(['cost', cost]);
  settings.push(['lang', lang]);
  const attributes = settings.map(([name, value]) => `${name}="${attr(value)}"`).join(' ');
  const query = new URLSearchParams(settings.map(([name, value]) => [name, String(value)])).toString();
  const page = `${PUBLIC.iframe}?${query}`;
  return {
    element: `<script type="module" src="${attr(PUBLIC.element)}"></script>\n<bucket-lab ${attributes}><a href="${attr(page)}">${text(fallback)}</a></bucket-lab>`,
    iframe: `<iframe src="${attr(page)}" title="${attr(frameTitle)}" width="100%" height="${FRAME_HEIGHT}" loading="lazy"></iframe>\n<script src="${attr(PUBLIC.resizer)}" defer></script>`,
  };
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

class EmbedPanel {
  constructor(root) {
    this.root = root;
    this.t = translator(tables, langOf());
    this.build();
    // The snippets follow the controls while the panel is open (events bubble out of the widget).
    const widget = document.getElementById('bucket-widget');
    // bucketlab:config, where the widget dispatches it, also covers changes made from scripts.
    for (const type of ['input', 'change', 'click', 'bucketlab:config']) widget?.addEventListener(type, () => this.refresh());
    this.details.addEventListener('toggle', () => this.refresh());
    document.addEventListener('bucketlab:langchange', (event) => {
      this.t = translator(tables, pickLang(event.detail?.lang ?? document.documentElement.lang));
      this.build();
    });
  }

  /** (Re)builds the panel in the current language, keeping it open if it was. */
  build() {
    const { t } = this;
    const open = this.details?.open ?? false;
    this.details = element('details', 'embed-panel');
    this.details.open = open;
    this.details.append(element('summary', '', t('summary')));
    const body = element('div', 'details-body');
    this.intro = element('p');
    body.append(this.intro);
    this.codes = {};
    for (const [kind, title, hint, label] of [
      ['element', t('elementTitle'), t('elementHint'), t('copyElement')],
      ['iframe', t('iframeTitle'), t('iframeHint'), t('copyIframe')],
    ]) {
      const head = element('div', 'embed-snippet-head');
      const heading = element('h3', '', title);
      const copy = element('button', 'embed-copy', t('copy'));
      copy.type = 'button';
      copy.setAttribute('aria-label', label);
      copy.dataset.snippet = kind;
      copy.addEventListener('click', () => this.copy(kind));
      head.append(heading, copy);
      const pre = element('pre');
      // Markup to copy: a browser's page translation must leave it as it is.
      pre.translate = false;
      this.codes[kind] = element('code');
      pre.append(this.codes[kind]);
      body.append(head, element('p', '', hint), pre);
    }
    this.status = element('p', 'embed-status');
    this.status.setAttribute('role', 'status');
    body.append(this.status);
    this.details.append(body);
    this.root.replaceChildren(this.details);
    this.refresh();
  }

  refresh() {
    const { t } = this;
    const config = configuration();
    // Every digit of the configuration, ungrouped as the snippet under it (2,5 in Portuguese): a
    // sentence to read, not a field to type back (no 1,2340).
    const exact = (value) => t.number(value, { digits: 20, group: false });
    this.intro.textContent = t('intro', { b: exact(config.capacity), r: exact(config.refillRate) });
    const texts = snippets(config, t.lang, t('frameTitle'), t('fallback'));
    for (const kind of ['element', 'iframe']) {
      if (this.codes[kind].textContent !== texts[kind]) this.codes[kind].textContent = texts[kind];
    }
  }

  async copy(kind) {
    const { t } = this;
    this.refresh();
    const code = this.codes[kind];
    try {
      await navigator.clipboard.writeText(code.textContent);
      this.status.textContent = t('copied');
    } catch {
      // No clipboard access (an insecure page, a denied permission): select it for the reader.
      getSelection().selectAllChildren(code);
      this.status.textContent = t('copyFailed');
    }
  }
}

/** Builds the panel in `root` (the lesson's #embed-panel). */
export function startEmbedPanel(root) {
  return new EmbedPanel(root);
}
