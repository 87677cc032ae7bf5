// "Try this": guided experiments; each button sets the widgets up and brings the right one into view.
import { checkOneOf } from '../checks.js';
import { el, reducedMotion } from './dom.js';

/**
 * Each sets up the comparison or the keys demo so that its lanes differ where its text says. In
 * "Bursts of 25" they come every 0.5 s, two to a window: the windows let all or nothing through,
 * the buckets half a second's refill (tests/node/lab.test.mjs checks it).
 */
export const EXPERIMENTS = [
  { id: 'windowEdge', target: 'comparison', setup: { pattern: 'windowEdge', limit: 10, window: 1, duration: 2.5 } },
  { id: 'burst', target: 'comparison', setup: { pattern: 'burst', size: 25, every: 0.5, limit: 10, window: 1, duration: 5 } },
  { id: 'poisson', target: 'comparison', setup: { pattern: 'poisson', rate: 15, limit: 10, window: 1, duration: 8 } },
  { id: 'ramp', target: 'comparison', setup: { pattern: 'ramp', from: 0, to: 30, limit: 10, window: 1, duration: 10 } },
  { id: 'keyIp', target: 'keys', kind: 'ip' },
  { id: 'keyUser', target: 'keys', kind: 'user' },
];

export class Experiments {
  constructor(root, { t, comparison, keys, sections }) {
    Object.assign(this, { root, t, comparison, keys, sections });
    this.render();
  }

  setLang(t) {
    this.t = t;
    this.render();
  }

  run(id) {
    checkOneOf('experiment', id, EXPERIMENTS.map((e) => e.id));
    const experiment = EXPERIMENTS.find((e) => e.id === id);
    const motion = !reducedMotion();
    if (experiment.target === 'comparison') this.comparison.setup(experiment.setup, { play: motion, say: true });
    else this.keys.setKind(experiment.kind);
    const section = this.sections[experiment.target];
    // On a phone the form alone fills the screen: when the first lane would end below it, the
    // scroll starts at the player (its time and Pause), so the lanes the card asks to watch show.
    const lane = section.querySelector('.lab-row');
    const below = lane && lane.getBoundingClientRect().bottom - section.getBoundingClientRect().top > innerHeight;
    const into = (below && section.querySelector('.lab-player')) || section;
    into.scrollIntoView({ behavior: motion ? 'smooth' : 'auto', block: 'start' });
    section.querySelector('h3')?.focus({ preventScroll: true });
  }

  render() {
    const { t } = this;
    this.root.replaceChildren(
      el('p', {}, t('tryThis.intro')),
      el('ul', { class: 'lab-experiments' }, EXPERIMENTS.map(({ id }) => {
        const [title, text] = t.raw(`tryThis.${id}`);
        return el('li', { 'data-experiment': id }, [
          el('div', {}, [el('strong', {}, title), el('p', {}, text)]),
          el('button', { type: 'button', onclick: () => this.run(id), 'aria-label': `${t('tryThis.go')}: ${title}` }, t('tryThis.go')),
        ]);
      })),
    );
  }
}
