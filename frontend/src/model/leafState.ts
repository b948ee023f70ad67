// A leaf's values and `.grad` as of a step, from what the recorder saw happen: the
// running `.grad` after each backward pass added to it (`accumulated`), and the
// `update` events (an optimizer step or `w.data -= ...`; `zero_()`, `= None`).
import type { TensorData, Trace, UpdateEvent } from '../api/types';
import type { GraphIndex } from './graphIndex';

interface Change {
  step: number;
  data: TensorData | null;
}

export class LeafHistory {
  /** Per node: its `.grad` changes, by step (event index), ascending. */
  private readonly grads = new Map<number, Change[]>();
  /** Per node: its value changes, by step, ascending. */
  private readonly values = new Map<number, Change[]>();

  constructor(
    trace: Pick<Trace, 'timeline' | 'passes'>,
    private readonly g: GraphIndex,
  ) {
    // autograd.grad passes return gradients: they add nothing to `.grad`.
    const returns = new Set(trace.passes.filter((p) => p.kind === 'grad').map((p) => p.index));
    trace.timeline.forEach((e, k) => {
      if (e.phase !== 'update' && e.phase !== 'backward') return;
      const i = g.byId.get(e.node);
      if (i === undefined) return;
      if (e.phase === 'update') {
        push(e.what === 'grad' ? this.grads : this.values, i, { step: k, data: e.value ?? null });
        return;
      }
      const node = g.nodes[i]!;
      if (e.node_kind !== 'tensor' || node.kind !== 'tensor' || !node.is_leaf || !node.requires_grad || returns.has(e.pass)) return;
      // No `accumulated`: `.grad` was None and torch adopted the gradient that arrived.
      push(this.grads, i, { step: k, data: e.accumulated ?? e.grad });
    });
  }

  /** Whether the trace says how node `i`'s `.grad` changed (a leaf that got gradients). */
  tracksGrad(i: number): boolean {
    return this.grads.has(i);
  }

  /**
   * Node `i`'s `.grad` once the first `cursor` events ran: null while None; undefined
   * when the trace does not follow it (not a leaf that got a gradient).
   */
  gradAt(i: number, cursor: number): TensorData | null | undefined {
    const changes = this.grads.get(i);
    if (!changes) return undefined;
    return latest(changes, cursor)?.data ?? null;
  }

  /** Node `i`'s values once the first `cursor` events ran (updates included). */
  valueAt(i: number, cursor: number): TensorData | null {
    const node = this.g.nodes[i];
    if (!node || node.kind !== 'tensor') return null;
    const changes = this.values.get(i);
    return (changes && latest(changes, cursor)?.data) ?? node.first_value ?? node.value;
  }

  /** Every value and `.grad` node `i` shows over the program (box widths read them). */
  shown(i: number): { values: TensorData[]; grads: TensorData[] } {
    const data = (c: Change[] | undefined) => (c ?? []).flatMap((x) => (x.data ? [x.data] : []));
    return { values: data(this.values.get(i)), grads: data(this.grads.get(i)) };
  }
}

function push(map: Map<number, Change[]>, i: number, change: Change): void {
  const list = map.get(i);
  if (list) list.push(change);
  else map.set(i, [change]);
}

/** The latest change applied by `cursor` (steps 0 .. cursor-1), or undefined. */
function latest(changes: Change[], cursor: number): Change | undefined {
  let lo = 0;
  let hi = changes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (changes[mid]!.step < cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? changes[lo - 1] : undefined;
}

/** The update event of step `cursor` (the latest applied), if it is one. */
export function updateAt(trace: Pick<Trace, 'timeline'>, cursor: number): UpdateEvent | null {
  const e = trace.timeline[cursor - 1];
  return e && e.phase === 'update' ? e : null;
}

const histories = new WeakMap<GraphIndex, LeafHistory>();

/** The LeafHistory of graph `g` (built from `trace`, the trace `g` indexes), made once. */
export function historyOf(trace: Pick<Trace, 'timeline' | 'passes'>, g: GraphIndex): LeafHistory {
  let h = histories.get(g);
  if (!h) histories.set(g, (h = new LeafHistory(trace, g)));
  return h;
}

/**
 * The learning rate of a plain gradient step `after = before − lr·grad`, when the
 * numbers are one (the same lr for every element); null otherwise (Adam, momentum...).
 */
export function sgdRate(before: number[], after: number[], grad: number[]): number | null {
  if (before.length === 0 || before.length !== after.length || after.length !== grad.length) return null;
  let lr: number | null = null;
  for (let j = 0; j < before.length; j++) {
    const step = before[j]! - after[j]!;
    const g = grad[j]!;
    if (g === 0) {
      if (Math.abs(step) > 1e-12 * Math.max(1, Math.abs(before[j]!))) return null;
      continue;
    }
    const r = step / g;
    if (lr === null) lr = r;
    else if (Math.abs(r - lr) > 1e-3 * Math.abs(lr) + 1e-12) return null;
  }
  return lr !== null && lr > 0 ? lr : null;
}
