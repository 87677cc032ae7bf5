// The lesson page's link to course platforms. It does three things, each only when asked:
//  - xAPI: every statement is dispatched on `document` as a `bucketlab:xapi` CustomEvent whose
//    `detail` is the statement (xAPI 1.0.3): `experienced` when the lesson opens, `interacted` at
//    the diagram's first refused request (429), `answered` for each quick-check question (with
//    result.success and result.response) and `completed` once, when the first set of the quick
//    check is done (with a scaled score; later sets are practice, see below), and `completed` on
//    the lesson itself (the launched activity) once the learner has both met a 429 and finished
//    the quick check, with whether it passed (at 70 %, or the LMS's passing score in SCORM 2004);
//    a launch's progress is kept in the tab for the other language's page. When the launch
//    names an LRS (www/lms/launch.js) they are also POSTed there;
//    `bucketlab.xapi.pending` and `bucketlab.xapi.dropped` count what is still undelivered.
//  - SCORM 1.2 / 2004: inside an LMS (www/lms/scorm.js) it reports the quick check's best score,
//    and completion once the learner has both met a 429 and finished the quick check, in this
//    sitting or an earlier one (suspend_data); it reports the session time, commits, saves and
//    ends the session (suspended, or finished once the learner is done) on pagehide, unless the
//    next page is one of the lesson's (the other language's, Back or a reload), which carries the
//    session on. Each answer of the quick check's first set is an interaction. The section the
//    learner was reading is the location, where a resumed sitting opens (resumedAt).
//  - Outside an LMS and without an LRS it only dispatches the events, and writes nothing anywhere.
import tables from '../i18n/locales/lms.js';
import { langOf, translator } from '../i18n/translate.js';
import { DEFAULT_PASSING, findLms, LaunchError, readLaunch } from './launch.js';
import { anonymousActor, statementMaker } from './statements.js';
import { PAGE, readingPlace } from '../lesson/language.js';
import { answersOf, keepAnswers } from '../lesson/quiz-answers.js';

const warn = (message) => console.warn(message);
const home = /^https?:$/.test(location.protocol) ? location.origin : 'https://bucketlab.invalid';

let launch = {};
try {
  launch = readLaunch(new URLSearchParams(location.search), document.body.dataset);
} catch (error) {
  if (!(error instanceof LaunchError)) throw error;
  warn(`bucketlab: ${error.message}; statements stay in the page`);
}

const lms = findLms();
// The SCORM run-time and the LRS queue load only for a launch that has them (most readers have
// neither): the module waits for them then, before main.js runs, as a static import would.
const scorm = lms ? new (await import('./scorm.js')).ScormSession(lms, { warn }) : null;
// Inside an LMS the page's address is the package's, behind the LMS's login: the "Embed this"
// snippets built from it would work nowhere else, so the panel is not offered there.
if (lms) document.getElementById('embed-panel')?.setAttribute('hidden', '');
const learner = scorm?.learnerId;
const actor = launch.actor ?? (learner ? { objectType: 'Agent', account: { homePage: home, name: learner } } : anonymousActor(home));
/** The folder the lesson's pages are in (the package's, in an LMS). */
const folder = new URL('./', location.href).href.split(/[?#]/)[0];
/** The lesson's pages in `folder`: the folder itself (index.html) and each language's page. */
const LESSON_PAGES = ['', ...Object.values(PAGE).map((page) => page.replace(/^\.\//, ''))];
/** Whether `url` is one of the lesson's pages, in this page's folder. */
function isLessonPage(url) {
  const { href } = new URL(url);
  const path = href.split(/[?#]/)[0];
  return path.startsWith(folder) && LESSON_PAGES.includes(path.slice(folder.length));
}
// The activity the launch names; else the one the package's tincan.xml names (written into its
// pages, data-xapi-activity on <body>); else the lesson's folder.
const lessonId = launch.activityId ?? launch.packageActivityId ?? folder;
/** This page's language (each language is a page of its own: it never changes here). */
const pageLanguage = langOf(document.documentElement);
const make = statementMaker({
  lesson: lessonId,
  actor,
  registration: launch.registration,
  lang: pageLanguage,
  tables,
});

let queue = null;
if (launch.endpoint) {
  const { LrsQueue } = await import('./lrs.js');
  queue = new LrsQueue({ endpoint: launch.endpoint, auth: launch.auth, warn });
  // A page policy that refuses the LRS makes every POST fail like a network error: say which
  // setting it is, once, with the fix.
  const origin = new URL(launch.endpoint).origin;
  const refused = (event) => {
    if (!event.blockedURI.startsWith(origin)) return;
    document.removeEventListener('securitypolicyviolation', refused);
    queue.block();
    warn(`bucketlab: the page's Content-Security-Policy (${event.effectiveDirective}) refuses the LRS at ${origin}: ` +
      `add ${origin} to connect-src (for dist/_headers: make dist LRS=${origin})`);
  };
  document.addEventListener('securitypolicyviolation', refused);
}

const counts = { get pending() { return queue?.pending ?? 0; }, get dropped() { return queue?.dropped ?? 0; } };
// main.js imports this module, so it runs before main.js's own code, which then adds its members
// to the same window.bucketlab.
window.bucketlab ??= {};
window.bucketlab.xapi = counts;

function emit(statement) {
  document.dispatchEvent(new CustomEvent('bucketlab:xapi', { detail: statement }));
  queue?.send(statement);
}

// Progress toward completion. Inside an LMS it starts from what an earlier sitting or the other
// language's page saved (suspend_data), and every step is saved at once, so leaving never loses it.
// The quick check counts once per attempt: the first set finished sends its `answered` statements
// and the one `completed`. A later set ("New questions", or the quick check in a later sitting) is
// practice: it sends no statement (its questions reuse the first set's activity ids with other
// numbers, and an LRS keeps one definition per id), and its score reaches the LMS only when it
// beats the best one reported, so a reported score never goes down.
// Outside SCORM, an xAPI launch's progress is kept in this tab (sessionStorage) for its lesson,
// registration and learner, so the other language's page, which the language link opens with the
// same launch, or a reload carries it on: the 429 met on one page and the quick check finished on
// the other complete the lesson once.
const launchKey = !scorm && (launch.endpoint || launch.activityId || launch.registration)
  ? `bucketlab:xapi-progress:${JSON.stringify([lessonId, launch.registration ?? null, actor])}` : null;
/** What this tab kept for the launch, or null (none, or storage refused: a sandbox, a setting). */
function keptProgress() {
  try {
    const kept = launchKey && JSON.parse(sessionStorage.getItem(launchKey) ?? 'null');
    return kept && typeof kept === 'object' ? kept : null;
  } catch {
    return null;
  }
}
const kept = keptProgress();
const progress = scorm?.savedProgress ?? {
  refused: kept?.refused === true, quizDone: kept?.quizDone === true, best: null, answers: answersOf(kept?.answers),
};
// The first set's answers so far come back into the quick check (the page's own handoff, from the
// language link, goes over them).
keepAnswers(progress.answers);
let completed = kept?.completed === true || (progress.refused && progress.quizDone);
/** The scaled score that passes the quick check: the LMS's in SCORM 2004, else 70 %. */
const passing = scorm?.passingScore ?? DEFAULT_PASSING;
/** Whether a set of the quick check ({ correct, total }) passes. */
const passes = ({ correct, total }) => total > 0 && correct / total >= passing;
/** Whether the quick check passed: its best reported set in an LMS, else the first set's. */
let passed = progress.best ? passes(progress.best) : typeof kept?.passed === 'boolean' ? kept.passed : undefined;
const keep = () => {
  if (!launchKey) return;
  try {
    const { refused, quizDone, answers } = progress;
    sessionStorage.setItem(launchKey, JSON.stringify({ refused, quizDone, answers, passed, completed }));
  } catch {
    // Storage refused: the progress stays in this page, as before.
  }
};
const save = (options) => {
  scorm?.saveProgress({ ...progress, lang: pageLanguage }, options);
  keep();
  sayProgress();
};
const maybeComplete = () => {
  if (!progress.refused || !progress.quizDone || completed) return;
  completed = true;
  keep();
  sayProgress();
  scorm?.reportCompleted();
  emit(make.lessonCompleted(passed));
};

// What completes the lesson in the course, said under the quick check while it is tracked (an LMS,
// an xAPI launch): a learner who finished the quick check without meeting a 429 would otherwise
// see a full score and an activity the course still counts unfinished. An LMS that refused the
// session (Initialize answered false) records nothing, and the note says so instead.
const courseNote = scorm || launchKey ? Object.assign(document.createElement('p'), { className: 'notice course-progress' }) : null;
function sayProgress() {
  if (!courseNote) return;
  const t = translator(tables, pageLanguage);
  courseNote.textContent = t(scorm && !scorm.active ? 'progressOff'
    : completed ? 'progressDone' : progress.refused ? 'progressQuiz' : progress.quizDone ? 'progress429' : 'progressBoth');
}
sayProgress();
if (courseNote) {
  courseNote.setAttribute('role', 'status');
  document.getElementById('algorithm-lab')?.after(courseNote);
}

emit(make.experienced());

// Any of the page's diagrams counts (the one in the lesson, a live one on the first screen).
document.addEventListener('bucketlab:decision', (event) => {
  if (progress.refused || event.detail?.allowed !== false) return;
  progress.refused = true;
  emit(make.interacted(event.detail));
  save();
  maybeComplete();
});

document.addEventListener('bucketlab:answer', (event) => {
  const { score, firstSet, ...question } = event.detail;
  const practice = progress.quizDone;
  if (!practice) emit(make.answered(question));
  // Only the first set's answers are shown again; a later set's ids have other numbers. One
  // answer is saved without a commit of its own: the next step's or leaving's carries it.
  const firstAnswer = !practice && firstSet;
  if (firstAnswer) {
    progress.answers = { ...progress.answers, [question.id]: question.response };
    scorm?.reportAnswer(question, pageLanguage);
  }
  if (score.answered < score.total) {
    if (firstAnswer) save({ commit: false });
    return;
  }
  if (!practice) emit(make.completed(score, passes(score)));
  progress.quizDone = true;
  if (scorm?.reportScore(score, progress.best)) progress.best = { correct: score.correct, total: score.total };
  passed = progress.best ? passes(progress.best) : (passed ?? passes(score));
  save();
  maybeComplete();
});

// A language link opens the other language's page in this frame, and so does this page as it
// opens when the reader's remembered language is the other one (bucketlab:to-other-language, from
// lesson/language.js); so do Back and Forward between the two, and a reload of the frame. The
// lesson page that comes next carries the session on, so it stays open then, even once the
// lesson is complete (a better set there still counts): ended here, the next page's Initialize
// would be refused and nothing more would reach the LMS. A link opened elsewhere (a modifier
// key, another button) leaves this page here. Any other way out (the tab closed, the LMS's next
// item, another page in the frame) ends the session.
let toLessonPage = false;
document.addEventListener('click', (event) => {
  const plain = event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
  if (plain && !event.defaultPrevented && event.target.closest?.('.lang-switch a[data-lang]')) toLessonPage = true;
});
document.addEventListener('bucketlab:to-other-language', () => { toLessonPage = true; });
// The Navigation API (where the browser has it) names every move this frame makes: a reload, a
// step through the history, a link. A cross-document one to a lesson page in this folder keeps
// the session open; one that fails leaves this page here, as it was.
globalThis.navigation?.addEventListener('navigate', (event) => {
  if (!event.destination.sameDocument && isLessonPage(event.destination.url)) toLessonPage = true;
});
globalThis.navigation?.addEventListener('navigateerror', () => { toLessonPage = false; });

addEventListener('pagehide', () => {
  queue?.flushOnExit();
  scorm?.leave(completed, toLessonPage, readingPlace());
});

/**
 * In a sitting an LMS resumes, on its first page, the language of the page the last sitting was
 * left on (saved in suspend_data, so it follows the learner to another computer), which
 * lesson/language.js then opens as it does a remembered choice; else null.
 */
export const resumedLang = scorm?.resumedLang ?? null;
// A page the learner moved to in this session (the language link, Back) keeps its language for
// the next sitting at once: the leaving's commit carries it.
if (scorm?.continuing && progress.lang !== pageLanguage) save({ commit: false });

/**
 * In a sitting an LMS resumes, the section the learner was reading when the last one was left
 * (what the LMS hands back: lesson/main.js scrolls there only to one of the page's sections); else null.
 */
export const resumedAt = scorm?.resumedPlace ?? null;
