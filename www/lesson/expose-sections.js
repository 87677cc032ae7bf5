// lesson.css lets the browser skip the sections far from the screen (`content-visibility: auto`),
// so that the first paint lays out the first screen only. Chromium leaves a skipped section out
// of the accessibility tree, though: a screen reader's list of headings, landmarks or tables would
// hold the first screen's alone. Once the page is idle, the sections are laid out for good, one per
// idle moment (each a short task, never one long one), and the whole outline is there.

/** Lays out each of `sections` for good, one per idle callback (at most a second apart), in order. */
export function exposeSectionsWhenIdle(sections) {
  const idle = globalThis.requestIdleCallback
    ? (run) => requestIdleCallback(run, { timeout: 1000 })
    : (run) => setTimeout(run, 50);
  const waiting = [...sections];
  const next = () => {
    waiting.shift()?.classList.add('laid-out');
    if (waiting.length > 0) idle(next);
  };
  idle(next);
}
