// The current step in words, for the player bar (and its live region).
import type { Trace } from '../api/types';
import type { GraphIndex } from './graphIndex';
import { historyOf, sgdRate } from './leafState';
import { flatNumbers, formatCompact, formatNumber, formatShape } from '../lib/format';

export function stepCaption(trace: Trace, g: GraphIndex, cursor: number): string {
  if (cursor <= 0) return trace.timeline.length ? 'ready: press Play or →' : 'nothing to play';
  const e = trace.timeline[cursor - 1];
  if (!e) return '';
  if (e.phase === 'print') return `printed “${oneLine(e.text)}”`;
  if (e.phase === 'freed') {
    const names = e.nodes.flatMap((id) => (g.byId.has(id) ? [g.title(g.byId.get(id)!)] : []));
    return `pass ended without retain_graph=True: torch freed the saved tensors of ${names.join(', ') || 'its Functions'}`;
  }
  if (e.phase === 'line') {
    const at = e.node === null ? undefined : g.byId.get(e.node);
    if (at === undefined) return `line ${e.line} runs during backward`;
    const node = g.nodes[at]!;
    return node.kind === 'function' && node.custom
      ? `line ${e.line} of ${g.title(at)}'s backward`
      : `line ${e.line} runs in the hook of ${g.title(at)}`;
  }
  if (e.phase === 'warning') return `warning${e.line ? ` at line ${e.line}` : ''}: ${e.message}`;
  const i = g.byId.get(e.node);
  const name = i === undefined ? e.node : g.title(i);
  if (e.phase === 'update') {
    if (i === undefined) return '';
    if (e.what === 'grad')
      return e.value ? `${name}.grad set to ${formatCompact(e.value) || formatShape(e.value.shape)}` : `${name}.grad set to None`;
    return updateCaption(trace, g, i, name, cursor);
  }
  if (e.phase === 'forward') {
    const node = i === undefined ? null : g.nodes[i];
    const value = node && node.kind === 'tensor' ? formatCompact(node.value) || formatShape(node.shape) : '';
    return `computed ${name}${value ? ` = ${value}` : ''}`;
  }
  if (e.phase === 'error') return `${e.type} in ${name}: ${oneLine(e.message, 90)}`;
  if (e.node_kind === 'function') return `${name} ran: gradients to its inputs`;
  const grad = formatCompact(e.grad) || formatShape(e.grad.shape);
  return `gradient reached ${name}: ${grad}`;
}

/** A parameter changed: its numbers before and after, and the step rule when it is plain SGD. */
function updateCaption(trace: Trace, g: GraphIndex, i: number, name: string, cursor: number): string {
  const e = trace.timeline[cursor - 1];
  if (!e || e.phase !== 'update') return '';
  const h = historyOf(trace, g);
  const before = h.valueAt(i, cursor - 1);
  const after = e.value;
  const where = e.line ? ` (line ${e.line})` : '';
  if (!before || !after) return `updated ${name}${where}`;
  const b = flatNumbers(before);
  const a = flatNumbers(after);
  const grad = e.grad ? flatNumbers(e.grad) : null;
  const lr = grad ? sgdRate(b, a, grad) : null;
  if (lr !== null && b.length === 1) {
    return `updated ${name}${where}: ${name} ← ${name} − lr·grad = ${formatNumber(b[0]!)} − ${formatNumber(lr)}·${formatNumber(grad![0]!)} = ${formatNumber(a[0]!)}`;
  }
  const rule =
    lr !== null ? `: ${name} ← ${name} − ${formatNumber(lr)}·${name}.grad` : e.grad ? ` from its .grad ${formatCompact(e.grad)}` : '';
  return `updated ${name}${where}${rule}: ${formatCompact(before)} → ${formatCompact(after)}`;
}

/** Printed text on one line: line breaks as " ↵ " (not a literal "\n"), at most 60 characters. */
export function oneLine(text: string, max = 60): string {
  const s = text.trim().replace(/\s*\n\s*/g, ' ↵ ');
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}
