// The lesson on paper (print media): every code tab's panel prints under its tab's name, and the
// controls that only work on screen (tabs, tech toggle, Copy, the labs' and servers' buttons, the
// quizzes' Check) do not; the presets, whose labels say what they show, stay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './harness.mjs';
import { openLesson } from './lesson-helpers.mjs';

const env = useBrowser();
const PARTS = ['algorithm-lab', 'flood-lab', 'clients-lab', 'traffic-lab', 'recap-checks'];

for (const [path, tabs] of [['en.html', ['Algorithm', 'Configuration', 'Usage']], ['', ['Algoritmo', 'Configuração', 'Uso']]]) {
  test(`print (${path || 'index.html'}): every code tab's panel under its name, no screen-only control`, async () => {
    const page = await openLesson(env, path, { viewport: { width: 1280, height: 800 } });
    // Every lazily loaded part in, with a sample log replayed, as a reader who scrolled through.
    await page.keyboard.press('Tab');
    await page.waitForFunction((ids) => ids.every((id) => /-ready\b/.test(document.getElementById(id).className)), PARTS);
    await page.click('#traffic-lab .tr-sample');
    await page.waitForSelector('#traffic-lab .tr-exports');
    await page.emulateMedia({ media: 'print' });
    const printed = await page.evaluate(() => {
      const shown = (e) => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 1 && getComputedStyle(e).visibility !== 'hidden';
      return {
        panels: [...document.querySelectorAll('#codigo .tabpanel')].map((panel) => {
          const title = panel.querySelector('.tabpanel-title');
          return [panel.id, shown(panel), shown(title) ? title.textContent : null, shown(panel.querySelector('pre'))];
        }),
        controls: [...document.querySelectorAll('main button, main [role=tablist]')].filter(shown)
          .filter((b) => !b.matches('.df-preset, .cl-preset, .cl-try-item, .tr-sort'))
          .map((b) => `${b.closest('section[id]')?.id}: ${b.className || b.tagName} "${b.textContent.trim().slice(0, 30)}"`),
      };
    });
    assert.deepEqual(printed.panels, [
      ['codigo-algoritmo', true, tabs[0], true],
      ['codigo-configuracao', true, tabs[1], true],
      ['codigo-uso', true, tabs[2], true],
    ]);
    assert.deepEqual(printed.controls, []);
    await page.context().close();
  });
}

test('print, straight after opening: every code listing whole, and no part\'s "Loading…" line', async () => {
  for (const path of ['en.html', '']) {
    const page = await openLesson(env, path, { viewport: { width: 1280, height: 800 } });
    await page.emulateMedia({ media: 'print' });
    const printed = await page.evaluate(() => {
      const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
      return {
        cut: [...document.querySelectorAll('.code-block pre')].filter(shown)
          .filter((pre) => pre.scrollHeight > pre.clientHeight + 1).map((pre) => pre.closest('[id]')?.id),
        listings: [...document.querySelectorAll('.code-block pre')].filter(shown).length,
        loading: [...document.querySelectorAll('main p')].filter(shown).filter((p) => getComputedStyle(p).fontSize !== '0px')
          .filter((p) => /^(Loading|Carregando)…$/.test(p.textContent.trim())).length,
        parts: ['algorithm-lab', 'servers-widget', 'flood-lab', 'clients-lab', 'traffic-lab'].filter((id) => /-ready\b/.test(document.getElementById(id).className)),
        // Where each part would be, a line says it was not opened (the text around it says "below").
        notes: [...document.querySelectorAll('main [data-print]')].filter(shown)
          .map((p) => [p.closest('section[id]').id, getComputedStyle(p, '::before').content, getComputedStyle(p).fontSize]),
      };
    });
    assert.deepEqual(printed.parts, [], 'no part loaded: the reader did not scroll');
    const note = path ? 'An interactive part of the lesson goes here. It was not opened on screen before printing: scroll to it, then print again to include it, or try it in the lesson online.'
      : 'Aqui fica uma parte interativa da lição. Ela não foi aberta na tela antes da impressão: role até ela e imprima de novo para incluí-la, ou experimente-a na lição online.';
    assert.deepEqual(printed.notes.map(([, content, size]) => [content, size]), printed.notes.map(() => [JSON.stringify(note), '0px']));
    assert.equal(printed.notes.length, 6, `one per part: ${printed.notes.map(([id]) => id)}`);
    assert.ok(printed.listings >= 5, `${printed.listings} listings on paper`);
    assert.deepEqual(printed.cut, [], 'no listing cut at its screen height');
    assert.equal(printed.loading, 0);
    await page.context().close();
  }
});
