// What to draw at a cursor: a pure function of (graph, timeline, cursor, fraction).
// Node states and edge states change only when the cursor moves (computed once per
// cursor); pulses move with the fraction of the current step.
import {
  EV_BACKWARD_FUNCTION,
  EV_BACKWARD_TENSOR,
  EV_FORWARD,
  EV_PRINT,
  EV_UPDATE,
  EV_WARNING,
  type TimelineIndex,
} from '../player/timeline';
import { TAG_ROOM, type LayoutResult } from './geometry';
import { KIND_FUNCTION, type BackwardError, type GraphIndex } from './graphIndex';
import {
  FONTS,
  LABEL_PX,
  TAG_H,
  TAG_RISE,
  TAG_TEXT_PAD,
  TAG_TEXT_Y,
  ZOOM,
  boxHeight,
  gradLabel,
  labelItems,
  tagItems,
  type Measure,
  type NodeLabels,
} from './labels';
import { nodeTags, type Marks } from './tags';
import { errorCallout, type Box } from './backwardMarks';

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

/** A node as drawn, in CSS px of the canvas: its box, its tags' row and each text. */
export interface DrawnNode {
  node: number;
  title: string;
  pending: boolean;
  box: Rect;
  /** The row of tags above the box, or null when it shows none. */
  tags: Rect | null;
  texts: { text: string; px: number; rect: Rect }[];
  /** The error callout beside the node a backward pass raised in, or null. */
  callout: { lines: string[]; px: number; rect: Rect } | null;
  /** Torch freed what it held: drawn as an empty dotted box. */
  freed: boolean;
}

/** Every node's box in layout units, its tag row above it included. */
function nodeBoxes(graph: GraphIndex, layout: LayoutResult, labels: NodeLabels): Box[] {
  const boxes: Box[] = [];
  for (let j = 0; j < graph.n; j++) {
    const w = labels.width[j]!;
    const h = boxHeight(graph, j);
    boxes.push({ x: layout.x[j]! - w / 2, y: layout.y[j]! - h / 2 - TAG_ROOM, w, h: h + TAG_ROOM });
  }
  return boxes;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * What the renderer draws for each node at a zoom, as rectangles (test-only: the
 * browser tests read it to check font sizes, that boxes hold their texts and that
 * nothing overlaps; the app never calls it). Mirrors Renderer.drawNodes/drawMarks.
 */
export function drawnNodes(args: {
  graph: GraphIndex;
  layout: LayoutResult;
  labels: NodeLabels;
  scene: SceneState;
  transform: { k: number; x: number; y: number };
  gradText: (node: number) => string;
  valueText?: (node: number) => string | undefined;
  marks: Marks | null;
  measure: Measure;
  /** The canvas's width in CSS px (the error callout stays inside it). */
  viewWidth?: number;
}): DrawnNode[] {
  const { graph, layout, labels, scene, transform: t, measure, marks } = args;
  const k = t.k;
  const out: DrawnNode[] = [];
  const screen = (x: number, y: number, w: number, h: number): Rect => ({ x: x * k + t.x, y: y * k + t.y, w: w * k, h: h * k });
  for (let i = 0; i < graph.n; i++) {
    const w = labels.width[i]!;
    const h = boxHeight(graph, i);
    const x = layout.x[i]! - w / 2;
    const y = layout.y[i]! - h / 2;
    const pending = scene.nodeState[i] === NODE_PENDING;
    const shown = pending ? k >= ZOOM.ghostText : k >= ZOOM.text;
    const full = !pending && k >= ZOOM.detail;
    const grad = full && graph.kind[i] !== KIND_FUNCTION ? gradLabel(args.gradText(i)) : '';
    const v = full ? args.valueText?.(i) : undefined;
    const valueNow = v === undefined ? undefined : { text: v, w: measure(v, FONTS.value) };
    const items = shown ? labelItems(graph, labels, i, w, grad, grad ? measure(grad, FONTS.value) : 0, full, valueNow) : [];
    const tags =
      marks && k >= ZOOM.tags
        ? tagItems(
            nodeTags(i, marks, pending, scene).map((x) => x.text),
            w,
            (s) => measure(s, FONTS.tag),
          )
        : [];
    const error =
      scene.error?.node === i && k >= ZOOM.text
        ? errorCallout(
            scene.error.type,
            scene.error.message,
            measure,
            layout,
            w,
            i,
            args.viewWidth === undefined ? undefined : [-t.x / k, (args.viewWidth - t.x) / k],
            nodeBoxes(graph, layout, labels),
            h,
          )
        : null;
    out.push({
      node: i,
      title: labels.title[i]!,
      pending,
      box: screen(x, y, w, h),
      tags: tags.length
        ? screen(x + tags[0]!.x, y - TAG_RISE, tags[tags.length - 1]!.x + tags[tags.length - 1]!.w - tags[0]!.x, TAG_H)
        : null,
      callout: error
        ? { lines: error.lines, px: LABEL_PX * k, rect: screen(layout.x[i]! + error.x, layout.y[i]! + error.y, error.w, error.h) }
        : null,
      freed: scene.freed[i] === 1,
      texts: [
        ...items.map((it) => ({ text: it.text, px: LABEL_PX * k, rect: screen(x + it.x, y + it.y - LABEL_PX / 2, it.w, LABEL_PX) })),
        ...tags.map((tg) => ({
          text: tg.text,
          px: LABEL_PX * k,
          rect: screen(x + tg.x + TAG_TEXT_PAD, y + TAG_TEXT_Y - LABEL_PX / 2, tg.textW, LABEL_PX),
        })),
      ],
    });
  }
  return out;
}
