#!/usr/bin/env node
// Renders lesson/social.svg, the picture a shared link of the lesson shows (og:image, which
// link previews take only as PNG or JPEG), into www/social.png at 1200 × 630 in headless
// Chromium. Run by hand after changing the SVG (the build has no browser): the PNG is committed.
// scripts/dist.mjs names it in each lesson page when the site's address is given (SITE).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const svg = await readFile(join(ROOT, 'lesson', 'social.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
  await page.screenshot({ path: join(ROOT, 'www', 'social.png'), clip: { x: 0, y: 0, width: 1200, height: 630 } });
  console.log('social-image: www/social.png (1200 × 630)');
} finally {
  await browser.close();
}
