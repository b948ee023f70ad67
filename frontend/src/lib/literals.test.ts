import { describe, expect, it } from 'vitest';
import { literalIn, offsetOf, rewrite, sliderRange } from './literals';

const source = 'import torch\n\nx = torch.tensor(3.0, requires_grad=True)\ny = x * 2\n';
const span = { line: 3, col: 4, end_line: 3, end_col: 41 };

describe('live slider literals', () => {
  it('finds the literal of a scalar leaf, not keyword values', () => {
    expect(offsetOf(source, 3, 4)).toBe(18);
    const lit = literalIn(source, span)!;
    expect(lit.value).toBe(3);
    expect(lit.float).toBe(true);
    expect(source.slice(lit.start, lit.end)).toBe('3.0');
    expect(literalIn('a = torch.tensor([1.0, 2.0])', { line: 1, col: 4, end_line: 1, end_col: 28 })).toBeNull();
    expect(literalIn('a = torch.tensor(-2, dtype=torch.float32)', { line: 1, col: 4, end_line: 1, end_col: 41 })!.value).toBe(-2);
  });
  it('rewrites it in place, keeping floats floats', () => {
    const lit = literalIn(source, span)!;
    const a = rewrite(source, lit, 4);
    expect(a.source).toContain('torch.tensor(4.0, requires_grad=True)');
    const b = rewrite(a.source, a.literal, -1.25);
    expect(b.source).toContain('torch.tensor(-1.25, requires_grad=True)');
    expect(b.source.split('\n')[3]).toBe('y = x * 2');
  });
  it('gives a range around the value', () => {
    expect(sliderRange(3)).toEqual({ min: -12, max: 18, step: 0.1 });
    expect(sliderRange(0).min).toBe(-5);
  });
});

describe('sliders only on scalar tensor literals', () => {
  const at = (text: string) => literalIn(text, { line: 1, col: 0, end_line: 1, end_col: text.length });
  it('finds the number of torch.tensor(3.0, ...) and tensor(3.0)', () => {
    expect(at('torch.tensor(3.0, requires_grad=True)')!.value).toBe(3);
    expect(at('tensor(-1.5e-2)')!.value).toBe(-0.015);
    expect(at('torch.tensor(2.0).requires_grad_()')!.value).toBe(2);
  });
  it('leaves subscripts, lists and expressions alone', () => {
    expect(at('w[0]')).toBeNull();
    expect(at('2 * x * w[0]')).toBeNull();
    expect(at('torch.tensor([1.0, 2.0])')).toBeNull();
    expect(at('torch.ones(3)')).toBeNull();
    expect(at('torch.tensor(x + 1.0)')).toBeNull();
  });
});
