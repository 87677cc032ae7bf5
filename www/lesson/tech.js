// The tech toggle: one choice of programming language for every code block on the page that comes
// in several (.tech-group > [data-tech]); remembered in localStorage.

const KEY = 'bucketlab:tech';

/** The remembered choice, if any. */
function rememberedTech() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage disabled: the choice lasts for this page only
  }
}

/** Wires the toggle; `initial` wins over the remembered choice. Calls `onChange(tech)`. */
export function setUpTechToggle(toggle, { initial, onChange = () => {} } = {}) {
  const buttons = [...toggle.querySelectorAll('[data-tech]')];
  const known = buttons.map((b) => b.dataset.tech);
  const choose = (tech, { remember = true } = {}) => {
    for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset.tech === tech));
    for (const block of document.querySelectorAll('.tech-group > [data-tech]')) {
      block.hidden = block.dataset.tech !== tech;
    }
    if (remember) {
      try {
        localStorage.setItem(KEY, tech);
      } catch {
        // storage disabled: nothing to remember with
      }
    }
    onChange(tech);
  };
  toggle.addEventListener('click', (event) => {
    const button = event.target.closest('[data-tech]');
    if (button) choose(button.dataset.tech);
  });
  toggle.hidden = false;
  document.documentElement.classList.add('tech-on');
  const start = [initial, rememberedTech()].find((tech) => known.includes(tech)) ?? known[0];
  choose(start, { remember: false });
  return {
    get selected() {
      return buttons.find((b) => b.getAttribute('aria-pressed') === 'true').dataset.tech;
    },
    choose,
  };
}
