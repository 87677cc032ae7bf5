// For pages that embed bucketlab's embed.html in an <iframe>: fits each such iframe's height to
// its content. Load it with a classic <script src=".../embed-resizer.js" defer>. It trusts only
// messages from the origin this script was loaded from (where embed.html lives too), with the
// exact shape { type: 'bucketlab:resize', height: <number of CSS pixels> }, and only resizes the
// iframe that sent them; anything else is ignored. On start it asks the embeds already loaded
// to measure again ({ type: 'bucketlab:measure' }), since their first report came too early.
// Iframes inside open shadow roots (pages built from web components) count as much as the
// document's own.
(() => {
  const script = document.currentScript;
  const origin = new URL(script?.src || location.href).origin;
  const MAX_HEIGHT = 20000;

  /** Every iframe in `root` and in the open shadow roots below it, however deep. */
  function* iframes(root) {
    yield* root.querySelectorAll('iframe');
    for (const host of root.querySelectorAll('*')) {
      if (host.shadowRoot) yield* iframes(host.shadowRoot);
    }
  }

  window.addEventListener('message', (event) => {
    if (event.origin !== origin) return;
    const data = event.data;
    if (data === null || typeof data !== 'object' || data.type !== 'bucketlab:resize') return;
    const { height } = data;
    if (typeof height !== 'number' || !Number.isFinite(height) || height < 0 || height > MAX_HEIGHT) return;
    for (const frame of iframes(document)) {
      if (frame.contentWindow === event.source) {
        // The content's height is the frame's inner height: under a page's `box-sizing:
        // border-box` (Bootstrap's reset, Moodle's themes) the frame's own border and padding
        // count in its height too.
        const box = getComputedStyle(frame);
        const edges = box.boxSizing === 'border-box'
          ? ['borderTopWidth', 'borderBottomWidth', 'paddingTop', 'paddingBottom'].reduce((sum, side) => sum + (parseFloat(box[side]) || 0), 0)
          : 0;
        // CSSOM, not a style attribute: allowed under a strict style-src policy.
        frame.style.height = `${Math.ceil(height + edges)}px`;
      }
    }
  });

  // An iframe that loaded before this script ran has already reported its height to nobody:
  // ask our embeds to report again. The request carries nothing, so '*' is safe; a frame still
  // on its initial blank page drops it and reports by itself once loaded.
  for (const frame of iframes(document)) {
    if (frame.src && new URL(frame.src, location.href).origin === origin) {
      frame.contentWindow?.postMessage({ type: 'bucketlab:measure' }, '*');
    }
  }
})();
