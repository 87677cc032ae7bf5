// A scroll box of the page (a formula, the state kept for one key, a listing, a table) takes a Tab
// stop, as a named region, so that a keyboard can scroll it: the page's markup has them so, and
// without JavaScript every one stays reachable. Here each keeps that stop, its role and its name
// only while its content overflows it: at 1280 px the formulas and tables fit, and a stop with
// nothing to scroll is one more key press for nothing (and one more landmark to hear).

/** The attributes that make a box a named region; taken away with its Tab stop, given back with it. */
const REGION = ['role', 'aria-label', 'aria-labelledby'];

/** Makes each of `boxes` focusable only while it has something to scroll, as its size and content change. */
export function focusableWhileScrolling(boxes) {
  const region = new Map(boxes.map((box) => [box, REGION.filter((a) => box.hasAttribute(a)).map((a) => [a, box.getAttribute(a)])]));
  const update = (box) => {
    // Hidden (a tab not chosen, a closed <details>): nothing to measure; decided once it shows.
    if (!box.getClientRects().length) return;
    const scrolls = box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight;
    if (scrolls === box.hasAttribute('tabindex')) return;
    if (scrolls) {
      box.tabIndex = 0;
      for (const [name, value] of region.get(box)) box.setAttribute(name, value);
    } else if (box !== document.activeElement) {
      // A focused box keeps its stop until the focus leaves it (focusout), or the focus would be lost.
      box.removeAttribute('tabindex');
      for (const [name] of region.get(box)) box.removeAttribute(name);
    }
  };
  const resized = new ResizeObserver((entries) => {
    for (const { target } of entries) update(region.has(target) ? target : target.parentElement);
  });
  // A box's text may change (the live response head) without its size changing.
  const changed = new MutationObserver((records) => {
    for (const box of new Set(records.map((r) => [...region.keys()].find((b) => b.contains(r.target))))) update(box);
  });
  // A box in a section far from the screen is not laid out (content-visibility: auto), and no
  // ResizeObserver hears of it, yet the Tab key reaches it: every box is measured when the page is
  // idle after it starts, and again after the page's width or text size changes (main resizes).
  const idle = window.requestIdleCallback ?? ((run) => setTimeout(run, 50));
  let pending = false;
  const measureAll = () => {
    if (pending) return;
    pending = true;
    idle(() => {
      pending = false;
      for (const box of boxes) update(box);
    });
  };
  new ResizeObserver(measureAll).observe(document.querySelector('main'));
  for (const box of boxes) {
    resized.observe(box);
    // A table's wrapper keeps its size while the table in it grows (a longer word, a larger font).
    if (box.firstElementChild?.matches('table')) resized.observe(box.firstElementChild);
    changed.observe(box, { childList: true, characterData: true, subtree: true });
    box.addEventListener('focusout', () => update(box));
  }
}
