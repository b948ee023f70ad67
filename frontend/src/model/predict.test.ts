import { describe, expect, it } from 'vitest';
import { GraphIndex } from './graphIndex';
import { leafTrace, td, twoPassTrace } from '../testing/traces';
import {
  answerText,
  attempt,
  gradientName,
  candidateSteps,
  pendingBefore,
  questionsFor,
  checkAnswer,
  close,
  NO_ATTEMPT,
  parseAnswer,
  questionAt,
  reveal,
  tally,
  TOLERANCE,
} from './predict';
import { TimelineIndex } from './timeline';

describe('predict mode: which steps ask', () => {
  it('asks at every backward Function step of the first pass by default', () => {
    // Events 7, 9, 11, 13, 14 are PowBackward0, SubBackward0, MulBackward0, AddBackward0, AccumulateGrad.
    expect(candidateSteps(leafTrace())).toEqual([8, 10, 12, 14, 15]);
    // The second pass asks nothing by default.
    expect(candidateSteps(twoPassTrace())).toEqual([8, 10, 12, 14, 15]);
  });
  it('leaves out gradients too big to type', () => {
    const t = leafTrace();
    const e = t.timeline[7]!;
    if (e.phase === 'backward' && e.node_kind === 'function') e.grad_outputs = [td(Array(20).fill(1), [20])];
    expect(candidateSteps(t)).toEqual([10, 12, 14, 15]);
  });
  it('asks for the gradient arriving at the Function: ∂root/∂ its output, or ∂root/∂leaf for AccumulateGrad', () => {
    const t = leafTrace();
    const g = new GraphIndex(t);
    expect(questionAt(t, g, 10)).toMatchObject({ op: 'SubBackward0', of: 'tensor 7', root: 'loss', expected: [-4], shape: [] });
    // It stops before "gradient reached y2" (step 11), which would show the answer, and explains there.
    expect(questionAt(t, g, 12)).toMatchObject({ op: 'MulBackward0', of: 'y2', expected: [4], stop: 11, explain: 11 });
    // x's gradient shows only after AccumulateGrad: stop at its step, explain at x's (the two paths summed).
    expect(questionAt(t, g, 15)).toMatchObject({ op: 'AccumulateGrad', of: 'x', expected: [4], stop: 15, explain: 16 });
    expect(questionAt(t, g, 7)).toBeNull(); // a tensor step
    expect(questionAt(t, g, 3)).toBeNull(); // forward
  });
});

describe('predict mode: checking answers', () => {
  const t = leafTrace();
  const g = new GraphIndex(t);
  const q = questionAt(t, g, 10)!;
  it('reads what a learner types', () => {
    expect(parseAnswer('−4')).toEqual([-4]);
    expect(parseAnswer(' [1, 2.5] ')).toEqual([1, 2.5]);
    expect(parseAnswer('1 2; 3 4')).toEqual([1, 2, 3, 4]);
    expect(parseAnswer('1/4')).toEqual([0.25]);
    expect(parseAnswer('1e-3')).toEqual([0.001]);
    expect(parseAnswer('')).toBeNull();
    expect(parseAnswer('four')).toBeNull();
  });
  it('accepts within the tolerance (two or three significant digits), rejects beyond', () => {
    expect(close(0.333, 1 / 3)).toBe(true);
    expect(close(0.33, 1 / 3)).toBe(true);
    expect(close(0.3, 1 / 3)).toBe(false);
    expect(close(101, 100)).toBe(true);
    expect(close(102, 100)).toBe(false);
    expect(close(0.004, 0)).toBe(true);
    expect(close(0.01, 0)).toBe(false);
    expect(close(102, 100, { rel: 0.05, abs: 0 })).toBe(true);
    expect(TOLERANCE).toEqual({ rel: 0.01, abs: 0.005 });
  });
  it('says what is wrong: unreadable, the count, or which elements', () => {
    expect(checkAnswer(q, '-4').ok).toBe(true);
    expect(checkAnswer(q, '-4.01').ok).toBe(true);
    expect(checkAnswer(q, '4')).toEqual({ ok: false, reason: 'value', typed: [4], wrong: [0] });
    expect(checkAnswer(q, 'minus four')).toMatchObject({ ok: false, reason: 'unreadable' });
    expect(checkAnswer(q, '-4, 1')).toMatchObject({ ok: false, reason: 'count' });
    const v = { ...q, shape: [3], expected: [1, 2, 3] };
    expect(checkAnswer(v, '[1, 2.5, 3]')).toMatchObject({ ok: false, reason: 'value', wrong: [1] });
    expect(checkAnswer(v, '1 2 3').ok).toBe(true);
    expect(answerText(v)).toBe('[1, 2, 3]');
    expect(answerText(q)).toBe('−4');
  });
  it('keeps the attempts: a wrong try, then a right one; a revealed answer is done but not right', () => {
    let a = attempt(NO_ATTEMPT, q, '4');
    expect(a).toMatchObject({ tries: 1, done: false, right: false });
    expect(pendingBefore([q], new Map([[10, a]]), 9)).toBe(q);
    a = attempt(a, q, '-4');
    expect(a).toMatchObject({ tries: 2, done: true, right: true });
    expect(pendingBefore([q], new Map([[10, a]]), 9)).toBeNull();
    expect(reveal(NO_ATTEMPT)).toMatchObject({ done: true, right: false });
    expect(tally(q, ['-4', '4', '?', '−4.0'])).toEqual({ right: 2, wrong: 1, unreadable: 1 });
  });
});

describe('gradientName', () => {
  it('writes the asked gradient, bracketing a name that is an expression', () => {
    expect(gradientName({ root: 'loss', of: 'x' })).toBe('∂loss/∂x');
    expect(gradientName({ root: 'loss', of: 'y1 - y2' })).toBe('∂loss/∂(y1 - y2)');
  });
});
