// Inside a backward pass (issue 17): the saved tensors torch frees, the node a second
// backward fails at with torch's own message, and a custom Function's backward stepped
// line by line with the editor's running line on each statement. At 1024×768 and 1600×1000.
import assert from 'node:assert/strict';
import { VIEWPORTS, drawn, freshTrace, openAt, openExample, pickNode, seek, stepCount, until } from './tests.mjs';

/** @typedef {import('playwright-core').Page} Page */

/** The caption of the current step. @param {Page} page */
const caption = async (page) => (await page.locator('.bar .caption').textContent()) ?? '';

/** The editor's running line(s), as text. @param {Page} page */
const runningText = async (page) => (await page.locator('.cm-running-line').allTextContents()).join('\n').trim();

/** @param {{width: number, height: number}} viewport */
function checks(viewport) {
  const size = `${viewport.width}×${viewport.height}`;
  return [
    {
      name: `backward at ${size}: a failed second backward shows torch's message on the node it raised in`,
      /** @param {{ page: Page, url: string, shot: (name: string) => Promise<unknown> }} ctx */
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        await freshTrace(page, () => openExample(page, url, 'graph_freed_after_backward'));
        const [, total] = await stepCount(page);
        // The first pass's end: its saved tensors are freed (drawn so, and said so).
        let freedStep = 0;
        for (let step = 1; step <= total && !freedStep; step++) {
          await seek(page, step);
          if (/freed the saved tensors of/.test(await caption(page))) freedStep = step;
        }
        assert.ok(freedStep > 0, 'a step where torch freed the saved tensors');
        const before = await drawn(page);
        assert.ok(
          before.nodes.some((n) => n.freed),
          'freed nodes drawn as freed',
        );
        await page.getByRole('button', { name: 'Step back' }).click();
        await until(async () => (await stepCount(page))[0] === freedStep - 1, 'one step back');
        assert.ok(!(await drawn(page)).nodes.some((n) => n.freed), 'nothing freed before that step');
        await page.getByRole('button', { name: 'Jump to end' }).click();
        const error = (await page.getByTestId('program-error').textContent()) ?? '';
        assert.match(error, /Trying to backward through the graph a second time/);
        await page.getByRole('button', { name: 'Fit' }).click();
        const d = await drawn(page);
        const failing = d.nodes.filter((n) => n.callout);
        assert.equal(failing.length, 1, 'one node carries the error');
        const node = /** @type {(typeof failing)[number]} */ (failing[0]);
        const words = (node.callout?.lines ?? []).join(' ');
        assert.match(words, /^RuntimeError: Trying to backward through the graph a second time/);
        assert.ok(
          node.texts.some((t) => t.text === '✗ RuntimeError'),
          'the error tag on the node',
        );
        const callout = /** @type {{ x: number, y: number, w: number, h: number }} */ (node.callout?.rect);
        // Always inside the canvas, so torch's words are never cut off.
        assert.ok(callout.x >= -0.5 && callout.x + callout.w <= d.canvas.width + 0.5, 'the callout fits the canvas across');
        // At either size, by the node, covering no node (its own included).
        for (const other of d.nodes) {
          const b = other.box;
          const apart = callout.x >= b.x + b.w || b.x >= callout.x + callout.w || callout.y >= b.y + b.h || b.y >= callout.y + callout.h;
          assert.ok(apart, `the callout covers ${other.title}`);
        }
        assert.ok((node.callout?.px ?? 0) >= 12, `the callout's text is readable (${node.callout?.px} px)`);
        await shot('failed-second-backward');
        // The inspector: torch's whole message, at this step.
        await pickNode(page, node.title);
        const inspector = (await page.getByTestId('backward-error').textContent()) ?? '';
        assert.match(inspector, /Trying to backward through the graph a second time.*Specify retain_graph=True/s);
        assert.match((await page.getByTestId('freed-note').textContent()) ?? '', /saved tensors were freed at step \d+/);
        // Folded at 1024×768: its entries are there all the same.
        assert.match((await page.getByRole('list', { name: 'Legend', includeHidden: true }).textContent()) ?? '', /freed by backward/);
        await shot('failed-second-backward-inspector');
      },
    },
    {
      name: `backward at ${size}: a custom Function's backward is stepped line by line, the running line on each statement`,
      /** @param {{ page: Page, url: string, shot: (name: string) => Promise<unknown> }} ctx */
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        await freshTrace(page, () => openExample(page, url, 'custom_relu_function'));
        const [, total] = await stepCount(page);
        /** @type {string[]} */
        const stepped = [];
        for (let step = 1; step <= total; step++) {
          await page.getByRole('button', { name: 'Step forward' }).click();
          await until(async () => (await stepCount(page))[0] === step, `step ${step}`);
          if (/of MyReLUBackward's backward/.test(await caption(page))) {
            stepped.push(await runningText(page));
            if (stepped.length === 2) await shot('custom-backward-line');
          }
        }
        assert.deepEqual(stepped, [
          '(input,) = ctx.saved_tensors',
          'grad_input = grad_output.clone()',
          'grad_input[input < 0] = 0',
          'return grad_input',
        ]);
      },
    },
  ];
}

export const backwardTests = VIEWPORTS.flatMap(checks);
