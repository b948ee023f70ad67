import { describe, expect, it } from 'vitest';
import { fixtures } from '../testing/fixtures';
import { TimelineIndex } from './timeline';
import { scalarOf } from '../lib/format';
import { GraphIndex } from './graphIndex';
import { LeafHistory, sgdRate } from './leafState';
import { leafTrace } from '../testing/traces';
import { describeNode } from './describe';
import { sceneAt } from './scene';

describe('LeafHistory (a leaf’s .grad and values as of a step)', () => {
  it('shows .grad None, then the running sum of each pass, then 0 after zero_()', () => {
    // x.grad is 4 after the first pass, 8 after the second, zero_() at the end (recorded by torch).
    const trace = fixtures.accumulation;
    const g = new GraphIndex(trace, trace.__source);
    const tl = new TimelineIndex(trace);
    const h = new LeafHistory(trace, g);
    const x = g.byId.get(trace.variables['x']!)!;
    const at = (c: number) => {
      const grad = h.gradAt(x, c);
      return grad ? scalarOf(grad) : grad;
    };
    expect(h.tracksGrad(x)).toBe(true);
    expect(at(0)).toBeNull();
    expect(at(tl.passes[0]!.start)).toBeNull();
    expect(at(tl.passes[0]!.end)).toBe(4);
    expect(at(tl.passes[1]!.start)).toBe(4);
    expect(at(tl.passes[1]!.end)).toBe(8);
    expect(at(tl.length)).toBe(0);
    // A non-leaf is not followed: its gradients are the pass's, not a .grad.
    const loss = g.byId.get(trace.variables['loss']!)!;
    expect(h.gradAt(loss, tl.length)).toBeUndefined();
  });

  it('gives a value as it was made until an update changes it', () => {
    const trace = fixtures.accumulation;
    const g = new GraphIndex(trace, trace.__source);
    const x = g.byId.get(trace.variables['x']!)!;
    const h = new LeafHistory(trace, g);
    expect(scalarOf(h.valueAt(x, 0)!)).toBe(3);
  });
});

describe('sgdRate', () => {
  it('finds the learning rate of a plain step and refuses other rules', () => {
    expect(sgdRate([3, 1], [2.6, 0.8], [4, 2])).toBeCloseTo(0.1);
    expect(sgdRate([3, 1], [2.6, 0.9], [4, 2])).toBeNull(); // not one lr for all
    expect(sgdRate([3], [3], [0])).toBeNull();
    expect(sgdRate([3], [3.4], [4])).toBeNull(); // a step up the gradient
  });
});

describe('GraphIndex.isCut (graph cut marks)', () => {
  it('marks untracked flow out of a tensor that requires grad, not out of plain data', () => {
    const base = leafTrace();
    const tensor = base.nodes.find((n) => n.kind === 'tensor')!;
    // x (requires grad) and data (never did) both flow into y under no_grad.
    const nodes = [
      { ...tensor, id: 'x', requires_grad: true },
      { ...tensor, id: 'data', requires_grad: false, role: 'input' as const },
      { ...tensor, id: 'y', requires_grad: false, role: 'input' as const },
    ];
    const edges = [
      { source: 'x', target: 'y', kind: 'nograd' as const },
      { source: 'data', target: 'y', kind: 'nograd' as const },
    ];
    const g = new GraphIndex({ nodes, edges, timeline: [], variables: {} });
    expect([g.isCut(0), g.isCut(1)]).toEqual([true, false]);
  });
});

describe('describeNode (the accessible node list) reads the same history', () => {
  it("says x's .grad as of the step: None, 4, 8, then 0 after zero_()", () => {
    const trace = fixtures.accumulation;
    const g = new GraphIndex(trace, trace.__source);
    const tl = new TimelineIndex(trace);
    const x = g.byId.get(trace.variables['x']!)!;
    const said = (c: number) => /\.grad (\S+)$/.exec(describeNode(trace, g, sceneAt(g, tl, c), x))?.[1];
    expect(said(0)).toBe('None');
    expect(said(tl.passes[0]!.end)).toBe('4');
    expect(said(tl.passes[1]!.end)).toBe('8');
    expect(said(tl.length)).toBe('0');
  });
});
