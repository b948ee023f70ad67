// What a backward pass leaves on the graph beyond gradients: the saved tensors torch
// freed (a pass without retain_graph=True) and the error a later pass raised at the
// Function it could not run, with torch's own words in a callout under that node.
import { TAG_ROOM, type LayoutResult } from './geometry';
import type { GraphIndex } from '../model/graphIndex';
import { FONTS, LABEL_PX, boxHeight, type Measure, type NodeLabels } from './labels';
import type { SceneState } from '../model/scene';

export const FREED_TAG = 'freed';

export function errorTag(type: string): string {
  return `✗ ${type}`;
}

/**
 * The first sentence of torch's message, less a parenthesis closing it: what the callout
 * on the graph shows (the whole message is in the inspector and the error pane).
 */
export function firstSentence(message: string): string {
  const m = /^(.+?[.!?])(\s|$)/s.exec(message.trim());
  const sentence = (m ? m[1]! : message).trim();
  return sentence.replace(/\s*\([^()]*\)([.!?])$/, '$1');
}

/** Callout geometry, in layout units. */
export const CALLOUT_MAX_W = 300;
const CALLOUT_MIN_W = 120;
export const CALLOUT_PAD = 8;
export const CALLOUT_LINE = LABEL_PX + 5;
export const CALLOUT_GAP = 10;
const CALLOUT_LINES = 4;

export interface Callout {
  lines: string[];
  /** Its top-left corner relative to the node's centre: beside the box. */
  x: number;
  y: number;
  w: number;
  h: number;
}

/** `text` wrapped into lines at most `max` wide (words kept whole unless one is wider). */
export function wrap(text: string, max: number, measure: (s: string) => number, maxLines = CALLOUT_LINES): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (measure(next) <= max || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    let last = kept[maxLines - 1]!;
    while (last && measure(`${last}…`) > max) last = last.slice(0, -1);
    kept[maxLines - 1] = `${last}…`;
    return kept;
  }
  return lines;
}

/** A node's box in layout units (its tag row included), for keeping the callout off it. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Every node's box in layout units, its tag row above it included. */
export function nodeBoxes(graph: GraphIndex, layout: LayoutResult, labels: NodeLabels): Box[] {
  const boxes: Box[] = [];
  for (let j = 0; j < graph.n; j++) {
    const w = labels.width[j]!;
    const h = boxHeight(graph, j);
    boxes.push({ x: layout.x[j]! - w / 2, y: layout.y[j]! - h / 2 - TAG_ROOM, w, h: h + TAG_ROOM });
  }
  return boxes;
}

/**
 * The callout by failing node `i`: torch's first sentence, wrapped. Beside it where the
 * view has room (`view`: the visible x range in layout units; the whole layout when not
 * given), on the roomier side first, narrower and taller if need be; else under or over
 * it. Of these, the first that covers no node box (`boxes`, node `i`'s own included),
 * or the one covering least; always inside the view across, so no word is cut.
 */
export function errorCallout(
  type: string,
  message: string,
  measure: Measure,
  layout: LayoutResult,
  boxW: number,
  i: number,
  view?: [number, number],
  boxes: readonly Box[] = [],
  boxH = LABEL_PX * 2,
): Callout {
  const [x0, x1] = view ?? [0, layout.width];
  const m = (s: string) => measure(s, FONTS.detail);
  const text = `${type}: ${firstSentence(message)}`;
  const cx = layout.x[i]!;
  const cy = layout.y[i]!;
  const shape = (maxW: number) => {
    const lines = wrap(text, maxW - 2 * CALLOUT_PAD, m, maxW < CALLOUT_MAX_W ? 2 * CALLOUT_LINES : CALLOUT_LINES);
    return { lines, w: Math.ceil(Math.max(...lines.map(m)) + 2 * CALLOUT_PAD), h: lines.length * CALLOUT_LINE + CALLOUT_PAD };
  };
  const left = cx - boxW / 2 - x0 - CALLOUT_GAP;
  const right = x1 - (cx + boxW / 2) - CALLOUT_GAP;
  const candidates: Callout[] = [];
  const beside = (room: number, side: 1 | -1) => {
    if (room < CALLOUT_MIN_W) return;
    const s = shape(Math.min(CALLOUT_MAX_W, room));
    const x = side > 0 ? boxW / 2 + CALLOUT_GAP : -boxW / 2 - CALLOUT_GAP - s.w;
    // Level with the node's middle, else with its top or its bottom edge.
    for (const y of [-s.h / 2, -boxH / 2, boxH / 2 - s.h]) candidates.push({ ...s, x, y });
  };
  beside(Math.max(left, right), right >= left ? 1 : -1);
  beside(Math.min(left, right), right >= left ? -1 : 1);
  const across = shape(Math.max(CALLOUT_MIN_W, Math.min(CALLOUT_MAX_W, x1 - x0)));
  const centred = Math.max(x0 - cx, Math.min(-across.w / 2, x1 - cx - across.w));
  candidates.push({ ...across, x: centred, y: boxH / 2 + CALLOUT_GAP });
  candidates.push({ ...across, x: centred, y: -boxH / 2 - TAG_ROOM - CALLOUT_GAP - across.h });
  for (const c of candidates) c.x = Math.max(x0 - cx, Math.min(c.x, x1 - cx - c.w));
  const own = boxes[i];
  let best = candidates[0]!;
  let bestCover = Infinity;
  for (const c of candidates) {
    const r = { x: cx + c.x, y: cy + c.y, w: c.w, h: c.h };
    // Covering the failing node itself is worst: it is what the callout is about.
    const cover = covered(r, boxes) + (own ? 1e9 * covered(r, [own]) : 0);
    if (cover < bestCover) [best, bestCover] = [c, cover];
    if (cover === 0) break;
  }
  return best;
}

/** The area of node boxes that rect `r` covers. */
function covered(r: Box, boxes: readonly Box[]): number {
  let area = 0;
  for (const b of boxes) {
    const w = Math.min(r.x + r.w, b.x + b.w) - Math.max(r.x, b.x);
    const h = Math.min(r.y + r.h, b.y + b.h) - Math.max(r.y, b.y);
    if (w > 0 && h > 0) area += w * h;
  }
  return area;
}

/** Words for what torch freed of node `i` (the inspector and the hover), '' if nothing. */
export function freedWords(g: GraphIndex, i: number, cursor: number): string {
  const at = g.freedAt[i]!;
  if (at < 0 || at >= cursor) return '';
  const step = at + 1;
  return g.nodes[i]!.kind === 'function'
    ? `Its saved tensors were freed at step ${step}, when a backward pass ended without retain_graph=True: a second backward through it fails.`
    : `Freed at step ${step}: no Function holds it for backward any more (the pass ended without retain_graph=True).`;
}

/** What torch freed of node `i` and the error a pass raised in it, as of `scene` ('' if neither). */
export function backwardWords(g: GraphIndex, scene: Pick<SceneState, 'cursor' | 'error'>, i: number): string {
  const words = [freedWords(g, i, scene.cursor)];
  if (scene.error?.node === i) words.push(`backward raised ${scene.error.type} here: ${scene.error.message}`);
  return words.filter(Boolean).join(' ');
}
