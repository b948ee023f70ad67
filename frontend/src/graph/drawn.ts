// What the renderer draws for each node, as rectangles: the browser tests read it (through
// GraphView's test hook) and the unit tests check boxes hold their texts.
import type { LayoutResult } from './geometry';
import { KIND_FUNCTION, type GraphIndex } from '../model/graphIndex';
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
import { NODE_PENDING, type SceneState } from '../model/scene';
import { nodeTags, type Marks } from './tags';
import { errorCallout, nodeBoxes } from './backwardMarks';

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
