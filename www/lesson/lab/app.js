// Mounts the algorithm lab: loads its own wasm module (bucketlab_lab, without the diagram), then
// the comparison lanes, the lesson text and table, the limit-keys demo, "Try this" and the quiz.
// The language is <html lang> at mount; `bucketlab:langchange` re-renders every part.
import init, { simulate, TokenBucket } from '../../pkg/bucketlab_lab.js';
import tables from '../../i18n/locales/lab.js';
import { langOf, pickLang, translator } from '../../i18n/translate.js';
import { notLoaded } from '../../i18n/refusal.js';
import { el } from './dom.js';
import { Comparison } from './comparison.js';
import { renderLesson } from './lesson.js';
import { LimitKeys } from './keys.js';
import { Experiments } from './experiments.js';
import { Quiz } from './quiz.js';

/**
 * `answers`: the quick check's first-set answers to show again (see Quiz); `comparison`: the
 * lanes' settings to run again (see Comparison.restore), both from the other language's page;
 * `link`: a lab link's value to run instead (see Comparison.openLink); `linkTo(value)`: the
 * address of a link to the lanes with that value (none: no "Copy a link" button).
 */
export async function mountLab(root, { answers, comparison: settings, link, linkTo } = {}) {
  let t = translator(tables, langOf());
  root.replaceChildren(el('p', { class: 'lab-loading', role: 'status' }, t('loading')));
  try {
    await init();
  } catch (error) {
    root.replaceChildren(el('p', { class: 'lab-error', role: 'alert' }, t('loadFailed', { message: notLoaded(error, t.lang) })));
    throw error;
  }

  // The limit keys demo is linked to from "Designing limits": until the lab is built, its id is
  // the placeholder's (the page's markup), which the link lands on without JavaScript too.
  const IDS = { keys: 'chaves-do-limite' };
  const part = (name) => {
    const heading = el('h3', { tabindex: -1, class: 'lab-heading' });
    const body = el('div', { class: `lab-${name}-body` });
    return { heading, body, section: el('section', { class: `lab-part lab-${name}`, ...(IDS[name] && { id: IDS[name] }) }, [heading, body]) };
  };
  const intro = el('p', { class: 'lab-intro' });
  const parts = {
    comparison: part('comparison'),
    lesson: part('lesson'),
    keys: part('keys'),
    tryThis: part('try'),
    quiz: part('quiz'),
  };
  parts.comparison.section.insertBefore(intro, parts.comparison.body);
  root.replaceChildren(...Object.values(parts).map((p) => p.section));
  const headings = () => {
    parts.comparison.heading.textContent = t('title');
    intro.textContent = t('intro');
    parts.lesson.heading.textContent = t('lesson.title');
    parts.keys.heading.textContent = t('keys.title');
    parts.tryThis.heading.textContent = t('tryThis.title');
    parts.quiz.heading.textContent = t('quiz.title');
  };
  headings();

  const seed = Number(root.dataset.seed ?? 1);
  const comparison = new Comparison(parts.comparison.body, { simulate, t, linkTo });
  if (link !== undefined) comparison.openLink(link);
  else if (settings !== undefined) comparison.restore(settings);
  renderLesson(parts.lesson.body, t);
  const keys = new LimitKeys(parts.keys.body, { simulate, t });
  const sections = { comparison: parts.comparison.section, keys: parts.keys.section };
  const experiments = new Experiments(parts.tryThis.body, { t, comparison, keys, sections });
  const quiz = new Quiz(parts.quiz.body, { simulate, TokenBucket, t, seed, answers });

  document.addEventListener('bucketlab:langchange', (event) => {
    const lang = pickLang(event.detail?.lang ?? document.documentElement.lang);
    if (lang === t.lang) return;
    t = translator(tables, lang);
    headings();
    comparison.setLang(t);
    renderLesson(parts.lesson.body, t);
    keys.setLang(t);
    experiments.setLang(t);
    quiz.setLang(t);
  });

  root.classList.add('lab-ready');
  return {
    get lang() { return t.lang; },
    comparison: comparison.handle,
    keys: {
      setKind: (kind) => keys.setKind(kind),
      get kind() { return keys.kind; },
      results: () => keys.decide(),
    },
    experiments: { run: (id) => experiments.run(id) },
    quiz: {
      get score() { return quiz.score; },
      /** The first set's answers ({ question id: chosen value }); {} while a later set is on. */
      get answers() { return quiz.firstAnswers; },
      reset: (next) => quiz.reset(next),
    },
    simulate,
  };
}
