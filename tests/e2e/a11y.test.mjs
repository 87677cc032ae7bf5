// axe-core on the lesson: both languages, light and dark; the whole page with the first code tab
// open, then just the panel of each other tab (scanning the rest again would find the same).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { useBrowser } from './harness.mjs';
import { openLesson } from './lesson-helpers.mjs';

const env = useBrowser();

for (const path of ['', 'en.html']) {
  for (const colorScheme of ['light', 'dark']) {
    test(`axe finds no violations: ${path || 'index.html'}, ${colorScheme}`, async () => {
      const page = await openLesson(env, path, { colorScheme });
      const found = [];
      for (const tab of ['algorithm', 'config', 'usage']) {
        await page.click(`#tab-${tab}`);
        if (tab === 'config') await page.waitForFunction(() => document.getElementById('policy-status').textContent !== '');
        const axe = new AxeBuilder({ page });
        if (tab !== 'algorithm') axe.include(`[data-tab=${tab}].tabpanel`);
        const { violations, passes } = await axe.analyze();
        assert.ok(passes.length > 10, 'axe ran its rules');
        found.push(...violations.map((v) => `${tab}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`));
      }
      assert.deepEqual(found, []);
      await page.context().close();
    });
  }
}
