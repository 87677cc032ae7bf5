// A number reads the same on the lesson page (strings.js's formatNumber, in the Usage and Config
// tabs' messages) as in the widget (number.rs through the wasm), in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser } from './harness.mjs';

const env = useBrowser();

// Small values that would read as 0 at 3 decimals, ordinary ones, a sum with a rounding error,
// and values past 2^53, which both write in exponent form.
const VALUES = [0.000123, 0.0004999, 0.000001, 1e-7, 1.2345e-20, 5e-324, 0.5, 7.4, 12345.678, 0.1 + 0.2, 0.9996, 2 ** 53, 1e20, 1.7976931348623157e308];

test('the page writes every number as the widget does: the capacity slider\'s value against formatNumber, in pt-BR and en', async () => {
  const page = await openPage(env.browser);
  await page.goto(`${env.server.url}embed.html?paused`);
  const pairs = await page.evaluate(async (values) => {
    const { formatNumber } = await import('./lesson/strings.js');
    await import('./element/bucket-lab.js');
    const elements = ['pt-BR', 'en'].flatMap((lang) => values.map((value) => {
      const element = document.createElement('bucket-lab');
      for (const [name, text] of [['capacity', String(value)], ['lang', lang], ['paused', '']]) element.setAttribute(name, text);
      document.body.append(element);
      return { element, lang, value };
    }));
    while (elements.some(({ element }) => !element.diagram)) await new Promise((r) => setTimeout(r, 0));
    return elements.map(({ element, lang, value }) => ({
      value: `${lang} ${value}`,
      widget: element.shadowRoot.querySelector('.bl-capacity + .bl-out').textContent,
      page: formatNumber(value, lang),
    }));
  }, VALUES);
  for (const { value, widget, page: written } of pairs) assert.equal(written, widget, value);
  // Spot checks, so that the two can't agree on something wrong.
  const read = Object.fromEntries(pairs.map(({ value, page: written }) => [value, written]));
  assert.equal(read['pt-BR 0.000123'], '0,000123');
  assert.equal(read['en 1e-7'], '1e-7');
  assert.equal(read['pt-BR 12345.678'], '12345,678');
  assert.equal(read['en 0.30000000000000004'], '0.3');
  assert.equal(read['pt-BR 100000000000000000000'], '1e+20');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
