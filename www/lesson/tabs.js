// WAI-ARIA tabs over sections that, without JavaScript, read as stacked sections: roving tabindex,
// Left/Right (wrapping), Home/End, automatic activation, aria-selected and aria-controls.
import { fragmentId } from './anchors.js';

/** Turns `root` ([data-tabs]) into tabs; calls `onChange(name)` when the selected tab changes. */
export function setUpTabs(root, { initial, onChange = () => {} } = {}) {
  const list = root.querySelector('[role=tablist]');
  const tabs = [...list.querySelectorAll('[role=tab]')];
  const panelOf = (tab) => document.getElementById(tab.getAttribute('aria-controls'));
  for (const tab of tabs) {
    const panel = panelOf(tab);
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', tab.id);
    panel.tabIndex = 0;
  }
  root.classList.add('tabs-on');
  list.hidden = false;

  function select(tab, { focus = false, notify = true } = {}) {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      panelOf(other).hidden = !selected;
    }
    if (focus) tab.focus();
    if (notify) onChange(tab.dataset.tab);
  }

  list.addEventListener('click', (event) => {
    const tab = event.target.closest('[role=tab]');
    if (tab) select(tab);
  });
  list.addEventListener('keydown', (event) => {
    const at = tabs.indexOf(document.activeElement);
    if (at < 0) return;
    const next = {
      ArrowRight: (at + 1) % tabs.length,
      ArrowLeft: (at - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(tabs[next], { focus: true });
  });

  const byName = (name) => tabs.find((tab) => tab.dataset.tab === name);
  const byPanelId = (id) => tabs.find((tab) => tab.getAttribute('aria-controls') === id);
  // A link to a panel (the table of contents) opens its tab, then goes to it: the browser's own
  // scroll to the fragment may have run while the panel was still hidden, and gone nowhere.
  const followHash = () => {
    const tab = byPanelId(fragmentId(location.hash));
    if (!tab) return;
    select(tab);
    panelOf(tab).scrollIntoView({ block: 'start' });
  };
  window.addEventListener('hashchange', followHash);
  select(byName(initial) ?? byPanelId(location.hash.slice(1)) ?? tabs[0], { notify: false });

  return {
    /** The selected tab's name. */
    get selected() {
      return tabs.find((tab) => tab.getAttribute('aria-selected') === 'true').dataset.tab;
    },
    /** Selects tab `name` (no-op for an unknown name). */
    select(name) {
      const tab = byName(name);
      if (tab) select(tab);
    },
  };
}
