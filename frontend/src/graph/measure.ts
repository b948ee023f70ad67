// Text measuring for box sizes: one offscreen 2D context, fonts as the canvas draws them.
import type { Measure } from './labels';

let ctx: CanvasRenderingContext2D | null = null;

/** Width of `text` in `font` as the canvas will draw it (an estimate where there is no canvas). */
export const canvasMeasure: Measure = (text, font) => {
  ctx ??= typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null;
  if (!ctx) return text.length * 0.62 * (Number(/(\d+)px/.exec(font)?.[1]) || 12);
  ctx.font = font;
  return ctx.measureText(text).width;
};
