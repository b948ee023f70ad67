// The text on each node and the box that holds it, computed once per trace from
// measured text: tensor nodes show their name and shape, their value and (during
// backward) their gradient; Function nodes show their op. A box is as wide as the
// widest thing it will ever show, gradients of every step included, so the layout
// (which reads these widths) never lets two boxes overlap and nothing is cut.
import type { Trace } from '../api/types';
import { formatCompact, formatShape } from '../lib/format';
import { FUNCTION_HEIGHT, NODE_HEIGHT, TAG_ROOM } from './geometry';
import { KIND_FUNCTION, type GraphIndex } from '../model/graphIndex';
import { historyOf } from '../model/leafState';

/** Every text on a node is this size in layout units (at zoom 1, CSS px). */
export const LABEL_PX = 12;
export const FONTS = {
  title: `600 ${LABEL_PX}px system-ui, sans-serif`,
  detail: `${LABEL_PX}px system-ui, sans-serif`,
  value: `${LABEL_PX}px ui-monospace, SFMono-Regular, Menlo, 'DejaVu Sans Mono', monospace`,
  tag: `700 ${LABEL_PX}px system-ui, sans-serif`,
} as const;

/** Zoom levels below which parts of the labels are left out (too small to read). */
export const ZOOM = { text: 0.3, detail: 0.55, ghostText: 0.5, tags: 0.45 } as const;

/** Inner padding of a box, and the gap between two texts on one row. */
export const PAD = 8;
export const GAP = 12;
/** Function boxes are pills: their round ends need more room. */
const PILL_PAD = 14;
const MIN_TENSOR = 64;
const MIN_FUNCTION = 56;
/** Tags (badges) sit in a row above the box: their height, padding, spacing and rise. */
export const TAG_H = 16;
const TAG_PAD = 5;
const TAG_GAP = 3;
export const TAG_RISE = TAG_ROOM - 2;
/** Text rows of a tensor box (middle lines, from the box's top). */
const ROW1 = 14;
const ROW2 = 32;

/** Width of `text` in `font`, in CSS px (a canvas's measureText, or a stand-in in tests). */
export type Measure = (text: string, font: string) => number;

export interface NodeLabels {
  title: string[];
  detail: string[];
  value: string[];
  /** Measured widths of title, detail and value. */
  titleW: Float32Array;
  detailW: Float32Array;
  valueW: Float32Array;
  /** Box width in layout units. */
  width: Float32Array;
}

/** A text as drawn: left edge and middle line relative to the box's top-left corner. */
export interface TextItem {
  text: string;
  font: string;
  x: number;
  y: number;
  w: number;
}

export interface LabelOptions {
  /** The trace the graph was built from: its backward events give every gradient shown. */
  trace?: Pick<Trace, 'timeline' | 'passes'>;
  /** Tags a node may show above it (badges, "hook fired"): the box is made wide enough for them. */
  tags?: (node: number) => string[];
}

/** The gradient text of a node box. */
export function gradLabel(grad: string): string {
  return grad ? `∇ ${grad}` : '';
}

export function nodeLabels(g: GraphIndex, measure: Measure, options: LabelOptions = {}): NodeLabels {
  const title: string[] = [];
  const detail: string[] = [];
  const value: string[] = [];
  const titleW = new Float32Array(g.n);
  const detailW = new Float32Array(g.n);
  const valueW = new Float32Array(g.n);
  const width = new Float32Array(g.n);
  // The widest gradient each tensor node will show, over all backward events.
  const gradW = new Float32Array(g.n);
  // And the widest value: a parameter an optimizer updates shows its values of each step.
  const valueMaxW = new Float32Array(g.n);
  const timeline = options.trace?.timeline ?? [];
  const history = options.trace ? historyOf(options.trace, g) : null;
  for (let i = 0; i < g.n; i++) {
    if (g.kind[i] === KIND_FUNCTION) continue;
    for (let q = g.bwdStart[i]!; q < g.bwdStart[i + 1]!; q++) {
      const e = timeline[g.bwdEvents[q]!];
      if (!e || e.phase !== 'backward' || e.node_kind !== 'tensor') continue;
      gradW[i] = Math.max(gradW[i]!, measure(gradLabel(formatCompact(e.grad) || '✓'), FONTS.value));
    }
    const shown = history?.shown(i);
    for (const x of shown?.grads ?? []) gradW[i] = Math.max(gradW[i]!, measure(gradLabel(formatCompact(x) || '✓'), FONTS.value));
    for (const x of shown?.values ?? []) valueMaxW[i] = Math.max(valueMaxW[i]!, measure(formatCompact(x), FONTS.value));
  }
  for (let i = 0; i < g.n; i++) {
    const node = g.nodes[i]!;
    if (node.kind === 'function') {
      title.push(node.op);
      detail.push(node.custom ? 'custom Function' : '');
      value.push('');
    } else {
      title.push(g.title(i));
      detail.push(`${formatShape(node.shape)}${node.dtype !== 'float32' ? ' ' + node.dtype : ''}`);
      value.push(formatCompact(node.value));
    }
    titleW[i] = measure(title[i]!, FONTS.title);
    detailW[i] = detail[i] ? measure(detail[i]!, FONTS.detail) : 0;
    valueW[i] = value[i] ? measure(value[i]!, FONTS.value) : 0;
    const tags = options.tags?.(i) ?? [];
    const tagsW = tags.reduce((sum, t, j) => sum + tagWidth(measure(t, FONTS.tag)) + (j ? TAG_GAP : 0), 0);
    let w: number;
    if (g.kind[i] === KIND_FUNCTION) {
      w = Math.max(MIN_FUNCTION, 2 * PILL_PAD + titleW[i]!);
    } else {
      const row1 = titleW[i]! + (detailW[i]! ? GAP + detailW[i]! : 0);
      const vw = Math.max(valueW[i]!, valueMaxW[i]!);
      const row2 = vw + (vw && gradW[i]! ? GAP : 0) + gradW[i]!;
      w = Math.max(MIN_TENSOR, 2 * PAD + Math.max(row1, row2));
    }
    width[i] = Math.ceil(Math.max(w, tagsW));
  }
  return { title, detail, value, titleW, detailW, valueW, width };
}

/** Box height of node `i`. */
export function boxHeight(g: GraphIndex, i: number): number {
  return g.kind[i] === KIND_FUNCTION ? FUNCTION_HEIGHT : NODE_HEIGHT;
}

/**
 * The texts of node `i` and where they go in its box of width `w`: what the renderer
 * draws and what the browser tests check. `full` is false when zoomed out (title only).
 */
export function labelItems(
  g: GraphIndex,
  labels: NodeLabels,
  i: number,
  w: number,
  grad: string,
  gradW: number,
  full: boolean,
  /** The value as of this step, when it is not the node's first (an updated parameter). */
  valueNow?: { text: string; w: number },
): TextItem[] {
  const h = boxHeight(g, i);
  const title = labels.title[i]!;
  const tw = labels.titleW[i]!;
  if (g.kind[i] === KIND_FUNCTION || !full) return [{ text: title, font: FONTS.title, x: (w - tw) / 2, y: h / 2, w: tw }];
  const items: TextItem[] = [{ text: title, font: FONTS.title, x: PAD, y: ROW1, w: tw }];
  const d = labels.detail[i]!;
  if (d) items.push({ text: d, font: FONTS.detail, x: w - PAD - labels.detailW[i]!, y: ROW1, w: labels.detailW[i]! });
  const value = valueNow?.text ?? labels.value[i]!;
  if (value) items.push({ text: value, font: FONTS.value, x: PAD, y: ROW2, w: valueNow?.w ?? labels.valueW[i]! });
  if (grad) items.push({ text: grad, font: FONTS.value, x: w - PAD - gradW, y: ROW2, w: gradW });
  return items;
}

function tagWidth(textW: number): number {
  return textW + 2 * TAG_PAD;
}

/** A tag as drawn: its pill's left edge and width relative to the box, and its text. */
export interface TagItem {
  text: string;
  x: number;
  w: number;
  textW: number;
  /** Index into the tags given, or -1 for the "+N" of tags left out. */
  index: number;
}

/**
 * Tags right-aligned over a box of width `w`, never wider than it (so they cannot
 * run into a neighbour's): those that do not fit are counted in a "+N" tag.
 */
export function tagItems(tags: string[], w: number, measure: (text: string) => number): TagItem[] {
  const out: TagItem[] = [];
  let right = w;
  for (let j = tags.length - 1; j >= 0; j--) {
    const textW = measure(tags[j]!);
    const tw = tagWidth(textW);
    if (right - tw < 0) {
      const more = `+${j + 1}`;
      const mw = measure(more);
      if (right - tagWidth(mw) >= 0) out.push({ text: more, x: right - tagWidth(mw), w: tagWidth(mw), textW: mw, index: -1 });
      break;
    }
    out.push({ text: tags[j]!, x: right - tw, w: tw, textW, index: j });
    right -= tw + TAG_GAP;
  }
  return out.reverse();
}

/** The tag row's text middle line and pill padding, relative to the box's top. */
export const TAG_TEXT_Y = -TAG_RISE + TAG_H / 2;
export const TAG_TEXT_PAD = TAG_PAD;
