// Truthful states the class sees (issue 17), each at 1024×768 and 1600×1000: a leaf's
// .grad back to 0 on zero_(), graph-cut marks only where a tensor that requires grad is
// cut, the Training panel for real training loops only, torch's warning once at its
// step, and the hook's own line marked while it runs in backward.
import assert from 'node:assert/strict';
import { VIEWPORTS, drawn, freshTrace, openAt, openExample, runProgram, seek, stepCount, until } from './tests.mjs';

/** @typedef {import('playwright-core').Page} Page */

/** The stdout panel's text. @param {Page} page */
const printed = async (page) => (await page.getByTestId('stdout').textContent()) ?? '';

/** The editor's running line(s), as text. @param {Page} page */
const runningText = async (page) => (await page.locator('.cm-running-line').allTextContents()).join('\n').trim();

/** @param {{width: number, height: number}} viewport */
function checks(viewport) {
  const size = `${viewport.width}×${viewport.height}`;
  return [
    {
      name: `truthful: x shows ∇ 4, then ∇ 8, then ∇ 0 after x.grad.zero_() (${size})`,
      /** @param {{ page: Page, url: string, shot: (name: string) => Promise<unknown> }} ctx */
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        const program =
          'import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * x).backward()\n(x * x).backward()\nx.grad.zero_()\nprint(x.grad)\n';
        const [, total] = await freshTrace(page, () => runProgram(page, program));
        /** @type {string[]} */
        const seen = [];
        for (let step = 1; step <= total; step++) {
          await seek(page, step);
          const x = (await drawn(page)).nodes.find((n) => n.title === 'x');
          const grad = x?.texts.map((t) => t.text).find((t) => t.startsWith('∇')) ?? null;
          if (grad && seen[seen.length - 1] !== grad) seen.push(grad);
        }
        assert.deepEqual(seen, ['∇ 4', '∇ 8', '∇ 0'], `x's .grad over the steps: ${seen.join(' → ')}`);
        await shot('zeroed');
      },
    },
    {
      name: `truthful: graph-cut marks only where a tensor that requires grad is cut, not on features or indices (${size})`,
      /** @param {{ page: Page, url: string, shot: (name: string) => Promise<unknown> }} ctx */
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        const program = [
          'import torch',
          'w = torch.tensor(2.0, requires_grad=True)',
          'features = torch.linspace(0, 1, 4)',
          'idx = torch.tensor([0, 2])',
          'with torch.no_grad():',
          '    frozen = w * 3',
          'd = w.detach() * 2',
          'loss = (w * features).sum() + frozen + d + features[idx].sum()',
          'loss.backward()',
          '',
        ].join('\n');
        const [, total] = await freshTrace(page, () => runProgram(page, program));
        await seek(page, total);
        const d = /** @type {{ cuts: { source: string, target: string }[] }} */ (/** @type {unknown} */ (await drawn(page)));
        const cuts = d.cuts.map((c) => `${c.source} → ${c.target}`);
        assert.equal(cuts.length, 2, `two cuts, w into no_grad and into detach (${cuts.join('; ')})`);
        assert.ok(
          d.cuts.every((c) => c.source === 'w'),
          `only w is cut (${cuts.join('; ')})`,
        );
        assert.ok(
          d.cuts.some((c) => c.target === 'frozen'),
          `w → frozen is a cut (${cuts.join('; ')})`,
        );
        await shot('cuts');
      },
    },
    {
      name: `truthful: the Training panel for a real training loop only, with its iteration count (${size})`,
      /** @param {{ page: Page, url: string, shot: (name: string) => Promise<unknown> }} ctx */
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        const panel = page.getByTestId('training');
        // Two backward() calls with no update between them: no training.
        await freshTrace(page, () =>
          runProgram(page, 'import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * x).backward()\n(x * x).backward()\n'),
        );
        assert.equal(await panel.count(), 0, 'no Training panel for two backward() calls');
        // A hook printing the gradient: not a loss curve.
        await freshTrace(page, () => openExample(page, url, 'retain_grad_and_hooks'));
        assert.equal(await panel.count(), 0, 'no Training panel for hook prints');
        // Three SGD steps: a training loop of three iterations.
        const loop =
          'import torch\nw = torch.tensor(2.0, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\nfor step in range(3):\n    loss = (w * 3.0 - 1.0) ** 2\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n    print("loss", loss.item())\n';
        await freshTrace(page, () => runProgram(page, loop));
        await until(async () => (await panel.count()) === 1, 'the Training panel');
        assert.match((await panel.getByRole('heading').textContent()) ?? '', /^Training · 3 iterations$/);
        await shot('training-loop');
      },
    },
    {
      name: `truthful: torch's warning shows once, short, at its step; a hook's line is marked as it fires (${size})`,
      /** @param {{ page: Page, url: string, shot: (name: string) => Promise<unknown> }} ctx */
      async run({ page, url, shot }) {
        await openAt(page, url, viewport);
        await freshTrace(page, () => openExample(page, url, 'leaf_and_non_leaf'));
        const [, total] = await stepCount(page);
        const warnings = page.getByTestId('torch-warning');
        let first = -1;
        for (let step = 0; step <= total && first < 0; step++) {
          await seek(page, step);
          if ((await warnings.count()) > 0) first = step;
        }
        assert.ok(first > 0, 'the warning appears at a step, not before the run');
        // torch warns while `print("loss.grad:", loss.grad)` reads loss.grad: before it prints.
        assert.ok(!(await printed(page)).includes('loss.grad:'), 'at the step of the warning, its print has not happened yet');
        await seek(page, first - 1);
        assert.equal(await warnings.count(), 0, 'no warning the step before');
        await seek(page, total);
        assert.equal(await warnings.count(), 1, 'one warning, once');
        const words = (await warnings.textContent()) ?? '';
        assert.match(words, /\.grad attribute of a Tensor that is not a leaf/);
        assert.ok(words.length < 400 && !/\.(cpp|h):\d+|\/aten\//.test(words), `short, without torch's C++ path: ${words}`);
        await shot('warning');
        // The hooks lesson: when "y1 grad:" is printed, the running line is the hook's.
        await freshTrace(page, () => openExample(page, url, 'retain_grad_and_hooks'));
        const [, hookTotal] = await stepCount(page);
        let fired = -1;
        for (let step = 1; step <= hookTotal && fired < 0; step++) {
          await seek(page, step);
          if ((await printed(page)).includes('y1 grad:')) fired = step;
        }
        assert.ok(fired > 0, 'the hook prints during backward');
        await until(async () => (await runningText(page)).includes('y1.register_hook'), "the hook's line marked as it fires");
        await shot('hook-line');
      },
    },
  ];
}

export const truthfulTests = VIEWPORTS.flatMap(checks);
