// Formatting tensors and numbers for labels, the inspector and the accessible list.
import { isFloatValues, nestValues } from '../api/binaryTrace';
import type { JsonNumber, TensorData } from '../api/types';

/** A JSON number as a JS number: "nan", "inf", "-inf" become NaN and ±Infinity. */
export function toNumber(x: JsonNumber | null | undefined): number {
  if (typeof x === 'number') return x;
  if (typeof x === 'boolean') return x ? 1 : 0;
  if (x === 'inf' || x === '+inf' || x === 'Infinity') return Infinity;
  if (x === '-inf' || x === '-Infinity') return -Infinity;
  if (typeof x === 'string') {
    const n = Number(x);
    return x.trim() === '' ? NaN : n;
  }
  return NaN;
}

/** One number, short and readable: 4, -0.5, 0.3333, 1.2e-5, nan, inf, True. */
export function formatNumber(x: JsonNumber | null | undefined, digits = 4): string {
  if (x === null || x === undefined) return '—';
  if (typeof x === 'boolean') return x ? 'True' : 'False';
  const v = toNumber(x);
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Object.is(v, -0)) return '-0';
  if (Number.isInteger(v) && Math.abs(v) < 1e7) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e7)) {
    const [m, e] = v.toExponential(Math.max(0, digits - 1)).split('e');
    return `${trimZeros(m ?? '')}e${e}`;
  }
  return trimZeros(v.toPrecision(digits));
}

function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** A shape as people write it: "scalar", "3", "2×3". */
export function formatShape(shape: readonly number[]): string {
  return shape.length === 0 ? 'scalar' : shape.join('×');
}

/** Every element of a nested list (or of a binary trace's flat array), in row-major order. */
export function flatten(values: unknown): JsonNumber[] {
  if (isFloatValues(values)) return Array.from(values);
  const out: JsonNumber[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const item of v) walk(item);
    else out.push(v as JsonNumber);
  };
  walk(values);
  return out;
}

/** A tensor's values as nested lists, whichever form the trace carried them in. */
function nestedValues(t: TensorData): unknown {
  return isFloatValues(t.values) ? nestValues(t.values, t.shape) : t.values;
}

/** The elements the trace carries: all of them, or the preview of a large tensor. */
export function knownValues(t: TensorData): { values: JsonNumber[]; complete: boolean } {
  if (t.values !== null && t.values !== undefined) return { values: flatten(t.values), complete: true };
  return { values: t.preview ?? [], complete: false };
}

/** The single value of a one-element tensor, or null. */
export function scalarOf(t: TensorData): JsonNumber | null {
  if (t.numel !== 1) return null;
  const { values } = knownValues(t);
  return values.length === 1 ? (values[0] as JsonNumber) : null;
}

function nested(values: unknown, digits: number): string {
  if (Array.isArray(values)) return `[${values.map((v) => nested(v, digits)).join(', ')}]`;
  return formatNumber(values as JsonNumber, digits);
}

/**
 * A tensor in one line. Scalars read as their number ("4"); up to `maxInline`
 * elements as nested lists ("[[1, 2], [3, 4]]"); larger ones by shape and stats.
 */
export function formatTensor(t: TensorData | null | undefined, maxInline = 8, digits = 4): string {
  if (t === null || t === undefined) return 'None';
  const s = scalarOf(t);
  if (s !== null && t.shape.length === 0) return formatNumber(s, digits);
  if (t.values !== null && t.values !== undefined && t.numel <= maxInline) return nested(nestedValues(t), digits);
  return `${formatShape(t.shape)} ${statsLine(t, 3)}`.trim();
}

/** "mean 0.1 · std 1 · min -2 · max 3" (with nan/inf counts when there are any). */
export function statsLine(t: TensorData, digits = 3): string {
  const st = t.stats;
  if (!st) return '';
  const parts = [
    `mean ${formatNumber(st.mean, digits)}`,
    `std ${formatNumber(st.std, digits)}`,
    `min ${formatNumber(st.min, digits)}`,
    `max ${formatNumber(st.max, digits)}`,
  ];
  if (st.nan) parts.push(`${st.nan} nan`);
  if (st.inf) parts.push(`${st.inf} inf`);
  return parts.join(' · ');
}

/**
 * A tensor in a few characters, for a node box: a scalar to 4 significant digits
 * ("0.009123"), up to `inline` elements as a flat list ("[1.2, -0.5, 3]"), more as
 * the first two and the count ("[1.2, -0.5, … ×10]"). Its length is bounded, so a
 * box sized for it stays small; the box's detail says the shape.
 */
export function formatCompact(t: TensorData | null | undefined, inline = 3): string {
  if (!t) return '';
  if (t.numel === 1) {
    const s = scalarOf(t);
    return s === null ? '' : formatNumber(s, 4);
  }
  if (t.numel === 0) return '[]';
  const { values, complete } = knownValues(t);
  if (complete && t.numel <= inline) return `[${values.map((v) => formatNumber(v, 3)).join(', ')}]`;
  const head = values.slice(0, 2).map((v) => formatNumber(v, 3));
  return head.length ? `[${head.join(', ')}, … ×${t.numel}]` : `… ×${t.numel}`;
}

export type TensorView =
  | { kind: 'none' }
  | { kind: 'scalar'; text: string }
  | { kind: 'table'; rows: string[][]; complete: boolean }
  | { kind: 'heatmap'; rows: number; cols: number; cells: Float64Array; min: number; max: number }
  | { kind: 'summary'; text: string; preview: string };

/**
 * How the inspector shows a tensor: a number; a small table (vectors and matrices
 * of at most 8 rows and `maxTable` elements); a heatmap for larger 2-D tensors;
 * otherwise stats and a preview.
 */
export function tensorView(t: TensorData | null | undefined, maxTable = 64): TensorView {
  if (!t) return { kind: 'none' };
  if (t.numel === 1) return { kind: 'scalar', text: formatNumber(scalarOf(t), 6) };
  const complete = t.values !== null && t.values !== undefined;
  const rowCount = t.shape.length === 2 ? t.shape[0]! : 1;
  if (complete && t.shape.length <= 2 && t.numel <= maxTable && rowCount <= 8) {
    const values = nestedValues(t);
    const rows = t.shape.length === 2 ? (values as unknown[][]) : [values as unknown[]];
    return { kind: 'table', rows: rows.map((r) => r.map((v) => formatNumber(v as JsonNumber, 4))), complete: true };
  }
  if (complete && t.shape.length === 2) {
    const [rows, cols] = t.shape as [number, number];
    const flat = flatten(t.values);
    const cells = new Float64Array(flat.length);
    let min = Infinity;
    let max = -Infinity;
    flat.forEach((v, i) => {
      const n = toNumber(v);
      cells[i] = n;
      if (Number.isFinite(n)) {
        if (n < min) min = n;
        if (n > max) max = n;
      }
    });
    if (min > max) min = max = 0;
    return { kind: 'heatmap', rows, cols, cells, min, max };
  }
  const { values } = knownValues(t);
  const shown = values.slice(0, 12).map((v) => formatNumber(v, 4));
  const more = t.numel > shown.length ? ', …' : '';
  return { kind: 'summary', text: `${formatShape(t.shape)} · ${statsLine(t)}`, preview: `[${shown.join(', ')}${more}]` };
}

/** Every element the trace carries of `t`, as numbers, when it carries them all; else []. */
export function flatNumbers(t: TensorData): number[] {
  const { values, complete } = knownValues(t);
  return complete ? values.map((v) => toNumber(v)) : [];
}
