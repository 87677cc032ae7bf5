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
  // Every measure waits for the page to be idle, once per box however many changes came: a box's
  // text may change many times a second (the live response head, with traffic on), and a box in a
  // section far from the screen (content-visibility: auto) is laid out just to be measured.
  // Each idle period measures as many as its time allows (one at least) and leaves the rest to
  // the next: measured all at once, the page's 26 boxes laid out every far section in one task of
  // up to 200 ms on a slow phone, just as its first tap was likely.
  const idle = window.requestIdleCallback ?? ((run) => setTimeout(() => run({ timeRemaining: () => 0 }), 50));
  const dirty = new Set();
  const drain = (deadline) => {
    for (const box of dirty) {
      dirty.delete(box);
      update(box);
      if (deadline.timeRemaining() <= 0) break;
    }
    if (dirty.size) idle(drain);
  };
  const measure = (some) => {
    if (!some.length) return;
    if (!dirty.size) idle(drain);
    for (const box of some) dirty.add(box);
  };
  const resized = new ResizeObserver((entries) => {
    measure(entries.map(({ target }) => (region.has(target) ? target : target.parentElement)));
  });
  // A box's text may change (the live response head) without its size changing.
  const changed = new MutationObserver((records) => {
    measure(records.map((r) => boxes.find((b) => b.contains(r.target))).filter(Boolean));
  });
  // A box in a section far from the screen is not laid out, and no ResizeObserver hears of it,
  // yet the Tab key reaches it: every box is measured once the page is idle after it starts, and
  // again when the page's width changes (a turned phone, a zoom; main's height, which changes
  // with every response the diagrams show, is not a reason).
  let width = -1;
  new ResizeObserver(([entry]) => {
    const now = entry.contentBoxSize[0].inlineSize;
    if (now !== width) measure(boxes);
    width = now;
  }).observe(document.querySelector('main'));
  for (const box of boxes) {
    resized.observe(box);
    // A table's wrapper keeps its size while the table in it grows (a longer word, a larger font).
    if (box.firstElementChild?.matches('table')) resized.observe(box.firstElementChild);
    changed.observe(box, { childList: true, characterData: true, subtree: true });
    box.addEventListener('focusout', () => update(box));
  }
}
