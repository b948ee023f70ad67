// Canvas 2D drawing of a scene: edges, nodes, labels (as zoom allows), pulses and
// highlights. Everything it draws comes from its arguments; it keeps only caches
// derived from the layout (edge lengths).
import { EDGE_INPUT, EDGE_NOGRAD, KIND_FUNCTION, type GraphIndex } from '../model/graphIndex';
import {
  FONTS,
  boxHeight,
  gradLabel,
  ZOOM,
  TAG_H,
  TAG_RISE,
  TAG_TEXT_PAD,
  TAG_TEXT_Y,
  labelItems,
  tagItems,
  type NodeLabels,
} from './labels';
import { FUNCTION_HEIGHT, NODE_HEIGHT, type LayoutResult } from './geometry';
import type { Palette } from './palette';
import { EDGE_BACKWARD, EDGE_HIDDEN, NODE_GRADIENT, NODE_PENDING, type Pulse, type SceneState } from '../model/scene';
import { nodeTags, type Marks } from './tags';
import { CALLOUT_LINE, CALLOUT_PAD, errorCallout, nodeBoxes } from './backwardMarks';

export type { Marks };

export interface ViewTransform {
  k: number;
  x: number;
  y: number;
}

export interface Highlights {
  hovered: number;
  selected: number;
  /** Nodes made by the source the pointer is on (1 = linked). */
  linked: Uint8Array | null;
}

export interface DrawInput {
  graph: GraphIndex;
  layout: LayoutResult;
  labels: NodeLabels;
  scene: SceneState;
  pulses: Pulse[];
  highlights: Highlights;
  palette: Palette;
  transform: ViewTransform;
  /** The gradient text for a node at this cursor ('' if none). */
  gradText: (node: number) => string;
  /** The value text of a node at this cursor when it changed since it was made (else undefined). */
  valueText?: (node: number) => string | undefined;
  marks?: Marks;
}

export class Renderer {
  private lengths: Float32Array | null = null;
  private lengthsFor: LayoutResult | null = null;

  constructor(private readonly ctx: CanvasRenderingContext2D) {}

  draw(input: DrawInput, width: number, height: number, dpr: number): void {
    const { ctx } = this;
    const { layout, transform: t, palette } = input;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = palette.background;
    ctx.fillRect(0, 0, width, height);
    ctx.setTransform(dpr * t.k, 0, 0, dpr * t.k, dpr * t.x, dpr * t.y);

    // The visible rectangle in layout units, with a margin.
    const margin = 120;
    const vx0 = -t.x / t.k - margin;
    const vy0 = -t.y / t.k - margin;
    const vx1 = (width - t.x) / t.k + margin;
    const vy1 = (height - t.y) / t.k + margin;
    const visible = (i: number) => {
      const x = layout.x[i]!;
      const y = layout.y[i]!;
      return x >= vx0 && x <= vx1 && y >= vy0 && y <= vy1;
    };

    this.drawEdges(input, visible);
    this.drawNodes(input, visible);
    if (input.marks) this.drawMarks(input, input.marks, visible, [-t.x / t.k, (width - t.x) / t.k]);
    this.drawPulses(input);
  }

  /** Badges above nodes, trouble rings, gradient-check ticks, graph cuts. */
  private drawMarks(input: DrawInput, marks: Marks, visible: (i: number) => boolean, view: [number, number]): void {
    const { ctx } = this;
    const { graph, layout, labels, palette, transform, scene } = input;
    const k = transform.k;
    const px = 1 / k;
    // A cut (no_grad, detach): a break drawn across the middle of the edge.
    this.ensureLengths(layout);
    ctx.globalAlpha = 1;
    for (let e = 0; e < graph.edgeSource.length; e++) {
      if (!graph.isCut(e) || !visible(graph.edgeSource[e]!)) continue;
      if (scene.edgeState[e] === EDGE_HIDDEN) continue;
      const [mx, my] = this.pointAt(layout, e, 0.5);
      const [ax, ay] = this.pointAt(layout, e, 0.45);
      const dx = mx - ax;
      const dy = my - ay;
      const len = Math.hypot(dx, dy) || 1;
      const nx = -dy / len;
      const ny = dx / len;
      const ux = dx / len;
      const uy = dy / len;
      ctx.fillStyle = palette.background;
      ctx.fillRect(mx - 6, my - 6, 12, 12);
      ctx.strokeStyle = palette.error;
      ctx.lineWidth = Math.max(2, px);
      ctx.beginPath();
      for (const o of [-3.5, 3.5]) {
        ctx.moveTo(mx + ux * o - nx * 8, my + uy * o - ny * 8);
        ctx.lineTo(mx + ux * o + nx * 8, my + uy * o + ny * 8);
      }
      ctx.stroke();
    }
    const showTags = k >= ZOOM.tags;
    ctx.font = FONTS.tag;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    const measure = (text: string) => ctx.measureText(text).width;
    for (let i = 0; i < graph.n; i++) {
      if (!visible(i)) continue;
      const fn = graph.kind[i] === KIND_FUNCTION;
      const w = labels.width[i]!;
      const h = fn ? FUNCTION_HEIGHT : NODE_HEIGHT;
      const x = layout.x[i]! - w / 2;
      const y = layout.y[i]! - h / 2;
      const pending = scene.nodeState[i] === NODE_PENDING;
      const trouble = marks.trouble?.[i] ?? 0;
      const check = marks.check?.[i] ?? 0;
      if (trouble && !pending) {
        ctx.beginPath();
        ctx.roundRect(x - 5, y - 5, w + 10, h + 10, fn ? (h + 10) / 2 : 10);
        ctx.strokeStyle = palette.error;
        ctx.lineWidth = Math.max(3, 2 * px);
        ctx.setLineDash([7, 4]);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      if (check !== 0) {
        ctx.beginPath();
        ctx.roundRect(x - 4, y - 4, w + 8, h + 8, fn ? (h + 8) / 2 : 10);
        ctx.strokeStyle = check > 0 ? palette.ok : palette.error;
        ctx.lineWidth = Math.max(3, 2 * px);
        ctx.stroke();
      }
      if (marks.hookFired === i) {
        ctx.beginPath();
        ctx.roundRect(x - 8, y - 8, w + 16, h + 16, 12);
        ctx.strokeStyle = palette.linked;
        ctx.lineWidth = Math.max(4, 2 * px);
        ctx.stroke();
      }
      const tags = nodeTags(i, marks, pending, scene);
      if (!showTags || tags.length === 0) continue;
      for (const item of tagItems(
        tags.map((t) => t.text),
        w,
        measure,
      )) {
        const tone = item.index >= 0 ? tags[item.index]!.tone : 'muted';
        ctx.beginPath();
        ctx.roundRect(x + item.x, y - TAG_RISE, item.w, TAG_H, TAG_H / 2);
        ctx.fillStyle = tone === 'error' ? palette.error : tone === 'ok' ? palette.ok : tone === 'linked' ? palette.linked : palette.muted;
        ctx.fill();
        ctx.fillStyle = palette.background;
        ctx.fillText(item.text, x + item.x + TAG_TEXT_PAD, y + TAG_TEXT_Y);
      }
    }
    // Over everything else: torch's words must stay readable.
    if (scene.error && visible(scene.error.node)) this.drawError(input, scene.error.node, scene.error.type, scene.error.message, view);
  }

  /** The Function a pass raised in: a red ring, and torch's words in a callout beside it. */
  private drawError(input: DrawInput, i: number, type: string, message: string, view: [number, number]): void {
    const { ctx } = this;
    const { graph, layout, labels, palette, transform } = input;
    const w = labels.width[i]!;
    const h = graph.kind[i] === KIND_FUNCTION ? FUNCTION_HEIGHT : NODE_HEIGHT;
    const cx = layout.x[i]!;
    const cy = layout.y[i]!;
    ctx.beginPath();
    ctx.roundRect(cx - w / 2 - 6, cy - h / 2 - 6, w + 12, h + 12, (h + 12) / 2);
    ctx.strokeStyle = palette.error;
    ctx.lineWidth = Math.max(3, 2 / transform.k);
    ctx.stroke();
    if (transform.k < ZOOM.text) return;
    ctx.font = FONTS.detail;
    // Placed as the scene model places it (drawn.ts), off every node box.
    const measure = (s: string, font: string) => ((ctx.font = font), ctx.measureText(s).width);
    const c = errorCallout(type, message, measure, layout, w, i, view, nodeBoxes(graph, layout, labels), boxHeight(graph, i));
    ctx.beginPath();
    ctx.roundRect(cx + c.x, cy + c.y, c.w, c.h, 6);
    ctx.fillStyle = palette.background;
    ctx.fill();
    ctx.strokeStyle = palette.error;
    ctx.lineWidth = Math.max(1.5, 1 / transform.k);
    ctx.stroke();
    ctx.fillStyle = palette.error;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    c.lines.forEach((line, j) => ctx.fillText(line, cx + c.x + CALLOUT_PAD, cy + c.y + CALLOUT_PAD / 2 + CALLOUT_LINE * (j + 0.5)));
  }

  private drawEdges(input: DrawInput, visible: (i: number) => boolean): void {
    const { ctx } = this;
    const { graph, layout, scene, palette, transform } = input;
    const m = graph.edgeSource.length;
    const px = 1 / transform.k;
    // Groups: [pending, forward, backward] × [autograd, input, nograd].
    const groups: number[][] = Array.from({ length: 9 }, () => []);
    for (let e = 0; e < m; e++) {
      const s = graph.edgeSource[e]!;
      const d = graph.edgeTarget[e]!;
      if (!visible(s) && !visible(d)) continue;
      const st = scene.edgeState[e]!;
      groups[st * 3 + graph.edgeKind[e]!]!.push(e);
    }
    const arrows = transform.k > 0.35;
    for (let g = 0; g < 9; g++) {
      const edges = groups[g]!;
      if (edges.length === 0) continue;
      const st = Math.floor(g / 3);
      const kind = g % 3;
      ctx.globalAlpha = st === EDGE_HIDDEN ? 0.22 : kind === EDGE_NOGRAD ? 0.6 : 1;
      ctx.strokeStyle = st === EDGE_BACKWARD ? palette.edgeBackward : palette.edge;
      ctx.fillStyle = ctx.strokeStyle;
      ctx.lineWidth = Math.max(st === EDGE_BACKWARD ? 2.2 : 1.3, px);
      ctx.setLineDash(kind === EDGE_INPUT ? [5, 4] : kind === EDGE_NOGRAD ? [2, 3] : []);
      ctx.beginPath();
      for (const e of edges) this.tracePath(layout, e);
      ctx.stroke();
      if (arrows) {
        ctx.setLineDash([]);
        ctx.beginPath();
        for (const e of edges) this.traceArrow(input, e);
        ctx.fill();
      }
    }
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
  }

  private tracePath(layout: LayoutResult, e: number): void {
    const { ctx } = this;
    const a = layout.ptStart[e]!;
    const b = layout.ptStart[e + 1]!;
    const p = layout.pts;
    ctx.moveTo(p[2 * a]!, p[2 * a + 1]!);
    if (b - a === 2) {
      ctx.lineTo(p[2 * a + 2]!, p[2 * a + 3]!);
      return;
    }
    for (let i = a + 1; i < b - 1; i++) {
      const mx = (p[2 * i]! + p[2 * i + 2]!) / 2;
      const my = (p[2 * i + 1]! + p[2 * i + 3]!) / 2;
      ctx.quadraticCurveTo(p[2 * i]!, p[2 * i + 1]!, mx, my);
    }
    ctx.lineTo(p[2 * (b - 1)]!, p[2 * (b - 1) + 1]!);
  }

  /** An arrowhead where the edge meets its target's box. */
  private traceArrow(input: DrawInput, e: number): void {
    const { layout, graph, labels } = input;
    const b = layout.ptStart[e + 1]! - 1;
    const p = layout.pts;
    const tx = p[2 * b]!;
    const ty = p[2 * b + 1]!;
    const fx = p[2 * b - 2]!;
    const fy = p[2 * b - 1]!;
    const target = graph.edgeTarget[e]!;
    const hw = labels.width[target]! / 2;
    const hh = (graph.kind[target] === KIND_FUNCTION ? FUNCTION_HEIGHT : NODE_HEIGHT) / 2;
    const dx = tx - fx;
    const dy = ty - fy;
    const len = Math.hypot(dx, dy) || 1;
    // Distance from the centre to the box border along the edge's last segment.
    const s = Math.min(dx === 0 ? Infinity : hw / Math.abs(dx), dy === 0 ? Infinity : hh / Math.abs(dy));
    const ex = tx - dx * s;
    const ey = ty - dy * s;
    const ux = dx / len;
    const uy = dy / len;
    const size = 7;
    this.ctx.moveTo(ex, ey);
    this.ctx.lineTo(ex - ux * size - uy * size * 0.55, ey - uy * size + ux * size * 0.55);
    this.ctx.lineTo(ex - ux * size + uy * size * 0.55, ey - uy * size - ux * size * 0.55);
    this.ctx.closePath();
  }

  private drawNodes(input: DrawInput, visible: (i: number) => boolean): void {
    const { ctx } = this;
    const { graph, layout, labels, scene, palette, transform, highlights } = input;
    const k = transform.k;
    const px = 1 / k;
    const showText = k >= ZOOM.text;
    const showDetail = k >= ZOOM.detail;
    for (let i = 0; i < graph.n; i++) {
      if (!visible(i)) continue;
      const fn = graph.kind[i] === KIND_FUNCTION;
      const w = labels.width[i]!;
      const h = fn ? FUNCTION_HEIGHT : NODE_HEIGHT;
      const x = layout.x[i]! - w / 2;
      const y = layout.y[i]! - h / 2;
      const role = graph.role[i]!;
      const state = scene.nodeState[i]!;
      // Freed by torch: an empty box with a dotted muted border (what it held is gone).
      const freed = scene.freed[i] === 1;
      ctx.globalAlpha = state === NODE_PENDING ? 0.28 : 1;
      ctx.beginPath();
      ctx.roundRect(x, y, w, h, fn ? h / 2 : 7);
      ctx.fillStyle = freed ? palette.background : palette.fills[role]!;
      ctx.fill();
      ctx.strokeStyle = freed ? palette.muted : palette.roles[role]!;
      ctx.lineWidth = Math.max(state === NODE_GRADIENT ? 2.5 : 1.6, px);
      ctx.setLineDash(state === NODE_PENDING ? [4, 3] : freed ? [2, 3] : []);
      ctx.stroke();
      if (state === NODE_GRADIENT && !fn) {
        // A gradient has arrived: a band along the bottom in the gradient colour.
        ctx.fillStyle = palette.edgeBackward;
        ctx.fillRect(x + 6, y + h - 4, w - 12, 2.5);
      }
      if (showText && state !== NODE_PENDING) this.drawLabel(input, i, x, y, w, showDetail);
      else if (k >= ZOOM.ghostText) {
        ctx.globalAlpha = 0.55;
        this.drawLabel(input, i, x, y, w, false);
      }
    }
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
    // Rings: linked (source hover), selected, hovered, current.
    const ring = (i: number, colour: string, width: number, pad: number, dash: number[] = []) => {
      if (i < 0) return;
      const fn = graph.kind[i] === KIND_FUNCTION;
      const w = labels.width[i]! + pad * 2;
      const h = (fn ? FUNCTION_HEIGHT : NODE_HEIGHT) + pad * 2;
      ctx.beginPath();
      ctx.roundRect(layout.x[i]! - w / 2, layout.y[i]! - h / 2, w, h, fn ? h / 2 : 9);
      ctx.strokeStyle = colour;
      ctx.lineWidth = Math.max(width, width * px * 0.8);
      ctx.setLineDash(dash);
      ctx.stroke();
    };
    if (highlights.linked) for (let i = 0; i < graph.n; i++) if (highlights.linked[i]) ring(i, palette.linked, 3, 4);
    ring(highlights.selected, palette.text, 2, 6, [6, 4]);
    ring(highlights.hovered, palette.muted, 2, 4);
    if (scene.current >= 0) ring(scene.current, scene.phase === 'backward' ? palette.edgeBackward : palette.current, 3.5, 5);
    ctx.setLineDash([]);
  }

  /** The node's texts where labelItems puts them (the tests read the same items); `full` false: the title only. */
  private drawLabel(input: DrawInput, i: number, x: number, y: number, w: number, full: boolean): void {
    const { ctx } = this;
    const { palette, graph, labels } = input;
    const grad = full && graph.kind[i] !== KIND_FUNCTION ? gradLabel(input.gradText(i)) : '';
    ctx.font = FONTS.value;
    const gradW = grad ? ctx.measureText(grad).width : 0;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    const v = full ? input.valueText?.(i) : undefined;
    ctx.font = FONTS.value;
    const valueNow = v === undefined ? undefined : { text: v, w: ctx.measureText(v).width };
    for (const item of labelItems(graph, labels, i, w, grad, gradW, full, valueNow)) {
      ctx.font = item.font;
      ctx.fillStyle = item.text === grad ? palette.gradientText : item.font === FONTS.detail ? palette.muted : palette.text;
      // Boxes are sized for their texts; fit() only guards against a font that measures wider here.
      ctx.fillText(fit(ctx, item.text, w - item.x - 4), x + item.x, y + item.y);
    }
  }

  private drawPulses(input: DrawInput): void {
    if (input.pulses.length === 0) return;
    const { ctx } = this;
    const { layout, palette, transform } = input;
    this.ensureLengths(layout);
    const r = Math.max(4.5, 3 / transform.k);
    for (const pulse of input.pulses) {
      const [x, y] = this.pointAt(layout, pulse.edge, pulse.at);
      ctx.beginPath();
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.fillStyle = pulse.backward ? palette.pulseBackward : palette.pulseForward;
      ctx.fill();
      ctx.lineWidth = Math.max(1.5, 1 / transform.k);
      ctx.strokeStyle = palette.background;
      ctx.stroke();
    }
  }

  private ensureLengths(layout: LayoutResult): void {
    if (this.lengthsFor === layout && this.lengths) return;
    const m = layout.ptStart.length - 1;
    const lengths = new Float32Array(m);
    const p = layout.pts;
    for (let e = 0; e < m; e++) {
      let sum = 0;
      for (let i = layout.ptStart[e]!; i < layout.ptStart[e + 1]! - 1; i++)
        sum += Math.hypot(p[2 * i + 2]! - p[2 * i]!, p[2 * i + 3]! - p[2 * i + 1]!);
      lengths[e] = sum;
    }
    this.lengths = lengths;
    this.lengthsFor = layout;
  }

  /** The point at fraction `at` of edge e's polyline, by length. */
  private pointAt(layout: LayoutResult, e: number, at: number): [number, number] {
    const p = layout.pts;
    let remaining = Math.max(0, Math.min(1, at)) * this.lengths![e]!;
    const a = layout.ptStart[e]!;
    const b = layout.ptStart[e + 1]!;
    for (let i = a; i < b - 1; i++) {
      const dx = p[2 * i + 2]! - p[2 * i]!;
      const dy = p[2 * i + 3]! - p[2 * i + 1]!;
      const len = Math.hypot(dx, dy);
      if (remaining <= len || i === b - 2) {
        const f = len === 0 ? 0 : Math.min(1, remaining / len);
        return [p[2 * i]! + dx * f, p[2 * i + 1]! + dy * f];
      }
      remaining -= len;
    }
    return [p[2 * a]!, p[2 * a + 1]!];
  }
}

/** `text`, cut with an ellipsis to fit `max` pixels in the current font. */
function fit(ctx: CanvasRenderingContext2D, text: string, max: number): string {
  if (max <= 0) return '';
  if (ctx.measureText(text).width <= max) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(text.slice(0, mid) + '…').width <= max) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : text.slice(0, lo) + '…';
}
