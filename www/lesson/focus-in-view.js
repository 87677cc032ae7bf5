// Keyboard focus stays on the screen. A Tab from the contents into section 5 scrolls the page down
// to the control; the sections passed on the way are laid out only as they come near
// (content-visibility in lesson.css) and then take their real heights, which can push the control
// off the screen after the browser's scroll to it. So a control Tab moved the focus to that is not
// on the screen a frame later is brought there at once (a focus a page script moves is left to
// that script, which may be scrolling smoothly to it); then, while it keeps the focus, if the
// page grows above it and that pushes it off the screen, it is brought back. It is left where it
// is once anything else moves it away (the reader or the page scrolling), and once the reader
// scrolls, points or presses a key other than Tab: the page is theirs to move.

/** Corrections for one focus before giving up (a page that keeps growing above it). */
const MAX_PASSES = 8;

export function keepFocusInView() {
  let watched = null;
  let passes = 0;
  // Whether the next focus is Tab's (or Shift+Tab's).
  let tabbed = false;
  // Where in the page (its top, from the page's top) the control was last seen on the screen;
  // null before it has been.
  let seenAt = null;
  // The page's scroll then.
  let scrolledAt = 0;
  const onScreen = (box) => box.top >= 0 && box.bottom <= innerHeight;
  const focused = () => {
    if (watched && document.activeElement !== watched) watched = null;
    return watched;
  };
  /** Brings the control into view; keeps watching only if it is there. */
  const bring = () => {
    watched.scrollIntoView({ block: 'nearest', behavior: 'instant' });
    const box = watched.getBoundingClientRect();
    if (passes++ >= MAX_PASSES || !onScreen(box)) watched = null;
    else [seenAt, scrolledAt] = [box.top + scrollY, scrollY];
  };
  document.addEventListener('focusin', (event) => {
    const control = event.target;
    const byTab = tabbed;
    tabbed = false;
    if (!byTab || !(control instanceof Element)) return;
    watched = control;
    passes = 0;
    const box = control.getBoundingClientRect();
    seenAt = onScreen(box) ? box.top + scrollY : null;
    scrolledAt = scrollY;
    // Off the screen: the browser's own scroll to it sets out now; a frame later it is brought
    // there at once, wherever that scroll is.
    if (seenAt === null) requestAnimationFrame(() => focused() && seenAt === null && bring());
  });
  // Only while watching: an idle page asks for no frame.
  new ResizeObserver(() => focused() && seenAt !== null && requestAnimationFrame(() => {
    if (!focused() || seenAt === null) return;
    const box = watched.getBoundingClientRect();
    const moved = box.top + scrollY - seenAt;
    const scrolled = scrollY - scrolledAt;
    if (onScreen(box)) [seenAt, scrolledAt] = [seenAt + moved, scrollY];
    // Pushed off by the page's growth above it: brought back. The browser's scroll anchoring may
    // have followed that growth part way (a scroll the same way, at most as far); any other
    // scroll is the reader's (a screen reader's or find-in-page's sends no key or pointer event).
    else if (moved !== 0 && scrolled * moved >= 0 && Math.abs(scrolled) <= Math.abs(moved) + 1) bring();
    else watched = null;
  })).observe(document.body);
  const release = () => { watched = null; };
  for (const type of ['wheel', 'touchstart', 'pointerdown']) addEventListener(type, release, { passive: true, capture: true });
  addEventListener('keydown', (event) => {
    if (event.key === 'Tab') tabbed = true;
    else if (event.key !== 'Shift') release();
  }, { capture: true });
  addEventListener('keyup', (event) => {
    if (event.key === 'Tab') tabbed = false;
  }, { capture: true });
}
