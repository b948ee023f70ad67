// Concepts made visible: badges on nodes (retain_grad, hooks, custom Functions,
// inputs that get no gradient) and one-sentence notes for a node or a step.
import type { Trace } from '../api/types';
import { formatTensor } from '../lib/format';
import type { GraphIndex } from './graphIndex';

export const BADGE_RETAIN = 1;
export const BADGE_HOOK = 2;
export const BADGE_CUSTOM = 4;
export const BADGE_NO_GRAD = 8;
/** A non-leaf whose .grad stays None. */
export const BADGE_NO_DOT_GRAD = 16;

export const BADGE_TEXT: [number, string][] = [
  [BADGE_RETAIN, 'retain_grad'],
  [BADGE_HOOK, 'hook'],
  [BADGE_CUSTOM, 'custom backward'],
  [BADGE_NO_GRAD, 'no grad'],
];

export function badges(g: GraphIndex): Uint8Array {
  const out = new Uint8Array(g.n);
  g.nodes.forEach((node, i) => {
    if (node.kind === 'function') {
      if (node.custom) out[i] = BADGE_CUSTOM;
      return;
    }
    let b = 0;
    if (node.retains_grad && !node.is_leaf) b |= BADGE_RETAIN;
    if ((node.hooks ?? 0) > 0) b |= BADGE_HOOK;
    if (!node.requires_grad) b |= BADGE_NO_GRAD;
    if (node.requires_grad && !node.is_leaf && !node.retains_grad) b |= BADGE_NO_DOT_GRAD;
    out[i] = b;
  });
  return out;
}

/** One-sentence notes about a node: what it is and why its .grad is what it is. */
export function nodeNotes(trace: Trace, g: GraphIndex, i: number): string[] {
  const node = g.nodes[i];
  if (!node) return [];
  const name = g.title(i);
  const notes: string[] = [];
  if (node.kind === 'function') {
    if (node.custom) notes.push(`${node.op} is a user-written autograd.Function: the backward pass runs its own backward() method.`);
    if (node.op === 'AccumulateGrad') notes.push('AccumulateGrad is where a leaf receives its gradient: it adds it to .grad.');
    return notes;
  }
  if (!node.requires_grad) {
    notes.push(`${name} has requires_grad=False: autograd does not track it, so it gets no gradient.`);
    return notes;
  }
  if (node.is_leaf)
    notes.push(`${name} is a leaf: you created it with requires_grad=True, so backward() stores its gradient in ${name}.grad.`);
  else if (node.retains_grad) notes.push(`${name} is not a leaf, but retain_grad() was called, so ${name}.grad keeps its gradient.`);
  else
    notes.push(
      `${name} is not a leaf (an operation made it), so ${name}.grad stays None: autograd frees intermediate gradients. Call ${name}.retain_grad() to keep it.`,
    );
  if ((node.hooks ?? 0) > 0)
    notes.push(
      `${node.hooks} hook${node.hooks === 1 ? ' is' : 's are'} registered on ${name} (register_hook): called with its gradient during backward.`,
    );
  // Accumulation across passes.
  const perPass: { pass: number; text: string }[] = [];
  for (let j = g.bwdStart[i]!; j < g.bwdStart[i + 1]!; j++) {
    const e = trace.timeline[g.bwdEvents[j]!];
    if (e && e.phase === 'backward' && e.node_kind === 'tensor') perPass.push({ pass: e.pass, text: formatTensor(e.grad) });
  }
  if (node.is_leaf && perPass.length > 1) {
    notes.push(
      `${name} received a gradient in ${perPass.length} backward passes (${perPass.map((p) => p.text).join(', ')}): each pass adds to ${name}.grad unless it is zeroed in between.`,
    );
  }
  return notes;
}

/** A note about the step just taken (hooks firing, retained gradients, accumulation), or ''. */
export function stepNote(trace: Trace, g: GraphIndex, cursor: number): string {
  const e = trace.timeline[cursor - 1];
  if (!e || e.phase !== 'backward' || e.node_kind !== 'tensor') return '';
  const i = g.byId.get(e.node);
  if (i === undefined) return '';
  const node = g.nodes[i]!;
  const name = g.title(i);
  if (node.kind !== 'tensor') return '';
  if (e.hooked) return `A hook on ${name} fired: register_hook's function was called with this gradient (${formatTensor(e.grad)}).`;
  if (node.retains_grad && !node.is_leaf) return `retain_grad(): ${name}.grad keeps this gradient (${formatTensor(e.grad)}).`;
  if (node.is_leaf && node.requires_grad) {
    let before = 0;
    for (let j = g.bwdStart[i]!; j < g.bwdStart[i + 1]!; j++) {
      const k = g.bwdEvents[j]!;
      const ev = trace.timeline[k];
      if (k < cursor - 1 && ev && ev.phase === 'backward' && ev.node_kind === 'tensor' && ev.pass < e.pass) before++;
    }
    if (before > 0) return `${name} already got a gradient in an earlier pass: this one is added to ${name}.grad (accumulation).`;
    return `${name} is a leaf: its gradient goes into ${name}.grad.`;
  }
  return '';
}
