// Loads HTML reports in headless chromium (playwright-core from tests/browser) and prints, per page,
// its size and the medians over several loads of: the time until the script has drawn the page,
// the first contentful paint, and expanding one collapsed tree node (click to the next frame but one).
// Usage: node page_speed.mjs REPEATS PAGE...
import { createRequire } from 'node:module';
import { statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const require = createRequire(join(dirname(fileURLToPath(import.meta.url)), '../../tests/browser/package.json'));
const { chromium } = require('playwright-core');
const [repeats, ...pages] = process.argv.slice(2);
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const browser = await chromium.launch({
  executablePath: process.env.PARPERF_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
for (const file of pages) {
  const drawn = [], paint = [], expand = [];
  for (let r = 0; r < Number(repeats); ++r) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const started = Date.now();
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-ready="1"]');
    drawn.push(Date.now() - started);
    paint.push(await page.evaluate(() => {
      const p = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
      return p ? p.startTime : NaN;
    }));
    expand.push(await page.evaluate(() => new Promise((resolve) => {
      let toggle = document.querySelector('table.tree tr[aria-expanded="false"] [data-toggle]');
      if (!toggle) {  // everything is open: close the last open interval below the program first
        const open = [...document.querySelectorAll('table.tree tr[aria-expanded="true"]:not([data-index="0"]) [data-toggle]')];
        if (!open.length) { resolve(NaN); return; }
        toggle = open[open.length - 1];
        toggle.click();
        toggle = document.querySelector('table.tree tr[aria-expanded="false"] [data-toggle]');
      }
      const t0 = performance.now();
      toggle.click();
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
    })));
    await page.close();
  }
  console.log(`${file}: ${(statSync(file).size / 1e6).toFixed(2)} MB; drawn ${median(drawn)} ms, ` +
    `first contentful paint ${median(paint).toFixed(0)} ms, expanding a node ${median(expand).toFixed(1)} ms ` +
    `(medians of ${repeats} loads)`);
}
await browser.close();
