// Clicks on a widget's send button made before its wasm has attached are not lost: this queues
// each with its time (the event's timeStamp, on performance.now()'s clock, which the widget reads:
// when the press happened, even if a busy page runs this listener later), and when the module arrives
// element/mount.js hands them to the core, which decides each at its own time (sendAt). The build
// puts its text into the head of the lesson and embed pages (scripts/pages.mjs; the CSP allows it
// by its hash), so it listens before the build-time markup paints; the <bucket-lab> element
// imports it for other pages. No imports, no exports: it runs the same either way, once per page.
// A queued click marks its button aria-busy until the wasm takes the queue, and after a moment
// its status line says so.
// In a worker (no document: the package's entry imports this too) there is nothing to listen to.
if (typeof document !== 'undefined' && !window.bucketlabEarly) {
  const clicks = [];
  /** How long a queued click waits before its status line says the diagram is still loading. */
  const WAITING_MS = 1500;
  window.bucketlabEarly = {
    /** How many clicks wait for their widget's wasm. */
    get size() {
      return clicks.length;
    },
    /** Removes and returns the times (ms) of the clicks queued for `widget` (a .bl-widget), oldest first. */
    take(widget) {
      const mine = clicks.filter((click) => click.widget === widget);
      for (const click of mine) clicks.splice(clicks.indexOf(click), 1);
      widget?.querySelector('.bl-send')?.removeAttribute('aria-busy');
      return mine.map((click) => click.at);
    },
  };
  // Capturing on the document sees clicks inside open shadow roots too (composedPath).
  document.addEventListener('click', (event) => {
    const at = Math.min(event.timeStamp, performance.now());
    const path = event.composedPath();
    const button = path.find((node) => node.classList?.contains('bl-send'));
    const widget = path.find((node) => node.classList?.contains('bl-widget'));
    if (button && widget && !widget.hasAttribute('data-live') && !button.disabled) {
      clicks.push({ widget, at });
      // Seen and heard as taken: the button waits for the core's decision (widget.css).
      button.setAttribute('aria-busy', 'true');
      // A module slow to arrive (a slow or stalled connection) is said, with the click kept: its
      // status line takes the build's words for that until the core decides it.
      setTimeout(() => {
        const status = widget.querySelector('.bl-status');
        if (status?.dataset.waiting && clicks.some((click) => click.widget === widget)) status.textContent = status.dataset.waiting;
      }, WAITING_MS);
    }
  }, true);
  // embed.html's build-time markup is Portuguese; the same markup in each other language waits in
  // a <template data-bucketlab-markup="en">. An address that asks for another language (lang=en,
  // en-GB; es or de, which the page's script shows in English, as i18n/translate.js's pickLang
  // does) gets it in place as the parser finishes, before the widget first paints (its
  // stylesheets arrive later), so an English course never shows Portuguese words for a moment.
  // The page's script still decides the language, as everywhere; this only spares the reader the
  // swap.
  document.addEventListener('readystatechange', () => {
    const primary = (tag) => tag?.toLowerCase().split('-')[0];
    const asked = primary(new URLSearchParams(location.search).get('lang'));
    const shown = asked === 'pt' ? asked : 'en';
    const markup = asked?.trim() && document.readyState === 'interactive'
      ? [...document.querySelectorAll('template[data-bucketlab-markup]')].find((t) => primary(t.dataset.bucketlabMarkup) === shown)
      : null;
    const widget = markup && document.querySelector('bucket-lab')?.shadowRoot?.querySelector('.bl-widget:not([data-live])');
    if (widget) widget.replaceWith(markup.content.cloneNode(true));
  });
  // A page script that did not arrive (a dropped connection, a file missing from the host) would
  // leave each widget with a button that queues clicks for ever. The page's <script type=module>
  // carries what to say, in the page's language (scripts/pages.mjs; one line per language on
  // embed.html, whose language is applied by that script): each widget not yet live is
  // replaced by that alert, built as element/error-box.js builds the others (this file imports
  // nothing), and its queued clicks are dropped with it. Two causes the page can tell apart get
  // their own words: a page opened as a file, and one in a sandbox without allow-same-origin (an
  // opaque origin, "null"), whose module scripts the browser refuses however often it reloads.
  // So would one that arrived cut short yet whole to the browser (a partial upload): it does not
  // parse, which the window hears as a SyntaxError from that file, not the script's own error.
  window.addEventListener('error', (event) => {
    const script = event instanceof ErrorEvent
      ? event.error instanceof SyntaxError && [...document.querySelectorAll('script[data-failed]')].find((s) => s.src === event.filename)
      : event.target;
    if (!(script instanceof HTMLScriptElement) || !script.dataset.failed) return;
    const { failedDetail, failedFile, failedSandboxed } = script.dataset;
    const detail = (location.protocol === 'file:' ? failedFile : self.origin === 'null' ? failedSandboxed : failedDetail) ?? failedDetail;
    const shadows = [...document.querySelectorAll('bucket-lab')].map((host) => host.shadowRoot);
    for (const root of [document, ...shadows.filter(Boolean)]) {
      for (const widget of root.querySelectorAll('.bl-widget:not([data-live])')) {
        const box = document.createElement('div');
        box.className = 'bl-error';
        box.setAttribute('role', 'alert');
        const lines = [['bl-error-title', script.dataset.failed]];
        for (const text of (detail ?? '').split('\n')) lines.push(['bl-error-detail', text]);
        for (const [className, text] of lines) {
          const line = document.createElement('p');
          line.className = className;
          line.textContent = text;
          box.append(line);
        }
        window.bucketlabEarly.take(widget);
        widget.parentNode.replaceChildren(box);
      }
    }
    // The lesson's other parts keep their words for a page without JavaScript ("… needs
    // JavaScript"), untrue here (a saved page opened as a file, say): they say why instead.
    for (const placeholder of document.querySelectorAll('main [class$="-noscript"]')) placeholder.textContent = detail ?? '';
  }, true);
}
