// In-page links (the contents, the hero's "all the controls" link) and a page opened at a section
// (en.html#faq) land on their section. The sections between mount their widgets as the smooth
// scroll passes them and grow, so the place the scroll set out for is no longer the section's when it ends, sometimes by several screens. When
// a scroll that a link started ends with its target elsewhere, this scrolls on to it, a few times
// at most (each pass is shorter: only what grew meanwhile is left).
const MAX_PASSES = 4;
const TOLERANCE_PX = 4;

/** The element a `#id` points to in this page, or null (a permalink's `#b=…` names none). */
function targetOf(href) {
  if (!href?.startsWith('#') || href.length < 2) return null;
  try {
    return document.getElementById(decodeURIComponent(href.slice(1)));
  } catch {
    return null; // a malformed escape: not an element's id
  }
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
  // A page opened at a section (en.html#faq) scrolls there too.
  let target = targetOf(location.hash);
  let passes = 0;
  const aimAt = (href) => {
    target = targetOf(href);
    passes = 0;
  };
  const scrollTo = (element) => {
    target = element;
    passes = 0;
    element.scrollIntoView({ block: 'start' });
  };
  // Only a click on an in-page link aims: a button whose own handler just called `scrollTo` (a
  // replay played into the diagram) bubbles its click here afterwards, and must not undo it.
  document.addEventListener('click', (event) => {
    const href = event.target.closest?.('a[href^="#"]')?.getAttribute('href');
    if (href) aimAt(href);
  });
  addEventListener('hashchange', () => aimAt(location.hash));
  onScrollEnd(() => {
    if (!target) return;
    const away = offset(target);
    // Nothing left to scroll (the page's end), or the reader scrolled elsewhere on purpose.
    const atEnd = away > 0 && innerHeight + scrollY >= document.documentElement.scrollHeight - 1;
    if (Math.abs(away) <= TOLERANCE_PX || atEnd || passes >= MAX_PASSES) {
      target = null;
      return;
    }
    passes += 1;
    // At once: the smooth scroll already showed the reader where they are going, and smooth
    // corrections one after another took seconds to arrive.
    target.scrollIntoView({ block: 'start', behavior: 'instant' });
  });
  // The reader's own scrolling (wheel, touch, keys) ends the correction.
  for (const type of ['wheel', 'touchstart', 'keydown']) {
    addEventListener(type, () => {
      target = null;
    }, { passive: true });
  }
  return scrollTo;
}
