// The Usage tab's response follows the diagram's last decision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './harness.mjs';
import { openLesson } from './lesson-helpers.mjs';

const env = useBrowser();

test('the 429 shown under the routes is the diagram\'s last response', async () => {
  const page = await openLesson(env, 'en.html#b=3&r=0.5&tab=usage');
  const head = () => page.textContent('.response-head code');
  assert.match(await head(), /^HTTP\/1\.1 429 Too Many Requests\nRetry-After: 1\nX-RateLimit-Limit: 5\n/, 'the example before any request');
  await page.evaluate(() => window.bucketlab.diagram.pause());
  await page.click('#bucket-widget .bl-send');
  await page.waitForFunction(() => document.querySelector('.response-head code').textContent.startsWith('HTTP/1.1 200 OK'));
  assert.equal(await page.getAttribute('.response-head', 'data-status'), '200');
  for (let i = 0; i < 3; i++) await page.click('#bucket-widget .bl-send');
  await page.waitForFunction(() => document.querySelector('.response-head code').textContent.includes('429'));
  // (1 − 0) / 0.5 = 2 s exactly; the head is the one the widget's own panel shows.
  assert.match(await head(), /^HTTP\/1\.1 429 Too Many Requests\nRetry-After: 2\nX-RateLimit-Limit: 3\nX-RateLimit-Remaining: 0\n/);
  assert.equal(await head(), await page.textContent('#bucket-widget .bl-head'));
  assert.equal(await page.textContent('.response-source'), 'The diagram\'s last decision (B = 3, r = 0.5/s, cost 1):');
  await page.context().close();
});

test('numbers in the live caption follow the page\'s language', async () => {
  const page = await openLesson(env, '#b=3&r=0.5&tab=usage');
  await page.evaluate(() => window.bucketlab.diagram.send(1));
  await page.waitForFunction(() => document.querySelector('.response-source').textContent.startsWith('Última'));
  assert.equal(await page.textContent('.response-source'), 'Última decisão do diagrama (B = 3, r = 0,5/s, custo 1):');
  await page.context().close();
});
