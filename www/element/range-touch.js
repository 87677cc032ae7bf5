// A finger that comes down on a slider (a range input) moves its thumb there at once, in Chromium
// on a touch screen, before the browser knows whether the gesture is a drag along the slider or a
// page scroll; so scrolling a phone's page with a thumb that happened to start on a slider changed
// the bucket's B or r. This holds a touch's first `input` on a slider until the gesture shows what
// it is: a move more sideways than up or down (a drag along the slider) or a lift (a tap) lets it
// through; a page scroll (the browser cancels the pointer) puts the value back, and no listener
// ever saw it change. Mouse and pen are left alone.
// Once per page, capturing on the document as early.js does, so sliders in open shadow roots (the
// <bucket-lab> element) and the lesson's own (the clients' and the flood's) are held alike.
if (typeof document !== 'undefined' && !window.bucketlabRangeTouch) {
  window.bucketlabRangeTouch = true;
  /** Pixels a finger moves sideways before the gesture counts as a drag along the slider. */
  const SIDEWAYS = 6;
  /** The touch under way on a slider: its input, value before it, where it came down, whether its `input` waits. */
  let touch = null;
  const rangeOf = (event) => {
    const node = event.composedPath()[0];
    return node instanceof HTMLInputElement && node.type === 'range' ? node : null;
  };
  const listen = (type, listener) => document.addEventListener(type, listener, true);
  const letThrough = () => {
    const { input, held } = touch;
    touch.open = true;
    if (held) input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  };

  listen('pointerdown', (event) => {
    const input = event.pointerType === 'touch' ? rangeOf(event) : null;
    touch = input && { input, value: input.value, x: event.clientX, y: event.clientY, held: false, open: false };
  });
  listen('input', (event) => {
    if (touch && !touch.open && rangeOf(event) === touch.input) {
      touch.held = true;
      event.stopImmediatePropagation();
    }
  });
  listen('pointermove', (event) => {
    if (!touch || touch.open) return;
    const [dx, dy] = [Math.abs(event.clientX - touch.x), Math.abs(event.clientY - touch.y)];
    if (dx >= SIDEWAYS && dx > dy) letThrough();
  });
  listen('pointerup', () => {
    if (touch && !touch.open) letThrough();
    touch = null;
  });
  listen('pointercancel', () => {
    if (touch && !touch.open) touch.input.value = touch.value;
    touch = null;
  });
}
