import { describe, expect, it } from 'vitest';
import type { Trace } from '../api/types';
import { td } from '../testing/traces';
import { fixtures } from '../testing/fixtures';
import { GraphIndex } from './graphIndex';
import { findTrouble, nonFinite, norm, TROUBLE_EXPLODING, TROUBLE_INF, TROUBLE_NAN, TROUBLE_VANISHING } from './trouble';

/** The leaf example with its numbers replaced. */
function withGrads(scale: number, nanValue = false): Trace {
  const t = structuredClone(fixtures.leaf) as Trace;
  for (const e of t.timeline) {
    if (e.phase !== 'backward') continue;
    const mul = (d: { values: unknown } | null) => {
      if (d && typeof d.values === 'number') d.values = d.values * scale;
      if (d && 'stats' in d) (d as { stats: unknown }).stats = null;
    };
    if (e.node_kind === 'tensor') {
      if (e.node !== 't9') mul(e.grad);
    } else {
      e.grad_inputs.forEach(mul);
      if (e.node !== 'f10') e.grad_outputs.forEach(mul);
    }
  }
  if (nanValue) {
    const y2 = t.nodes.find((n) => n.kind === 'tensor' && n.name === 'y2')!;
    if (y2.kind === 'tensor') y2.value = td('nan');
  }
  return t;
}

describe('trouble spotting', () => {
  it('finds nothing in a healthy program', () => {
    const t = fixtures.leaf;
    expect(Array.from(findTrouble(t, new GraphIndex(t))).every((f) => f === 0)).toBe(true);
  });
  it('reads nan and inf from strings and stats', () => {
    expect(nonFinite(td(['nan', 1, 'inf', '-inf'], [4]))).toEqual({ nan: 1, inf: 2 });
    expect(nonFinite({ ...td(null, [5000]), stats: { min: 0, max: 0, mean: 0, std: 0, norm: 0, nan: 3, inf: 0 } })).toEqual({
      nan: 3,
      inf: 0,
    });
    expect(norm(td([3, 4], [2]))).toBe(5);
  });
  it('flags a NaN value', () => {
    const t = withGrads(1, true);
    const g = new GraphIndex(t);
    expect(findTrouble(t, g)[g.byId.get('t5')!]! & TROUBLE_NAN).toBeTruthy();
  });
  it('flags exploding gradients', () => {
    const t = withGrads(1e6);
    const g = new GraphIndex(t);
    const flags = findTrouble(t, g);
    expect(flags[g.byId.get('t1')!]! & TROUBLE_EXPLODING).toBeTruthy();
    expect(flags[g.byId.get('t1')!]! & TROUBLE_INF).toBe(0);
  });
  it('flags vanishing gradients below a live upstream', () => {
    const t = withGrads(1e-9);
    const g = new GraphIndex(t);
    const flags = findTrouble(t, g);
    // Pow received 1 (the seed) and sent back 4e-9: what it sent to (y1 - y2) vanished.
    expect(flags[g.byId.get('t7')!]! & TROUBLE_VANISHING).toBeTruthy();
    // Below that, upstream is tiny too: not flagged again.
    expect(flags[g.byId.get('t2')!]! & TROUBLE_VANISHING).toBe(0);
  });
});
