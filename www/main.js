// The lesson page: picks the language's page, restores a permalink, mounts the diagram (wasm) and
// wires the code tabs, the tech toggle, the copy buttons, the live policy and the live response.
// Configuration comes from the mount element's data-* attributes; the URL may override them
// (?capacity=20&refill-rate=2&tokens=0, or the permalink #b=20&r=2&c=1&lang=en&tab=config&code=go).
import init, { mountDiagram, TokenBucket } from './pkg/bucketlab.js';
import { setUpCopyButtons, wireCopyButton } from './lesson/copy.js';
import { switchPageIfAsked, wireLanguageLinks } from './lesson/language.js';
import { isPermalink, permalinkHash, readPermalink } from './lesson/permalink.js';
import { setUpPolicyEditor } from './lesson/policy.js';
import { loadStrings, pageLang, t } from './lesson/strings.js';
import { setUpTabs } from './lesson/tabs.js';
import { setUpTechToggle } from './lesson/tech.js';
import { followDecisions } from './lesson/usage.js';
import { onWasmTrap } from './trap.js';

const root = document.getElementById('bucket-widget');
const params = new URLSearchParams(location.search);
const link = readPermalink(location.hash);
const explicitLang = params.get('lang') ?? link.values.lang;

// Console experiments: `new bucketlab.TokenBucket({ capacity: 10, refillRate: 5 })`.
window.bucketlab = { TokenBucket, diagram: null };

if (!switchPageIfAsked(explicitLang)) start();

async function start() {
  const strings = loadStrings();
  const rejected = [...link.rejected];
  if (params.has('lang') && !['pt-BR', 'en'].includes(params.get('lang'))) {
    rejected.push({ name: 'lang', value: params.get('lang').slice(0, 40), allowed: 'allowed_lang' });
  }

  const diagram = () => window.bucketlab.diagram;
  const state = () => {
    const handle = diagram();
    const cost = root.querySelector('.bl-cost');
    return {
      b: handle?.capacity,
      r: handle?.refillRate,
      c: cost ? Number(cost.value) || undefined : undefined,
      lang: pageLang(),
      tab: tabs.selected,
      code: tech.selected,
    };
  };
  // Once the reader changes something, the address bar holds the permalink of what they see.
  const updateHash = () => {
    if (!diagram()) return;
    history.replaceState(null, '', `${location.pathname}${location.search}${permalinkHash(state())}`);
  };

  const policy = setUpPolicyEditor({
    panel: document.getElementById('codigo-configuracao'),
    widgetRoot: root,
    diagram,
  });
  const tabs = setUpTabs(document.querySelector('[data-tabs]'), {
    initial: link.values.tab,
    onChange: (tab) => {
      if (tab === 'config') policy.start();
      updateHash();
    },
  });
  const tech = setUpTechToggle(document.querySelector('.tech-toggle'), {
    initial: link.values.code,
    onChange: updateHash,
  });
  setUpCopyButtons();
  wireLanguageLinks((lang) => (diagram() ? permalinkHash({ ...state(), lang }) : ''));
  followDecisions(root);

  const permalink = document.querySelector('.permalink');
  const permalinkUrl = () => `${location.origin}${location.pathname}${location.search}${permalinkHash(state())}`;
  wireCopyButton(permalink.querySelector('button'), permalinkUrl);
  permalink.querySelector('a').addEventListener('click', (event) => {
    event.currentTarget.href = permalinkUrl();
  });

  for (const name of ['capacity', 'refill-rate', 'tokens']) {
    if (params.has(name)) root.setAttribute(`data-${name}`, params.get(name));
  }
  try {
    await init();
    // B and r from the permalink are checked by the core before the diagram sees them.
    if (link.values.b !== undefined || link.values.r !== undefined) {
      const b = link.values.b ?? Number(root.dataset.capacity);
      const r = link.values.r ?? Number(root.dataset.refillRate);
      try {
        new TokenBucket({ capacity: b, refillRate: r }).free();
        root.dataset.capacity = String(b);
        root.dataset.refillRate = String(r);
        root.removeAttribute('data-tokens');
      } catch {
        if (link.values.b !== undefined) rejected.push({ name: 'b', value: String(b), allowed: 'allowed_b' });
        if (link.values.r !== undefined) rejected.push({ name: 'r', value: String(r), allowed: 'allowed_r' });
      }
    }
    window.bucketlab.diagram = mountDiagram(root);
    // A trap leaves the module unusable: show an error instead of a frozen widget.
    onWasmTrap(async (error) => {
      window.bucketlab.diagram = null;
      await strings;
      showError(error, t('widget_crashed'));
    });
    const cost = root.querySelector('.bl-cost');
    if (link.values.c !== undefined && cost) {
      if (link.values.c <= Math.max(1, Math.floor(diagram().capacity))) cost.value = String(link.values.c);
      else rejected.push({ name: 'c', value: String(link.values.c), allowed: 'allowed_c' });
    }
    permalink.hidden = false;
    root.addEventListener('bucketlab:config', updateHash);
    root.addEventListener('change', updateHash);
    if (tabs.selected === 'config') policy.start();
    performance.mark('bucketlab:interactive');
  } catch (error) {
    // A configuration error is already shown inside the widget by mountDiagram; anything else
    // (the module failed to load) is shown here so the widget never stays blank.
    if (!root.querySelector('.bl-error')) showError(error);
  }

  await strings;
  if (rejected.length) {
    const notice = document.getElementById('page-notice');
    const items = rejected.map(({ name, value, allowed }) => t('notice_item', { name, value, allowed: t(allowed) }));
    notice.textContent = t('notice_ignored', { list: items.join('; ') });
    notice.hidden = false;
  }
  if (isPermalink(location.hash) && link.values.tab) {
    document.getElementById('codigo').scrollIntoView();
  }
}

/** Replaces the widget with an alert: `title` (if any) above the error's own message. */
function showError(error, title) {
  const box = document.createElement('div');
  box.className = 'bl-error';
  box.setAttribute('role', 'alert');
  if (title) {
    const heading = document.createElement('p');
    heading.className = 'bl-error-title';
    heading.textContent = title;
    box.append(heading);
  }
  const detail = document.createElement('p');
  detail.className = 'bl-error-detail';
  detail.textContent = String(error && error.message ? error.message : error);
  box.append(detail);
  root.replaceChildren(box);
}
