// Helpers for the lesson page's e2e tests (tabs, tech toggle, config, permalink, languages).
import { openPage, waitForWidget } from './harness.mjs';

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

/** Opens `path`, scrolls to the lazily loaded part at `mount` and waits for its `ready` class. */
export async function openMounted(env, path, mount, ready, options = {}) {
  const page = await openLesson(env, path, options);
  await page.locator(mount).scrollIntoViewIfNeeded();
  await page.waitForSelector(`${mount}.${ready}`);
  return page;
}
