// The current step in words, for the player bar (and its live region).
import type { Trace } from '../api/types';
import type { GraphIndex } from '../graph/graphIndex';
import { formatCompact, formatShape } from '../lib/format';

export function stepCaption(trace: Trace, g: GraphIndex, cursor: number): string {
  if (cursor <= 0) return trace.timeline.length ? 'ready: press Play or →' : 'nothing to play';
  const e = trace.timeline[cursor - 1];
  if (!e) return '';
  if (e.phase === 'print') return `printed “${oneLine(e.text)}”`;
  const i = g.byId.get(e.node);
  const name = i === undefined ? e.node : g.title(i);
  if (e.phase === 'forward') {
    const node = i === undefined ? null : g.nodes[i];
    const value = node && node.kind === 'tensor' ? formatCompact(node.value) || formatShape(node.shape) : '';
    return `computed ${name}${value ? ` = ${value}` : ''}`;
  }
  if (e.node_kind === 'function') return `${name} ran: gradients to its inputs`;
  const grad = formatCompact(e.grad) || formatShape(e.grad.shape);
  return `gradient reached ${name}: ${grad}`;
}

/** Printed text on one line: line breaks as " ↵ " (not a literal "\n"), at most 60 characters. */
export function oneLine(text: string, max = 60): string {
  const s = text.trim().replace(/\s*\n\s*/g, ' ↵ ');
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}
