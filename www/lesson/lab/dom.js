// The lab's DOM helpers: every element is made here, text always goes in as textContent, and SVG
// uses its namespace. No innerHTML, no inline styles.
const SVG_NS = 'http://www.w3.org/2000/svg';

function build(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of [children ?? []].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
  return node;
}

/** An HTML element: el('button', { class: 'x', onclick }, 'text'). */
export const el = (tag, attrs, children) => build(document.createElement(tag), attrs, children);

/** An SVG element. */
export const svg = (tag, attrs, children) => build(document.createElementNS(SVG_NS, tag), attrs, children);

let counter = 0;
/** A page-unique id with a readable prefix. */
export const uid = (prefix) => `${prefix}-${++counter}`;

/**
 * Diagonal stripes in the fill of the class `stripes`, for a chart's second series, which its
 * colour alone would not tell from the first (the lesson's blue and orange are about as light):
 * told apart in grey too (WCAG 1.4.1). Returns [the <defs> to put in the chart's SVG, the `fill`
 * for the series' shapes (whose own class then sets no fill)].
 */
export function hatch(stripes) {
  const id = uid('hatch');
  const pattern = svg('pattern', { id, width: 5, height: 5, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, [
    svg('rect', { class: stripes, width: 3, height: 5 }),
  ]);
  return [svg('defs', {}, [pattern]), `url(#${id})`];
}

/** Whether the reader asked for less motion. */
export const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

/** The bottom of what the reader sees: above a phone's on-screen keyboard (the visual viewport). */
const seenBottom = () => (window.visualViewport ? visualViewport.offsetTop + visualViewport.height : innerHeight);

/**
 * Scrolls what a tap changed into view when it would be missed: `node` ends below the screen's
 * edge (or its keyboard), or, with `from` (a share of the screen's height), starts below that
 * line. A phone's form fills its screen, and an error or a result under it goes unseen.
 */
export function revealBelow(node, { from, block = 'nearest' } = {}) {
  const { top, bottom } = node.getBoundingClientRect();
  if (from === undefined ? bottom <= seenBottom() : top <= seenBottom() * from) return;
  node.scrollIntoView({ block, behavior: reducedMotion() ? 'auto' : 'smooth' });
}

/**
 * A quiz's choice (www/lesson/quiz.css): a radio of the group `name` and its label, in a
 * `.quiz-option` row; returns { input, row }.
 */
export function quizOption(name, value, label) {
  const id = uid(`${name}-opt`);
  const input = el('input', { type: 'radio', name, id, value });
  return { input, row: el('div', { class: 'quiz-option', 'data-value': value }, [input, el('label', { for: id }, label)]) };
}

/**
 * Marks the input named `field` among `inputs` ([name, input] pairs) invalid and described by the
 * element `errorId`, and every other one valid again (`field` undefined: all valid).
 */
export function markInvalid(inputs, field, errorId) {
  for (const [name, input] of inputs) {
    if (name === field) {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', errorId);
    } else {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    }
  }
}
