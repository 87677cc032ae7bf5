import { serve, launch, openPage } from './tests/e2e/harness.mjs';
const server = await serve({ mounts: { 'bench/': new URL('./bench/pages/', import.meta.url).pathname } });
const browser = await launch();
const res = {};
for (let k = 0; k < 7; k++) for (const path of ['bench/bench-bare.html', 'embed.html', 'index.html']) {
  const page = await openPage(browser);
  await page.goto(server.url + path);
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length);
  (res[path] ??= []).push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime));
  await page.context().close();
}
for (const [p, v] of Object.entries(res)) console.log(p.padEnd(22), 'FCP median', v.sort((a, b) => a - b)[3].toFixed(0), v.map((x) => x.toFixed(0)).join(' '));
await browser.close(); await server.close();
