// Sizes shared by the layout (worker) and the drawing (main thread), kept apart from
// layout.ts so the main bundle does not pull in d3-dag.
export const NODE_HEIGHT = 46;
export const FUNCTION_HEIGHT = 28;
export const LAYER_GAP = 34;
export const NODE_GAP = 18;
/** Room above a box for its row of tags (labels.ts draws them there). */
export const TAG_ROOM = 20;

export type Orientation = 'TB' | 'LR';

export interface LayoutResult {
  /** Node centres. */
  x: Float32Array;
  y: Float32Array;
  width: number;
  height: number;
  /** Edge polylines, CSR: edge e's points are pts[2*ptStart[e] ..] (x, y pairs). */
  ptStart: Int32Array;
  pts: Float32Array;
  ms: number;
}
