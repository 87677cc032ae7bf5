// Two questions whose answers come from the runs on screen: the herd's cost per success, and which
// policy sent the smallest wave of retries in any 100 ms.
import { el, uid, quizOption } from '../lab/dom.js';
import { figures } from './runs.js';

/** The questions for `runs` (herd = the herd preset's runs). */
export function questions(herd, t) {
  const perSuccess = figures(herd.main.metrics).perSuccess;
  const numbers = [perSuccess, Math.round(perSuccess * 30) / 10, Math.max(1, Math.round(perSuccess * 3) / 10)];
  const byPeak = [...herd.rows].sort((a, b) => a.run.metrics.peakRetries - b.run.metrics.peakRetries);
  const calmest = byPeak[0];
  const others = byPeak.slice(-2).filter((r) => r.run.metrics.peakRetries > calmest.run.metrics.peakRetries);
  return [
    // In increasing order (as text, 16.5 would come before 5.5), so the order gives nothing away.
    { id: 'perSuccess', text: t('quiz.perSuccess'), options: [...new Set(numbers)].sort((a, b) => a - b).map((n) => t.number(n, 1)), answer: t.number(perSuccess, 1) },
    { id: 'calmest', text: t('quiz.calmest'), options: [calmest, ...others].map((r) => t(`policies.${r.policy}`)).sort((a, b) => a.localeCompare(b, t.lang)), answer: t(`policies.${calmest.policy}`) },
  ];
}

/**
 * Renders `list` as radio groups, each with a Check button and its feedback, in the lesson's shared
 * quiz look (www/lesson/quiz.css; `root` is the `.quiz`). Graded on Check only:
 * arrow keys move through a radio group choosing as they go, so grading on `change` judged every
 * option a keyboard reader passed over, and told the answer before they had picked one.
 * A question may carry a `why` (the recap's do): said after the verdict, right or wrong.
 */
export function renderQuiz(root, list, t) {
  root.replaceChildren(...list.map((q) => {
    const name = uid(`cl-quiz-${q.id}`);
    // Focusable from script: Check moves the focus to its verdict, which a screen reader then
    // reads (no live region as well: it would be said twice). The why is inside it, so it is read
    // with the verdict.
    const feedback = el('p', { class: 'quiz-verdict', tabindex: '-1' });
    const options = q.options.map((option) => quizOption(name, option, option));
    // Once checked, as in the lab: the right choice marked ✓, a wrong pick ✗ (the verdict says it
    // in words); `chosen` undefined clears the marks.
    const mark = (chosen) => {
      for (const { input, row } of options) {
        row.classList.toggle('quiz-option--right', chosen !== undefined && input.value === q.answer);
        row.classList.toggle('quiz-option--wrong', chosen !== undefined && chosen !== q.answer && input.value === chosen);
      }
    };
    const clear = () => {
      feedback.replaceChildren();
      delete feedback.dataset.correct;
      mark(undefined);
    };
    const inputs = options.map(({ input }) => input);
    for (const input of inputs) input.addEventListener('change', clear);
    const check = () => {
      const chosen = inputs.find((input) => input.checked)?.value;
      clear();
      if (chosen === undefined) {
        feedback.textContent = t('quiz.chooseFirst');
      } else {
        const verdict = t(chosen === q.answer ? 'quiz.right' : 'quiz.wrong', { answer: q.answer });
        feedback.append(el('span', { class: 'quiz-verdict-text' }, verdict));
        // The space keeps the two sentences apart in what is read (the why is a block of its own).
        if (q.why) feedback.append(' ', el('span', { class: 'quiz-why' }, q.why));
        feedback.dataset.correct = String(chosen === q.answer);
        mark(chosen);
      }
      feedback.focus();
    };
    // Each "Check" is described by its question: in a list of buttons they are told apart.
    return el('fieldset', { class: 'quiz-question', 'data-question': q.id }, [
      el('legend', { id: `${name}-prompt` }, q.text),
      ...options.map(({ row }) => row),
      el('button', { type: 'button', class: 'quiz-check', onclick: check, 'aria-describedby': `${name}-prompt` }, t('quiz.check')),
      feedback,
    ]);
  }));
}
