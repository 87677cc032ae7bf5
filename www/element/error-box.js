// The one error box every diagram shows in its own place when it can't run (the lesson's, each
// <bucket-lab>, the iframe page's): an alert with a title and each error's message, written as
// text (never markup). widget.css styles it.

/**
 * Replaces what `root` shows with an alert: `title` (when given) above one line per error in
 * `errors` (one error or a list). An error's `localized` (the wasm module's refusals carry one:
 * the page's language, the field's visible label) is shown rather than its `message`, which
 * stays the precise text for scripts and the console.
 */
export function showError(root, title, errors, lang) {
  const box = document.createElement('div');
  box.className = 'bl-error';
  box.setAttribute('role', 'alert');
  // The language its words are in, where that may not be its place's (an element whose refused
  // lang="fr" would have a screen reader read them with a French voice).
  if (lang) box.lang = lang;
  if (title) {
    const heading = document.createElement('p');
    heading.className = 'bl-error-title';
    heading.textContent = title;
    box.append(heading);
  }
  for (const error of Array.isArray(errors) ? errors : [errors]) {
    const detail = document.createElement('p');
    detail.className = 'bl-error-detail';
    detail.textContent = String(error?.localized ?? error?.message ?? error);
    box.append(detail);
  }
  root.replaceChildren(box);
}
