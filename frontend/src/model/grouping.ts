// Big graphs: nodes grouped into collapsible blocks. The grouped view is itself a
// Trace (blocks are nodes, events of members are the block's events), so layout,
// scene, player and drawing work on it unchanged and the timeline keeps its length.
//   loops:   a source loop's nodes in one block ("×250"); expanded, one block per
//            iteration; an expanded iteration shows its nodes.
//   modules: an nn.Module's nodes in one block per call; expanded, its submodules.
//   ops:     each Function folded into the tensor it made (half the nodes).
import type { FunctionNode, GraphNode, TimelineEvent, Trace } from '../api/types';

export type GroupMode = 'none' | 'ops' | 'modules' | 'loops';

export const GROUP_PREFIX = 'group:';

export interface Group {
  id: string;
  /** The expansion key: expanding it shows the level below. */
  key: string;
  label: string;
  members: string[];
}

export interface GroupedView {
  trace: Trace;
  groups: Map<string, Group>;
  /** Node id → the block that holds it (nodes shown as themselves are absent). */
  rep: Map<string, string>;
}

export const isGroup = (id: string) => id.startsWith(GROUP_PREFIX);

type Keyed = { key: string; label: string } | null;

function loopKey(node: GraphNode, expanded: ReadonlySet<string>, iterations: Map<number, number>): Keyed {
  const outer = node.loops?.[0];
  if (!outer) return null;
  const whole = `loop:${outer.line}`;
  if (!expanded.has(whole)) return { key: whole, label: `loop line ${outer.line} ×${iterations.get(outer.line) ?? 1}` };
  const one = `${whole}:${outer.iteration}`;
  if (!expanded.has(one)) return { key: one, label: `line ${outer.line} · iteration ${outer.iteration + 1}` };
  return null;
}

function moduleKey(node: GraphNode, expanded: ReadonlySet<string>): Keyed {
  const path = node.module;
  if (!path) return null;
  const parts = path.split('.');
  for (let depth = 1; depth <= parts.length; depth++) {
    const prefix = parts.slice(0, depth).join('.');
    if (!expanded.has(`module:${prefix}`)) return { key: `module:${prefix}`, label: prefix };
  }
  return null;
}

/** Nodes in the order they were made: tensors by forward event, Functions with their output. */
function creationOrder(trace: Trace): GraphNode[] {
  const time = new Map<string, number>();
  trace.timeline.forEach((e, k) => {
    if (e.phase === 'forward' && !time.has(e.node)) time.set(e.node, k);
  });
  for (const n of trace.nodes) {
    if (n.kind === 'tensor' && n.grad_fn && time.has(n.id) && !time.has(n.grad_fn)) time.set(n.grad_fn, time.get(n.id)! - 0.5);
    if (n.kind === 'function' && n.tensor && time.has(n.tensor) && !time.has(n.id)) time.set(n.id, time.get(n.tensor)! + 0.25);
  }
  return trace.nodes
    .map((n, i) => ({ n, t: time.get(n.id) ?? Infinity, i }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map((x) => x.n);
}

/** The tensors the program ends with: its variables' last values and the last pass's root. */
function outputs(trace: Trace): string[] {
  const ids = new Set(Object.values(trace.variables));
  const last = trace.passes[trace.passes.length - 1];
  if (last?.root) ids.add(last.root);
  return [...ids];
}

/** Whether grouping by `rep` makes the graph cyclic. */
function makesCycle(trace: Trace, rep: ReadonlyMap<string, string>): boolean {
  const r = (id: string) => rep.get(id) ?? id;
  const ids = [...new Set(trace.nodes.map((n) => r(n.id)))];
  const edges: [string, string][] = [];
  for (const e of trace.edges) {
    const s = r(e.source);
    const t = r(e.target);
    if (s !== t) edges.push([s, t]);
  }
  return hasCycle(ids, edges);
}

/** Whether the graph (ids and edges) has a cycle. */
export function hasCycle(ids: string[], edges: [string, string][]): boolean {
  const index = new Map(ids.map((id, i) => [id, i]));
  const indeg = new Int32Array(ids.length);
  const out: number[][] = ids.map(() => []);
  for (const [s, t] of edges) {
    const a = index.get(s);
    const b = index.get(t);
    if (a === undefined || b === undefined) continue;
    out[a]!.push(b);
    indeg[b]!++;
  }
  const queue: number[] = [];
  indeg.forEach((d, i) => d === 0 && queue.push(i));
  let seen = 0;
  while (queue.length) {
    const i = queue.pop()!;
    seen++;
    for (const j of out[i]!) if (--indeg[j]! === 0) queue.push(j);
  }
  return seen < ids.length;
}

/**
 * The trace as grouped by `mode` with the blocks in `expanded` opened, or null when
 * the mode groups nothing here (or would make a cycle, which no layout can draw).
 */
export function groupTrace(trace: Trace, mode: GroupMode, expanded: ReadonlySet<string> = new Set()): GroupedView | null {
  if (mode === 'none') return null;
  const nodes = trace.nodes;
  const rep = new Map<string, string>();
  const groups = new Map<string, Group>();

  if (mode === 'ops') {
    const byId = new Map(nodes.map((n) => [n.id, n]));
    for (const node of nodes) {
      if (node.kind === 'tensor' && node.grad_fn && byId.has(node.grad_fn) && !rep.has(node.grad_fn) && !expanded.has(`op:${node.id}`))
        rep.set(node.grad_fn, node.id);
      if (node.kind === 'function' && node.tensor && byId.has(node.tensor) && !expanded.has(`op:${node.tensor}`))
        rep.set(node.id, node.tensor);
    }
    if (rep.size === 0) return null;
  } else {
    const iterations = new Map<number, number>();
    for (const node of nodes) {
      const outer = node.loops?.[0];
      if (outer) iterations.set(outer.line, Math.max(iterations.get(outer.line) ?? 0, outer.iteration + 1));
    }
    // Module blocks are cut into runs (one per call): members consecutive in the
    // order nodes were made, so a block never wraps around code between two calls.
    let lastKey = '';
    let run = 0;
    for (const node of mode === 'modules' ? creationOrder(trace) : nodes) {
      const k = mode === 'loops' ? loopKey(node, expanded, iterations) : moduleKey(node, expanded);
      if (!k) {
        if (mode === 'modules' && node.kind === 'tensor') lastKey = '';
        continue;
      }
      if (mode === 'modules' && k.key !== lastKey) run++;
      lastKey = k.key;
      const id = mode === 'modules' ? `${GROUP_PREFIX}${k.key}#${run}` : `${GROUP_PREFIX}${k.key}`;
      let group = groups.get(id);
      if (!group) groups.set(id, (group = { id, key: k.key, label: k.label, members: [] }));
      group.members.push(node.id);
      rep.set(node.id, id);
    }
    if (groups.size === 0) return null;
    // What the program ends with stays in view: the tensors its variables hold at the end
    // and the last backward pass's root (a loop's result is made inside the loop), unless
    // taking one out of its block would make a cycle.
    for (const id of outputs(trace)) {
      const block = rep.get(id);
      if (block === undefined) continue;
      const group = groups.get(block)!;
      rep.delete(id);
      group.members = group.members.filter((m) => m !== id);
      if (makesCycle(trace, rep)) {
        rep.set(id, block);
        group.members.push(id);
      }
    }
    // A block of one node is just that node.
    for (const [id, group] of groups)
      if (group.members.length === 1) {
        rep.delete(group.members[0]!);
        groups.delete(id);
      }
    if (groups.size === 0) return null;
  }

  const r = (id: string) => rep.get(id) ?? id;
  const outNodes: GraphNode[] = [];
  const placed = new Set<string>();
  for (const node of nodes) {
    const to = r(node.id);
    if (to === node.id) outNodes.push(node);
    else if (!placed.has(to) && groups.has(to)) {
      placed.add(to);
      const g = groups.get(to)!;
      const block: FunctionNode = {
        id: to,
        kind: 'function',
        op: `${g.label} · ${g.members.length} nodes`,
        span: null,
        saved: [],
        tensor: null,
        custom: false,
        sequence_nr: null,
        iteration: 0,
        module: null,
        loops: [],
      } as FunctionNode;
      outNodes.push(block);
    }
  }
  const seen = new Set<string>();
  const edges: Trace['edges'] = [];
  for (const e of trace.edges) {
    const s = r(e.source);
    const t = r(e.target);
    const key = `${s}\u0000${t}`;
    if (s === t || seen.has(key)) continue;
    seen.add(key);
    edges.push({ ...e, source: s, target: t });
  }
  if (
    hasCycle(
      outNodes.map((n) => n.id),
      edges.map((e) => [e.source, e.target]),
    )
  )
    return null;
  const timeline = trace.timeline.map((e) => renameNodes(e, rep, r));
  const variables = Object.fromEntries(Object.entries(trace.variables).filter(([, id]) => !rep.has(id)));
  const passes = trace.passes.map((p) => (p.root && rep.has(p.root) ? { ...p, root: r(p.root) } : p));
  return { trace: { ...trace, nodes: outNodes, edges, timeline, variables, passes }, groups, rep };
}

/** Event `e` with the node ids `rep` merges renamed by `r` (the same event when none is). */
export function renameNodes(e: TimelineEvent, rep: Map<string, string>, r: (id: string) => string): TimelineEvent {
  if (e.phase === 'print' || e.phase === 'warning') return e;
  if (e.phase === 'freed') return e.nodes.some((id) => rep.has(id)) ? { ...e, nodes: [...new Set(e.nodes.map(r))] } : e;
  return e.node && rep.has(e.node) ? { ...e, node: r(e.node) } : e;
}
