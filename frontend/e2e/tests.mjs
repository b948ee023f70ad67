// The browser tests. Elements are found by role and label; the graph is read from
// its accessible node list (<ul aria-label="graph nodes">).
import assert from 'node:assert/strict';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {{ page: Page, context: import('playwright-core').BrowserContext, url: string, shot: (name: string) => Promise<unknown> }} Ctx */

/**
 * Wait until `fn` returns a truthy value (or throw its last failure).
 * @template T
 * @param {() => Promise<T>} fn
 * @param {string} what
 * @param {number} [timeout]
 * @returns {Promise<T>}
 */
async function until(fn, what, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  let last = /** @type {unknown} */ (null);
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
      last = v;
    } catch (error) {
      last = error;
    }
    await new Promise((ok) => setTimeout(ok, 50));
  }
  throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
}

/** @param {Page} page */
const nodeList = (page) => page.getByRole('list', { name: 'graph nodes', includeHidden: true });

/** The accessible text of the node called `name`. @param {Page} page @param {string} name */
const nodeText = (page, name) =>
  nodeList(page)
    .getByRole('listitem', { includeHidden: true })
    .filter({ hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `) })
    .first()
    .textContent();

/** "12 / 40" → [12, 40]. @param {Page} page @returns {Promise<[number, number]>} */
async function stepCount(page) {
  const text = (await page.getByTestId('step-count').textContent()) ?? '';
  const m = /(\d+)\s*\/\s*(\d+)/.exec(text);
  if (!m) throw new Error(`no step count in ${JSON.stringify(text)}`);
  return [Number(m[1]), Number(m[2])];
}

/** Wait for a trace with its layout; returns the step count. @param {Page} page @returns {Promise<[number, number]>} */
async function traced(page) {
  await page.locator('[data-layout="ready"]').waitFor({ timeout: 30_000 });
  return stepCount(page);
}

/** How many traces the page has shown. @param {Page} page */
const runs = async (page) => Number(await page.locator('[data-run]').getAttribute('data-run'));

/**
 * Do `action`, then wait for the trace it asked for to be shown, laid out and (when
 * it has steps) started; then stop it at step 0.
 * @param {Page} page @param {() => Promise<unknown>} action
 */
async function freshTrace(page, action) {
  const before = await runs(page);
  await action();
  await until(async () => (await runs(page)) > before, 'the new trace', 30_000);
  await page.getByRole('button', { name: 'Jump to start' }).click();
  return stepCount(page);
}

/** Put a program in the editor and run it with Ctrl+Enter. @param {Page} page @param {string} source */
async function runProgram(page, source) {
  const editor = page.getByRole('textbox', { name: 'Program source (Python)' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(source);
  await page.keyboard.press('Control+Enter');
}

/** @param {Page} page @param {string} url @param {string} id */
async function openExample(page, url, id) {
  const examples = await (await fetch(`${url}/api/examples`)).json();
  const example = examples.find((/** @type {{id: string}} */ e) => e.id === id);
  assert.ok(example, `the server has an example ${id}`);
  await page.getByRole('button', { name: 'Examples' }).click();
  const dialog = page.getByRole('dialog', { name: 'Examples' });
  await dialog.getByRole('button', { name: example.title }).click();
  await until(async () => !(await dialog.isVisible()), 'the gallery to close');
  return example;
}

/** @type {{ name: string, run: (ctx: Ctx) => Promise<void> }[]} */
export const tests = [
  {
    name: 'leaf and non-leaf: step through forward and backward, read the gradients',
    async run({ page, url, shot }) {
      await page.goto(url);
      await traced(page);
      const [start, total] = await freshTrace(page, () => openExample(page, url, 'leaf_and_non_leaf'));
      assert.match((await page.getByRole('textbox', { name: 'Program source (Python)' }).textContent()) ?? '', /y2 = 2 \* x/);
      assert.equal(start, 0);
      assert.ok(total >= 10, `a forward and a backward pass (${total} steps)`);
      assert.match((await nodeText(page, 'x')) ?? '', /value not computed yet/);

      const stepForward = page.getByRole('button', { name: 'Step forward' });
      let sawBackward = false;
      for (let i = 1; i <= total; i++) {
        await stepForward.click();
        await until(async () => (await stepCount(page))[0] === i, `step ${i}`);
        const phase = await page.getByRole('group', { name: 'Player' }).textContent();
        if (/backward/i.test(phase ?? '')) sawBackward = true;
        if (i === 5) await shot('forward');
      }
      assert.ok(sawBackward, 'the player went through a backward pass');
      await until(async () => /gradient 4,/.test((await nodeText(page, 'x')) ?? ''), "x's gradient 4 in the node list");
      const x = (await nodeText(page, 'x')) ?? '';
      assert.match(x, /value 3,/);
      assert.match(x, /\.grad 4$/);
      const loss = (await nodeText(page, 'loss')) ?? '';
      assert.match(loss, /gradient 1,/);
      assert.match(loss, /\.grad None$/);
      for (const name of ['y1', 'y2']) assert.match((await nodeText(page, name)) ?? '', /\.grad None$/);
      // The stepped-back scene is the same as before (nothing recomputed).
      await page.getByRole('button', { name: 'Step back' }).click();
      await until(async () => (await stepCount(page))[0] === total - 1, 'one step back');
      await page.getByRole('button', { name: 'Step forward' }).click();
      await until(async () => (await stepCount(page))[0] === total, 'the end again');
      assert.match(await page.getByTestId('stdout').textContent() ?? '', /tensor\(4\.\)/);
      await shot('end');
    },
  },
  {
    name: 'keyboard: Home, arrows, End and Space drive the player',
    async run({ page, url }) {
      await page.goto(url);
      await traced(page);
      await page.getByRole('button', { name: 'Fit' }).click();
      await page.locator('canvas').first().click({ position: { x: 5, y: 5 } }); // focus leaves the buttons
      await page.keyboard.press('Home');
      await until(async () => (await stepCount(page))[0] === 0, 'Home');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await until(async () => (await stepCount(page))[0] === 2, '→ twice');
      await page.keyboard.press('ArrowLeft');
      await until(async () => (await stepCount(page))[0] === 1, '←');
      await page.keyboard.press('End');
      const [end, total] = await stepCount(page);
      assert.equal(end, total);
      await page.keyboard.press('Home');
      await page.keyboard.press('Space');
      await until(async () => (await page.getByRole('button', { name: 'Pause' }).count()) === 1, 'playing');
      await page.keyboard.press('Space');
      await until(async () => (await page.getByRole('button', { name: 'Play' }).count()) === 1, 'paused');
    },
  },
  {
    name: 'a syntax error is shown at its line',
    async run({ page, url, shot }) {
      await page.goto(url);
      await traced(page);
      await runProgram(page, 'import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x ** 2 +\nprint(y)\n');
      const inline = page.locator('.cm-error-inline');
      await inline.waitFor({ timeout: 20_000 });
      const text = (await inline.textContent()) ?? '';
      assert.match(text, /SyntaxError/);
      assert.equal(await inline.getAttribute('data-line'), '3');
      assert.equal((await page.locator('.cm-error-line').first().textContent())?.trim(), 'y = x ** 2 +');
      assert.match((await page.getByTestId('program-error').textContent()) ?? '', /SyntaxError.*line 3/s);
      await shot('error');
    },
  },
  {
    name: 'a share link opens the same step',
    async run({ page, context, url, shot }) {
      await page.goto(url);
      await traced(page);
      const [, total] = await freshTrace(page, () => runProgram(page, 'import torch\na = torch.tensor([1.0, 2.0], requires_grad=True)\nb = (a * a).sum()\nb.backward()\nprint(a.grad)\n'));
      assert.ok(total >= 6, `forward and backward steps (${total})`);
      for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Step forward' }).click();
      await until(async () => (await stepCount(page))[0] === 5, 'step 5');
      await until(async () => page.url().includes('step=5'), 'the step in the URL');
      const link = page.url();
      const current = await nodeList(page).locator('[aria-current="step"]').textContent();
      const other = await context.newPage();
      await other.goto(link);
      await traced(other);
      await until(async () => (await stepCount(other))[0] === 5, 'the shared step');
      assert.match((await other.getByRole('textbox', { name: 'Program source (Python)' }).textContent()) ?? '', /b = \(a \* a\)\.sum\(\)/);
      assert.equal(await nodeList(other).locator('[aria-current="step"]').textContent(), current);
      await other.screenshot({ path: 'test-results/share-link-opened.png' });
      await shot('original');
    },
  },
  {
    name: 'a 1,000-node program plays to the end',
    async run({ page, url, shot }) {
      await page.goto(url);
      await traced(page);
      await freshTrace(page, () => runProgram(page, 'import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x\nfor i in range(250):\n    y = y * 1.001 + 0.001\ny.backward()\nprint(x.grad)\n'));
      assert.ok(Number(await page.locator('[data-layout="ready"]').getAttribute('data-nodes')) >= 1000, 'a graph of 1,000 nodes');
      await page.getByRole('combobox', { name: 'Speed' }).selectOption('256');
      const frames0 = await page.evaluate(() => /** @type {any} */ (window).__gradtrace.frames);
      const t0 = Date.now();
      await page.getByRole('button', { name: 'Play' }).click();
      await until(async () => {
        const [c, n] = await stepCount(page);
        return c === n && (await page.getByRole('button', { name: 'Play' }).count()) === 1;
      }, 'the end of the program', 60_000);
      const seconds = (Date.now() - t0) / 1000;
      const frames = (await page.evaluate(() => /** @type {any} */ (window).__gradtrace.frames)) - frames0;
      console.log(`    played ${(await stepCount(page))[1]} steps in ${seconds.toFixed(1)} s, ${(frames / seconds).toFixed(0)} frames/s`);
      assert.match((await page.getByTestId('stdout').textContent()) ?? '', /tensor\(/);
      await until(async () => /gradient \d/.test((await nodeText(page, 'x')) ?? ''), "x's gradient in the list");
      await shot('end');
    },
  },
];
