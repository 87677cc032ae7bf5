// On paper the answers must be there: the page opens every closed <details> (the FAQ) before it
// is printed, and closes again, after printing, the ones it opened. CSS cannot open them.

export function openDetailsWhenPrinting(root = document) {
  let opened = [];
  addEventListener('beforeprint', () => {
    opened = [...root.querySelectorAll('main details:not([open])')];
    for (const details of opened) details.open = true;
  });
  addEventListener('afterprint', () => {
    for (const details of opened) details.open = false;
    opened = [];
  });
}
