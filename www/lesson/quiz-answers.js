// The quick check's answers to its first set that a reader gave on another page or in an earlier
// sitting, shown again when the lab mounts (www/lesson/lab/quiz.js): the other language's page gets
// them in the language link's handoff (main.js), a sitting an LMS resumes in its suspend_data
// (www/lms/). Only as data: the quiz shows an answer only for one of its questions and options.

/** Most questions a set has, and the longest id or value kept: anything beyond is not ours. */
const MAX_ANSWERS = 20;
const MAX_TEXT = 40;

let kept = {};

/** `value` as answers ({ question id: chosen value }, both short strings), or {} when it is not. */
export function answersOf(value) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const entries = Object.entries(value).filter(([id, chosen]) =>
    id.length <= MAX_TEXT && typeof chosen === 'string' && chosen.length <= MAX_TEXT);
  return entries.length <= MAX_ANSWERS ? Object.fromEntries(entries) : {};
}

/** Keeps `answers` for the quiz to show when it mounts (what is not answers is dropped). */
export function keepAnswers(answers) {
  kept = answersOf(answers);
}

/** The answers kept for the quiz's first set. */
export function keptAnswers() {
  return kept;
}
