// A lazily loaded part of the lesson (the lab, the clients): its stylesheets, code (and wasm) load
// only when its mount comes within a screen or so of the viewport, on the first interaction with
// it, or on the reader's first Tab key anywhere on the page, whichever is first. The part mounts
// once its stylesheets have loaded, so it never shows unstyled; nothing of it is in the page's
// start-up transfer (without JavaScript its mount shows only the section's text, which lesson.css
// styles).
// The Tab key matters: a mount holds no control until it loads, so focus moving through the page
// would pass over it (and the scroll that follows focus can jump past it too); a reader who moves
// by keyboard gets every part loaded from the first Tab, long before focus reaches them.
import { t } from './strings.js';

/**
 * `mount`: the element; `styles`: stylesheet URLs; `load()`: imports and mounts, resolving to a
 * handle, kept at `window.bucketlab[key]`; `window.bucketlab[loader]()` loads it on demand.
 * `placeholder`: the line that says it needs JavaScript, when it is not the mount's own child.
 */
export function lazyPart({ mount, styles, load, key, loader, placeholder: given }) {
  let loading = null;
  // Set below when there is a mount: stops every trigger once the part is on its way.
  let stopWatching = () => {};
  // The mount's text is for a page without JavaScript ("… needs JavaScript"); with it, that is not
  // true: until the part arrives, it says that it is loading.
  const placeholder = given ?? mount?.querySelector(':scope > [class$="-noscript"]');
  /** Loads the part again after a failure, in place: the page and what the reader did in it stay. */
  const retry = () => {
    if (loading) return;
    // "Try again" goes with the failure it stood in: a reader who pressed it keeps the focus on
    // the line that says the part loads, then on the part's heading once it is there.
    const hadFocus = mount?.contains(document.activeElement);
    if (placeholder) {
      placeholder.textContent = t('part_loading');
      placeholder.dataset.print = t('part_print');
      // Back where the part's own message stood (its wasm did not load, say).
      if (mount && !placeholder.isConnected) mount.replaceChildren(placeholder);
      if (hadFocus) {
        placeholder.tabIndex = -1;
        placeholder.focus();
      }
    }
    once().then(() => {
      if (!hadFocus || mount.contains(document.activeElement)) return;
      const heading = mount.querySelector('h3, h4');
      if (heading) heading.tabIndex = -1;
      (heading ?? mount.querySelector('button, input, select, textarea, a[href]'))?.focus();
    }, () => {});
  };
  const once = () => {
    stopWatching();
    loading ??= addStyles(styles).then(load).then((handle) => {
      window.bucketlab ??= {};
      window.bucketlab[key] = handle;
      if (mount) mount.dataset.lazy = 'loaded';
      return handle;
    }, (error) => {
      // Its code did not arrive: the network, or a new release of the site replaced the files this
      // page names. Said where the part goes, with two ways out: try again here (a dropped
      // connection; its return tries by itself), or reload the page (a new release). A part that
      // said it itself (its wasm did not load) keeps its words, with Try again after them. A later
      // call of the loader tries again too.
      loading = null;
      console.warn(`bucketlab: the ${key} part did not load: ${error?.message ?? error}`);
      if (placeholder?.isConnected) {
        showFailure(placeholder, retry);
      } else {
        mount?.querySelector(':scope > [role=alert]')?.append(' ', retryButton(retry));
        addEventListener('online', retry, { once: true });
      }
      throw error;
    });
    return loading;
  };
  // main.js replaces window.bucketlab when it runs; add the loader once every module has run.
  document.addEventListener('DOMContentLoaded', () => {
    window.bucketlab ??= {};
    window.bucketlab[loader] = once;
  });
  if (!mount) return;
  // No scroll anchor until it has loaded (lesson.css).
  mount.dataset.lazy = 'loading';
  // On paper, a part never opened says so where it would be, rather than leaving the text that
  // points to it ("below") pointing at nothing (lesson.css prints `data-print` instead).
  if (placeholder) {
    placeholder.textContent = t('part_loading');
    placeholder.dataset.print = t('part_print');
  }
  // A trigger has no use for the result; a failure is said above.
  const start = () => once().catch(() => {});
  const onTab = (event) => {
    if (event.key === 'Tab') start();
  };
  const onNear = (entries) => {
    if (entries.some((e) => e.isIntersecting)) start();
  };
  const onUse = () => start();
  const uses = ['pointerdown', 'focusin', 'keydown'];
  // Three screens ahead: on a slow phone a part's files take a second or two, and a reader
  // scrolling at a reading pace is still screens away when it is built, rather than just past
  // its one-line placeholder when it grows (thousands of pixels) under them.
  const observer = new IntersectionObserver(onNear, { rootMargin: '300% 0px' });
  stopWatching = () => {
    removeEventListener('keydown', onTab, true);
    observer.disconnect();
    for (const type of uses) mount.removeEventListener(type, onUse);
  };
  addEventListener('keydown', onTab, true);
  observer.observe(mount);
  for (const type of uses) mount.addEventListener(type, onUse);
}

/**
 * Says in `placeholder` that its part did not load, with a button that reloads the page (also
 * for a part that loads a piece of its own later: the Config tab's parser, the replay's worker),
 * and first one that calls `retry`, when given: offline, a reload would leave the lesson for the
 * browser's error page. The connection's return calls `retry` by itself (a phone back from a
 * tunnel); it must be safe to call twice.
 */
export function showFailure(placeholder, retry) {
  const reload = button('part-reload', 'part_reload', () => location.reload());
  const buttons = retry ? [retryButton(retry), ' ', reload] : [reload];
  placeholder.replaceChildren(t('part_failed'), ' ', ...buttons);
  delete placeholder.dataset.print;
  if (retry) addEventListener('online', retry, { once: true });
}

/** A button worded by `text` (a ui.json key) that calls `act`. */
function button(className, text, act) {
  const made = Object.assign(document.createElement('button'), { type: 'button', className, textContent: t(text) });
  made.addEventListener('click', act);
  return made;
}

/** "Try again": loads a part again in place (see lazyPart). */
const retryButton = (retry) => button('part-retry', 'part_retry', retry);

/** The stylesheets parts have asked for, by URL: each loads once, shared (the lab's by several). */
const sheets = new Map();

/**
 * Adds the stylesheets at `hrefs` and resolves when they have loaded. One that fails (a CSP, the
 * network) is said on the console, and the part still mounts: plain but usable rather than a
 * "loading" that never ends.
 */
function addStyles(hrefs) {
  return Promise.all(hrefs.map((href) => {
    if (!sheets.has(href)) {
      const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href });
      sheets.set(href, new Promise((resolve) => {
        link.addEventListener('load', resolve, { once: true });
        link.addEventListener('error', () => {
          console.warn(`bucketlab: the stylesheet ${href} did not load`);
          // Asked for again by the part's next try (the connection back), not kept as failed.
          sheets.delete(href);
          link.remove();
          resolve();
        }, { once: true });
      }));
      document.head.append(link);
    }
    return sheets.get(href);
  }));
}
