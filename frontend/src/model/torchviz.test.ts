import { describe, expect, it } from 'vitest';
import { leafTrace } from '../testing/traces';
import { GraphIndex } from './graphIndex';
import { torchvizTrace } from './torchviz';
import { TimelineIndex } from './timeline';
import { sceneAt } from './scene';

describe('the torchviz-style view', () => {
  const t = leafTrace();
  const { trace: v, rep } = torchvizTrace(t);
  it('keeps Functions, the leaf and the root; no intermediate tensors', () => {
    expect(v.nodes.map((n) => n.id)).toEqual(['t0', 'f0', 'f1', 'f2', 'f3', 'f4', 't4']);
    expect([...rep]).toEqual([
      ['t1', 'f1'],
      ['t2', 'f2'],
      ['t3', 'f3'],
    ]);
  });
  it('joins the grad_fn chain as next_functions does', () => {
    expect(v.edges.map((e) => `${e.source}>${e.target}`)).toEqual(['t0>f0', 'f0>f1', 'f0>f2', 'f1>f3', 'f2>f3', 'f3>f4', 'f4>t4']);
  });
  it('keeps the timeline (same steps), an intermediate’s events on its grad_fn', () => {
    expect(v.timeline).toHaveLength(t.timeline.length);
    const g = new GraphIndex(v);
    expect(g.title(g.byId.get('f1')!)).toBe('AddBackward0');
    // y1 made at event 1: AddBackward0 appears then.
    expect(g.fwdTime[g.byId.get('f1')!]).toBe(1);
    const tl = new TimelineIndex(v);
    const end = sceneAt(g, tl, tl.length);
    expect(Array.from(end.nodeState).every((s) => s === 2)).toBe(true);
    // The gradient reaching y2 (event 10) lights MulBackward0.
    expect(sceneAt(g, tl, 11).current).toBe(g.byId.get('f2'));
  });
  it('drops constants and their input edges (torchviz draws neither)', () => {
    const c = leafTrace();
    c.nodes.push({
      ...(c.nodes[0] as Extract<(typeof c.nodes)[number], { kind: 'tensor' }>),
      id: 'c',
      name: 'c',
      role: 'input',
      requires_grad: false,
      is_leaf: true,
    });
    c.edges.push({ source: 'c', target: 'f2', kind: 'input' });
    const view = torchvizTrace(c).trace;
    expect(view.nodes.some((n) => n.id === 'c')).toBe(false);
    expect(view.edges.some((e) => e.source === 'c')).toBe(false);
  });
});
