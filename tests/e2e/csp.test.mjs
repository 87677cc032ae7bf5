// The Content-Security-Policy: the lesson's own scripts and styles; inline, only early.js by its hash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, CSP } from './harness.mjs';

const env = useBrowser();

test('both pages run under the strict CSP with no violation, Config tab included', async () => {
  for (const path of ['', 'en.html']) {
    const page = await openPage(env.browser);
    await page.route('**/*', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': CSP } });
    });
    await page.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(new URL(path, env.server.url).href);
    await page.waitForSelector('#bucket-widget .bl-widget[data-live]');
    await page.click('#bucket-widget .bl-send');
    await page.click('#tab-config');
    await page.waitForFunction(() => /Aplicado|Applied/.test(document.getElementById('policy-status').textContent));
    await page.click('#tab-usage');
    await page.click('.tech-option[data-tech=go]');
    assert.deepEqual(await page.evaluate(() => window.cspViolations), [], path || 'index.html');
    // The policy is really in force: an inline style is refused.
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<style>body{}</style>'));
    await page.waitForFunction(() => window.cspViolations.length === 1);
    // The hash allows early.js's text only: another inline script is refused too.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.sneaked = true;';
      document.head.append(script);
    });
    await page.waitForFunction(() => window.cspViolations.length === 2);
    assert.equal(await page.evaluate(() => window.sneaked), undefined);
    await page.context().close();
  }
});
