// axe-core on the lesson: both languages, light and dark, with each code tab open.
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
        const { violations, passes } = await new AxeBuilder({ page }).analyze();
        assert.ok(passes.length > 20, 'axe ran its rules');
        found.push(...violations.map((v) => `${tab}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`));
      }
      assert.deepEqual(found, []);
      await page.context().close();
    });
  }
}
