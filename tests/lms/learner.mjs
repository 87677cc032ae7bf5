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
  await frame.waitForSelector('.lab-question .lab-check');
  return frame.evaluate(() => {
    for (const question of document.querySelectorAll('.lab-question')) {
      question.querySelector('input[type=radio]').click();
      question.querySelector('.lab-check').click();
    }
    return window.bucketlab.lab.quiz.score;
  });
}

/**
 * For a test file: before its tests, builds the packages (see buildPackages), serves their folder
 * with `pages` ({ path: html, or (dir) => html }) and starts Chromium; after them, stops it all.
 * The returned object's `packages`, `server` and `browser` are set once `before` has run.
 */
export function usePackages(packers, runtimes, pages = {}) {
  const env = { packages: null, server: null, browser: null };
  before(async () => {
    env.packages = await buildPackages(packers, runtimes);
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
