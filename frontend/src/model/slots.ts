// Which graph node each gradient slot of a Function event goes to, and the tensor a
// node stands for. Shared by the chain rule and the local derivatives.
import type { BackwardFunctionEvent } from '../api/types';
import { EDGE_AUTOGRAD, type GraphIndex } from './graphIndex';

/** The autograd in-edges of Function f, in the order of its next_functions. */
export function autogradInputs(g: GraphIndex, f: number): number[] {
  const sources: number[] = [];
  for (let q = g.inStart[f]!; q < g.inStart[f + 1]!; q++) {
    const e = g.inEdges[q]!;
    if (g.edgeKind[e] === EDGE_AUTOGRAD) sources.push(g.edgeSource[e]!);
  }
  return sources;
}

/** The in-edges of Function f from tensors that need no gradient (constants, data). */
export function plainInputs(g: GraphIndex, f: number): number[] {
  const sources: number[] = [];
  for (let q = g.inStart[f]!; q < g.inStart[f + 1]!; q++) {
    const e = g.inEdges[q]!;
    if (g.edgeKind[e] !== EDGE_AUTOGRAD) sources.push(g.edgeSource[e]!);
  }
  return sources;
}

/**
 * Which graph node each grad_inputs slot of f goes to: the non-null slots map to
 * f's autograd inputs in order (null slots are inputs that need no gradient); when
 * f has a single input, every slot goes to it (x * x).
 */
export function slotTargets(g: GraphIndex, f: number, event: BackwardFunctionEvent): number[] {
  const inputs = autogradInputs(g, f);
  const targets: number[] = [];
  let next = 0;
  for (const slot of event.grad_inputs) {
    if (slot === null) {
      targets.push(-1);
      continue;
    }
    if (inputs.length === 1) targets.push(inputs[0]!);
    else targets.push(inputs[next++] ?? -1);
  }
  return targets;
}

/** The tensor a graph node stands for: itself, or the leaf an AccumulateGrad fills. */
export function tensorOf(g: GraphIndex, i: number): number {
  const node = g.nodes[i];
  if (node && node.kind === 'function' && node.tensor) return g.byId.get(node.tensor) ?? i;
  return i;
}

const outputsCache = new WeakMap<GraphIndex, Int32Array>();

/** A Function's output tensor node (the first with grad_fn = it), or -1 when it has none. */
export function outputTensor(g: GraphIndex, f: number): number {
  let output = outputsCache.get(g);
  if (!output) {
    const out = new Int32Array(g.n).fill(-1);
    g.nodes.forEach((node, i) => {
      if (node.kind !== 'tensor' || !node.grad_fn) return;
      const fn = g.byId.get(node.grad_fn);
      if (fn !== undefined && out[fn] === -1) out[fn] = i;
    });
    outputsCache.set(g, (output = out));
  }
  return output[f] ?? -1;
}
