// The torchviz-style view: the grad_fn chain as make_dot draws it. Function nodes,
// the leaves that need a gradient (each with its AccumulateGrad) and the root of each
// backward pass; no intermediate tensors and no constants. Like grouping.ts it is a
// Trace, with the same timeline length (step numbers, captions and questions stay
// valid): an intermediate's events become its grad_fn's (made in forward, gradient
// arriving in backward); a constant's events point at nothing and light nothing.
import type { Trace } from '../api/types';
import { renameNodes } from './grouping';

export interface TorchvizView {
  trace: Trace;
  /** Removed tensor id → the Function that stands for it (absent: not drawn). */
  rep: Map<string, string>;
}

export function torchvizTrace(trace: Trace): TorchvizView {
  const byId = new Map(trace.nodes.map((n) => [n.id, n]));
  const roots = new Set(trace.passes.map((p) => p.root).filter((r): r is string => !!r));
  const accumulated = new Set(trace.nodes.flatMap((n) => (n.kind === 'function' && n.tensor ? [n.tensor] : [])));
  const keep = new Set<string>();
  const rep = new Map<string, string>();
  for (const n of trace.nodes) {
    if (n.kind === 'function') keep.add(n.id);
    else if (roots.has(n.id) || accumulated.has(n.id) || (n.is_leaf && n.requires_grad)) keep.add(n.id);
    else if (n.grad_fn && byId.get(n.grad_fn)?.kind === 'function') rep.set(n.id, n.grad_fn);
  }
  // A root is drawn as itself; an intermediate whose grad_fn made a root still stands for that Function.
  const r = (id: string) => rep.get(id) ?? id;
  const seen = new Set<string>();
  const edges: Trace['edges'] = [];
  for (const e of trace.edges) {
    // Only what carries gradients: autograd edges, between drawn nodes.
    if (e.kind !== 'autograd') continue;
    const s = r(e.source);
    const t = r(e.target);
    if (s === t || !keep.has(s) || !keep.has(t)) continue;
    const key = `${s}\u0000${t}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push({ ...e, source: s, target: t });
  }
  const nodes = trace.nodes.filter((n) => keep.has(n.id));
  const timeline = trace.timeline.map((e) => renameNodes(e, rep, r));
  const variables = Object.fromEntries(Object.entries(trace.variables).filter(([, id]) => keep.has(id)));
  return { trace: { ...trace, nodes, edges, timeline, variables }, rep };
}
