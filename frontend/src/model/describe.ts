// Words for a node at a cursor: what the accessible node list (and screen readers)
// read, and what the hover card shows.
import type { TensorData, Trace } from '../api/types';
import { formatShape, formatTensor, scalarOf, toNumber } from '../lib/format';
import { ROLES } from './graphIndex';
import type { GraphIndex } from './graphIndex';
import { historyOf } from './leafState';
import { NODE_PENDING, type SceneState } from './scene';

/** The gradient a node received by this cursor in the current pass (tensor nodes), or null. */
export function gradientAt(trace: Trace, scene: SceneState, node: number): TensorData | null {
  const k = scene.gradEvent[node]!;
  if (k < 0) return null;
  const e = trace.timeline[k];
  return e && e.phase === 'backward' && e.node_kind === 'tensor' ? e.grad : null;
}

export function describeNode(trace: Trace, g: GraphIndex, scene: SceneState, i: number): string {
  const node = g.nodes[i]!;
  const pending = scene.nodeState[i] === NODE_PENDING;
  if (node.kind === 'function') {
    const ran = scene.gradEvent[i]! >= 0 ? `ran in backward pass ${scene.pass ?? 0}` : pending ? 'not created yet' : 'created';
    return `${node.op}: Function, ${ran}`;
  }
  const role = ROLES[g.role[i]!];
  // As of this step: a parameter's values after the updates so far, a leaf's running .grad.
  const h = historyOf(trace, g);
  const value = pending ? 'not computed yet' : formatTensor(h.valueAt(i, scene.cursor));
  const grad = gradientAt(trace, scene, i);
  const running = h.gradAt(i, scene.cursor);
  // Not followed step by step (a retained non-leaf): its .grad once its gradient came.
  const arrived = scene.gradEvent[i]! >= 0 || scene.cursor >= trace.timeline.length;
  const dotGrad = running === undefined ? (arrived ? node.grad : null) : running;
  return `${g.title(i)}: tensor (${role}), ${formatShape(node.shape)}, value ${value}, gradient ${grad ? formatTensor(grad) : '—'}, .grad ${formatTensor(dotGrad)}`;
}

/**
 * A scalar leaf's `.grad` as of `cursor`, as the recorder saw it change (the running
 * sum after each pass, zero_(), = None); null while it is None.
 */
export function leafGradAt(trace: Trace, g: GraphIndex, i: number, cursor: number): number | null {
  const node = g.nodes[i];
  if (!node || node.kind !== 'tensor') return null;
  const h = historyOf(trace, g);
  if (h.tracksGrad(i)) {
    const grad = h.gradAt(i, cursor);
    const s = grad ? scalarOf(grad) : null;
    return s === null ? null : toNumber(s);
  }
  // A trace without the running sums (an older export): add up what reached it.
  const received: number[] = [];
  let reached = 0;
  for (let q = g.bwdStart[i]!; q < g.bwdStart[i + 1]!; q++) {
    const k = g.bwdEvents[q]!;
    const e = trace.timeline[k];
    if (!e || e.phase !== 'backward' || e.node_kind !== 'tensor') continue;
    const s = scalarOf(e.grad);
    received.push(s === null ? NaN : toNumber(s));
    if (k < cursor) reached = received.length;
  }
  const finalRaw = node.grad ? scalarOf(node.grad) : null;
  const final = finalRaw === null ? null : toNumber(finalRaw);
  if (cursor >= trace.timeline.length) return final;
  if (reached === 0) return null;
  const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
  const total = received.reduce((a, b) => a + b, 0);
  const zeroedEachPass = final !== null && received.length > 1 && !near(total, final) && near(received[received.length - 1]!, final);
  return zeroedEachPass ? received[reached - 1]! : received.slice(0, reached).reduce((a, b) => a + b, 0);
}
