// The browser tests of a live room (issue 18): one lecturer page on a 1024×768
// projector and two student pages, each in its own browser context (its own cookie:
// the server counts one answer per client), all on the real server.
import assert from 'node:assert/strict';
import { freshTrace, openExample, runProgram, stepCount, traced, until } from './tests.mjs';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Browser} Browser */

const PROJECTOR = { width: 1024, height: 768 };

/** A student's page in a fresh context. @param {Browser} browser @param {string} link */
async function student(browser, link) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    /** @type {any} */ (window).__gradtraceTest = {};
  });
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(link);
  return { page, context, errors };
}

/** The player's step. @param {Page} page */
const step = async (page) => (await stepCount(page))[0];

/** The graph view's scale, as drawn. @param {Page} page @returns {Promise<number>} */
const scale = (page) => page.evaluate(() => /** @type {any} */ (window).__gradtraceTest.drawn().k);

/** The program in the editor. @param {Page} page */
const program = async (page) => (await page.getByRole('textbox', { name: 'Program source (Python)' }).textContent()) ?? '';

/** The lecturer's "N following". @param {Page} page */
const followers = async (page) =>
  Number(
    /(\d+) following/.exec(
      (await page
        .getByTestId('room-followers')
        .textContent()
        .catch(() => '')) ?? '',
    )?.[1] ?? -1,
  );

/** The lecturer's bars: "label: count" each. @param {Page} page */
const bars = async (page) =>
  (
    await page
      .getByRole('list', { name: 'Answers' })
      .getByRole('listitem')
      .evaluateAll((items) => items.map((i) => i.getAttribute('aria-label') ?? ''))
  ).sort();

/** @type {{ name: string, run: (ctx: { page: Page, context: import('playwright-core').BrowserContext, url: string, shot: (name: string) => Promise<unknown> }) => Promise<void> }[]} */
export const roomTests = [
  {
    name: 'room: two students follow the lecturer live, one leaves and snaps back, their answers make the lecturer’s histogram',
    async run({ page, context, url, shot }) {
      const browser = context.browser();
      assert.ok(browser);
      await page.setViewportSize(PROJECTOR);
      await page.addInitScript(() => {
        /** @type {any} */ (window).__gradtraceTest = {};
      });
      await page.goto(url);
      await traced(page);
      await freshTrace(page, () => openExample(page, url, 'leaf_and_non_leaf'));
      await shot('toolbar');

      // The lecturer opens a room: the code in large type, a QR code, the link, all on the projector.
      await page.getByRole('button', { name: 'Room', exact: true }).click();
      await page.getByRole('button', { name: 'Open a room' }).click();
      const card = page.getByRole('dialog', { name: 'Join the room' });
      await card.waitFor();
      const link = await card.getByRole('textbox', { name: 'Join link' }).inputValue();
      const code = /[?&]room=([A-Z0-9]{6})$/.exec(link)?.[1] ?? '';
      assert.ok(code, `a join link with a room code (${link})`);
      assert.equal((await card.getByTestId('room-code').textContent())?.replace(/\s/g, ''), code);
      const px = await card.getByTestId('room-code').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      assert.ok(px >= 44, `the code is in large type (${px} px)`);
      const qr = await card.getByRole('img', { name: 'QR code of the join link' }).boundingBox();
      const box = await card.boundingBox();
      assert.ok(qr && qr.width >= 200, `a QR code big enough to scan from a seat (${qr?.width} px)`);
      assert.ok(
        box && box.y >= 0 && box.y + box.height <= PROJECTOR.height && box.x >= 0 && box.x + box.width <= PROJECTOR.width,
        'the card fits the projector',
      );
      await shot('room-card');

      // Two students open the link: their pages run the lecturer's program and follow.
      const students = [await student(browser, link), await student(browser, link)];
      try {
        for (const s of students) {
          await until(
            async () =>
              /Following room/.test(
                (await s.page
                  .getByTestId('room-status')
                  .textContent()
                  .catch(() => '')) ?? '',
              ),
            'the student follows',
          );
          await until(async () => /y2 = 2 \* x/.test(await program(s.page)), "the lecturer's program on the student's page", 30_000);
          await traced(s.page);
        }
        await until(async () => (await followers(page)) === 2, 'the lecturer sees 2 following');

        // The lecturer steps forward: both students' steps follow.
        await card.getByRole('button', { name: 'Hide' }).click();
        const forward = page.getByRole('button', { name: 'Step forward' });
        for (let i = 0; i < 3; i++) await forward.click();
        await until(async () => (await step(page)) === 3, 'the lecturer at step 3');
        for (const s of students) await until(async () => (await step(s.page)) === 3, 'a student at step 3');

        // The lecturer zooms in: the students' views take the same scale.
        await page.getByRole('button', { name: 'Zoom in' }).click();
        await page.getByRole('button', { name: 'Zoom in' }).click();
        const k = await scale(page);
        for (const s of students)
          await until(async () => Math.abs((await scale(s.page)) - k) < 1e-3 * k, `a student's view at the lecturer's scale ${k}`);

        // One student leaves to explore: the lecturer's next step does not move that page.
        const [ann, bob] = /** @type {[typeof students[0], typeof students[0]]} */ (students);
        await ann.page.getByRole('button', { name: 'Leave' }).click();
        await ann.page.getByRole('button', { name: 'Snap back' }).waitFor();
        await until(async () => (await followers(page)) === 1, 'the lecturer sees 1 following');
        await forward.click();
        await until(async () => (await step(bob.page)) === 4, 'the follower at step 4');
        await ann.page.waitForTimeout(500);
        assert.equal(await step(ann.page), 3, 'the student who left stays at step 3');

        // Snap back: that page jumps to the lecturer's step and follows again.
        await ann.page.getByRole('button', { name: 'Snap back' }).click();
        await until(async () => (await step(ann.page)) === 4, 'the student snapped back to step 4');
        await until(async () => (await followers(page)) === 2, 'the lecturer sees 2 following again');
        await forward.click();
        for (const s of students) await until(async () => (await step(s.page)) === 5, 'both students at step 5');

        // A following student who runs a program of their own leaves to explore with it.
        await runProgram(ann.page, 'import torch\nz = torch.ones(2, requires_grad=True).sum()\n');
        await ann.page.getByRole('button', { name: 'Snap back' }).waitFor();
        await until(
          async () => (await ann.page.locator('[data-layout="ready"]').count()) === 1 && /z = torch\.ones/.test(await program(ann.page)),
          "the student's own program traced",
        );
        await ann.page.waitForTimeout(500);
        assert.match(await program(ann.page), /z = torch\.ones/, "the room did not replace the student's program");
        await ann.page.getByRole('button', { name: 'Snap back' }).click();
        await until(
          async () => /y2 = 2 \* x/.test(await program(ann.page)) && (await step(ann.page)) === 5,
          "back to the lecturer's program and step",
        );

        // A reload of the lecturer's page keeps the room (the token stays in the tab).
        await page.reload();
        await traced(page);
        await until(async () => (await followers(page)) === 2, 'the same room after a reload, 2 following');
        assert.equal(
          (await page.getByRole('region', { name: 'Live room' }).textContent())?.replace(/\s/g, '').includes(code),
          true,
          'the same code',
        );
        await page.getByRole('button', { name: 'Hide code' }).click();

        // Predict mode: the lecturer's playback stops at a question; the class answers on their screens.
        await page.getByRole('button', { name: 'Jump to start' }).click();
        await page.getByRole('button', { name: 'Predict' }).click();
        await page.getByRole('button', { name: 'Play' }).click();
        await page.getByTestId('predict-question').waitFor({ timeout: 20_000 });
        const asked = await step(page);
        for (const s of students) {
          await until(async () => (await step(s.page)) === asked, 'the students at the question');
          await s.page.getByTestId('room-question').waitFor();
        }
        await bob.page.screenshot({ path: 'test-results/room-student-question.png' });
        const answers = /** @type {const} */ ([
          [ann, '4'],
          [bob, '1'],
        ]);
        for (const [s, value] of answers) {
          const box = s.page.getByTestId('room-question').getByRole('textbox', { name: 'Your answer' });
          await box.fill(value);
          await box.press('Enter');
          await until(
            async () =>
              /Sent/.test(
                (await s.page
                  .getByTestId('room-sent')
                  .textContent()
                  .catch(() => '')) ?? '',
              ),
            'the answer sent',
          );
        }
        await until(
          async () => (await page.getByTestId('room-answer-count').textContent()) === '2',
          'two answers in the lecturer’s histogram',
        );
        await until(
          async () => JSON.stringify(await bars(page)) === JSON.stringify(['1: 1', '4: 1']),
          `the bars 1 and 4 (${JSON.stringify(await bars(page).catch(() => []))})`,
        );
        await shot('room-histogram');

        // The lecturer reveals: the true answer's bar, and each student sees how theirs did.
        await page.getByTestId('predict').getByRole('button', { name: 'Show answer' }).click();
        await until(async () => (await bars(page)).includes('1: 1, the answer'), 'the true answer (1) marked');
        await until(async () => /1 of 2 right/.test((await page.getByTestId('room-answers').textContent()) ?? ''), '1 of 2 right');
        await until(
          async () =>
            /The answer: .*= 1\..*right/.test(
              (await bob.page
                .getByTestId('room-verdict')
                .textContent()
                .catch(() => '')) ?? '',
            ),
          'the right student told so',
        );
        await until(
          async () =>
            /You said 4\./.test(
              (await ann.page
                .getByTestId('room-verdict')
                .textContent()
                .catch(() => '')) ?? '',
            ),
          'the other student sees the answer',
        );
        await ann.page.screenshot({ path: 'test-results/room-student-revealed.png' });
        await shot('room-revealed');

        // The lecturer ends the room: the students are told.
        await page.getByRole('button', { name: 'End room' }).click();
        for (const s of students)
          await until(
            async () => /has ended/.test((await s.page.getByRole('region', { name: 'Live room' }).textContent()) ?? ''),
            'the students told the room ended',
          );
        for (const s of students) assert.deepEqual(s.errors, [], 'no errors in the student pages');
      } finally {
        for (const s of students) await s.context.close();
      }
    },
  },
];
