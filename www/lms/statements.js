// The xAPI statements the lesson makes (xAPI 1.0.3): pure functions from what happened to a
// statement object, so Node tests can validate them without a browser. Names and verb displays
// come in both languages from locales/<lang>/lms.json (passed in as `tables`).

import { LANGS, translator } from '../i18n/translate.js';

const XAPI_VERSION = '1.0.3';
const ADL = 'http://adlnet.gov/expapi';

/**
 * The result extensions the lesson writes (IRIs of its own, the same in every course): the
 * diagram's capacity B (tokens) and refill rate r (tokens a second) at the refused request.
 */
export const EXTENSIONS = {
  capacity: 'https://bucketlab.invalid/xapi/extensions/capacity',
  refillRate: 'https://bucketlab.invalid/xapi/extensions/refill-rate',
};

/** The four verbs the lesson uses, by name. */
export const VERBS = ['experienced', 'interacted', 'answered', 'completed'];

/**
 * A language map ({ 'pt-BR': …, en: … }) of `key`, each language's text from the one translator;
 * a language without the key is left out.
 */
function languageMap(tables, key) {
  const map = {};
  for (const lang of LANGS) {
    const t = translator(tables, lang);
    if (t.raw(key) !== undefined) map[lang] = t(key);
  }
  return map;
}

/** A random version-4 UUID (crypto.randomUUID exists only in secure contexts). */
function uuid() {
  if (globalThis.crypto?.randomUUID) return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The learner when nobody said who: an account on the page's own site (xAPI needs an actor). */
export function anonymousActor(homePage) {
  return { objectType: 'Agent', account: { homePage, name: 'anonymous' } };
}

/**
 * A statement maker for one session: `lesson` is the lesson's activity id (an IRI), `actor` the
 * learner, `registration` the launch's UUID (or undefined), `lang` the page's language, `tables`
 * the lms words. Each method returns one complete statement (id and timestamp included).
 */
export function statementMaker({ lesson, actor, registration, lang, tables, now = () => new Date() }) {
  const quiz = `${lesson}#quick-check`;
  const verb = (name) => ({ id: `${ADL}/verbs/${name}`, display: languageMap(tables, `verbs.${name}`) });
  const activity = (id, nameKey, type) => ({
    objectType: 'Activity',
    id,
    definition: { name: languageMap(tables, nameKey), type: `${ADL}/activities/${type}` },
  });
  const make = (name, object, { result, parents = [] } = {}) => {
    const context = { language: lang, platform: 'bucketlab' };
    if (registration) context.registration = registration;
    if (parents.length) context.contextActivities = { parent: parents.map((id) => ({ objectType: 'Activity', id })) };
    const statement = { id: uuid(), actor, verb: verb(name), object, context, timestamp: now().toISOString(), version: XAPI_VERSION };
    if (result) statement.result = result;
    return statement;
  };

  return {
    /** The lesson was opened. */
    experienced: () => make('experienced', activity(lesson, 'lessonName', 'lesson')),
    /**
     * The first refused request (429) in the diagram; `decision` is its bucketlab:decision detail.
     * The activity's name is the same for every learner (an LRS keeps one definition per id); the
     * bucket the learner had set, B and r, is in the result.
     */
    interacted: (decision) => make('interacted', activity(`${lesson}#diagram`, 'widgetName', 'simulation'), {
      result: {
        response: String(decision.status),
        extensions: { [EXTENSIONS.capacity]: decision.capacity, [EXTENSIONS.refillRate]: decision.refillRate },
      },
      parents: [lesson],
    }),
    /**
     * One quick-check question answered: `question` is { id, prompt, choices: [{ value, label }],
     * answer, response }; the statement carries the choices, the correct one and the learner's.
     */
    answered: (question) => make('answered', {
      objectType: 'Activity',
      id: `${quiz}/${encodeURIComponent(question.id)}`,
      definition: {
        name: { [lang]: question.prompt },
        type: `${ADL}/activities/cmi.interaction`,
        interactionType: 'choice',
        correctResponsesPattern: [question.answer],
        choices: question.choices.map((c) => ({ id: c.value, description: { [lang]: c.label } })),
      },
    }, {
      result: { success: question.response === question.answer, response: question.response },
      parents: [quiz, lesson],
    }),
    /**
     * The lesson itself done, on the activity the LMS launched: the learner met a refused request
     * and finished the quick check. `success` is whether that quick check passed, or undefined
     * when this page does not know it (left out then).
     */
    lessonCompleted: (success) => make('completed', activity(lesson, 'lessonName', 'lesson'), {
      result: success === undefined ? { completion: true } : { completion: true, success },
    }),
    /** The quick check finished: `score` is { correct, total }; `success` whether it passed. */
    completed: (score, success) => make('completed', activity(quiz, 'quizName', 'assessment'), {
      result: {
        completion: true,
        success,
        score: { scaled: score.total ? score.correct / score.total : 0, raw: score.correct, min: 0, max: score.total },
      },
      parents: [lesson],
    }),
  };
}
