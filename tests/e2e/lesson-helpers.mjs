// Helpers for the lesson page's e2e tests (tabs, tech toggle, config, permalink, languages).
import { openPage, waitForWidget } from './harness.mjs';
import { GAP_MS } from '../../www/lesson/paced.js';

/** Opens `path` of the served lesson (pt-BR `''`, `en.html`, …) and waits for the diagram. */
export async function openLesson(env, path = '', options = {}) {
  const page = await openPage(env.browser, options);
  await page.goto(new URL(path, env.server.url).href);
  await waitForWidget(page);
  return page;
}

/** The widget's counter as a number (`7,4 / 10` → 7.4). */
export async function widgetCapacity(page) {
  return page.evaluate(() => window.bucketlab.diagram.capacity);
}

/** The page's visible text outside code (`pre`, `code`, `textarea`), plus labels in attributes. */
export function proseText(page) {
  return page.evaluate(() => {
    const clone = document.body.cloneNode(true);
    for (const el of clone.querySelectorAll('pre, code, textarea, script, [hidden]')) el.remove();
    const attributes = [...document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')]
      .filter((el) => !el.closest('pre'))
      .flatMap((el) => ['aria-label', 'title', 'alt', 'placeholder'].map((a) => el.getAttribute(a)).filter(Boolean));
    return `${document.title}\n${clone.textContent}\n${attributes.join('\n')}`.replace(/\s+/g, ' ');
  });
}

/** Each lazily loaded part's mount, and the page's on-demand loader for it (www/lesson/lazy.js). */
const LOADERS = {
  '#algorithm-lab': 'loadLab',
  '#clients-lab': 'loadClients',
  '#traffic-lab': 'loadTraffic',
  '#flood-lab': 'loadDefense',
  '#recap-checks': 'loadRecap',
  '#servers-widget': 'loadServers',
};

/** Loads every lazily loaded part through the page's own loaders, so that nothing moves after. */
export async function loadEveryPart(page) {
  const names = Object.values(LOADERS);
  await page.waitForFunction((all) => all.every((n) => typeof window.bucketlab?.[n] === 'function'), names);
  await page.evaluate((all) => Promise.all(all.map((n) => window.bucketlab[n]())), names);
}

/**
 * Presses `key` `times` times on the focused control, recording from the first press what the
 * paced live region at `region` says (www/lesson/paced.js), and what `shown` reads after each press
 * (if given). Resolves to { said, shown, most } once the region says `last(shown)` (or `last`):
 * `most` is how many sentences it may say over the time the presses took, the first at once and
 * then one a gap, so a machine slow enough to spread the presses over gaps never fails it.
 */
export async function pressPaced(page, { region, key, times, shown: read, last }) {
  await page.evaluate((sel) => {
    const live = document.querySelector(sel);
    window.__said = [];
    new MutationObserver(() => { if (live.textContent) window.__said.push(live.textContent); })
      .observe(live, { childList: true, characterData: true, subtree: true });
  }, region);
  const shown = [];
  const began = await page.evaluate(() => performance.now());
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(key);
    if (read) shown.push(await page.textContent(read));
  }
  const took = await page.evaluate((t) => performance.now() - t, began);
  await page.waitForFunction(([sel, text]) => document.querySelector(sel).textContent === text, [region, last ?? shown.at(-1)]);
  return { said: await page.evaluate(() => window.__said), shown, most: 2 + Math.floor(took / GAP_MS) };
}

/**
 * Scrolls to the lazily loaded part at `mount`, as a reader would, and makes sure it loads: the
 * scroll can end past it once the sections above it get their real heights (content-visibility),
 * out of the observer's reach, so the page's own loader is called too (it loads once either way).
 */
export async function loadPart(page, mount, ready) {
  await page.locator(mount).scrollIntoViewIfNeeded();
  await page.waitForFunction((name) => typeof window.bucketlab?.[name] === 'function', LOADERS[mount]);
  await page.evaluate((name) => window.bucketlab[name](), LOADERS[mount]);
  await page.waitForSelector(`${mount}.${ready}`);
}

/** Opens `path`, scrolls to the lazily loaded part at `mount` and waits for its `ready` class. */
export async function openMounted(env, path, mount, ready, options = {}) {
  const page = await openLesson(env, path, options);
  await loadPart(page, mount, ready);
  return page;
}

/**
 * Waits until a replay put in the diagram is shown as main.js's showReplay promises: the bucket
 * whole in the window, and the focus on a control that steps the replay (its timeline, or "Step
 * 0.1 s"), or on the notice above it where neither fits with the bucket (a phone), in view too.
 * Resolves to the focused element's class ('bl-scrub', 'bl-step' or 'notice').
 */
export async function replayShown(page) {
  await page.waitForFunction(() => {
    const inView = (element) => {
      const box = element?.getBoundingClientRect();
      return !!box && box.top >= 0 && box.bottom <= innerHeight;
    };
    return inView(document.querySelector('#bucket-widget .bl-bucket'))
      && document.activeElement?.matches('#bucket-widget .bl-scrub, #bucket-widget .bl-step, #replay-notice')
      && inView(document.activeElement);
  });
  return page.evaluate(() => ['bl-scrub', 'bl-step', 'notice'].find((name) => document.activeElement.classList.contains(name)));
}

/**
 * In `frame` (a page or an LMS's frame), answers the quick check's questions at `indices` (from
 * 0), each with its option `option` (from 0), and checks them; resolves to those answers
 * ({ question id: value }).
 */
export function answerSome(frame, indices, option) {
  return frame.evaluate(([indices, option]) => {
    const questions = document.querySelectorAll('#algorithm-lab .quiz-question');
    return Object.fromEntries(indices.map((i) => {
      const input = questions[i].querySelectorAll('input[type=radio]')[option];
      input.click();
      questions[i].querySelector('.quiz-check').click();
      return [questions[i].dataset.question, input.value];
    }));
  }, [indices, option]);
}

/** The quick check as `frame` shows it: its score and the checked answers ({ question id: value }). */
export function quizShown(frame) {
  return frame.evaluate(() => ({
    score: window.bucketlab.lab.quiz.score,
    checked: Object.fromEntries([...document.querySelectorAll('#algorithm-lab .quiz-question')]
      .filter((q) => q.querySelector('input:checked')).map((q) => [q.dataset.question, q.querySelector('input:checked').value])),
  }));
}
