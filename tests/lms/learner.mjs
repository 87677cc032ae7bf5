// A scripted learner for the course-platform e2e tests, acting inside a page or frame (Playwright).
import { before, after } from 'node:test';
import { launch } from '../e2e/harness.mjs';
import { serveStatic } from '../e2e/static-server.mjs';
import { buildPackages } from './packages.mjs';

/**
 * With the diagram's clock paused, sends requests until one is refused; resolves to how many
 * passed. `inElement`: the diagram is a <bucket-lab> element's (H5P), not the lesson's.
 */
export function sendUntilRefused(frame, { inElement = false } = {}) {
  return frame.evaluate(async (element) => {
    const host = element ? document.querySelector('bucket-lab') : null;
    const diagram = host ? host.diagram : window.bucketlab.diagram;
    const root = host ? host.shadowRoot : document.getElementById('bucket-widget');
    diagram.pause();
    let passed = 0;
    for (;;) {
      const decision = new Promise((resolve) => root.addEventListener('bucketlab:decision', (e) => resolve(e.detail), { once: true }));
      root.querySelector('.bl-send').click();
      if (!(await decision).allowed) return passed;
      passed += 1;
    }
  }, inElement);
}

/**
 * Collects the page's xAPI statements (the bucketlab:xapi events) in window.statements, from the
 * first script of every document `target` (a Playwright page or browser context) loads.
 */
export function collectStatements(target) {
  return target.addInitScript(() => {
    window.statements = [];
    document.addEventListener('bucketlab:xapi', (event) => window.statements.push(event.detail));
  });
}

/** Loads the lab and answers every quick-check question with its first option; resolves to the score. */
export async function doQuickCheck(frame) {
  await frame.evaluate(() => window.bucketlab.loadLab());
  await frame.waitForSelector('#algorithm-lab .quiz-question .quiz-check');
  return frame.evaluate(() => {
    for (const question of document.querySelectorAll('#algorithm-lab .quiz-question')) {
      question.querySelector('input[type=radio]').click();
      question.querySelector('.quiz-check').click();
    }
    return window.bucketlab.lab.quiz.score;
  });
}

/** The quick check's prompts on screen in `frame`, in order. */
const prompts = (frame) => frame.evaluate(() => [...document.querySelectorAll('#algorithm-lab .quiz-question legend')].map((l) => l.textContent));

/**
 * The right answers of the quick-check set on screen in `frame` ({ question id: value }), learnt
 * as a learner would from a friend's copy: the same page opened beside it with no LMS and no
 * launch around (so nothing is reported), its "New questions" clicked until it shows the same set, each
 * question checked there to see which option is right.
 */
async function rightAnswers(frame) {
  const wanted = await prompts(frame);
  const copy = await frame.page().context().newPage();
  try {
    await copy.goto(frame.url().replace(/[?#].*$/, ''));
    await copy.evaluate(() => window.bucketlab.loadLab());
    await copy.waitForSelector('#algorithm-lab .quiz-question .quiz-check');
    for (let sets = 0; JSON.stringify(await prompts(copy.mainFrame())) !== JSON.stringify(wanted); sets += 1) {
      if (sets === 20) throw new Error(`no set of the quick check shows ${JSON.stringify(wanted)}`);
      await newQuestions(copy.mainFrame());
    }
    return await copy.evaluate(() => Object.fromEntries([...document.querySelectorAll('#algorithm-lab .quiz-question')].map((question) => {
      question.querySelector('input[type=radio]').click();
      question.querySelector('.quiz-check').click();
      return [question.dataset.question, question.querySelector('.quiz-option--right').dataset.value];
    })));
  } finally {
    await copy.close();
  }
}

/**
 * Loads the lab and answers every quick-check question of the set on screen, each rightly
 * (`right` true) or wrongly (false), or the first `right` of them (a number) rightly and the rest
 * wrongly, as a learner who knows the answers; resolves to the score.
 */
export async function answerQuickCheck(frame, { right }) {
  await frame.evaluate(() => window.bucketlab.loadLab());
  await frame.waitForSelector('#algorithm-lab .quiz-question .quiz-check');
  const answers = await rightAnswers(frame);
  return frame.evaluate(([answers, right]) => {
    for (const [i, question] of [...document.querySelectorAll('#algorithm-lab .quiz-question')].entries()) {
      const want = answers[question.dataset.question];
      const rightly = typeof right === 'number' ? i < right : right;
      [...question.querySelectorAll('input[type=radio]')].find((input) => (input.value === want) === rightly).click();
      question.querySelector('.quiz-check').click();
    }
    return window.bucketlab.lab.quiz.score;
  }, [answers, right]);
}

/** Clicks the quick check's "New questions" and waits for the new, unanswered set. */
export async function newQuestions(frame) {
  const before = await prompts(frame);
  await frame.click('.lab-new-quiz');
  await frame.waitForFunction((before) => {
    const now = [...document.querySelectorAll('#algorithm-lab .quiz-question legend')].map((l) => l.textContent);
    return now.length && JSON.stringify(now) !== JSON.stringify(before) && window.bucketlab.lab.quiz.score.answered === 0;
  }, before);
}

/**
 * For a test file: before its tests, builds the packages (see buildPackages), serves their folder
 * with `pages` ({ path: html, or (dir) => html }) and starts Chromium; after them, stops it all.
 * The returned object's `packages`, `server` and `browser` are set once `before` has run.
 * `lrs()`, when given, is awaited then for the origins the site's policy lets the pages reach.
 */
export function usePackages(packers, runtimes, pages = {}, lrs = () => []) {
  const env = { packages: null, server: null, browser: null };
  before(async () => {
    env.packages = await buildPackages(packers, runtimes, await lrs());
    const built = {};
    for (const [path, page] of Object.entries(pages)) built[path] = typeof page === 'function' ? await page(env.packages.dir) : page;
    env.server = await serveStatic(env.packages.dir, { pages: built });
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
    await env.packages?.remove();
  });
  return env;
}
