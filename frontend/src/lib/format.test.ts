import { describe, expect, it } from 'vitest';
import { td } from '../testing/traces';
import { flatten, formatCompact, formatNumber, formatShape, formatTensor, tensorView, toNumber } from './format';

describe('formatNumber', () => {
  it('writes integers plainly and floats to 4 significant digits', () => {
    expect(formatNumber(4)).toBe('4');
    expect(formatNumber(4.0)).toBe('4');
    expect(formatNumber(-0.5)).toBe('-0.5');
    expect(formatNumber(1 / 3)).toBe('0.3333');
    expect(formatNumber(4.5)).toBe('4.5');
    expect(formatNumber(123.456)).toBe('123.5');
  });
  it('uses exponents for very small and very large numbers', () => {
    expect(formatNumber(1.2e-5)).toBe('1.2e-5');
    expect(formatNumber(3.5e9)).toBe('3.5e+9');
    expect(formatNumber(0)).toBe('0');
  });
  it('reads non-finite numbers sent as strings, and booleans', () => {
    expect(formatNumber('nan')).toBe('nan');
    expect(formatNumber('inf')).toBe('inf');
    expect(formatNumber('-inf')).toBe('-inf');
    expect(toNumber('-inf')).toBe(-Infinity);
    expect(Number.isNaN(toNumber('nan'))).toBe(true);
    expect(formatNumber(true)).toBe('True');
    expect(formatNumber(null)).toBe('—');
  });
});

describe('tensors', () => {
  it('formats shapes', () => {
    expect(formatShape([])).toBe('scalar');
    expect(formatShape([10, 2])).toBe('10×2');
  });
  it('flattens nested lists in row-major order', () => {
    expect(
      flatten([
        [1, 2],
        [3, 4],
      ]),
    ).toEqual([1, 2, 3, 4]);
  });
  it('writes a scalar as its number, small tensors as lists, big ones by stats', () => {
    expect(formatTensor(td(4))).toBe('4');
    expect(formatTensor(td([[4.5, 4.5]], [1, 2]))).toBe('[[4.5, 4.5]]');
    expect(formatTensor(null)).toBe('None');
    const big = { ...td(null, [100, 13]), preview: [1, 2], stats: { min: -2, max: 3, mean: 0.1, std: 1, norm: 5, nan: 0, inf: 0 } };
    expect(formatTensor(big)).toBe('100×13 mean 0.1 · std 1 · min -2 · max 3');
  });
  it('chooses a number, a table, a heatmap or a summary', () => {
    expect(tensorView(td(2.5))).toEqual({ kind: 'scalar', text: '2.5' });
    const table = tensorView(
      td(
        [
          [1, 2],
          [3, 4],
        ],
        [2, 2],
      ),
    );
    expect(table).toEqual({
      kind: 'table',
      rows: [
        ['1', '2'],
        ['3', '4'],
      ],
      complete: true,
    });
    const column = tensorView(
      td(
        Array.from({ length: 32 }, (_, i) => [i]),
        [32, 1],
      ),
    );
    expect(column.kind).toBe('heatmap');
    const rows = Array.from({ length: 10 }, (_, i) => Array.from({ length: 10 }, (_, j) => i * 10 + j));
    const heat = tensorView(td(rows, [10, 10]));
    expect(heat.kind).toBe('heatmap');
    if (heat.kind === 'heatmap') {
      expect([heat.rows, heat.cols, heat.min, heat.max]).toEqual([10, 10, 0, 99]);
      expect(heat.cells[11]).toBe(11);
    }
    const big = { ...td(null, [5000]), preview: [1, 'nan'], stats: { min: 0, max: 1, mean: 0.5, std: 0.2, norm: 3, nan: 1, inf: 0 } };
    const summary = tensorView(big);
    expect(summary.kind).toBe('summary');
    if (summary.kind === 'summary') {
      expect(summary.preview).toBe('[1, nan, …]');
      expect(summary.text).toContain('1 nan');
    }
  });
});

describe('formatCompact (node boxes)', () => {
  it('writes scalars to 4 significant digits', () => {
    expect(formatCompact(td(10.912345))).toBe('10.91');
    expect(formatCompact(td(0.0091234))).toBe('0.009123');
    expect(formatCompact(td(19.8))).toBe('19.8');
    expect(formatCompact(td(-4))).toBe('-4');
    expect(formatCompact(td([[2.5]], [1, 1]))).toBe('2.5');
  });
  it('writes up to 3 elements as a flat list, more as two and a count', () => {
    expect(formatCompact(td([[0], [4.5]], [2, 1]))).toBe('[0, 4.5]');
    expect(formatCompact(td([1.23456, -0.5, 3], [3]))).toBe('[1.23, -0.5, 3]');
    expect(formatCompact(td([1.2, -0.5, 3, 4, 5, 6, 7, 8, 9, 10], [10]))).toBe('[1.2, -0.5, … ×10]');
    expect(formatCompact({ ...td(null, [1000]), values: null, preview: [0.25, 1] })).toBe('[0.25, 1, … ×1000]');
    expect(formatCompact(null)).toBe('');
  });
  it('stays short whatever the tensor', () => {
    const values = Array.from({ length: 4096 }, (_, i) => -123456.789 * (i + 1));
    expect(formatCompact(td(values, [64, 64])).length).toBeLessThanOrEqual(32);
  });
});
