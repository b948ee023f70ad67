import { describe, expect, it } from 'vitest';
import { GraphIndex } from './graphIndex';
import { TimelineIndex } from './timeline';
import { fixtures } from '../testing/fixtures';
import type { Trace } from '../api/types';
import { ruleAt, summedDims, type TensorRule } from './chainRule';

function rules(trace: Trace & { __source: string }) {
  const g = new GraphIndex(trace, trace.__source);
  const tl = new TimelineIndex(trace);
  const all = [];
  for (let c = 1; c <= tl.length; c++) {
    const r = ruleAt(trace, g, tl.passOf, c);
    if (r) all.push({ r, name: r.kind === 'tensor' ? g.title(r.node) : g.title(r.node) });
  }
  return all;
}

describe('chain rule in numbers', () => {
  it('sums the two paths from x in the leaf example: (−4)(1) + (4)(2) = 4', () => {
    const all = rules(fixtures.leaf);
    const x = all.find((a) => a.r.kind === 'tensor' && a.name === 'x')!.r as TensorRule;
    expect(x.text).toBe('∂loss/∂x = ∂loss/∂y1 · ∂y1/∂x + ∂loss/∂y2 · ∂y2/∂x = (−4)(1) + (4)(2) = 4');
    expect(x.tex).toContain('(-4)(1) + (4)(2) = 4');
    expect(x.terms).toHaveLength(2);
  });

  it('keeps the last rule past the graph being freed and the prints after backward (the end of the leaf example)', () => {
    const trace = fixtures.leaf;
    const g = new GraphIndex(trace, trace.__source);
    const tl = new TimelineIndex(trace);
    const phases = trace.timeline.map((e) => e.phase);
    expect(phases.slice(phases.lastIndexOf('backward') + 1)).toContain('freed');
    const last = ruleAt(trace, g, tl.passOf, tl.length);
    expect(last?.text).toBe(ruleAt(trace, g, tl.passOf, phases.lastIndexOf('backward') + 1)?.text);
    expect(last).not.toBeNull();
  });

  it('gives one path for y1 and the seed for the root', () => {
    const all = rules(fixtures.leaf);
    const y1 = all.find((a) => a.r.kind === 'tensor' && a.name === 'y1')!.r as TensorRule;
    expect(y1.text).toMatch(/^∂loss\/∂y1 = ∂loss\/∂\(.+\) · ∂\(.+\)\/∂y1 = \(−4\)\(1\) = −4$/);
    const loss = all.find((a) => a.r.kind === 'tensor' && a.name === 'loss')!.r as TensorRule;
    expect(loss.text).toBe('∂loss/∂loss = 1');
  });

  it('explains a Function step as one contribution', () => {
    const all = rules(fixtures.leaf);
    const mul = all.find((a) => a.r.kind === 'function' && a.name === 'MulBackward0')!.r;
    expect(mul.text).toBe('∂loss/∂x += ∂loss/∂y2 · ∂y2/∂x = (4)(2) = 8');
    const acc = all.find((a) => a.r.kind === 'function' && a.name === 'AccumulateGrad')!.r;
    expect(acc.text).toContain('x.grad += 4');
  });

  it('shows the sum over broadcast dimensions and the expansion of a sum', () => {
    const all = rules(fixtures.broadcast);
    const w = all.find((a) => a.r.kind === 'tensor' && a.name === 'w')!.r as TensorRule;
    expect(w.total.shape).toEqual([2]);
    expect(w.terms[0]!.summedDims).toEqual([0]);
    expect(w.terms[0]!.note).toMatch(/summed over dimension 0 of 3×2/);
    expect(w.text).toContain('[9, 12]');
    const sum = all.find((a) => a.r.kind === 'tensor' && a.r.terms.some((t) => /expanded/.test(t.note ?? '')));
    expect(sum).toBeTruthy();
  });

  it('names every derivative by a tensor or an expression, never by a Function', () => {
    for (const trace of [fixtures.tensorOps, fixtures.scalarOps, fixtures.relu]) {
      for (const { r } of rules(trace)) {
        expect(r.text).not.toMatch(/∂[^/=]*Backward/);
        if (r.kind === 'tensor') for (const t of r.terms) expect(t.note ?? '').not.toMatch(/^∂[^=]*Backward/);
      }
    }
    const all = rules(fixtures.tensorOps);
    const addmm = all.find((a) => a.r.kind === 'function' && a.name === 'AddmmBackward0')!.r;
    expect(addmm.text).toContain('∂loss/∂(lin.weightᵀ) += xᵀ·G: [3×2]·[2×2] → [3×2] = [5, 5, 7, 7, 9, 9]');
  });

  it('a tensor rule shows its factor with shapes, and its result once', () => {
    const all = rules(fixtures.tensorOps);
    const w = all.find((a) => a.r.kind === 'tensor' && a.name === 'w')!.r as TensorRule;
    expect(w.text).toBe(
      '∂loss/∂w = ∂loss/∂(x @ w) · ∂(x @ w)/∂w = xᵀ·G: [3×2]·[2×4] → [3×4] = [25.63, 5.625, 21.63, 17.63, 35.88, 7.875, 30.88, 22.88, 46.13, 10.13, 40.13, 28.13] (3×4)',
    );
    expect(w.terms[0]!.note).toBe('∂(x @ w)/∂w = xᵀ: the transposed other operand: xᵀ·G: [3×2]·[2×4] → [3×4]');
    const h = all.find((a) => a.r.kind === 'tensor' && a.name === 'h')!.r as TensorRule;
    expect(h.terms.map((t) => t.summedDims)).toEqual([[], [], []]);
    expect(h.terms.every((t) => !/broadcast/.test(t.note ?? ''))).toBe(true);
  });

  it('summedDims aligns shapes on the right', () => {
    expect(summedDims([3, 2], [2])).toEqual([0]);
    expect(summedDims([3, 2], [3, 1])).toEqual([1]);
    expect(summedDims([4, 3, 2], [3, 2])).toEqual([0]);
    expect(summedDims([2], [2])).toEqual([]);
  });
});
