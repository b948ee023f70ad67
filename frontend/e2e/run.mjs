// The browser suite: starts the real server, runs each test in a fresh page of
// Debian's chromium, saves a screenshot per test in test-results/, and prints
// "N passed, N failed". Usage: node e2e/run.mjs [name filter]
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './browser.mjs';
import { startServer } from './server.mjs';
import { roomTests } from './rooms.mjs';
import { backwardTests } from './backward.mjs';
import { truthfulTests } from './truthful.mjs';
import { tests as pageTests } from './tests.mjs';

const tests = [...pageTests, ...roomTests, ...backwardTests, ...truthfulTests];

const here = dirname(fileURLToPath(import.meta.url));
const results = resolve(here, '..', 'test-results');
mkdirSync(results, { recursive: true });
const filter = process.argv[2] ?? '';

const server = await startServer();
const browser = await launch();
let passed = 0;
let failed = 0;
let skipped = 0;
const started = Date.now();
try {
  for (const t of tests.filter((t) => t.name.includes(filter))) {
    const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
    const page = await context.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const t0 = Date.now();
    const slug = t.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    try {
      await t.run({
        page,
        context,
        url: server.url,
        shot: (/** @type {string} */ name) => page.screenshot({ path: resolve(results, `${slug}-${name}.png`) }),
      });
      if (errors.length) throw new Error(`errors in the page: ${errors.join('; ')}`);
      passed++;
      console.log(`  ✓ ${t.name} (${Date.now() - t0} ms)`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('SKIP: ')) {
        skipped++;
        console.log(`  - ${t.name} (skipped: ${error.message.slice(6)})`);
        continue;
      }
      failed++;
      console.log(
        `  ✗ ${t.name} (${Date.now() - t0} ms)\n    ${String(error instanceof Error ? (error.stack ?? error.message) : error).replaceAll('\n', '\n    ')}`,
      );
      await page.screenshot({ path: resolve(results, `${slug}-failure.png`) }).catch(() => {});
    } finally {
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(`e2e (${((Date.now() - started) / 1000).toFixed(1)} s, screenshots in test-results/)`);
if (skipped) console.log(`${skipped} skipped (the server lacks what they test)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
