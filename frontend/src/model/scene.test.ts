import { describe, expect, it } from 'vitest';
import { TimelineIndex } from './timeline';
import { fixtures } from '../testing/fixtures';
import { leafTrace, twoPassTrace } from '../testing/traces';
import { leafGradAt } from './describe';
import { GraphIndex, KIND_FUNCTION, ROLE_INDEX } from './graphIndex';
import { EDGE_BACKWARD, EDGE_FORWARD, EDGE_HIDDEN, NODE_COMPUTED, NODE_GRADIENT, NODE_PENDING, pulsesAt, sceneAt } from './scene';

const setup = (trace = leafTrace()) => {
  const g = new GraphIndex(trace);
  const tl = new TimelineIndex(trace);
  const id = (s: string) => g.byId.get(s)!;
  const edge = (s: string, t: string) => {
    for (let e = 0; e < g.edgeSource.length; e++) if (g.edgeSource[e] === id(s) && g.edgeTarget[e] === id(t)) return e;
    throw new Error(`no edge ${s}->${t}`);
  };
  return { g, tl, id, edge };
};

describe('GraphIndex', () => {
  it('indexes kinds, roles and names', () => {
    const { g, id } = setup();
    expect(g.n).toBe(10);
    expect(g.kind[id('f1')]).toBe(KIND_FUNCTION);
    expect(g.role[id('t0')]).toBe(ROLE_INDEX.leaf);
    expect(g.role[id('t4')]).toBe(ROLE_INDEX.output);
    expect(g.title(id('t0'))).toBe('x');
    expect(g.title(id('f2'))).toBe('MulBackward0');
  });
  it('marks tensors a Function saved', () => {
    const trace = leafTrace();
    const pow = trace.nodes.find((n) => n.id === 'f4')!;
    if (pow.kind === 'function') pow.saved = [{ name: 'self', node: 't3', value: null }];
    const { g, id } = setup(trace);
    expect(g.role[id('t3')]).toBe(ROLE_INDEX.saved);
  });
  it('puts each function node at the time of the tensor it made, AccumulateGrad with its consumer', () => {
    const { g, id } = setup();
    expect(g.fwdTime[id('t0')]).toBe(0);
    expect(g.fwdTime[id('f1')]).toBe(1);
    expect(g.fwdTime[id('t1')]).toBe(1);
    expect(g.fwdTime[id('f4')]).toBe(4);
    expect(g.fwdTime[id('f0')]).toBe(1);
  });
  it('finds the latest backward event of a node before a cursor', () => {
    const { g, id } = setup(twoPassTrace());
    expect(g.lastBackward(id('t0'), 16)).toBe(15);
    expect(g.lastBackward(id('t0'), 15)).toBe(-1);
    expect(g.lastBackward(id('t0'), 999)).toBe(26);
  });
});

describe('sceneAt', () => {
  it('shows nothing computed at the start', () => {
    const { g, tl } = setup();
    const s = sceneAt(g, tl, 0);
    expect(Array.from(s.nodeState).every((v) => v === NODE_PENDING)).toBe(true);
    expect(Array.from(s.edgeState).every((v) => v === EDGE_HIDDEN)).toBe(true);
    expect(s.current).toBe(-1);
    expect(s.phase).toBeNull();
  });
  it('lights nodes up as the forward pass computes them', () => {
    const { g, tl, id, edge } = setup();
    const s = sceneAt(g, tl, 2);
    expect(s.nodeState[id('t0')]).toBe(NODE_COMPUTED);
    expect(s.nodeState[id('t1')]).toBe(NODE_COMPUTED);
    expect(s.nodeState[id('t2')]).toBe(NODE_PENDING);
    expect(s.edgeState[edge('f0', 'f1')]).toBe(EDGE_FORWARD);
    expect(s.edgeState[edge('f0', 'f2')]).toBe(EDGE_HIDDEN);
    expect(s.current).toBe(id('t1'));
    expect(s.phase).toBe('forward');
  });
  it('keeps the current node through a print', () => {
    const { g, tl } = setup();
    const s = sceneAt(g, tl, 6);
    expect(s.current).toBe(-1);
    expect(s.phase).toBeNull();
  });
  it('carries gradients back in the engine order', () => {
    const { g, tl, id, edge } = setup();
    const s = sceneAt(g, tl, 9);
    expect(s.phase).toBe('backward');
    expect(s.pass).toBe(0);
    expect(s.current).toBe(id('t3'));
    expect(s.nodeState[id('t4')]).toBe(NODE_GRADIENT);
    expect(s.nodeState[id('t3')]).toBe(NODE_GRADIENT);
    expect(s.nodeState[id('f3')]).toBe(NODE_COMPUTED);
    expect(s.gradEvent[id('t3')]).toBe(8);
    expect(s.edgeState[edge('t3', 'f4')]).toBe(EDGE_BACKWARD);
    expect(s.edgeState[edge('f3', 't3')]).toBe(EDGE_FORWARD);
    const end = sceneAt(g, tl, tl.length);
    expect(end.nodeState[id('t0')]).toBe(NODE_GRADIENT);
    expect(end.gradEvent[id('t0')]).toBe(15);
  });
  it('shows only the current pass’s gradients', () => {
    const { g, tl, id } = setup(twoPassTrace());
    const s = sceneAt(g, tl, 18); // first event of pass 1
    expect(s.pass).toBe(1);
    expect(s.nodeState[id('t4')]).toBe(NODE_GRADIENT);
    expect(s.nodeState[id('t0')]).toBe(NODE_COMPUTED);
    expect(s.gradEvent[id('t0')]).toBe(-1);
  });
  it('is a pure function of the cursor: stepping back gives the same scene', () => {
    const { g, tl } = setup();
    const a = sceneAt(g, tl, 10);
    sceneAt(g, tl, 16);
    const b = sceneAt(g, tl, 10);
    expect(b).toEqual(a);
  });
});

describe('pulsesAt', () => {
  it('sends forward pulses into the nodes that appear, backward pulses back along incoming edges', () => {
    const { g, tl, edge } = setup();
    const fwd = pulsesAt(g, tl, 2, 0.25); // y1 = x + 1: f1 and t1 appear
    expect(fwd).toContainEqual({ edge: edge('f1', 't1'), at: 0.25, backward: false });
    expect(fwd).toContainEqual({ edge: edge('f0', 'f1'), at: 0.25, backward: false });
    const bwd = pulsesAt(g, tl, 10, 0.25); // SubBackward0 runs
    expect(bwd).toEqual([
      { edge: edge('t1', 'f3'), at: 0.75, backward: true },
      { edge: edge('t2', 'f3'), at: 0.75, backward: true },
    ]);
    expect(pulsesAt(g, tl, 2, 1)).toEqual([]);
    expect(pulsesAt(g, tl, 6, 0.5)).toEqual([]); // a print
    expect(pulsesAt(g, tl, 0, 0.5)).toEqual([]);
  });
});

describe('leafGradAt (.grad at the cursor)', () => {
  it('is None before backward, accumulates over passes, and is what torch left at the end', () => {
    const trace = fixtures.accumulation;
    const g = new GraphIndex(trace, trace.__source);
    const x = g.byId.get(trace.variables['x']!)!;
    const tl = new TimelineIndex(trace);
    const first = tl.passes[0]!;
    const second = tl.passes[1]!;
    expect(leafGradAt(trace, g, x, 0)).toBeNull();
    expect(leafGradAt(trace, g, x, first.start + 1)).toBeNull();
    expect(leafGradAt(trace, g, x, first.end)).toBe(4);
    expect(leafGradAt(trace, g, x, second.end)).toBe(8);
    expect(leafGradAt(trace, g, x, tl.length)).toBe(0); // x.grad.zero_() at the end
  });
});
