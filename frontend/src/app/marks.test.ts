import { describe, expect, it } from 'vitest';
import type { GradCheck } from '../api/client';
import { Stage } from '../stage/stage';
import { fixtures } from '../testing/fixtures';
import { checkVerdicts, nodesAt } from './marks';

const trace = fixtures.scalarOps;
const measure = (s: string) => s.length * 7;
const leafCheck = (node: string, agree: boolean) => ({
  agree,
  autograd: [1],
  checked: 1,
  max_abs_diff: agree ? 0 : 1,
  name: null,
  node,
  numeric: [agree ? 1 : 2],
  shape: [],
});

describe('the nodes under the editor pointer', () => {
  const stage = new Stage(trace, { source: trace.__source, measure });
  const g = stage.graph;

  it('are the nodes whose span holds the position, up to (not at) its end', () => {
    // Line 4 is `p = a * b`: the product and its Function.
    const i = g.nodes.findIndex((n) => n.span?.line === 4 && n.kind === 'function');
    const s = g.nodes[i]!.span!;
    const hit = nodesAt(g, { line: s.line, col: s.col })!;
    expect(hit[i]).toBe(1);
    for (const [k, on] of hit.entries()) {
      const t = g.nodes[k]!.span;
      if (on) expect(t && t.line <= s.line && s.line <= t.end_line).toBe(true);
    }
    expect(nodesAt(g, { line: s.end_line, col: s.end_col })?.[i] ?? 0).toBe(0);
  });

  it('are none on a line no node comes from, or without a graph', () => {
    expect(nodesAt(g, { line: 1, col: 0 })).toBeNull(); // import torch
    expect(nodesAt(null, { line: 4, col: 4 })).toBeNull();
    expect(nodesAt(g, null)).toBeNull();
  });
});

describe('the gradient check on the drawn graph', () => {
  const leaves = trace.nodes.filter((n) => n.kind === 'tensor' && n.is_leaf && n.requires_grad).map((n) => n.id);

  it('marks each leaf checked: agrees 1, disagrees -1, the rest 0', () => {
    const stage = new Stage(trace, { source: trace.__source, measure });
    const check: GradCheck = { eps: 1e-6, ok: false, pass: 0, leaves: [leafCheck(leaves[0]!, true), leafCheck(leaves[1]!, false)] };
    const marks = checkVerdicts(stage, check)!;
    expect(marks[stage.drawnIndex(leaves[0]!)]).toBe(1);
    expect(marks[stage.drawnIndex(leaves[1]!)]).toBe(-1);
    expect([...marks].filter((m) => m !== 0)).toHaveLength(2);
    expect(checkVerdicts(stage, null)).toBeNull();
    expect(checkVerdicts(null, check)).toBeNull();
  });

  it('keeps a disagreement on a node drawn for several checked leaves (a block), whatever comes after', () => {
    const stage = new Stage(trace, { source: trace.__source, measure });
    const at = stage.drawnIndex(leaves[0]!);
    const twice = (first: boolean, second: boolean): GradCheck => ({
      eps: 1e-6,
      ok: false,
      pass: 0,
      leaves: [leafCheck(leaves[0]!, first), leafCheck(leaves[0]!, second)],
    });
    expect(checkVerdicts(stage, twice(false, true))![at]).toBe(-1);
    expect(checkVerdicts(stage, twice(true, false))![at]).toBe(-1);
    expect(checkVerdicts(stage, twice(true, true))![at]).toBe(1);
  });
});
