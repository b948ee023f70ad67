import { describe, expect, it } from 'vitest';
import type { GraphNode, Trace } from '../api/types';
import { fixtures } from '../testing/fixtures';
import { groupTrace, hasCycle, isGroup } from './grouping';

/** A loop of `n` iterations: x → (f_i → t_i)* with loops set, then a backward. */
function loopTrace(n: number): Trace {
  const base = structuredClone(fixtures.leaf) as Trace;
  const nodes: GraphNode[] = [base.nodes[0]!];
  const edges: Trace['edges'] = [];
  const timeline: Trace['timeline'] = [{ phase: 'forward', node: nodes[0]!.id }];
  let prev = nodes[0]!.id;
  for (let i = 0; i < n; i++) {
    const t = { ...(base.nodes[1] as GraphNode), id: `t${100 + i}`, name: null, loops: [{ line: 5, iteration: i }] } as GraphNode;
    const f = {
      ...(base.nodes.find((x) => x.kind === 'function') as GraphNode),
      id: `f${100 + i}`,
      loops: [{ line: 5, iteration: i }],
    } as GraphNode;
    nodes.push(f, t);
    edges.push({ source: prev, target: f.id, kind: 'autograd' }, { source: f.id, target: t.id, kind: 'autograd' });
    timeline.push({ phase: 'forward', node: t.id });
    prev = t.id;
  }
  return { ...base, nodes, edges, timeline, variables: { x: nodes[0]!.id }, passes: [] };
}

describe('grouping', () => {
  it('folds a loop into one block with its count, and opens it level by level', () => {
    const t = loopTrace(250);
    const v = groupTrace(t, 'loops')!;
    expect(v.trace.nodes).toHaveLength(2);
    const block = v.trace.nodes.find((n) => isGroup(n.id))!;
    expect(block.kind === 'function' && block.op).toBe('loop line 5 ×250 · 500 nodes');
    expect(v.trace.timeline).toHaveLength(t.timeline.length);
    expect(v.trace.edges).toEqual([{ source: t.nodes[0]!.id, target: block.id, kind: 'autograd' }]);
    const opened = groupTrace(t, 'loops', new Set(['loop:5']))!;
    expect(opened.trace.nodes).toHaveLength(251);
    expect(opened.trace.edges).toHaveLength(250);
    const one = groupTrace(t, 'loops', new Set(['loop:5', 'loop:5:0']))!;
    expect(one.trace.nodes).toHaveLength(252);
  });
  it("keeps what the program ends with out of the loop's block: a result made in the loop stays in view", () => {
    const t = fixtures.loopOutput;
    const root = t.passes[t.passes.length - 1]!.root!;
    expect(t.variables['y']).toBe(root);
    const v = groupTrace(t, 'loops')!;
    const shown = new Set(v.trace.nodes.map((n) => n.id));
    expect(shown.has(root)).toBe(true);
    expect(v.rep.has(root)).toBe(false);
    expect(v.trace.variables['y']).toBe(root);
    expect(v.trace.passes.at(-1)!.root).toBe(root);
    // The rest of the loop is one block, which feeds the result.
    const blocks = v.trace.nodes.filter((n) => isGroup(n.id));
    expect(blocks).toHaveLength(1);
    expect(v.trace.edges.some((e) => e.source === blocks[0]!.id && e.target === root)).toBe(true);
    expect(
      hasCycle(
        [...shown],
        v.trace.edges.map((e) => [e.source, e.target]),
      ),
    ).toBe(false);
  });
  it('folds Functions into the tensors they made', () => {
    const t = fixtures.leaf;
    const v = groupTrace(t, 'ops')!;
    expect(v.trace.nodes.every((n) => n.kind === 'tensor')).toBe(true);
    expect(v.trace.nodes).toHaveLength(5);
    expect(
      hasCycle(
        v.trace.nodes.map((n) => n.id),
        v.trace.edges.map((e) => [e.source, e.target]),
      ),
    ).toBe(false);
  });
  it('groups by module, and gives nothing where there are no modules', () => {
    expect(groupTrace(fixtures.leaf, 'modules')).toBeNull();
    const t = structuredClone(fixtures.leaf) as Trace;
    for (const n of t.nodes) if (n.id !== 't1' && n.id !== 'f4' && n.id !== 't9' && n.id !== 'f10') n.module = 'net.fc1';
    const v = groupTrace(t, 'modules')!;
    expect(v.trace.nodes.filter((n) => isGroup(n.id))).toHaveLength(1);
    expect(
      v.trace.nodes.find((n) => isGroup(n.id))!.kind === 'function' && (v.trace.nodes.find((n) => isGroup(n.id)) as { op: string }).op,
    ).toMatch(/^net · 6 nodes$/);
    const deeper = groupTrace(t, 'modules', new Set(['module:net']))!;
    expect((deeper.trace.nodes.find((n) => isGroup(n.id)) as { op: string }).op).toMatch(/^net\.fc1 · 6 nodes$/);
  });
  it('detects cycles', () => {
    expect(
      hasCycle(
        ['a', 'b'],
        [
          ['a', 'b'],
          ['b', 'a'],
        ],
      ),
    ).toBe(true);
    expect(
      hasCycle(
        ['a', 'b', 'c'],
        [
          ['a', 'b'],
          ['b', 'c'],
        ],
      ),
    ).toBe(false);
  });
});
