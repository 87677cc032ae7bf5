// A reader who follows a link to a place below a page's <bucket-lab> elements (a chapter's
// `#later-section`, a search result) is scrolled there while the elements take no room yet. Each
// then grows by hundreds of pixels as it draws, and a page still at its top does not follow its
// target down (the browser's scroll anchoring waits for a scroll), so the reader is left far
// above it. Each time an element has drawn, the target is scrolled to again, until the reader
// scrolls or acts (or anything else moves the page from where this left it).
// bucket-lab.js imports it; it runs once per page.
if (typeof document !== 'undefined' && !window.bucketlabKeepTarget) {
  window.bucketlabKeepTarget = true;
  let acted = false;
  let left = null;
  for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown']) {
    addEventListener(type, () => { acted = true; }, { capture: true, passive: true, once: true });
  }
  document.addEventListener('bucketlab:ready', () => {
    if (left !== null && Math.abs(scrollY - left) > 1) acted = true;
    if (acted || location.hash.length < 2) return;
    let target = null;
    try {
      target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    } catch {} // not an id: a broken %-escape
    if (!target) return;
    requestAnimationFrame(() => {
      if (acted) return;
      target.scrollIntoView();
      left = scrollY;
    });
  });
}
