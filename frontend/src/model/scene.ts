// What to draw at a cursor: a pure function of (graph, timeline, cursor, fraction).
// Node states and edge states change only when the cursor moves (computed once per
// cursor); pulses move with the fraction of the current step.
import { EV_BACKWARD_FUNCTION, EV_BACKWARD_TENSOR, EV_FORWARD, EV_PRINT, EV_UPDATE, EV_WARNING, type TimelineIndex } from './timeline';
import type { BackwardError, GraphIndex } from './graphIndex';

/** Not computed yet at this cursor: drawn as a ghost. */
export const NODE_PENDING = 0;
/** Computed in the forward pass. */
export const NODE_COMPUTED = 1;
/** A gradient reached it (or its Function ran) in the current backward pass. */
export const NODE_GRADIENT = 2;

export const EDGE_HIDDEN = 0;
export const EDGE_FORWARD = 1;
/** A gradient went back along it in the current pass. */
export const EDGE_BACKWARD = 2;

export interface Pulse {
  edge: number;
  /** Position along the edge from its source (0) to its target (1). */
  at: number;
  backward: boolean;
}

/**
 * What the view reads from whatever steps the cursor (the player): where it is, how far
 * the current step's animation has got, and when to draw again.
 */
export interface Playhead {
  readonly cursor: number;
  /** Progress of the latest step's animation, 0 .. 1. */
  readonly fraction: number;
  /** Whether an animation is in flight (the view keeps drawing frames while true). */
  readonly animating: boolean;
  tick(dt: number): void;
  subscribe(fn: () => void): () => void;
}

export interface SceneState {
  cursor: number;
  /** The node of the latest event, or -1. */
  current: number;
  /** 'forward', 'backward' or 'update' (a leaf changed outside autograd) for the latest event, null at the start or on a print. */
  phase: 'forward' | 'backward' | 'update' | null;
  pass: number | null;
  nodeState: Uint8Array;
  edgeState: Uint8Array;
  /** Per node: the latest backward event before the cursor in the current pass, or -1. */
  gradEvent: Int32Array;
  /** Per node: 1 once torch freed what it held for backward (a pass without retain_graph). */
  freed: Uint8Array;
  /** The error the current pass raised, once that step is applied; else null. */
  error: BackwardError | null;
}

export function sceneAt(g: GraphIndex, tl: TimelineIndex, cursor: number): SceneState {
  const c = Math.max(0, Math.min(tl.length, cursor));
  const pass = tl.passAt(c);
  const nodeState = new Uint8Array(g.n);
  const gradEvent = new Int32Array(g.n).fill(-1);
  for (let i = 0; i < g.n; i++) {
    if (g.fwdTime[i]! >= c) continue;
    nodeState[i] = NODE_COMPUTED;
    if (pass === null) continue;
    const k = g.lastBackward(i, c);
    if (k >= 0 && tl.passOf[k] === pass) {
      gradEvent[i] = k;
      nodeState[i] = NODE_GRADIENT;
    }
  }
  const m = g.edgeSource.length;
  const edgeState = new Uint8Array(m);
  for (let e = 0; e < m; e++) {
    const s = g.edgeSource[e]!;
    const t = g.edgeTarget[e]!;
    if (nodeState[s] === NODE_PENDING || nodeState[t] === NODE_PENDING) continue;
    edgeState[e] = nodeState[t] === NODE_GRADIENT && nodeState[s] === NODE_GRADIENT ? EDGE_BACKWARD : EDGE_FORWARD;
  }
  let current = -1;
  let phase: SceneState['phase'] = null;
  if (c > 0) {
    const k = tl.kinds[c - 1]!;
    if (k !== EV_PRINT && k !== EV_WARNING) {
      current = g.eventNode[c - 1]!;
      phase = k === EV_FORWARD ? 'forward' : k === EV_UPDATE ? 'update' : 'backward';
    }
  }
  const freed = new Uint8Array(g.n);
  for (let i = 0; i < g.n; i++) if (g.freedAt[i]! >= 0 && g.freedAt[i]! < c) freed[i] = 1;
  const error = g.errors.find((x) => x.step < c && tl.passOf[x.step] === pass) ?? null;
  return { cursor: c, current, phase, pass, nodeState, edgeState, gradEvent, freed, error };
}

/**
 * The moving dots of the current step, at `fraction` of it. Forward: along the
 * incoming edges of each node that appears at this step. Backward: from the node
 * back along its incoming edges (gradients travel against the forward direction).
 */
export function pulsesAt(g: GraphIndex, tl: TimelineIndex, cursor: number, fraction: number): Pulse[] {
  if (cursor <= 0 || cursor > tl.length || fraction >= 1) return [];
  const k = cursor - 1;
  const kind = tl.kinds[k]!;
  if (kind !== EV_FORWARD && kind !== EV_BACKWARD_FUNCTION && kind !== EV_BACKWARD_TENSOR) return [];
  const pulses: Pulse[] = [];
  const f = Math.max(0, fraction);
  if (kind === EV_FORWARD) {
    for (let j = g.appearStart[k]!; j < g.appearStart[k + 1]!; j++) {
      const node = g.appearNodes[j]!;
      for (let q = g.inStart[node]!; q < g.inStart[node + 1]!; q++) pulses.push({ edge: g.inEdges[q]!, at: f, backward: false });
    }
  } else {
    const node = g.eventNode[k]!;
    if (node >= 0)
      for (let q = g.inStart[node]!; q < g.inStart[node + 1]!; q++) pulses.push({ edge: g.inEdges[q]!, at: 1 - f, backward: true });
  }
  return pulses;
}
