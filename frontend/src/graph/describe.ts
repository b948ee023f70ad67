// Words for a node at a cursor: what the accessible node list (and screen readers)
// read, and what the hover card shows.
import type { TensorData, Trace } from '../api/types';
import { formatShape, formatTensor } from '../lib/format';
import { ROLES } from './graphIndex';
import type { GraphIndex } from './graphIndex';
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
  const value = pending ? 'not computed yet' : formatTensor(node.value);
  const grad = gradientAt(trace, scene, i);
  return `${g.title(i)}: tensor (${role}), ${formatShape(node.shape)}, value ${value}, gradient ${grad ? formatTensor(grad) : '—'}, .grad ${formatTensor(node.grad)}`;
}
