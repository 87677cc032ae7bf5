// A live region spoken at a listener's pace, as the diagram's own (src/view/announce.rs, GAP): the
// first sentence at once, then at most one every GAP_MS of wall time, the latest one winning. A
// reader who presses a button five times in a row hears where things stand, not five sentences
// queued one after another.
export const GAP_MS = 1500;

/** Writes to `region` (an aria-live element) through `say(text)`; `clear()` empties it. */
export function pacedRegion(region, gap = GAP_MS) {
  let last = -Infinity;
  let timer = null;
  let pending = '';
  const write = (text) => {
    region.textContent = text;
    last = performance.now();
  };
  return {
    say(text) {
      const wait = last + gap - performance.now();
      if (wait <= 0 && timer === null) {
        write(text);
        return;
      }
      pending = text;
      timer ??= setTimeout(() => {
        timer = null;
        write(pending);
      }, Math.max(0, wait));
    },
    clear() {
      clearTimeout(timer);
      timer = null;
      region.textContent = '';
    },
  };
}
