// What a backward pass leaves on the graph beyond gradients: the saved tensors torch
// freed (a pass without retain_graph=True) and the error a later pass raised at the
// Function it could not run, with torch's own words in a callout under that node.
import type { LayoutResult } from './geometry';
import type { GraphIndex } from '../model/graphIndex';
import { FONTS, LABEL_PX, type Measure } from './labels';
import type { SceneState } from '../model/scene';

export const FREED_TAG = 'freed';

export function errorTag(type: string): string {
  return `✗ ${type}`;
}

/** The first sentence of torch's message: what the callout on the graph shows. */
export function firstSentence(message: string): string {
  const m = /^(.+?[.!?])(\s|$)/s.exec(message.trim());
  return (m ? m[1]! : message).trim();
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

/**
 * The callout beside failing node `i`: torch's first sentence, wrapped. Beside it, not
 * under (the ranks above and below are close), on the side with more room in view
 * (`view`: the visible x range in layout units; the whole layout when not given), and
 * kept inside that range, so its words are never cut by the canvas's edge.
 */
export function errorCallout(
  type: string,
  message: string,
  measure: Measure,
  layout: LayoutResult,
  boxW: number,
  i: number,
  view?: [number, number],
): Callout {
  const [x0, x1] = view ?? [0, layout.width];
  const m = (s: string) => measure(s, FONTS.detail);
  // As wide as the view allows, down to CALLOUT_MIN_W; narrower means more lines.
  const maxW = Math.max(CALLOUT_MIN_W, Math.min(CALLOUT_MAX_W, x1 - x0));
  const lines = wrap(
    `${type}: ${firstSentence(message)}`,
    maxW - 2 * CALLOUT_PAD,
    m,
    maxW < CALLOUT_MAX_W ? 2 * CALLOUT_LINES : CALLOUT_LINES,
  );
  const w = Math.ceil(Math.max(...lines.map(m)) + 2 * CALLOUT_PAD);
  const h = lines.length * CALLOUT_LINE + CALLOUT_PAD;
  const cx = layout.x[i]!;
  const left = cx - boxW / 2 - x0;
  const right = x1 - (cx + boxW / 2);
  let x = right >= left ? boxW / 2 + CALLOUT_GAP : -boxW / 2 - CALLOUT_GAP - w;
  x = Math.max(x0 - cx, Math.min(x, x1 - cx - w));
  return { lines, x, y: -h / 2, w, h };
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
