// In-page links (the contents, the hero's "all the controls" link) and a page opened at a section
// (en.html#faq) land on their section. The sections between mount their widgets as the smooth
// scroll passes them and grow, so the place the scroll set out for is no longer the section's when
// it ends, sometimes by several screens. When a scroll that a link started ends with its target
// elsewhere, this scrolls on to it. A part may also grow after the landing (on a slow device its
// code and stylesheet arrive seconds later): until the reader scrolls, types or points, a growth of
// the page that moves the target brings it back.
// Only the reader's input ends that: a wheel, a touch, a key, or a press of the mouse, which the
// page's scrollbar reports too (a mousedown on the root). A scroll's position is no sign of who
// made it: the browser's own fragment scroll and its scroll anchoring also end scrolls with the
// section moved by a few pixels, and reading those as the reader's left a section several
// screens away when the next part mounted.
/** Scrolls in a row that may fail to land before the correction gives up (a target it cannot reach). */
const MAX_PASSES = 8;
const TOLERANCE_PX = 4;

/** The id a `#fragment` names, decoded; null for none, or a malformed escape (`#%E0%A4%A`). */
export function fragmentId(href) {
  if (!href?.startsWith('#') || href.length < 2) return null;
  try {
    return decodeURIComponent(href.slice(1));
  } catch {
    return null;
  }
}

/** The element a `#id` points to in this page, or null (a permalink's `#b=…` names none). */
function targetOf(href) {
  const id = fragmentId(href);
  return id === null ? null : document.getElementById(id);
}

/** How far `target` is from where scrolling to it puts it (its scroll-padding / margin). */
function offset(target) {
  const padding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  const margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
  return target.getBoundingClientRect().top - padding - margin;
}

/** Calls `done` once the page stops scrolling: `scrollend`, or 150 ms without a scroll event. */
function onScrollEnd(done) {
  if ('onscrollend' in window) {
    addEventListener('scrollend', done);
    return;
  }
  let timer = 0;
  addEventListener('scroll', () => {
    clearTimeout(timer);
    timer = setTimeout(done, 150);
  }, { passive: true });
}

/**
 * Sets up the corrections; returns `scrollTo(element)`, which scrolls to an element the page
 * chose (a replay link's diagram) and keeps it in place the same way.
 */
export function keepLinkTargetsInPlace() {
  // A page opened at a section (en.html#faq) was scrolled there by the browser: checked like a
  // link's scroll, once the page has laid out, and kept the same way.
  let target = targetOf(location.hash);
  let passes = 0;
  // Whether the target was reached: from then on a growth that moves it is corrected at once.
  let landed = false;
  // Whether the end of the correction's own scroll should check the landing again. A layout in
  // between may shorten the page for a moment (a section's guessed height giving way to its real
  // one), which clamps the scroll, and the page may be back to its height before the
  // ResizeObserver looks: then only the scroll's end shows the target moved.
  let recheck = false;
  // The id of a target a part replaced and has not built again yet (see correct).
  let awaited = null;
  const aim = (element) => {
    target = element;
    awaited = null;
    passes = 0;
    landed = false;
  };
  const scrollTo = (element) => {
    aim(element);
    element.scrollIntoView({ block: 'start' });
  };
  /** Brings the target back in place if it moved; gives up after MAX_PASSES misses in a row. */
  const correct = () => {
    // A target a part replaced as it loaded (the lab's placeholder, which holds the id of the
    // limit keys demo until the lab builds it): the element that has its id now, or, while the
    // part is still building (its loading line in between), the one that will.
    if (target && !target.isConnected) {
      awaited = target.id || null;
      target = null;
    }
    if (!target && awaited) {
      target = document.getElementById(awaited);
      if (target) awaited = null;
    }
    while (target) {
      const away = offset(target);
      // Nothing left to scroll (the page's end): a later growth may still make room.
      const atEnd = away > 0 && innerHeight + scrollY >= document.documentElement.scrollHeight - 1;
      landed = Math.abs(away) <= TOLERANCE_PX || atEnd;
      if (landed) {
        passes = 0;
        return;
      }
      if (passes >= MAX_PASSES) {
        target = null;
        return;
      }
      passes += 1;
      // At once (and so checked again at once): the smooth scroll already showed the reader where
      // they are going, and smooth corrections one after another took seconds to arrive.
      recheck = true;
      target.scrollIntoView({ block: 'start', behavior: 'instant' });
    }
  };
  // Only a click on an in-page link aims: a button whose own handler just called `scrollTo` (a
  // replay played into the diagram) bubbles its click here afterwards, and must not undo it.
  document.addEventListener('click', (event) => {
    const href = event.target.closest?.('a[href^="#"]')?.getAttribute('href');
    if (href) aim(targetOf(href));
  });
  addEventListener('hashchange', () => aim(targetOf(location.hash)));
  // Every scroll's end while on the way (the browser's own scrolls included) checks the landing,
  // and so does the end of a correction's scroll. Other scrolls after the landing are left alone:
  // a screen reader's or find in page's moves no key or pointer event tells the page about.
  onScrollEnd(() => {
    if (landed && !recheck) return;
    recheck = false;
    correct();
  });
  // The page grew or shrank after the landing (a part above mounted late): during a scroll, the
  // scroll's end corrects instead. The first observation comes once the page has laid out.
  let observed = false;
  new ResizeObserver(() => {
    if (landed || !observed || awaited) correct();
    observed = true;
  }).observe(document.body);
  // The reader's own scrolling ends the correction at once: the wheel, a touch, keys, or a press
  // of the mouse anywhere, the scrollbar included.
  for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown', 'mousedown']) {
    addEventListener(type, () => {
      target = null;
      awaited = null;
    }, { passive: true, capture: true });
  }
  return scrollTo;
}
