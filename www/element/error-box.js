// The one error box every diagram shows in its own place when it can't run (the lesson's, each
// <bucket-lab>, the iframe page's): an alert with a title and the error's own message, written as
// text (never markup). widget.css styles it.

/** Replaces what `root` shows with an alert: `title` (when given) above the error's message. */
export function showError(root, title, error) {
  const box = document.createElement('div');
  box.className = 'bl-error';
  box.setAttribute('role', 'alert');
  if (title) {
    const heading = document.createElement('p');
    heading.className = 'bl-error-title';
    heading.textContent = title;
    box.append(heading);
  }
  const detail = document.createElement('p');
  detail.className = 'bl-error-detail';
  detail.textContent = String(error?.message ?? error);
  box.append(detail);
  root.replaceChildren(box);
}
