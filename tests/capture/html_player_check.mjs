// Opens a standalone gradtrace page from disk in Debian's chromium with the network
// off, jumps to the end of the trace and checks the player says it is at the last step.
// Usage: node html_player_check.mjs FILE.html  (playwright-core from frontend/node_modules)
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [file, nodeModules] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(nodeModules), 'noop.js'));
const { chromium } = require('playwright-core');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const failures = [];
try {
  const context = await browser.newContext();
  await context.setOffline(true);
  // Anything but the file itself (and inline data) is a request the page must not make.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('blob:')) {
      return route.continue();
    }
    failures.push(`network request: ${url}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
  await page.goto(pathToFileURL(path.resolve(file)).href);
  const end = page.getByRole('button', { name: 'Jump to end' });
  await end.waitFor({ state: 'visible', timeout: 30_000 });
  await end.click();
  const status = page.getByRole('status', { name: 'player position' });
  await status.waitFor({ timeout: 10_000 });
  let text = '';
  for (let i = 0; i < 50; i += 1) {
    text = (await status.textContent()) ?? '';
    const m = /step\s+(\d+)\s+of\s+(\d+)/i.exec(text);
    if (m && m[1] === m[2] && Number(m[2]) > 0) break;
    await page.waitForTimeout(100);
  }
  const m = /step\s+(\d+)\s+of\s+(\d+)/i.exec(text);
  if (!m) failures.push(`the position reads "${text}", not "step N of N"`);
  else if (m[1] !== m[2] || Number(m[2]) === 0) failures.push(`not at the last step: "${text}"`);
  else console.log(`at the end: ${text.trim()}`);
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
