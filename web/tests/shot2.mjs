import { chromium } from 'playwright-core';
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-chrome-'));
const ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu'], viewport: { width: 1400, height: 1000 } });
const page = await ctx.newPage();
page.on('pageerror', (e) => console.log('pageerror:', e.message));
for (const [url, out, step] of [[`http://127.0.0.1:8123/#replay/1/2`, '/tmp/tw/d.png', 40], [`http://127.0.0.1:8123/#replay/2/1`, '/tmp/tw/o.png', 60], [`http://127.0.0.1:8123/#replay/0/1`, '/tmp/tw/i.png', 120]]) {
  await page.goto('about:blank'); await page.goto(url);
  await page.waitForSelector('#replay-board .square');
  await page.fill('#jump', String(step)); await page.click('#jump-go');
  await page.waitForTimeout(300);
  await page.screenshot({ path: out, fullPage: true });
}
await ctx.close();
