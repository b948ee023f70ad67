// The trace's graph as flat arrays, built once per trace: node kinds and roles,
// edges, and when each node appears (forward) and receives gradients (backward).
import type { GraphNode, Trace } from '../api/types';
import { shorten, spanText } from '../lib/source';

export const KIND_TENSOR = 0;
export const KIND_FUNCTION = 1;

/** Roles, in legend order. Function nodes use ROLE_FUNCTION. */
export const ROLES = ['leaf', 'parameter', 'input', 'intermediate', 'output', 'gradient', 'saved', 'function'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_INDEX: Record<Role, number> = Object.fromEntries(ROLES.map((r, i) => [r, i])) as Record<Role, number>;

export const EDGE_AUTOGRAD = 0;
export const EDGE_INPUT = 1;
export const EDGE_NOGRAD = 2;

export class GraphIndex {
  readonly n: number;
  readonly ids: string[];
  readonly nodes: GraphNode[];
  readonly byId: Map<string, number>;
  readonly kind: Uint8Array;
  readonly role: Uint8Array;
  /** Event index at which the node appears; -1 when it is there from the start. */
  readonly fwdTime: Int32Array;
  /** Backward events per node, CSR: events of node i are bwdEvents[bwdStart[i] .. bwdStart[i+1]). */
  readonly bwdStart: Int32Array;
  readonly bwdEvents: Int32Array;
  /** Node of each timeline event (an update's: the leaf it changes), -1 for prints. */
  readonly eventNode: Int32Array;
  readonly edgeSource: Int32Array;
  readonly edgeTarget: Int32Array;
  readonly edgeKind: Uint8Array;
  /** Incoming edges per node, CSR over edge indices. */
  readonly inStart: Int32Array;
  readonly inEdges: Int32Array;
  /** Nodes appearing at each event, CSR (forward events only have any). */
  readonly appearStart: Int32Array;
  readonly appearNodes: Int32Array;
  /**
   * Step (event index) at which torch freed what the node holds for backward, -1 never:
   * a Function's saved tensors; an intermediate saved for backward once every Function
   * that saved it is freed.
   */
  readonly freedAt: Int32Array;
  /** Where backward passes raised: the event, its Function node, torch's words. */
  readonly errors: BackwardError[];
  /** Tensor node name for each variable id, for labels. */
  readonly variableName: Map<string, string>;

  /** Display names: variable, own name, label, source text, or op. */
  private readonly titles: string[];
  /** Longer names for formulas, where two cut names could read the same. */
  private readonly longTitles: string[];

  /** `source` is the program the trace ran; unnamed tensors are called by its text. */
  constructor(trace: Pick<Trace, 'nodes' | 'edges' | 'timeline' | 'variables'>, source = '') {
    const nodes = trace.nodes;
    const n = nodes.length;
    this.n = n;
    this.nodes = nodes;
    this.ids = nodes.map((x) => x.id);
    this.byId = new Map(this.ids.map((id, i) => [id, i]));
    this.kind = new Uint8Array(n);
    this.role = new Uint8Array(n);
    this.variableName = new Map(Object.entries(trace.variables).map(([name, id]) => [id, name]));
    const lines = source.split('\n');
    this.titles = nodes.map((node, i) => {
      if (node.kind === 'function') return node.op;
      const text = node.name ?? this.variableName.get(node.id) ?? node.label ?? spanText(lines, node.span);
      return text ? shorten(text, 24) : `tensor ${i}`;
    });
    this.longTitles = nodes.map((node, i) => {
      if (node.kind === 'function') return node.op;
      const text = node.name ?? this.variableName.get(node.id) ?? spanText(lines, node.span) ?? node.label;
      return text ? shorten(text, 40) : this.titles[i]!;
    });

    const saved = new Set<string>();
    for (const node of nodes) if (node.kind === 'function') for (const s of node.saved) if (s.node) saved.add(s.node);
    nodes.forEach((node, i) => {
      if (node.kind === 'function') {
        this.kind[i] = KIND_FUNCTION;
        this.role[i] = ROLE_INDEX.function;
      } else {
        this.kind[i] = KIND_TENSOR;
        const r = node.role === 'intermediate' && saved.has(node.id) ? 'saved' : node.role;
        this.role[i] = ROLE_INDEX[r] ?? ROLE_INDEX.intermediate;
      }
    });

    // Edges (dropping any whose ends are not nodes).
    const es: number[] = [];
    const et: number[] = [];
    const ek: number[] = [];
    for (const e of trace.edges) {
      const s = this.byId.get(e.source);
      const t = this.byId.get(e.target);
      if (s === undefined || t === undefined || s === t) continue;
      es.push(s);
      et.push(t);
      ek.push(e.kind === 'input' ? EDGE_INPUT : e.kind === 'nograd' ? EDGE_NOGRAD : EDGE_AUTOGRAD);
    }
    this.edgeSource = Int32Array.from(es);
    this.edgeTarget = Int32Array.from(et);
    this.edgeKind = Uint8Array.from(ek);
    [this.inStart, this.inEdges] = csr(n, this.edgeTarget, (i) => i);

    // Events.
    const events = trace.timeline;
    this.eventNode = new Int32Array(events.length).fill(-1);
    const fwd = new Int32Array(n).fill(-2);
    const bwdOwner: number[] = [];
    const bwdIndex: number[] = [];
    this.freedAt = new Int32Array(n).fill(-1);
    this.errors = [];
    events.forEach((e, k) => {
      if (e.phase === 'print' || e.phase === 'warning') return;
      if (e.phase === 'freed') {
        for (const id of e.nodes) {
          const f = this.byId.get(id);
          if (f !== undefined && this.freedAt[f] === -1) this.freedAt[f] = k;
        }
        return;
      }
      if (e.node === null || e.node === undefined) return;
      const i = this.byId.get(e.node);
      if (i === undefined) return;
      this.eventNode[k] = i;
      if (e.phase === 'forward') {
        if (fwd[i] === -2) fwd[i] = k;
      } else if (e.phase === 'backward') {
        bwdOwner.push(i);
        bwdIndex.push(k);
      } else if (e.phase === 'error') {
        this.errors.push({ step: k, node: i, type: e.type, message: e.message });
      }
    });
    savedFreedAt(this);
    [this.bwdStart, this.bwdEvents] = csr(n, Int32Array.from(bwdOwner), (j) => bwdIndex[j]!);
    this.fwdTime = appearTimes(this, fwd);
    const appearOwner: number[] = [];
    const appearNode: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = this.fwdTime[i]!;
      if (t >= 0) {
        appearOwner.push(t);
        appearNode.push(i);
      }
    }
    [this.appearStart, this.appearNodes] = csr(events.length, Int32Array.from(appearOwner), (j) => appearNode[j]!);
  }

  /** The program's name for a node: its variable, its own name, its label, or its op. */
  title(i: number): string {
    return this.titles[i] ?? '';
  }

  /** The name a formula uses: the title, cut later (the chain rule's ∂a/∂b). */
  longTitle(i: number): string {
    return this.longTitles[i] ?? '';
  }

  /**
   * Whether edge `e` is a graph cut: data flow autograd does not record (no_grad,
   * detach, `.data`) out of a tensor that requires grad. Data that never required a
   * gradient (features, indices, linspace) flows untracked without anything being cut.
   */
  isCut(e: number): boolean {
    if (this.edgeKind[e] !== EDGE_NOGRAD) return false;
    const source = this.nodes[this.edgeSource[e]!];
    return !!source && (source.kind === 'function' || source.requires_grad);
  }

  /** The latest backward event of node i before `cursor`, or -1. */
  lastBackward(i: number, cursor: number): number {
    let lo = this.bwdStart[i]!;
    let hi = this.bwdStart[i + 1]!;
    let found = -1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const k = this.bwdEvents[mid]!;
      if (k < cursor) {
        found = k;
        lo = mid + 1;
      } else hi = mid;
    }
    return found;
  }
}

export interface BackwardError {
  step: number;
  node: number;
  type: string;
  message: string;
}

/** An intermediate saved for backward is freed when the last Function holding it is. */
function savedFreedAt(g: GraphIndex): void {
  const holders = new Map<number, number[]>();
  g.nodes.forEach((node, f) => {
    if (node.kind !== 'function') return;
    for (const s of node.saved) {
      const t = s.node ? g.byId.get(s.node) : undefined;
      if (t === undefined || g.role[t] !== ROLE_INDEX.saved) continue;
      const list = holders.get(t);
      if (list) list.push(f);
      else holders.set(t, [f]);
    }
  });
  for (const [t, fs] of holders) {
    const times = fs.map((f) => g.freedAt[f]!);
    if (times.every((k) => k >= 0)) g.freedAt[t] = Math.max(...times);
  }
}

/** Group `count` items by owner into CSR arrays: starts (n+1) and the mapped items. */
function csr(n: number, owners: Int32Array, item: (j: number) => number): [Int32Array, Int32Array] {
  const start = new Int32Array(n + 1);
  for (const o of owners) start[o + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const items = new Int32Array(owners.length);
  owners.forEach((o, j) => {
    items[fill[o]!++] = item(j);
  });
  return [start, items];
}

/**
 * When each node appears. Tensor nodes: their forward event. A function node appears
 * with the tensor it made (grad_fn), else with its earliest consumer (AccumulateGrad
 * and the like), else with its latest input; a node with none of these is there from
 * the start (-1).
 */
function appearTimes(g: GraphIndex, fwd: Int32Array): Int32Array {
  const n = g.n;
  const time = Int32Array.from(fwd);
  g.nodes.forEach((node, i) => {
    if (node.kind === 'tensor' && node.grad_fn) {
      const f = g.byId.get(node.grad_fn);
      if (f !== undefined && fwd[i]! >= 0 && (time[f] === -2 || time[f]! > fwd[i]!)) time[f] = fwd[i]!;
    }
  });
  // Out-edges per node, to relax unknown times from consumers, then from inputs.
  const [outStart, outEdges] = csr(n, g.edgeSource, (j) => j);
  for (let round = 0; round < 4; round++) {
    let changed = false;
    for (let i = 0; i < n; i++) {
      if (time[i] !== -2) continue;
      let best = -2;
      for (let k = outStart[i]!; k < outStart[i + 1]!; k++) {
        const t = time[g.edgeTarget[outEdges[k]!]!]!;
        if (t >= 0 && (best === -2 || t < best)) best = t;
      }
      if (best === -2) {
        for (let k = g.inStart[i]!; k < g.inStart[i + 1]!; k++) {
          const t = time[g.edgeSource[g.inEdges[k]!]!]!;
          if (t >= 0 && t > best) best = t;
        }
      }
      if (best !== -2) {
        time[i] = best;
        changed = true;
      }
    }
    if (!changed) break;
  }
  for (let i = 0; i < n; i++) if (time[i] === -2) time[i] = -1;
  return time;
}
