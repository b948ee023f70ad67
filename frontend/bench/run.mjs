// Frontend benchmark: in headless chromium against the real server, the time from
// the trace response to the first complete picture, and frames per second while
// playing, for graphs of about 100, 1,000, 2,000 and 20,000 nodes. Prints JSON.
import { launch } from '../e2e/browser.mjs';
import { startServer } from '../e2e/server.mjs';

/** A program of about `n` graph nodes: a chain of diamonds, 8 nodes per iteration. @param {number} n */
function program(n) {
  const iterations = Math.max(1, Math.round((n - 2) / 8));
  return `import torch
x = torch.tensor(0.5, requires_grad=True)
y = x
for i in range(${iterations}):
    a = y * 1.001
    b = y.sin()
    y = a + b * 0.001
y.backward()
print(x.grad)
`;
}

const server = await startServer();
const browser = await launch();
const results = { device: 'headless chromium (software rendering)', sizes: /** @type {any[]} */ ([]) };
try {
  const sizes = (process.env.GRADTRACE_BENCH_SIZES ?? '100,1000,2000,20000').split(',').map(Number);
  for (const n of sizes) {
    const source = program(n);
    const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
    await page.goto(server.url);
    await page.locator('[data-layout="ready"]').waitFor({ timeout: 30_000 });
    const editor = page.getByRole('textbox', { name: 'Program source (Python)' });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(source);
    await page.evaluate(() => {
      const s = /** @type {any} */ (window).__gradtrace;
      s.pictureAt = 0;
      s.responseAt = 0;
    });
    const t0 = Date.now();
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(
      () => {
        const s = /** @type {any} */ (window).__gradtrace;
        return s.pictureAt > s.responseAt && s.responseAt > 0;
      },
      undefined,
      { timeout: 60_000, polling: 50 },
    );
    const wall = Date.now() - t0;
    const timing = await page.evaluate(() => {
      const s = /** @type {any} */ (window).__gradtrace;
      return { firstPictureMs: s.pictureAt - s.responseAt, layoutMs: s.layoutMs, drawMs: s.drawMs };
    });
    let nodes = Number(await page.locator('[data-layout="ready"]').getAttribute('data-nodes'));
    // Graphs over 1,500 nodes open grouped into blocks: that is the first picture a user
    // sees. Expand them to every node too, and measure that picture and its frame rate.
    let ungroupedPictureMs = null;
    const grouping = page.getByRole('combobox', { name: 'Group nodes' });
    if ((await grouping.inputValue()) !== 'none') {
      await page.evaluate(() => {
        const s = /** @type {any} */ (window).__gradtrace;
        s.pictureAt = 0;
      });
      const t1 = Date.now();
      await grouping.selectOption('none');
      await page.waitForFunction(() => /** @type {any} */ (window).__gradtrace.pictureAt > 0, undefined, {
        timeout: 60_000,
        polling: 50,
      });
      ungroupedPictureMs = Date.now() - t1;
      nodes = Number(await page.locator('[data-layout="ready"]').getAttribute('data-nodes'));
    }
    // Play at 16x from the start and count frames for 3 s, zoomed in (the first
    // view) and with the whole graph on screen (Fit).
    const measure = () =>
      page.evaluate(
        () =>
          new Promise((done) => {
            const s = /** @type {any} */ (window).__gradtrace;
            const f0 = s.frames;
            let raf = 0;
            let worst = 0;
            let last = performance.now();
            const t = last;
            const count = () => {
              const now = performance.now();
              worst = Math.max(worst, now - last);
              last = now;
              raf++;
              if (now - t < 3000) requestAnimationFrame(count);
              else
                done({
                  fps: Math.round(((raf * 1000) / (now - t)) * 10) / 10,
                  draws: s.frames - f0,
                  worstFrameMs: Math.round(worst),
                  lastDrawMs: s.drawMs,
                });
            };
            requestAnimationFrame(count);
          }),
      );
    await page.getByRole('button', { name: 'Jump to start' }).click();
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('16');
    await page.getByRole('button', { name: 'Play' }).click();
    const zoomed = await measure();
    await page.getByRole('button', { name: 'Fit' }).click();
    const whole = await measure();
    const fps = { zoomed, whole };
    results.sizes.push({ target: n, nodes, requestToPictureMs: wall, ungroupedPictureMs, ...timing, playing: fps });
    await page.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(JSON.stringify(results, null, 2));
