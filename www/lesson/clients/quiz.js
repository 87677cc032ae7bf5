// Two questions whose answers come from the runs on screen: the herd's cost per success, and which
// policy sent the smallest wave of retries in any 100 ms.
import { el, uid } from '../lab/dom.js';
import { figures } from './runs.js';

/** The questions for `runs` (herd = the herd preset's runs). */
export function questions(herd, t) {
  const perSuccess = figures(herd.main.metrics).perSuccess;
  const numbers = [perSuccess, Math.round(perSuccess * 30) / 10, Math.max(1, Math.round(perSuccess * 3) / 10)];
  const byPeak = [...herd.rows].sort((a, b) => a.run.metrics.peakRetries - b.run.metrics.peakRetries);
  const calmest = byPeak[0];
  const others = byPeak.slice(-2).filter((r) => r.run.metrics.peakRetries > calmest.run.metrics.peakRetries);
  return [
    { id: 'perSuccess', text: t('quiz.perSuccess'), options: [...new Set(numbers)].map((n) => t.number(n, 1)), answer: t.number(perSuccess, 1) },
    { id: 'calmest', text: t('quiz.calmest'), options: [calmest, ...others].map((r) => t(`policies.${r.policy}`)), answer: t(`policies.${calmest.policy}`) },
  ].map((q) => ({ ...q, options: [...q.options].sort() }));
}

/** Renders `list` as radio groups with feedback. */
export function renderQuiz(root, list, t) {
  root.replaceChildren(...list.map((q) => {
    const name = uid(`cl-quiz-${q.id}`);
    const feedback = el('p', { class: 'cl-feedback', role: 'status' });
    const choose = (option) => {
      feedback.textContent = t(option === q.answer ? 'quiz.right' : 'quiz.wrong', { answer: q.answer });
      feedback.dataset.correct = String(option === q.answer);
    };
    return el('fieldset', { class: 'cl-question', 'data-question': q.id }, [
      el('legend', {}, q.text),
      ...q.options.map((option) => el('label', {}, [
        el('input', { type: 'radio', name, value: option, onchange: () => choose(option) }), ` ${option}`,
      ])),
      feedback,
    ]);
  }));
}
