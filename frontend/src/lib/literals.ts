// Live sliders: the number of the scalar tensor literal that made a leaf, found in
// the leaf's source span, and the source with that number rewritten.
import type { Span } from '../api/types';

export interface Literal {
  /** Character offsets of the literal in the source. */
  start: number;
  end: number;
  value: number;
  /** Whether it was written as a float (3.0), so rewrites stay floats. */
  float: boolean;
}

/** Offset of (line, col) in `source` (1-based line, 0-based column). */
export function offsetOf(source: string, line: number, col: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = source.indexOf('\n', offset);
    if (nl < 0) return source.length;
    offset = nl + 1;
  }
  return offset + col;
}

const NUMBER = '-?(?:\\d+\\.\\d*|\\.\\d+|\\d+)(?:[eE][-+]?\\d+)?';
/** A scalar tensor literal: torch.tensor(3.0, ...) (or tensor(3.0) after `from torch import tensor`). */
const SCALAR_TENSOR = new RegExp(`^\\s*(?:torch\\.)?tensor\\(\\s*(${NUMBER})\\s*[,)]`);

/**
 * The number of a scalar tensor literal spanning `span`, e.g. the 3.0 of
 * torch.tensor(3.0, requires_grad=True); null for anything else (a subscript
 * like w[0], a list, an expression), which a slider must not rewrite.
 */
export function literalIn(source: string, span: Span | null | undefined): Literal | null {
  if (!span) return null;
  const start = offsetOf(source, span.line, span.col);
  const end = offsetOf(source, span.end_line, span.end_col);
  const text = source.slice(start, end);
  const m = SCALAR_TENSOR.exec(text);
  if (!m) return null;
  const at = start + m.index + m[0].indexOf(m[1]!, m[0].indexOf('(') + 1);
  return { start: at, end: at + m[1]!.length, value: Number(m[1]), float: /[.eE]/.test(m[1]!) };
}

/** The number as a Python literal: shortest form, a float stays a float. */
export function formatLiteral(value: number, float: boolean): string {
  let s = String(Math.round(value * 1e6) / 1e6);
  if (float && !/[.eE]/.test(s)) s += '.0';
  return s;
}

export function rewrite(source: string, literal: Literal, value: number): { source: string; literal: Literal } {
  const text = formatLiteral(value, literal.float);
  return {
    source: source.slice(0, literal.start) + text + source.slice(literal.end),
    literal: { ...literal, end: literal.start + text.length, value },
  };
}

/** A slider range around the literal's first value. */
export function sliderRange(value: number): { min: number; max: number; step: number } {
  const scale = Math.max(1, Math.abs(value));
  const span = 5 * scale;
  const step = scale >= 10 ? 1 : scale >= 1 ? 0.1 : 0.01;
  const round = (x: number) => Math.round(x / step) * step;
  return { min: round(value - span), max: round(value + span), step };
}
