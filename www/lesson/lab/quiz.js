// The quick check: predict, check, read why, then watch the core play the question's trace out.
// Radio groups in fieldsets (arrow keys move, Space selects), one Check button per question, the
// verdict focused once checked, and a polite live region for the score over first answers. Its look
// is the lesson's shared quiz block (www/lesson/quiz.css).
import { el, uid, reducedMotion, quizOption } from './dom.js';
import { LaneChart } from './chart.js';
import { freshSeed, makeQuestions } from './questions.js';

export class Quiz {
  /**
   * `answers` ({ question id: chosen value }): the first set's, given on another page or in an
   * earlier sitting (www/lesson/quiz-answers.js), shown checked again; an id or a value that is
   * not the set's is left out. They are not sent as new answers (bucketlab:answer).
   */
  constructor(root, { simulate, TokenBucket, t, seed = 1, answers = {} }) {
    Object.assign(this, { root, simulate, TokenBucket, t, seed, firstSeed: seed });
    this.answers = new Map(); // question id → the chosen value (first check only)
    this.charts = [];
    this.render(answers);
  }

  /** The first set's answers ({ question id: chosen value }); {} while a later set is on. */
  get firstAnswers() {
    return this.seed === this.firstSeed ? Object.fromEntries(this.answers) : {};
  }

  setLang(t) {
    this.t = t;
    this.render();
  }

  /** A new set of questions (another seed); clears the score. */
  reset(seed = this.seed + 1) {
    this.seed = seed;
    this.answers.clear();
    this.render();
  }

  /**
   * "New questions": a set that repeats none of this one's drawn questions. The button goes with
   * the old list, so focus moves to the new first choice.
   */
  #newSet() {
    this.reset(freshSeed(this.seed, this.questions, (seed) => this.#questionsFor(seed)));
    this.root.querySelector('.quiz-question input')?.focus();
  }

  #questionsFor(seed) {
    return makeQuestions({ simulate: this.simulate, TokenBucket: this.TokenBucket, t: this.t, seed });
  }

  get score() {
    const correct = this.questions.filter((q) => this.answers.get(q.id) === q.answer).length;
    return { correct, answered: this.answers.size, total: this.questions.length };
  }

  render(answers = {}) {
    const { t } = this;
    for (const chart of this.charts) chart.destroy();
    this.charts = [];
    this.questions = this.#questionsFor(this.seed);
    for (const q of this.questions) {
      if (q.options.some((o) => o.value === answers[q.id])) this.answers.set(q.id, answers[q.id]);
    }
    this.scoreText = el('p', { class: 'lab-score' });
    const list = el('ol', { class: 'quiz' }, this.questions.map((q, n) => this.#question(q, n)));
    this.root.replaceChildren(
      el('p', {}, t('quiz.intro')),
      this.scoreText,
      list,
      el('button', { type: 'button', class: 'lab-new-quiz', onclick: () => this.#newSet() }, t('quiz.newSet')),
    );
    this.#updateScore();
    // Live only once it holds its first score: a region filled as the part mounts (on the reader's
    // first Tab at the top of the page) would be spoken there, about a quiz far below.
    this.scoreText.setAttribute('aria-live', 'polite');
  }

  #question(q, n) {
    const { t } = this;
    const name = uid('lab-q');
    const inputs = q.options.map((option) => quizOption(name, option.value, option.label));
    // Focusable from script: Check disables itself, and focus then moves to the verdict, which a
    // screen reader then reads (no live region as well: it would be said twice).
    const feedback = el('p', { class: 'quiz-verdict', tabindex: '-1' });
    const playback = el('div', { class: 'lab-playback' });
    // Each "Check" is described by its question: in a list of buttons they are told apart.
    const check = el('button', { type: 'button', class: 'quiz-check', 'aria-describedby': `${name}-prompt` }, t('quiz.check'));
    const item = el('li', { class: 'quiz-question', 'data-question': q.id }, [
      el('fieldset', {}, [
        el('legend', { id: `${name}-prompt` }, q.prompt),
        ...inputs.map((i) => i.row),
      ]),
      check, feedback, playback,
    ]);
    const show = (chosen, { play }) => {
      for (const { input, row } of inputs) {
        input.disabled = true;
        input.checked = input.value === chosen;
        row.classList.toggle('quiz-option--right', input.value === q.answer);
        row.classList.toggle('quiz-option--wrong', input.value === chosen && chosen !== q.answer);
      }
      check.disabled = true;
      const answer = q.options.find((o) => o.value === q.answer).label;
      const verdict = chosen === q.answer ? t('quiz.right') : t('quiz.wrong', { answer });
      feedback.dataset.correct = String(chosen === q.answer);
      feedback.textContent = `${verdict} ${q.explain}`;
      if (q.playback) this.#playback(playback, q, n, play);
    };
    check.addEventListener('click', () => {
      const chosen = inputs.find((i) => i.input.checked)?.input.value;
      if (chosen === undefined) {
        feedback.textContent = t('quiz.chooseFirst');
        feedback.focus();
        return;
      }
      this.answers.set(q.id, chosen);
      this.#updateScore();
      // For course platforms (www/lms/): each first answer, the score so far, and whether it is
      // the first set's (a later set reuses its question ids with other numbers).
      this.root.dispatchEvent(new CustomEvent('bucketlab:answer', { bubbles: true, detail: {
        id: q.id, prompt: q.prompt, choices: q.options, answer: q.answer, response: chosen, score: this.score,
        firstSet: this.seed === this.firstSeed } }));
      show(chosen, { play: !reducedMotion() });
      // The playback runs under the verdict: on a phone, both come into view from the verdict
      // down, or the core plays the question out below the screen's edge.
      const below = playback.getBoundingClientRect().bottom > innerHeight;
      feedback.focus({ preventScroll: below });
      if (below) feedback.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
    });
    if (this.answers.has(q.id)) show(this.answers.get(q.id), { play: false });
    return item;
  }

  #playback(container, q, n, play) {
    const { algorithms, limit, duration, timestamps, focusFrom } = q.playback;
    const result = this.simulate({
      algorithms, limit, window: 1, duration, samples: 100, traffic: { pattern: 'pasted', timestamps },
    });
    const focus = new Set(timestamps.map((_, i) => i).filter((i) => i >= focusFrom));
    const rows = result.lanes.map((lane) => ({
      key: lane.algorithm, name: this.t(`names.${lane.algorithm}`), arrivals: result.arrivals,
      outcomes: lane.outcomes, delays: lane.delays, samples: lane.samples,
      sampleInterval: result.sampleInterval, peak: lane.peak, peakStart: lane.peakStart, focus,
    }));
    const chart = new LaneChart({ t: this.t, duration, limit, window: 1, rows, width: container.clientWidth });
    this.charts.push(chart);
    // Requests before the question's own (focusFrom) set the scene: they are in the counts too.
    const setup = focusFrom > 0 ? [el('p', { class: 'lab-playback-note' }, this.t('quiz.setup', { count: focusFrom }))] : [];
    container.replaceChildren(el('p', { class: 'lab-playback-title' }, this.t('quiz.playback', { n: n + 1 })), ...setup, chart.element);
    if (play) chart.play();
  }

  #updateScore() {
    this.scoreText.textContent = this.t('quiz.score', this.score);
  }
}
