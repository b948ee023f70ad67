import { describe, expect, it } from 'vitest';
import { answerText, candidateSteps } from '../model/predict';
import { testWorkbench } from '../testing/traceServer';
import { leafTrace } from '../testing/traces';
import { PredictMode } from './predictMode.svelte';

const settle = () => new Promise((ok) => setTimeout(ok, 0));
const programs = new Map([
  ['leaf', leafTrace()],
  ['again', leafTrace()],
]);

/** A workbench showing leafTrace, with predict mode wired in as the app does. */
async function predicting(ask: number[] | null = null) {
  const { wb } = testWorkbench('leaf', programs);
  const predict = new PredictMode(wb, ask);
  wb.gate = (step) => predict.gate(step);
  wb.onNewProgram = () => predict.newProgram();
  await wb.run({ step: 0, autoplay: false });
  await settle();
  // The stage view reports the player's state to the page so.
  const player = wb.player!;
  player.subscribe((p) => (wb.playerState = p.snapshot()));
  return { wb, predict, player };
}

describe('PredictMode', () => {
  it('asks every candidate by default, and stepping stops before each open question', async () => {
    const { predict, player } = await predicting();
    expect(predict.on).toBe(false);
    expect(predict.questions).toEqual([]);
    predict.set(true);
    expect(predict.candidates).toEqual(candidateSteps(leafTrace()));
    expect(predict.questions.map((q) => q.step)).toEqual([8, 10, 12, 14, 15]);
    const first = predict.questions[0]!;
    for (let k = 0; k < 40; k++) player.stepForward();
    expect(player.cursor).toBe(first.stop - 1);
    expect(predict.pending).toEqual(first);
    expect(predict.explained).toBeNull();
  });

  it('waits on a wrong answer, and a right one plays the step that explains it', async () => {
    const { predict, player } = await predicting();
    predict.set(true);
    const [first, second] = predict.questions;
    player.seek(first!.stop - 1);
    predict.answer(first!, '123');
    expect(predict.attempts.get(first!.step)).toMatchObject({ tries: 1, done: false });
    expect(player.cursor).toBe(first!.stop - 1);
    predict.answer(first!, answerText(first!));
    expect(predict.attempts.get(first!.step)).toMatchObject({ tries: 2, done: true, right: true });
    expect(player.cursor).toBe(first!.explain);
    expect(predict.explained).toEqual(first);
    expect(predict.pending).toBeNull();
    for (let k = 0; k < 40; k++) player.stepForward();
    expect(player.cursor).toBe(second!.stop - 1);
    predict.giveUp(second!);
    expect(predict.attempts.get(second!.step)).toMatchObject({ done: true, right: false });
    expect(player.cursor).toBe(second!.explain);
  });

  it('while choosing, a click on a Function takes its steps out of the questions, a second puts them back', async () => {
    const { wb, predict } = await predicting();
    predict.set(true);
    const e = leafTrace().timeline[12 - 1]!;
    const mul = e.phase === 'backward' ? e.node : '';
    expect(predict.chooseNode(mul)).toBe(false); // not choosing: the click selects
    predict.choosing = true;
    expect(predict.chooseNode(mul)).toBe(true);
    expect(predict.askSteps).toEqual([8, 10, 14, 15]);
    expect(predict.questions.map((q) => q.step)).toEqual([8, 10, 14, 15]);
    expect(predict.chooseNode(mul)).toBe(true);
    expect(predict.askSteps).toEqual([8, 10, 12, 14, 15]);
    const leaf = wb.graph!.nodes.findIndex((n) => n.kind === 'tensor');
    expect(predict.chooseNode(wb.graph!.ids[leaf])).toBe(false); // no backward steps to ask
    predict.set(false);
    expect(predict.choosing).toBe(false);
    expect(predict.chooseNode(mul)).toBe(false);
  });

  it("keeps the shared link's questions for the first program only, and starts each program over", async () => {
    const { wb, predict, player } = await predicting([12]);
    expect(predict.on).toBe(true);
    expect(predict.questions.map((q) => q.step)).toEqual([12]);
    const q = predict.questions[0]!;
    predict.giveUp(q);
    expect(player.cursor).toBe(q.explain);
    wb.source = 'again';
    await wb.run();
    expect(predict.attempts.size).toBe(0);
    expect(predict.askSteps).toBeNull();
    expect(predict.questions.map((x) => x.step)).toEqual([8, 10, 12, 14, 15]);
  });
});
