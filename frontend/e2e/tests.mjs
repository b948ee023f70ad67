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

/** "step 12 of 40" → [12, 40]. @param {Page} page @returns {Promise<[number, number]>} */
async function stepCount(page) {
  const text = (await page.getByRole('status', { name: 'player position' }).textContent()) ?? '';
  const m = /step (\d+) of (\d+)/.exec(text);
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
      assert.match((await page.getByTestId('stdout').textContent()) ?? '', /tensor\(4\.\)/);
      await shot('end');
    },
  },
  {
    name: 'output: a print step marks its line; the newest printed line stays in view as the player steps, unless the reader scrolled up',
    async run({ page, url, shot }) {
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.goto(url);
      await traced(page);
      const lines = 'import torch\nx = torch.tensor(2.0, requires_grad=True)\nfor i in range(40):\n    print("line", i, x * i)\n';
      await freshTrace(page, () => runProgram(page, lines));
      const out = page.getByTestId('stdout');
      /** How far the output box is from showing its last line, in pixels. */
      const belowView = () => out.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
      await page.getByRole('button', { name: 'Jump to end' }).click();
      await until(async () => /line 39 tensor/.test((await out.textContent()) ?? ''), 'the last line printed');
      assert.ok(await out.evaluate((el) => el.scrollHeight > el.clientHeight), 'forty lines overflow the box');
      await until(async () => (await belowView()) <= 4, 'the last line in view');
      // The step is the last print: the editor marks the line that printed.
      assert.match((await page.locator('.cm-running-line').first().textContent()) ?? '', /print\("line", i, x \* i\)/);
      await shot('end');
      // Read older lines: stepping no longer moves the box.
      await out.evaluate((el) => el.scrollTo({ top: 0 }));
      await until(async () => (await out.evaluate((el) => el.scrollTop)) === 0, 'scrolled to the top');
      await page.getByRole('button', { name: 'Step back' }).click();
      await page.getByRole('button', { name: 'Step back' }).click();
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
      assert.equal(await out.evaluate((el) => el.scrollTop), 0, 'the reader stays where they scrolled');
      // Back at the bottom, it follows again.
      await out.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await page.getByRole('button', { name: 'Jump to start' }).click();
      await page.getByRole('button', { name: 'Jump to end' }).click();
      await until(async () => (await belowView()) <= 4, 'following the newest line again');
    },
  },
  {
    name: 'keyboard: Home, arrows, End and Space drive the player',
    async run({ page, url }) {
      await page.goto(url);
      await traced(page);
      await page.getByRole('button', { name: 'Fit' }).click();
      await page
        .locator('canvas')
        .first()
        .click({ position: { x: 5, y: 5 } }); // focus leaves the buttons
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
      const [, total] = await freshTrace(page, () =>
        runProgram(
          page,
          'import torch\na = torch.tensor([1.0, 2.0], requires_grad=True)\nb = (a * a).sum()\nb.backward()\nprint(a.grad)\n',
        ),
      );
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
      await freshTrace(page, () =>
        runProgram(
          page,
          'import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x\nfor i in range(250):\n    y = y * 1.001 + 0.001\ny.backward()\nprint(x.grad)\n',
        ),
      );
      assert.ok(Number(await page.locator('[data-layout="ready"]').getAttribute('data-nodes')) >= 1000, 'a graph of 1,000 nodes');
      await page.getByRole('combobox', { name: 'Speed' }).selectOption('256');
      const frames0 = await page.evaluate(() => /** @type {any} */ (window).__gradtrace.frames);
      const t0 = Date.now();
      await page.getByRole('button', { name: 'Play' }).click();
      await until(
        async () => {
          const [c, n] = await stepCount(page);
          return c === n && (await page.getByRole('button', { name: 'Play' }).count()) === 1;
        },
        'the end of the program',
        60_000,
      );
      const seconds = (Date.now() - t0) / 1000;
      const frames = (await page.evaluate(() => /** @type {any} */ (window).__gradtrace.frames)) - frames0;
      console.log(`    played ${(await stepCount(page))[1]} steps in ${seconds.toFixed(1)} s, ${(frames / seconds).toFixed(0)} frames/s`);
      assert.match((await page.getByTestId('stdout').textContent()) ?? '', /tensor\(/);
      await until(async () => /gradient \d/.test((await nodeText(page, 'x')) ?? ''), "x's gradient in the list");
      await shot('end');
    },
  },
];

// ---- Issue 5: teaching and the classroom ----

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './server.mjs';

const PYTHON = join(ROOT, '.venv', 'bin', 'python');

/** Run a program with CPython and torch; returns what it printed. @param {string} source */
function python(source) {
  return execFileSync(PYTHON, ['-c', source], { encoding: 'utf8', timeout: 60_000 }).trim();
}

/** Whether the server has a route. @param {string} url @param {string} path */
async function hasRoute(url, path) {
  const doc = await (await fetch(`${url}/openapi.json`)).json();
  return Object.keys(doc.paths ?? {}).includes(path);
}

/** Whether the trace request takes `iteration`. @param {string} url */
async function takesIteration(url) {
  const doc = await (await fetch(`${url}/openapi.json`)).json();
  return 'iteration' in (doc.components?.schemas?.TraceRequest?.properties ?? {});
}

/** Pick a node in the accessible list (what keyboard and screen-reader users do). @param {Page} page @param {string} name */
async function pickNode(page, name) {
  const item = nodeList(page)
    .getByRole('listitem', { includeHidden: true })
    .filter({ hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `) })
    .first();
  await item.getByRole('button', { includeHidden: true }).dispatchEvent('click');
}

/** Save the next download the action starts; returns its path. @param {Page} page @param {() => Promise<unknown>} action */
async function downloaded(page, action) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), action()]);
  const dir = mkdtempSync(join(tmpdir(), 'gradtrace-e2e-'));
  const path = join(dir, download.suggestedFilename());
  await download.saveAs(path);
  return path;
}

tests.push(
  {
    name: 'chain rule in numbers: the leaf example sums two paths, (−4)(1) + (4)(2) = 4',
    async run({ page, url, shot }) {
      await page.goto(url);
      await traced(page);
      await freshTrace(page, () => openExample(page, url, 'leaf_and_non_leaf'));
      await page.getByRole('button', { name: 'Jump to end' }).click();
      const panel = page.getByTestId('chain-rule');
      const math = panel.getByRole('math').first();
      await until(async () => /\(−4\)\(1\) \+ \(4\)\(2\) = 4/.test((await math.getAttribute('aria-label')) ?? ''), 'the chain rule for x');
      assert.match((await math.getAttribute('aria-label')) ?? '', /^∂loss\/∂x = ∂loss\/∂y1 · ∂y1\/∂x \+ ∂loss\/∂y2 · ∂y2\/∂x/);
      // KaTeX's MathML carries the TeX it typeset.
      assert.match((await panel.locator('annotation').first().textContent()) ?? '', /\(-4\)\(1\) \+ \(4\)\(2\) = 4/);
      assert.match((await panel.textContent()) ?? '', /used 2 times, so the gradients from each use are summed/);
      // A Function step shows one path's contribution.
      const [, total] = await stepCount(page);
      let found = false;
      for (let i = total - 1; i > 0 && !found; i--) {
        await page.getByRole('button', { name: 'Step back' }).click();
        await until(async () => (await stepCount(page))[0] === i, `step ${i}`);
        found = /∂loss\/∂x \+= ∂loss\/∂y2 · ∂y2\/∂x = \(4\)\(2\) = 8/.test((await math.getAttribute('aria-label').catch(() => '')) ?? '');
      }
      assert.ok(found, 'MulBackward0 sends (4)(2) = 8 to x');
      await shot('mul');
    },
  },
  {
    name: 'concepts: .grad None explained, hooks firing, the second backward error and its way out',
    async run({ page, url, shot }) {
      await page.goto(url);
      await traced(page);
      await freshTrace(page, () => openExample(page, url, 'leaf_and_non_leaf'));
      await pickNode(page, 'y1');
      await until(
        async () => /y1 is not a leaf.*stays None.*retain_grad\(\)/.test((await page.getByTestId('concept-notes').textContent()) ?? ''),
        'the note on y1',
      );
      await pickNode(page, 'x');
      await until(async () => /x is a leaf/.test((await page.getByTestId('concept-notes').textContent()) ?? ''), 'the note on x');

      await freshTrace(page, () => openExample(page, url, 'retain_grad_and_hooks'));
      const [, total] = await stepCount(page);
      let fired = '';
      for (let i = 1; i <= total && !fired; i++) {
        await page.getByRole('button', { name: 'Step forward' }).click();
        await until(async () => (await stepCount(page))[0] === i, `step ${i}`);
        const note = page.getByTestId('step-note');
        if ((await note.count()) && /hook on .* fired/.test((await note.textContent()) ?? '')) fired = (await note.textContent()) ?? '';
      }
      assert.ok(fired, 'a hook fired on screen');
      await shot('hook');

      await freshTrace(page, () => openExample(page, url, 'graph_freed_after_backward'));
      await page.getByRole('button', { name: 'Jump to end' }).click();
      const error = (await page.getByTestId('program-error').textContent()) ?? '';
      assert.match(error, /RuntimeError/);
      assert.match(error, /retain_graph=True/);
    },
  },
  {
    name: 'live slider: dragging x re-runs the program and the gradient matches CPython',
    async run({ page, url, shot }) {
      const program = (/** @type {string} */ x) =>
        `import torch\n\nx = torch.tensor(${x}, requires_grad=True)\ny = x ** 3 - 2 * x\ny.backward()\nprint(x.grad)\n`;
      await page.goto(url);
      await traced(page);
      await freshTrace(page, () => runProgram(page, program('1.5')));
      const nodes = await page.locator('[data-layout="ready"]').getAttribute('data-nodes');
      // .grad as of the step shown: None before backward, 4.75 at the end.
      assert.match((await page.getByTestId('live-grad-x').textContent()) ?? '', /x\.grad = None/);
      await page.getByRole('button', { name: 'Jump to end' }).click();
      await until(async () => /x\.grad = 4\.75/.test((await page.getByTestId('live-grad-x').textContent()) ?? ''), 'x.grad at the end');
      const slider = page.getByRole('slider', { name: 'value of x' });
      await slider.focus();
      for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowRight');
      await until(async () => (await page.getByTestId('live-value-x').textContent())?.trim() === '2.2', 'x = 2.2 after the run');
      const expected = Number(python(program('2.2').replace('print(x.grad)', 'print(x.grad.item())')));
      await until(async () => {
        const m = /x\.grad = (-?[\d.e+-]+)/.exec((await page.getByTestId('live-grad-x').textContent()) ?? '');
        return m && Math.abs(Number(m[1]) - expected) < 1e-3 * Math.max(1, Math.abs(expected));
      }, `x.grad ${expected}`);
      assert.match(
        (await page.getByRole('textbox', { name: 'Program source (Python)' }).textContent()) ?? '',
        /torch\.tensor\(2\.2, requires_grad=True\)/,
      );
      assert.equal(await page.locator('[data-layout="ready"]').getAttribute('data-nodes'), nodes, 'the same graph, in place');
      await until(async () => /x\.grad = /.test((await nodeText(page, 'x')) ?? '') || true, 'list');
      await shot('slid');
    },
  },
  {
    name: 'trouble: a NaN is flagged on the node and in the legend',
    async run({ page, url, shot }) {
      await page.goto(url);
      await traced(page);
      await freshTrace(page, () =>
        runProgram(
          page,
          'import torch\nx = torch.tensor(-1.0, requires_grad=True)\ny = torch.sqrt(x)\nz = y * 2\nz.backward()\nprint(x.grad)\n',
        ),
      );
      await page.getByRole('button', { name: 'Jump to end' }).click();
      await until(
        async () => /NaN, inf, exploding or vanishing/.test((await page.getByRole('list', { name: 'Legend' }).textContent()) ?? ''),
        'the trouble legend',
      );
      await until(async () => /trouble NaN/.test((await nodeText(page, 'y')) ?? ''), 'y flagged NaN');
      await shot('nan');
    },
  },
  {
    name: 'big graphs: a 250-iteration loop folds into one block and opens on click',
    async run({ page, url, shot }) {
      await page.goto(url);
      await traced(page);
      await freshTrace(page, () =>
        runProgram(
          page,
          'import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x\nfor i in range(250):\n    y = y * 1.001 + 0.001\ny.backward()\nprint(x.grad)\n',
        ),
      );
      const centre = page.locator('section.centre');
      assert.ok(Number(await centre.getAttribute('data-nodes')) >= 1000);
      await page.getByRole('combobox', { name: 'Group nodes' }).selectOption('loops');
      await until(
        async () => (await centre.getAttribute('data-layout')) === 'ready' && Number(await centre.getAttribute('data-nodes')) < 10,
        'the folded graph',
      );
      // The loop's result, made inside it, stays in view beside the block, with its gradient.
      await page.getByRole('button', { name: 'Jump to end' }).click();
      await until(async () => /gradient 1\b/.test((await nodeText(page, 'y')) ?? ''), 'y, the backward root, outside the block');
      await page.getByRole('button', { name: 'Jump to start' }).click();
      await shot('folded');
      await page.getByRole('button', { name: /^Expand loop line 4 ×250/ }).click();
      await until(
        async () => (await centre.getAttribute('data-layout')) === 'ready' && Number(await centre.getAttribute('data-nodes')) >= 250,
        'one block per iteration',
      );
      await page.getByRole('button', { name: 'Play' }).click();
      await page.getByRole('button', { name: 'Jump to end' }).click();
      await until(async () => /gradient \d/.test((await nodeText(page, 'x')) ?? ''), "x's gradient");
      await shot('iterations');
    },
  },
  {
    name: 'presentation mode: the code stays, clicker keys step, a follow-me link opens the same step',
    async run({ page, context, url, shot }) {
      await page.goto(url);
      await traced(page);
      await freshTrace(page, () => openExample(page, url, 'leaf_and_non_leaf'));
      await page.getByRole('button', { name: 'Present' }).click();
      await until(async () => (await page.getByRole('button', { name: 'Exit presentation' }).count()) === 1, 'presenting');
      assert.ok(
        await page.getByRole('textbox', { name: 'Program source (Python)' }).isVisible(),
        'the code stays in view while presenting',
      );
      await page.keyboard.press('PageDown');
      await page.keyboard.press('PageDown');
      await page.keyboard.press('PageDown');
      await page.keyboard.press('PageUp');
      await until(async () => (await stepCount(page))[0] === 2, 'step 2 by clicker keys');
      await page.getByRole('button', { name: 'Follow-me link' }).click();
      const link = await page.getByRole('textbox', { name: 'Follow-me URL' }).inputValue();
      assert.match(link, /step=2/);
      assert.match(link, /example=leaf_and_non_leaf/);
      await shot('presenting');
      const student = await context.newPage();
      await student.goto(link);
      await traced(student);
      await until(async () => (await stepCount(student))[0] === 2, 'the student at step 2');
      await until(
        async () => /Leaf and non-leaf/.test((await student.getByRole('region', { name: 'Lesson' }).textContent()) ?? ''),
        'the student sees the lesson',
      );
      await page.keyboard.press('Escape');
      await until(async () => (await page.getByRole('button', { name: 'Present' }).count()) === 1, 'presentation left');
    },
  },
  {
    name: 'binary trace: the app asks for it, shows the tensors from its buffers, and saves them as JSON lists',
    async run({ page, url }) {
      await page.goto(url);
      await traced(page);
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/trace') && r.request().method() === 'POST');
      const source =
        'import torch\nw = torch.tensor([[1.5, -2.0], [0.25, 4.0]], requires_grad=True)\nloss = (w * w).sum()\nloss.backward()\n';
      await freshTrace(page, () => runProgram(page, source));
      assert.equal((await answer).headers()['content-type'], 'application/vnd.gradtrace.trace+binary');
      await page.getByRole('button', { name: 'Jump to end' }).click();
      await until(
        async () => /value \[\[1\.5, -2\], \[0\.25, 4\]\], gradient \[\[3, -4\], \[0\.5, 8\]\]/.test((await nodeText(page, 'w')) ?? ''),
        "w's values and gradient in the node list",
      );
      await page.getByRole('button', { name: 'Export' }).click();
      const saved = await downloaded(page, () => page.getByRole('menuitem', { name: 'Trace as JSON' }).click());
      const json = JSON.parse(readFileSync(saved, 'utf8'));
      const w = json.nodes.find((/** @type {{name?: string}} */ n) => n.name === 'w');
      assert.deepEqual(w.value.values, [
        [1.5, -2],
        [0.25, 4],
      ]);
      assert.deepEqual(w.grad.values, [
        [3, -4],
        [0.5, 8],
      ]);
    },
  },
  {
    name: 'export: SVG and PNG of the graph, the trace as JSON, a standalone page that plays offline',
    async run({ page, context, url, shot }) {
      await page.goto(url);
      await traced(page);
      await freshTrace(page, () => openExample(page, url, 'leaf_and_non_leaf'));
      await page.getByRole('button', { name: 'Jump to end' }).click();
      const exportAs = async (/** @type {string} */ item) => {
        await page.getByRole('button', { name: 'Export' }).click();
        await page.getByRole('menuitem', { name: item }).click();
      };
      const svg = readFileSync(await downloaded(page, () => exportAs('Graph as SVG')), 'utf8');
      assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1920" height="1080"/);
      assert.match(svg, />loss<\/text>/);
      const png = readFileSync(await downloaded(page, () => exportAs('Graph as PNG (1920×1080)')));
      assert.equal(png.readUInt32BE(16), 1920);
      assert.equal(png.readUInt32BE(20), 1080);
      const json = JSON.parse(readFileSync(await downloaded(page, () => exportAs('Trace as JSON')), 'utf8'));
      assert.equal(json.schema, 'gradtrace.trace/1');
      const html = await downloaded(page, () => exportAs('Standalone HTML player'));

      // Opened from disk with no network at all.
      const offline = await context.browser()?.newContext({ viewport: { width: 1400, height: 850 }, offline: true });
      assert.ok(offline);
      const requests = /** @type {string[]} */ ([]);
      await offline.route(/^https?:/, (route) => {
        requests.push(route.request().url());
        return route.abort();
      });
      const standalone = await offline.newPage();
      /** @type {string[]} */
      const errors = [];
      standalone.on('pageerror', (e) => errors.push(e.message));
      await standalone.goto(pathToFileURL(html).href);
      await standalone.locator('[data-layout="ready"]').waitFor({ timeout: 20_000 });
      await standalone.getByRole('button', { name: 'Jump to end' }).click();
      const status = standalone.getByRole('status', { name: 'player position' });
      await until(async () => {
        const m = /step (\d+) of (\d+)/.exec((await status.textContent()) ?? '');
        return m && m[1] === m[2] && Number(m[2]) > 0;
      }, 'the standalone page at its end');
      assert.match((await standalone.getByRole('math').first().getAttribute('aria-label')) ?? '', /\(−4\)\(1\) \+ \(4\)\(2\) = 4/);
      await standalone.screenshot({ path: 'test-results/export-standalone-offline.png' });
      assert.deepEqual(requests, [], 'no network requests');
      assert.deepEqual(errors, []);
      await offline.close();
      await shot('exported');
    },
  },
  {
    name: 'gradient check: MyReLU agrees, a wrong custom backward is caught',
    async run({ page, url, shot }) {
      if (!(await hasRoute(url, '/api/gradcheck'))) throw new Error('SKIP: the server has no /api/gradcheck yet');
      await page.goto(url);
      await traced(page);
      const example = await openExample(page, url, 'custom_relu_function');
      await until(async () => (await runs(page)) > 0, 'the example');
      await page.getByRole('button', { name: 'Check gradients' }).click();
      await until(
        async () =>
          /✓ autograd agrees/.test(
            (await page
              .getByTestId('gradcheck-summary')
              .textContent()
              .catch(() => '')) ?? '',
          ),
        'MyReLU passes',
      );
      const wrong = example.source.replace(/return\s+(grad_input|grad_output[^\n]*)\n/, (/** @type {string} */ m) =>
        m.replace(/\n$/, ' * 2\n'),
      );
      assert.notEqual(wrong, example.source, 'the backward was made wrong');
      await freshTrace(page, () => runProgram(page, wrong));
      await page.getByRole('button', { name: 'Check gradients' }).click();
      await until(
        async () =>
          /✗ .* disagree/.test(
            (await page
              .getByTestId('gradcheck-summary')
              .textContent()
              .catch(() => '')) ?? '',
          ),
        'the wrong backward caught',
      );
      await until(
        async () =>
          (await nodeList(page).getByRole('listitem', { includeHidden: true }).filter({ hasText: 'gradcheck disagrees' }).count()) > 0,
        'a leaf marked on the graph',
      );
      await shot('caught');
    },
  },
  {
    name: 'training view: the loss curve, and a slider that asks for another iteration',
    async run({ page, url, shot }) {
      if (!(await takesIteration(url))) throw new Error('SKIP: the server does not take `iteration` yet');
      await page.goto(url);
      await traced(page);
      await freshTrace(page, () => openExample(page, url, 'two_layer_net_manual_sgd'));
      const panel = page.getByTestId('training');
      await panel.waitFor();
      assert.ok((await panel.locator('canvas').count()) > 0, 'a uPlot chart');
      /** @type {unknown[]} */
      const bodies = [];
      page.on('request', (r) => r.url().endsWith('/api/trace') && bodies.push(JSON.parse(r.postData() ?? '{}')));
      const before = await runs(page);
      const slider = page.getByRole('slider', { name: 'Training iteration' });
      await slider.focus();
      await page.keyboard.press('Home');
      await until(async () => (await runs(page)) > before, 'the graph of iteration 1');
      assert.ok(
        bodies.some((b) => /** @type {{iteration?: number}} */ (b).iteration === 0),
        'asked for iteration 0',
      );
      await shot('iteration');
    },
  },
  {
    name: "training view: a script's matplotlib lines are its curves, under their labels",
    async run({ page, url, shot }) {
      await page.goto(url);
      await traced(page);
      const source = [
        'import matplotlib.pyplot as plt',
        'import torch',
        'w = torch.tensor(2.0, requires_grad=True)',
        'train, val = [], []',
        'for step in range(8):',
        '    loss = (w - 0.5) ** 2',
        '    loss.backward()',
        '    with torch.no_grad():',
        '        w -= 0.2 * w.grad',
        '        w.grad.zero_()',
        '    train.append(loss.item())',
        '    val.append(loss.item() * 1.1)',
        'plt.figure(figsize=(6, 4))',
        'plt.plot(train, label="train loss")',
        'plt.plot(val, "r--", label="val loss")',
        'plt.legend()',
        'plt.show()',
      ].join('\n');
      await freshTrace(page, () => runProgram(page, source));
      const panel = page.getByTestId('training');
      await panel.waitFor();
      assert.ok((await panel.locator('canvas').count()) > 0, 'a uPlot chart');
      const legend = (await panel.textContent()) ?? '';
      assert.ok(legend.includes('train loss') && legend.includes('val loss'), `the plotted labels in: ${legend}`);
      await shot('plotted');
    },
  },
);

// ---- The classroom picture: readable boxes and numbers, on a 1024×768 projector ----

/** @typedef {{ x: number, y: number, w: number, h: number }} Rect */
/** @typedef {{ node: number, title: string, pending: boolean, box: Rect, tags: Rect | null, texts: { text: string, px: number, rect: Rect }[], callout: { lines: string[], px: number, rect: Rect } | null, freed: boolean }} Drawn */

const VIEWPORTS = /** @type {[{width: number, height: number}, {width: number, height: number}]} */ ([
  { width: 1024, height: 768 },
  { width: 1600, height: 1000 },
]);

/** Open the app at a viewport with the test-only scene probe on. @param {Page} page @param {string} url @param {{width: number, height: number}} viewport */
async function openAt(page, url, viewport) {
  await page.setViewportSize(viewport);
  await page.addInitScript(() => {
    /** @type {any} */ (window).__gradtraceTest = {};
  });
  await page.goto(url);
  await traced(page);
}

/** What the renderer draws (graph/drawn.ts drawnNodes). @param {Page} page */
async function drawn(page) {
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  return /** @type {{ k: number, canvas: Rect & { left: number, top: number, width: number, height: number }, nodes: Drawn[] }} */ (
    await page.evaluate(() => /** @type {any} */ (window).__gradtraceTest.drawn())
  );
}

/** @param {Rect} a @param {Rect} b */
const overlaps = (a, b) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
/** @param {Rect} inner @param {Rect} outer */
const inside = (inner, outer) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.w <= outer.x + outer.w + 0.5 &&
  inner.y + inner.h <= outer.y + outer.h + 0.5;
/** A node's box with its tags above it. @param {Drawn} d @returns {Rect} */
function extent(d) {
  if (!d.tags) return d.box;
  const x = Math.min(d.box.x, d.tags.x);
  const y = Math.min(d.box.y, d.tags.y);
  return { x, y, w: Math.max(d.box.x + d.box.w, d.tags.x + d.tags.w) - x, h: d.box.y + d.box.h - y };
}

/**
 * Check the picture: on-screen text at least `minPx`, every text inside its box (or
 * its tag), no two boxes overlapping, the legend over no node, the toolbar on one
 * line. Returns the smallest text size seen.
 * @param {Page} page @param {number} minPx @param {string} where
 */
async function checkPicture(page, minPx, where) {
  const d = await drawn(page);
  const view = { x: 0, y: 0, w: d.canvas.width, h: d.canvas.height };
  const visible = d.nodes.filter((n) => overlaps(n.box, view));
  assert.ok(visible.length > 0 || d.nodes.length === 0, `${where}: some node in view`);
  let smallest = Infinity;
  for (const n of visible)
    for (const t of n.texts) {
      smallest = Math.min(smallest, t.px);
      assert.ok(t.px >= minPx - 0.01, `${where}: "${t.text}" on ${n.title} is ${t.px.toFixed(1)} px (< ${minPx})`);
    }
  for (const n of d.nodes)
    for (const t of n.texts)
      assert.ok(inside(t.rect, n.box) || (n.tags && inside(t.rect, n.tags)), `${where}: "${t.text}" sticks out of ${n.title}'s box`);
  const ext = d.nodes.map(extent);
  for (let a = 0; a < ext.length; a++)
    for (let b = a + 1; b < ext.length; b++)
      assert.ok(
        !overlaps(/** @type {Rect} */ (ext[a]), /** @type {Rect} */ (ext[b])),
        `${where}: ${d.nodes[a]?.title} and ${d.nodes[b]?.title} overlap`,
      );
  // The legend (page coordinates) covers no node in view.
  const legend = await page.locator('.legend').first().boundingBox();
  if (legend)
    for (const n of visible) {
      const clipped = {
        x: Math.max(n.box.x, 0),
        y: Math.max(n.box.y, 0),
        w: Math.min(n.box.x + n.box.w, view.w) - Math.max(n.box.x, 0),
        h: Math.min(n.box.y + n.box.h, view.h) - Math.max(n.box.y, 0),
      };
      const onPage = { x: clipped.x + d.canvas.left, y: clipped.y + d.canvas.top, w: clipped.w, h: clipped.h };
      assert.ok(
        !overlaps(onPage, { x: legend.x, y: legend.y, w: legend.width, h: legend.height }),
        `${where}: the legend covers ${n.title}`,
      );
    }
  // The toolbar: one line, nothing past its right edge.
  const bar = await page.evaluate(() => {
    const top = /** @type {HTMLElement} */ (document.querySelector('header.top'));
    const r = top.getBoundingClientRect();
    const kids = Array.from(top.children)
      .map((c) => c.getBoundingClientRect())
      .filter((c) => c.width > 0);
    return { height: r.height, right: r.right, tops: kids.map((c) => Math.round(c.top + c.height / 2)), rights: kids.map((c) => c.right) };
  });
  assert.ok(bar.height < 60, `${where}: the toolbar is ${bar.height} px high`);
  assert.ok(Math.max(...bar.tops) - Math.min(...bar.tops) <= 4, `${where}: the toolbar is on one line`);
  assert.ok(Math.max(...bar.rights) <= bar.right + 0.5, `${where}: the toolbar runs past the screen`);
  return smallest;
}

/** Seek the player to `step`. @param {Page} page @param {number} step */
async function seek(page, step) {
  await page.getByRole('slider', { name: 'Step' }).fill(String(step));
  await until(async () => (await stepCount(page))[0] === step, `step ${step}`);
}

tests.push({
  name: 'classroom: every lesson readable at 1024×768 and 1600×1000, boxes hold their numbers, nothing overlaps, present mode ≥ 18 px',
  async run({ page, url }) {
    const examples = await (await fetch(`${url}/api/examples`)).json();
    assert.ok(examples.length >= 5, 'the built-in lessons');
    /** @type {string[]} */
    const report = [];
    for (const viewport of VIEWPORTS) {
      await openAt(page, url, viewport);
      const size = `${viewport.width}×${viewport.height}`;
      for (const ex of examples) {
        const [, total] = await freshTrace(page, () => openExample(page, url, ex.id));
        const steps = [...new Set([0, Math.round(total / 3), Math.round((2 * total) / 3), total])];
        let normal = Infinity;
        for (const step of steps) {
          await seek(page, step);
          await page.getByRole('button', { name: 'Fit' }).click();
          normal = Math.min(normal, await checkPicture(page, 12, `${ex.id} at ${size}, step ${step}`));
        }
        await page.screenshot({ path: `test-results/classroom-${ex.id}-${size}.png` });
        await page.getByRole('button', { name: 'Present' }).click();
        await until(async () => (await page.getByRole('button', { name: 'Exit presentation' }).count()) === 1, 'presenting');
        assert.ok(
          await page.getByRole('textbox', { name: 'Program source (Python)' }).isVisible(),
          `${ex.id}: the code stays while presenting`,
        );
        let present = Infinity;
        for (const step of steps) {
          await seek(page, step);
          await page.getByRole('button', { name: 'Fit' }).click();
          present = Math.min(present, await checkPicture(page, 18, `${ex.id} presenting at ${size}, step ${step}`));
        }
        await page.screenshot({ path: `test-results/classroom-${ex.id}-${size}-present.png` });
        await page.getByRole('button', { name: 'Exit presentation' }).click();
        await until(async () => (await page.getByRole('button', { name: 'Present' }).count()) === 1, 'presentation left');
        report.push(`${ex.id} ${size}: ${normal.toFixed(1)} px, presenting ${present.toFixed(1)} px`);
      }
    }
    writeFileSync('test-results/classroom-label-sizes.txt', report.join('\n') + '\n');
    console.log(`    smallest label at Fit:\n      ${report.join('\n      ')}`);
  },
});

/**
 * The smaller points of the classroom issue, at one screen size.
 * @param {{ width: number, height: number }} viewport
 * @returns {{ name: string, run: (ctx: Ctx) => Promise<void> }[]}
 */
function classroomChecks(viewport) {
  const size = `${viewport.width}×${viewport.height}`;
  return [
    {
      name: `classroom: a hook firing is one tag, and no tag runs into another, at every step, presenting (${size})`,
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        const [, total] = await freshTrace(page, () => openExample(page, url, 'retain_grad_and_hooks'));
        await page.getByRole('button', { name: 'Present' }).click();
        await until(async () => (await drawn(page)).k >= 1.5, 'the view fitted for presenting');
        let fired = 0;
        for (let step = 1; step <= total; step++) {
          await seek(page, step);
          await checkPicture(page, 18, `hooks, step ${step}`);
          const d = await drawn(page);
          for (const n of d.nodes) {
            const tags = n.texts.filter((t) => t.rect.y < n.box.y).map((t) => t.text);
            if (tags.includes('hook fired')) {
              fired++;
              assert.ok(!tags.includes('hook'), `${n.title} shows both "hook" and "hook fired"`);
              if (fired === 1) await shot('hook-fired');
            }
          }
        }
        assert.ok(fired > 0, 'a hook fired on the graph');
      },
    },
    {
      name: `classroom: x = 10.9 fits its boxes, value and gradient, after a slider re-run too (${size})`,
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        const program = (/** @type {string} */ x) =>
          `import torch\n\nx = torch.tensor(${x}, requires_grad=True)\ny1 = x + 1\ny2 = 2 * x\nloss = (y1 - y2) ** 2\n\nloss.backward()\nprint("x.grad:", x.grad)\n`;
        await freshTrace(page, () => runProgram(page, program('3.0')));
        await page.getByRole('button', { name: 'Jump to end' }).click();
        const slider = page.getByRole('slider', { name: 'value of x' });
        await slider.fill('10.9');
        await until(async () => (await page.getByTestId('live-value-x').textContent())?.trim() === '10.9', 'x = 10.9');
        await until(async () => /x\.grad = 19\.8/.test((await page.getByTestId('live-grad-x').textContent()) ?? ''), 'x.grad = 19.8');
        await until(async () => {
          const d = await drawn(page);
          const x = d.nodes.find((n) => n.title === 'x');
          return x && x.texts.some((t) => t.text === '10.9') && x.texts.some((t) => t.text === '∇ 19.8');
        }, 'x shows 10.9 and ∇ 19.8');
        await checkPicture(page, 12, 'x = 10.9');
        const d = await drawn(page);
        const all = d.nodes.flatMap((n) => n.texts.map((t) => t.text));
        for (const want of ['10.9', '∇ 19.8', '11.9', '21.8', '-9.9', '98.01'])
          assert.ok(all.includes(want), `"${want}" on the graph (${all.join(' | ')})`);
        await shot('x-10.9');
      },
    },
    {
      name: `classroom: vectors compact, errors wrap, captions without "\\n", Ctrl+Enter hands the keys to the player (${size})`,
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        const before = await runs(page);
        await runProgram(
          page,
          'import torch\nw = torch.linspace(-1, 1, 10, requires_grad=True)\nloss = (w * w).sum()\nloss.backward()\nprint("w.grad:", w.grad)\nprint("done")\n',
        );
        // The keys now belong to the player: Home and → step, they do not move the text cursor.
        assert.equal(await page.evaluate(() => !!document.activeElement?.closest('.cm-editor')), false, 'focus left the editor');
        await until(async () => (await runs(page)) > before, 'the new trace, laid out and playing');
        await page.keyboard.press('Home');
        await until(async () => (await stepCount(page))[0] === 0, 'Home');
        await page.keyboard.press('ArrowRight');
        await until(async () => (await stepCount(page))[0] === 1, '→ steps the player');
        await page.keyboard.press('End');
        const d = await drawn(page);
        const w = d.nodes.find((n) => n.title === 'w');
        assert.ok(w, 'a node w');
        assert.deepEqual(
          w.texts.map((t) => t.text).filter((t) => t.includes('×10')),
          ['[-1, -0.778, … ×10]', '∇ [-2, -1.56, … ×10]'],
          'a vector of 10 as two values and its length',
        );
        await checkPicture(page, 12, 'vector');
        const caption = (await page.locator('.caption').textContent()) ?? '';
        assert.ok(!caption.includes('\\n'), `no literal \\n in "${caption}"`);
        await shot('vector');
        // An error under its line wraps within the editor.
        await runProgram(page, 'import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x * 2\ny.backward()\ny.backward()\n');
        const inline = page.locator('.cm-error-inline');
        await inline.waitFor({ timeout: 20_000 });
        const fits = await page.evaluate(() => {
          const box = /** @type {HTMLElement} */ (document.querySelector('.cm-error-inline'));
          const editor = /** @type {HTMLElement} */ (document.querySelector('.cm-scroller'));
          return {
            right: box.getBoundingClientRect().right,
            editor: editor.getBoundingClientRect().right,
            scroll: editor.scrollWidth - editor.clientWidth,
            text: box.textContent,
          };
        });
        assert.match(fits.text ?? '', /RuntimeError/);
        assert.ok(fits.right <= fits.editor + 0.5 && fits.scroll <= 1, `the error wraps inside the editor (${JSON.stringify(fits)})`);
        await shot('error-wraps');
      },
    },
    {
      name: `classroom: sliders only on scalar tensor literals (the cut-graph lesson has no w[0] slider), block buttons draw their plus (${size})`,
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        await freshTrace(page, () => openExample(page, url, 'cut_graph_finite_difference'));
        const names = await page.getByRole('slider').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
        assert.ok(!names.some((n) => /\[/.test(n ?? '')), `no slider on a subscript (${names.join(', ')})`);
        await shot('sliders');
        await freshTrace(page, () =>
          runProgram(
            page,
            'import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x\nfor i in range(30):\n    y = y * 1.001 + 0.001\ny.backward()\n',
          ),
        );
        await page.getByRole('combobox', { name: 'Group nodes' }).selectOption('loops');
        const expand = page.getByRole('button', { name: /^Expand loop/ }).first();
        await expand.waitFor();
        assert.equal(await expand.locator('svg').count(), 1, 'the plus is drawn');
        assert.ok(!((await expand.textContent()) ?? '').includes('＋'), 'no full-width plus glyph');
        await shot('blocks');
      },
    },
    {
      name: `classroom: the running line is marked in the editor, the line that made the node (forward), the backward() call (backward) (${size})`,
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        const [, total] = await freshTrace(page, () => openExample(page, url, 'leaf_and_non_leaf'));
        const lines = /** @type {string} */ (
          (await (await fetch(`${url}/api/examples`)).json()).find((/** @type {{id: string}} */ e) => e.id === 'leaf_and_non_leaf').source
        ).split('\n');
        assert.equal(await page.locator('.cm-running-line').count(), 0, 'nothing runs at step 0');
        await seek(page, 1);
        const forward = page.locator('.cm-running-forward');
        await until(async () => (await forward.count()) > 0, 'a forward line marked');
        const made = ((await nodeList(page).locator('[aria-current="step"]').textContent()) ?? '').split(':')[0] ?? '';
        const text = (await forward.first().textContent()) ?? '';
        assert.ok(
          lines.some((l) => l.replace(/\s+/g, '') === text.replace(/\s+/g, '')),
          `the marked text is a line of the program ("${text}")`,
        );
        assert.ok(text.includes(made.split(' ')[0] ?? ''), `the line that made ${made}: "${text}"`);
        await shot('forward-line');
        // Into the backward pass: the backward() call is marked.
        let step = 1;
        while (step < total && !(await page.getByRole('group', { name: 'Player' }).textContent())?.match(/backward 1/i))
          await seek(page, ++step);
        await until(
          async () =>
            /\.backward\(/.test(
              (await page
                .locator('.cm-running-backward')
                .first()
                .textContent()
                .catch(() => '')) ?? '',
            ),
          'the backward() line marked',
        );
        await shot('backward-line');
      },
    },
  ];
}

for (const viewport of VIEWPORTS) tests.push(...classroomChecks(viewport));

// ---- Truthful states: parameters kept through a training loop, updates with their numbers, the running .grad ----

/**
 * @param {{ width: number, height: number }} viewport
 * @returns {{ name: string, run: (ctx: Ctx) => Promise<void> }[]}
 */
function truthfulStates(viewport) {
  const size = `${viewport.width}×${viewport.height}`;
  return [
    {
      name: `truthful: a training loop keeps one node per parameter, never greyed in backward, each step shown as w ← w − lr·grad (${size})`,
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        const program =
          'import torch\nw = torch.tensor(2.0, requires_grad=True)\nx = torch.tensor(3.0)\nfor step in range(3):\n    loss = (w * x - 1.0) ** 2\n    loss.backward()\n    with torch.no_grad():\n        w -= 0.1 * w.grad\n    w.grad.zero_()\n';
        const [, total] = await freshTrace(page, () => runProgram(page, program));
        /** @type {string[]} */
        const updates = [];
        for (let step = 1; step <= total; step++) {
          await seek(page, step);
          const d = await drawn(page);
          const titles = d.nodes.map((n) => n.title);
          assert.equal(titles.filter((t) => t === 'w').length, 1, `step ${step}: one w (${titles.join(', ')})`);
          assert.ok(!titles.some((t) => /^tensor \d+$/.test(t)), `step ${step}: no leaf left nameless by an update (${titles.join(', ')})`);
          const phase = (await page.getByRole('group', { name: 'Player' }).locator('.phase').textContent()) ?? '';
          if (/backward/.test(phase)) {
            const w = d.nodes.find((n) => n.title === 'w');
            assert.ok(w && !w.pending, `step ${step}: w is not greyed "not computed yet" during ${phase}`);
          }
          const caption = (await page.getByRole('group', { name: 'Player' }).locator('.caption').textContent()) ?? '';
          if (caption.includes('←')) {
            updates.push(caption);
            // The whole sentence is on screen, not cut to "w…" on a projector.
            const fits = await page
              .getByRole('group', { name: 'Player' })
              .locator('.caption')
              .evaluate((el) => {
                const r = el.getBoundingClientRect();
                return el.scrollWidth <= el.clientWidth + 1 && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
              });
            assert.ok(fits, `step ${step}: the caption "${caption}" is shown whole`);
          }
        }
        // w = 2 - 0.1 * 2*3*(2*3 - 1) = 2 - 3 = -1: the first update with its numbers.
        assert.equal(updates.length, 3, `three updates captioned (${updates.join(' | ')})`);
        assert.match(updates[0] ?? '', /w ← w − lr·grad = 2 − 0\.1·30 = -1\b/);
        await checkPicture(page, 12, 'training loop at the end');
        await shot('training-updates');
      },
    },
    {
      name: `truthful: a leaf shows its running .grad, 4 after one backward, 8 after two, and nothing before (${size})`,
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        const program = 'import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * x).backward()\n(x * x).backward()\nprint(x.grad)\n';
        const [, total] = await freshTrace(page, () => runProgram(page, program));
        /** The ∇ text drawn on x at a step. @param {number} step */
        const gradOnX = async (step) => {
          await seek(page, step);
          const x = (await drawn(page)).nodes.find((n) => n.title === 'x');
          assert.ok(x, `x drawn at step ${step}`);
          return x.texts.map((t) => t.text).find((t) => t.startsWith('∇')) ?? null;
        };
        assert.equal(await gradOnX(0), null, 'no gradient on x at step 0');
        /** @type {string[]} */
        const seen = [];
        for (let step = 1; step <= total; step++) {
          const g = await gradOnX(step);
          if (g && seen[seen.length - 1] !== g) seen.push(g);
        }
        assert.deepEqual(seen, ['∇ 4', '∇ 8'], `x's .grad over the steps: ${seen.join(' → ')}`);
        await shot('running-grad');
      },
    },
  ];
}

for (const viewport of VIEWPORTS) tests.push(...truthfulStates(viewport));

// ---- The classroom picture, lecturer parts: captions, predict mode, the standalone lesson, the torchviz view ----

/** Attach a caption to the step on screen with the player bar's button. @param {Page} page @param {string} text */
async function addCaption(page, text) {
  await page.getByRole('button', { name: 'Caption this step' }).click();
  const box = page.getByRole('textbox', { name: /^Caption for step \d+$/ });
  await box.fill(text);
  await box.press('Enter');
  await until(
    async () =>
      (await page
        .getByTestId('lecturer-caption')
        .textContent()
        .catch(() => '')) === text,
    `the caption "${text}"`,
  );
}

/** The caption band lies outside the graph's canvas (it covers no node). @param {Page} page */
async function captionClearOfGraph(page) {
  const band = await page.getByRole('region', { name: 'Lecturer caption' }).boundingBox();
  const canvas = await page.locator('section.centre canvas').first().boundingBox();
  assert.ok(band && canvas, 'a caption band and a canvas');
  assert.ok(
    band.y >= canvas.y + canvas.height - 0.5,
    `the caption band (top ${band.y}) is below the graph (bottom ${canvas.y + canvas.height})`,
  );
  const px = await page.getByTestId('lecturer-caption').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  assert.ok(px >= 20, `the caption is projector-sized (${px} px)`);
}

/** The names in the accessible node list. @param {Page} page */
const listedNames = async (page) =>
  (await nodeList(page).getByRole('listitem', { includeHidden: true }).allTextContents()).map((t) => t.split(': ')[0] ?? '');

/**
 * @param {{ width: number, height: number }} viewport
 * @returns {{ name: string, run: (ctx: Ctx) => Promise<void> }[]}
 */
function lecturerChecks(viewport) {
  const size = `${viewport.width}×${viewport.height}`;
  return [
    {
      name: `lecturer: a caption at a step shows there, survives the share link, is edited and removed (${size})`,
      async run({ page, context, url, shot }) {
        await openAt(page, url, viewport);
        await freshTrace(page, () => openExample(page, url, 'leaf_and_non_leaf'));
        await seek(page, 7);
        await addCaption(page, 'Backward starts at the loss: its gradient is 1.');
        await captionClearOfGraph(page);
        await checkPicture(page, 12, `caption at ${size}`);
        await shot('caption');
        await seek(page, 6);
        assert.equal(await page.getByTestId('lecturer-caption').count(), 0, 'no caption at step 6');
        await seek(page, 7);
        await until(async () => page.url().includes('cap=') && page.url().includes('step=7'), 'the caption in the URL');
        const link = page.url();
        assert.ok(link.length < 600, `a compact link (${link.length} characters)`);
        const other = await context.newPage();
        await other.setViewportSize(viewport);
        await other.goto(link);
        await traced(other);
        await until(async () => (await stepCount(other))[0] === 7, 'the shared step');
        await until(
          async () =>
            (await other
              .getByTestId('lecturer-caption')
              .textContent()
              .catch(() => '')) === 'Backward starts at the loss: its gradient is 1.',
          'the caption after reload',
        );
        await other.screenshot({ path: `test-results/lecturer-caption-reloaded-${size}.png` });
        await other.close();
        // Edit, then remove.
        await page.getByRole('button', { name: 'Edit caption' }).click();
        const box = page.getByRole('textbox', { name: 'Caption for step 7' });
        await box.fill('Edited: the loss starts with 1.');
        await box.press('Enter');
        await until(
          async () => (await page.getByTestId('lecturer-caption').textContent()) === 'Edited: the loss starts with 1.',
          'the edited caption',
        );
        await page.getByRole('button', { name: 'Remove caption' }).click();
        await until(async () => !page.url().includes('cap='), 'the caption gone from the URL');
        assert.equal(await page.getByTestId('lecturer-caption').count(), 0);
      },
    },
    {
      name: `lecturer: predict mode stops before a backward step, takes a wrong then a right answer, shows the chain rule (${size})`,
      async run({ page, context, url, shot }) {
        await openAt(page, url, viewport);
        await freshTrace(page, () => openExample(page, url, 'leaf_and_non_leaf'));
        await page.getByRole('button', { name: 'Predict' }).click();
        const panel = page.getByTestId('predict');
        await panel.waitFor();
        await until(async () => page.url().includes('ask='), 'the questions in the URL');
        await page.getByRole('button', { name: 'Play' }).click();
        const question = page.getByTestId('predict-question');
        await question.waitFor({ timeout: 20_000 });
        // The question shows from the step before its stop; playback halts once that step's animation ends.
        await until(async () => (await page.getByRole('button', { name: 'Play' }).count()) === 1, 'playback stopped');
        const [at] = await stepCount(page);
        // The first question: PowBackward0 receives ∂loss/∂loss = 1.
        assert.match((await question.textContent()) ?? '', /PowBackward0/);
        const answer = page.getByRole('textbox', { name: 'Your answer' });
        await page.getByRole('button', { name: 'Step forward' }).click();
        assert.equal((await stepCount(page))[0], at, 'a question holds the step too');
        await answer.fill('1');
        await answer.press('Enter');
        await until(
          async () =>
            /✓ Right/.test(
              (await page
                .getByTestId('predict-verdict')
                .textContent()
                .catch(() => '')) ?? '',
            ),
          'the first answer right',
        );
        await page.getByRole('button', { name: /^Continue/ }).click();
        // The next: SubBackward0 receives ∂loss/∂(y1 - y2) = 2(y1 − y2) = −4.
        await until(async () => /SubBackward0/.test((await question.textContent().catch(() => '')) ?? ''), 'the SubBackward0 question');
        await answer.fill('4');
        await answer.press('Enter');
        await until(
          async () =>
            /✗ Not quite/.test(
              (await page
                .getByTestId('predict-verdict')
                .textContent()
                .catch(() => '')) ?? '',
            ),
          'a wrong answer refused',
        );
        await shot('wrong');
        await answer.fill('−4');
        await panel.getByRole('button', { name: 'Check', exact: true }).click();
        await until(
          async () =>
            /✓ Right \(try 2\).*= −4/.test(
              (await page
                .getByTestId('predict-verdict')
                .textContent()
                .catch(() => '')) ?? '',
            ),
          'the right answer accepted',
        );
        const rule = panel.getByTestId('chain-rule').getByRole('math').first();
        await until(async () => /= −4/.test((await rule.getAttribute('aria-label')) ?? ''), 'the chain rule that gives −4');
        assert.match((await rule.getAttribute('aria-label')) ?? '', /^∂loss\/∂\(y1 - y2\) = /);
        // It waits on the explanation until Continue.
        await until(async () => (await page.getByRole('button', { name: 'Play' }).count()) === 1, 'stopped on the explanation');
        const [shown] = await stepCount(page);
        await page.waitForTimeout(800);
        assert.equal((await stepCount(page))[0], shown, 'no step taken without Continue');
        await checkPicture(page, 12, `predict at ${size}`);
        await shot('right');
        // The questions ride in the share link: a learner opening it is asked the same ones.
        await page.getByRole('button', { name: 'Choose steps' }).click();
        const boxes = page.getByRole('group', { name: 'Steps that ask' }).getByRole('checkbox');
        const count = await boxes.count();
        assert.ok(count >= 5, `a step per backward Function (${count})`);
        await boxes.first().uncheck();
        await until(
          async () => /Predict · \d+ of 4 answered/i.test((await panel.getByRole('heading', { name: /^Predict/ }).textContent()) ?? ''),
          'four questions left',
        );
        await until(async () => /[#&]ask=[0-9a-z.]+/.test(page.url()), 'the chosen steps in the URL');
        await page.waitForTimeout(400);
        const link = page.url();
        const learner = await context.newPage();
        await learner.setViewportSize(viewport);
        await learner.goto(link);
        await traced(learner);
        await until(
          async () =>
            /Predict · 0 of 4 answered/i.test(
              (await learner
                .getByRole('heading', { name: /^Predict/ })
                .textContent()
                .catch(() => '')) ?? '',
            ),
          'the same four questions for the learner',
        );
        await learner.close();
      },
    },
    {
      name: `lecturer: the exported standalone page shows the code, the title, the app's labels and the captions (${size})`,
      async run({ page, context, url, shot }) {
        await openAt(page, url, viewport);
        const example = await openExample(page, url, 'leaf_and_non_leaf');
        await until(async () => (await runs(page)) > 1, 'the lesson');
        await page.getByRole('button', { name: 'Jump to start' }).click();
        await seek(page, 7);
        await addCaption(page, 'Backward starts here.');
        await page.getByRole('button', { name: 'Export' }).click();
        const html = await downloaded(page, () => page.getByRole('menuitem', { name: 'Standalone HTML player' }).click());
        const offline = await context.browser()?.newContext({ viewport, offline: true });
        assert.ok(offline);
        const requests = /** @type {string[]} */ ([]);
        await offline.route(/^https?:/, (route) => {
          requests.push(route.request().url());
          return route.abort();
        });
        const standalone = await offline.newPage();
        /** @type {string[]} */
        const errors = [];
        standalone.on('pageerror', (e) => errors.push(e.message));
        await standalone.goto(pathToFileURL(html).href);
        await standalone.locator('[data-layout="ready"]').waitFor({ timeout: 20_000 });
        assert.equal((await standalone.getByRole('heading', { level: 1 }).textContent())?.trim(), example.title);
        const code = standalone.getByRole('textbox', { name: 'Program source (Python)' });
        assert.match((await code.textContent()) ?? '', /y2 = 2 \* x/);
        assert.equal(await code.getAttribute('contenteditable'), 'false', 'the code is read-only');
        const names = await listedNames(standalone);
        assert.ok(names.includes('y1 - y2'), `the app's label "y1 - y2" (${names.join(', ')})`);
        assert.ok(!names.some((n) => /^tensor \d+$/.test(n)), `no "tensor N" names (${names.join(', ')})`);
        await standalone.getByRole('slider', { name: 'Step' }).fill('7');
        await until(
          async () =>
            (await standalone
              .getByTestId('lecturer-caption')
              .textContent()
              .catch(() => '')) === 'Backward starts here.',
          'the caption at step 7',
        );
        await until(async () => (await standalone.locator('.cm-running-backward').count()) > 0, 'the running line (backward)');
        await standalone.getByRole('slider', { name: 'Step' }).fill('3');
        await until(async () => (await standalone.locator('.cm-running-forward').count()) > 0, 'the running line (forward)');
        await standalone.getByRole('slider', { name: 'Step' }).fill('7');
        await standalone.getByTestId('lecturer-caption').waitFor();
        await standalone.screenshot({ path: `test-results/lecturer-standalone-${size}.png` });
        assert.deepEqual(requests, [], 'no network requests');
        assert.deepEqual(errors, []);
        await offline.close();
        await shot('exported');
      },
    },
    {
      name: `lecturer: the torchviz view draws the grad_fn chain without intermediate tensors, and plays (${size})`,
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        await freshTrace(page, () => openExample(page, url, 'leaf_and_non_leaf'));
        const full = await listedNames(page);
        assert.ok(full.includes('y1') && full.includes('y2'), 'the normal view has the intermediates');
        const before = await runs(page);
        await page.getByRole('button', { name: 'grad_fn' }).click();
        await until(
          async () => (await runs(page)) > before && (await page.locator('[data-layout]').getAttribute('data-layout')) === 'ready',
          'the torchviz view laid out',
        );
        const names = await listedNames(page);
        for (const gone of ['y1', 'y2', 'y1 - y2']) assert.ok(!names.includes(gone), `no ${gone} (${names.join(', ')})`);
        for (const kept of ['x', 'loss', 'AccumulateGrad', 'AddBackward0', 'MulBackward0', 'SubBackward0', 'PowBackward0'])
          assert.ok(names.includes(kept), `${kept} drawn (${names.join(', ')})`);
        assert.equal(await page.getByRole('button', { name: 'grad_fn' }).getAttribute('aria-pressed'), 'true');
        await until(async () => page.url().includes('view=torchviz'), 'the view in the URL');
        await page.getByRole('combobox', { name: 'Speed' }).selectOption('16');
        await page.getByRole('button', { name: 'Jump to start' }).click();
        await page.getByRole('button', { name: 'Play' }).click();
        await until(
          async () => {
            const [c, n] = await stepCount(page);
            return c === n && (await page.getByRole('button', { name: 'Play' }).count()) === 1;
          },
          'played to the end',
          30_000,
        );
        await until(async () => /gradient 4,/.test((await nodeText(page, 'x')) ?? ''), "x's gradient 4");
        await page.getByRole('button', { name: 'Fit' }).click();
        await checkPicture(page, 12, `torchviz at ${size}`);
        await shot('torchviz');
      },
    },
  ];
}

for (const viewport of VIEWPORTS) tests.push(...lecturerChecks(viewport));

// ---- Explanations that are right: local derivatives in the chain-rule panel; the lesson page Python writes ----

const PRODUCTS = `import torch
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
w = torch.tensor([[1.0, 0.0], [0.5, 1.0], [2.0, -2.0]], requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
h = x @ w
loss = (h * b).sum()
loss.backward()
`;

/**
 * Step until the chain-rule panel explains Function `op`; returns the panel's local
 * derivative lines and its formula's text. @param {Page} page @param {string} op
 */
async function explained(page, op) {
  const panel = page.getByTestId('chain-rule').first();
  const [, n] = await stepCount(page);
  for (let s = 1; s <= n; s++) {
    await seek(page, s);
    if (((await panel.textContent()) ?? '').includes(`${op} (`)) {
      return {
        locals: await panel.getByTestId('local-derivative').allTextContents(),
        formula: (await panel.getByRole('math').first().getAttribute('aria-label')) ?? '',
        panel,
      };
    }
  }
  throw new Error(`no step explains ${op}`);
}

/** The element lies inside the window, left to right. @param {Page} page @param {import('playwright-core').Locator} el @param {{width: number}} viewport */
async function insideWindow(page, el, viewport) {
  const box = await el.boundingBox();
  assert.ok(box, 'the element is shown');
  assert.ok(
    box.x >= 0 && box.x + box.width <= viewport.width + 0.5,
    `inside the window (${box.x}…${box.x + box.width} of ${viewport.width})`,
  );
}

/** @param {{ width: number, height: number }} viewport */
function explanationChecks(viewport) {
  const size = `${viewport.width}×${viewport.height}`;
  return [
    {
      name: `explanations: the chain-rule panel gives Mul's and MatMul's local derivatives in words and numbers (${size})`,
      /** @param {Ctx} ctx */
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        await freshTrace(page, () => runProgram(page, PRODUCTS));
        const mul = await explained(page, 'MulBackward0');
        // h = x @ w = [[8, −4], [18.5, −7]] and b = 3, as torch computed them.
        assert.ok(mul.locals.includes('∂(h * b)/∂h = b: the other input, b = 3.'), mul.locals.join(' | '));
        const forB = mul.locals.find((l) => l.startsWith('∂(h * b)/∂b = h: '));
        assert.equal(
          forB,
          '∂(h * b)/∂b = h: the other input, h = [[8, −4], [18.5, −7]]; it was broadcast, so the gradient is summed over dimensions 0, 1 of 2×2.',
        );
        assert.match(mul.formula, /∂loss\/∂b \+= G ⊙ h, summed over dim 0, 1 → \[scalar\] = 15\.5/);
        for (const line of await mul.panel.getByTestId('local-derivative').all()) await insideWindow(page, line, viewport);
        await shot('mul');
        const mm = await explained(page, 'MmBackward0');
        assert.deepEqual(mm.locals, [
          '∂h/∂x = wᵀ: the transposed other operand: G·wᵀ: [2×2]·[2×3] → [2×3].',
          '∂h/∂w = xᵀ: the transposed other operand: xᵀ·G: [3×2]·[2×2] → [3×2].',
        ]);
        assert.match(
          mm.formula,
          /^∂loss\/∂x \+= G·wᵀ: \[2×2\]·\[2×3\] → \[2×3\] = \[3, 4\.5, 0, 3, 4\.5, 0\]; ∂loss\/∂w \+= xᵀ·G: \[3×2\]·\[2×2\] → \[3×2\] = \[15, 15, 21, 21, 27, 27\]$/,
        );
        assert.ok(!/Backward0\)? *[+=]|∂[A-Za-z]*Backward/.test(mm.formula), `no Function in a derivative: ${mm.formula}`);
        for (const line of await mm.panel.getByTestId('local-derivative').all()) await insideWindow(page, line, viewport);
        await shot('matmul');
      },
    },
    {
      name: `python: gradtrace.to_html(trace, code=, title=, captions=) writes the lesson page: code pane, title, the app's names, the caption (${size})`,
      /** @param {Ctx} ctx */
      async run({ context }) {
        const dir = mkdtempSync(join(tmpdir(), 'gradtrace-e2e-'));
        const program = join(dir, 'leaf.py');
        const out = join(dir, 'lesson.html');
        writeFileSync(
          program,
          'import torch\nx = torch.tensor(3.0, requires_grad=True)\ny1 = x + 1\ny2 = 2 * x\nloss = (y1 - y2) ** 2\nloss.backward()\n',
        );
        const script = [
          'import sys, gradtrace',
          'code = open(sys.argv[1]).read()',
          'page = gradtrace.to_html(gradtrace.run(code), code=code, title="Leaf and non-leaf", lesson="x is a leaf.", captions={7: "Backward starts here."})',
          'open(sys.argv[2], "w").write(page)',
        ].join('\n');
        execFileSync(PYTHON, ['-c', script, program, out], {
          env: { ...process.env, PYTHONPATH: join(ROOT, 'backend') },
          timeout: 120_000,
        });
        const offline = await context.browser()?.newContext({ viewport, offline: true });
        assert.ok(offline);
        const requests = /** @type {string[]} */ ([]);
        await offline.route(/^https?:/, (route) => {
          requests.push(route.request().url());
          return route.abort();
        });
        const standalone = await offline.newPage();
        /** @type {string[]} */
        const errors = [];
        standalone.on('pageerror', (e) => errors.push(e.message));
        await standalone.goto(pathToFileURL(out).href);
        await standalone.locator('[data-layout="ready"]').waitFor({ timeout: 20_000 });
        assert.equal((await standalone.getByRole('heading', { level: 1 }).textContent())?.trim(), 'Leaf and non-leaf');
        const code = standalone.getByRole('textbox', { name: 'Program source (Python)' });
        assert.match((await code.textContent()) ?? '', /y2 = 2 \* x/);
        assert.match((await standalone.getByRole('region', { name: 'Lesson' }).textContent()) ?? '', /x is a leaf\./);
        const names = await listedNames(standalone);
        assert.ok(names.includes('y1 - y2'), `the node title "y1 - y2" (${names.join(', ')})`);
        assert.ok(!names.some((n) => /^tensor \d+$/.test(n)), `no "tensor N" names (${names.join(', ')})`);
        await standalone.getByRole('slider', { name: 'Step' }).fill('7');
        await until(
          async () =>
            (await standalone
              .getByTestId('lecturer-caption')
              .textContent()
              .catch(() => '')) === 'Backward starts here.',
          'the caption at step 7',
        );
        await until(async () => (await standalone.locator('.cm-running-backward').count()) > 0, 'the running line (backward)');
        await standalone.screenshot({ path: `test-results/python-lesson-${size}.png` });
        assert.deepEqual(requests, [], 'no network requests');
        assert.deepEqual(errors, []);
        await offline.close();
      },
    },
  ];
}

for (const viewport of VIEWPORTS) tests.push(...explanationChecks(viewport));

// For the other suites (rooms.mjs).
export { VIEWPORTS, drawn, freshTrace, nodeText, openAt, openExample, pickNode, runProgram, seek, stepCount, traced, until };
