// Local derivatives read from real traces (testing/programs/*.py run through the
// engine): the words and numbers the chain-rule panel shows for each Function kind.
// The numbers asserted are the gradients torch recorded, or read from them.
import { describe, expect, it } from 'vitest';
import type { BackwardFunctionEvent } from '../api/types';
import { GraphIndex } from './graphIndex';
import { fixtures } from '../testing/fixtures';
import { explainFunction, type FunctionExplanation } from './localDerivative';

type Fixture = (typeof fixtures)[keyof typeof fixtures];

/** The explanation of every Function event of a trace, by op, in timeline order. */
function explanations(trace: Fixture): { op: string; e: BackwardFunctionEvent; ex: FunctionExplanation }[] {
  const g = new GraphIndex(trace, trace.__source);
  const out: { op: string; e: BackwardFunctionEvent; ex: FunctionExplanation }[] = [];
  trace.timeline.forEach((e, k) => {
    if (e.phase !== 'backward' || e.node_kind !== 'function') return;
    const f = g.byId.get(e.node)!;
    out.push({ op: g.title(f), e, ex: explainFunction(trace, g, f, e, k + 1) });
  });
  return out;
}

function one(trace: Fixture, op: string, output?: string): FunctionExplanation {
  const found = explanations(trace).filter((x) => x.op === op && (output === undefined || x.ex.output === output));
  expect(found.length, `${op} ${output ?? ''}`).toBeGreaterThan(0);
  return found[0]!.ex;
}

const slot = (ex: FunctionExplanation, name: string) => {
  const s = ex.slots.find((x) => x.name === name);
  expect(s, `slot ${name} of ${ex.op}`).toBeTruthy();
  return s!;
};

describe('local derivatives of scalar Functions (a = 3, b = 2)', () => {
  const t = fixtures.scalarOps;

  it('Mul: each input gets the other input, with its value', () => {
    const mul = one(t, 'MulBackward0');
    expect(mul.output).toBe('p');
    expect(slot(mul, 'a')).toMatchObject({ formula: 'b', words: 'the other input, b = 2', value: 2 });
    expect(slot(mul, 'b')).toMatchObject({ formula: 'a', words: 'the other input, a = 3', value: 3 });
  });

  it('Div: 1/b for the dividend and −a/b² for the divisor', () => {
    const div = one(t, 'DivBackward0');
    expect(slot(div, 'a')).toMatchObject({ formula: '1/b', words: 'one over the divisor: 1/2 = 0.5', value: 0.5 });
    expect(slot(div, 'b')).toMatchObject({
      formula: '−a/b²',
      words: 'minus the dividend over the divisor squared: −3/2² = −0.75',
      value: -0.75,
    });
  });

  it('Pow: n·xⁿ⁻¹ with n read from the recorded numbers', () => {
    const pow = one(t, 'PowBackward0');
    expect(slot(pow, 'a')).toMatchObject({ formula: '3·a²', words: 'n·xⁿ⁻¹ with n = 3: 3·3² = 27', value: 27 });
  });

  it('Tanh, Sigmoid, Exp, Log and Neg, from the saved output or the input', () => {
    const tanh = slot(one(t, 'TanhBackward0'), 'b');
    expect(tanh.formula).toBe('1 − tanh²(b)');
    expect(tanh.words).toBe('1 − tanh², from the saved output: 1 − 0.964² = 0.07065');
    expect(tanh.value).toBeCloseTo(0.0706508, 6);
    const sigmoid = slot(one(t, 'SigmoidBackward0'), 'a');
    expect(sigmoid.words).toBe('σ(1 − σ), from the saved output: 0.9526·(1 − 0.9526) = 0.04518');
    expect(sigmoid.value).toBeCloseTo(0.0451767, 6);
    const exp = slot(one(t, 'ExpBackward0'), 'b');
    expect(exp.words).toBe('eˣ itself, the saved output: e^2 = 7.389');
    expect(exp.value).toBeCloseTo(7.389056, 5);
    expect(slot(one(t, 'LogBackward0'), 'a')).toMatchObject({ formula: '1/a', words: 'one over the input: 1/3 = 0.3333' });
    expect(slot(one(t, 'NegBackward0'), 'a')).toMatchObject({ formula: '−1', value: -1 });
  });

  it('Add and Sub: 1 and −1, with no broadcast on scalars', () => {
    const sub = one(t, 'SubBackward0');
    expect(sub.slots.map((s) => [s.formula, s.value, s.summedDims])).toEqual([
      ['1', 1, []],
      ['−1', -1, []],
    ]);
    expect(sub.summary).toMatch(/^SubBackward0 \(.+\) is a difference: the first input gets G, the second −G\.$/);
  });

  it('AccumulateGrad names the leaf’s .grad, not itself', () => {
    const acc = explanations(t).find((x) => x.op === 'AccumulateGrad')!.ex;
    expect(acc.output).toBe('a.grad');
    expect(acc.summary).toContain('adds G to .grad');
  });
});

describe('local derivatives of tensor Functions', () => {
  const t = fixtures.tensorOps;

  it('Mm: the transposed other operand, with shapes', () => {
    const mm = one(t, 'MmBackward0');
    expect(mm.output).toBe('x @ w');
    expect(slot(mm, 'x')).toMatchObject({ formula: 'wᵀ', rule: 'G·wᵀ: [2×4]·[4×3] → [2×3]' });
    expect(slot(mm, 'w')).toMatchObject({ formula: 'xᵀ', rule: 'xᵀ·G: [3×2]·[2×4] → [3×4]' });
    expect(slot(mm, 'x').words).toBe('the transposed other operand: G·wᵀ: [2×4]·[4×3] → [2×3]');
  });

  it('Addmm inside nn.Linear: the weight’s transpose has no tensor, so it is named wᵀ, never TBackward0', () => {
    const addmm = one(t, 'AddmmBackward0');
    expect(addmm.output).toBe('lin(x)');
    expect(addmm.slots.map((s) => s.name)).toEqual(['lin.bias', 'x', 'lin.weightᵀ']);
    expect(slot(addmm, 'x').rule).toBe('G·lin.weight: [2×2]·[2×3] → [2×3]');
    expect(slot(addmm, 'lin.weightᵀ').rule).toBe('xᵀ·G: [3×2]·[2×2] → [3×2]');
    expect(slot(addmm, 'lin.bias').summedDims).toEqual([0]);
    const t53 = one(t, 'TBackward0', 'lin.weightᵀ');
    expect(t53.slots[0]).toMatchObject({ name: 'lin.weight', rule: 'G transposed back: [3×2] → [2×3]', summedDims: [] });
  });

  it('a transpose, permute or t() is never called a broadcast', () => {
    for (const op of ['TBackward0', 'TransposeBackward0', 'PermuteBackward0']) {
      const ex = one(t, op);
      expect(ex.slots[0]!.summedDims).toEqual([]);
      expect(ex.slots[0]!.words).not.toMatch(/broadcast/);
      expect(ex.slots[0]!.words).toMatch(/back: \[\d×\d\] → \[\d×\d\] \(elements move, nothing is summed\)$/);
    }
  });

  it('Add sums over the broadcast dimension of the bias only', () => {
    const add = one(t, 'AddBackward0', 'h');
    expect(slot(add, 'x @ w').summedDims).toEqual([]);
    expect(slot(add, 'bias')).toMatchObject({ summedDims: [0], rule: 'G, summed over dim 0 → [4]' });
    expect(slot(add, 'bias').words).toBe(
      'one: an addition passes the gradient through unchanged; it was broadcast, so the gradient is summed over dimension 0 of 2×4',
    );
  });

  it('ReLU shows its mask, Mean its 1/n, Sum its expansion, Expand its summed dims', () => {
    expect(slot(one(t, 'ReluBackward0'), 'h.t()').words).toBe('1 where the input was positive, else 0: [1, 1, 0, 0, 1, 1, 0, 1]');
    const mean = one(t, 'MeanBackward0', 'torch.stack([first, first]).mean()').slots[0]!;
    expect(mean).toMatchObject({ formula: '1/2', rule: 'G/2 expanded to [2]' });
    expect(one(t, 'SumBackward0', 'out').slots[0]!.words).toBe('one for every element: the gradient is expanded back to [2×2]');
    expect(one(t, 'ExpandBackward0').slots[0]!.words).toBe('the gradient summed over the expanded dimension 0: [3×4] → [4]');
  });

  it('reshapes, picks and joins move the gradient back', () => {
    expect(one(t, 'UnsafeViewBackward0', 'flat').slots[0]!.rule).toBe('G reshaped: [8] → [4×2]');
    for (const op of ['SelectBackward0', 'SliceBackward0', 'IndexBackward0'])
      expect(one(t, op).slots[0]!.rule).toBe('G scattered into zeros [8]');
    const cat = one(t, 'CatBackward0');
    expect(cat.slots.map((s) => [s.name, s.rule])).toEqual([
      ['flat', 'its part of G: [8] of [16]'],
      ['flat * 2', 'its part of G: [8] of [16]'],
    ]);
    expect(one(t, 'StackBackward0').slots.map((s) => s.name)).toEqual(['first', 'first']);
    // The clone that reshape made inside has no tensor: named by what it computed.
    expect(one(t, 'UnsafeViewBackward0', 'flat').slots[0]!.name).toBe('clone(z)');
  });

  it('a constant factor is named as one', () => {
    expect(slot(one(t, 'MulBackward0', 'flat * 2'), 'flat')).toMatchObject({ formula: '2', words: 'the other input, the constant 2' });
  });
});

describe('other Functions', () => {
  it('a user-written Function says its backward ran, and Pow on a tensor shows n and x', () => {
    const custom = one(fixtures.relu, 'MyReLUBackward');
    expect(custom.summary).toContain('user-written autograd.Function');
    expect(custom.slots[0]!.words).toMatch(/^the engine called your backward\(\) with G/);
    const pow = one(fixtures.relu, 'PowBackward0').slots[0]!;
    expect(pow).toMatchObject({ formula: '2·(Y_hat - Y)', words: 'n·xⁿ⁻¹ with n = 2, Y_hat - Y = [[−2, −3], [5, 4]]' });
  });

  it('Mul with a broadcast input sums over the broadcast dimension', () => {
    const mul = one(fixtures.broadcast, 'MulBackward0');
    expect(slot(mul, 'w')).toMatchObject({ formula: 'X', summedDims: [0], rule: 'G ⊙ X, summed over dim 0 → [2]' });
    expect(slot(mul, 'w').words).toBe(
      'the other input, X = [[1, 2], [3, 4], [5, 6]]; it was broadcast, so the gradient is summed over dimension 0 of 3×2',
    );
  });
});
