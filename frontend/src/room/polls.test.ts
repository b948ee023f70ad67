import { describe, expect, it } from 'vitest';
import { answerBars, answerValue, rightCount } from './polls';
import { qrPicture } from './qr';

describe('answerBars', () => {
  it('gives one bar per distinct answer when there are few, marking the true one', () => {
    expect(answerBars([4, -4, 4, 1, -4, -4], -4)).toEqual([
      { label: '-4', count: 3, right: true },
      { label: '1', count: 1, right: false },
      { label: '4', count: 2, right: false },
    ]);
    expect(rightCount([4, -4, -4.01, 1], -4)).toBe(2);
  });

  it('falls back to equal ranges for many different answers, the true one in its range', () => {
    const values = Array.from({ length: 20 }, (_, i) => i);
    const bars = answerBars(values, 19, 4);
    expect(bars.map((b) => b.count)).toEqual([5, 5, 5, 5]);
    expect(bars.map((b) => b.right)).toEqual([false, false, false, true]);
    expect(bars[0]!.label).toBe('0 to 4.75');
  });

  it('reads the first number a student typed', () => {
    expect(answerValue('−4')).toBe(-4);
    expect(answerValue('[1/2, 3]')).toBe(0.5);
    expect(answerValue('four')).toBeNull();
  });
});

describe('qrPicture', () => {
  /** The dark modules the path draws, as a grid. */
  function grid(text: string): boolean[][] {
    const { size, path } = qrPicture(text);
    const cells = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
    for (const m of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
      const [x, y, w] = [Number(m[1]), Number(m[2]), Number(m[3])];
      for (let i = 0; i < w; i++) cells[y]![x + i] = true;
    }
    return cells;
  }
  /** A finder pattern: a dark 7×7 ring around a 3×3 dark centre, at (x, y). */
  const finder = (g: boolean[][], x: number, y: number) =>
    [0, 6].every((e) => [0, 1, 2, 3, 4, 5, 6].every((i) => g[y + e]![x + i] && g[y + i]![x + e])) && !g[y + 1]![x + 1] && g[y + 3]![x + 3];

  it('draws a QR code of the link: finder patterns in three corners, a quiet zone around', () => {
    const link = 'https://gradtrace.example/?room=K7M2QP';
    const g = grid(link);
    const n = g.length;
    expect(n).toBe(4 * 3 + 17 + 8); // version 3 holds a 38-character link at level M
    expect(finder(g, 4, 4) && finder(g, n - 11, 4) && finder(g, 4, n - 11)).toBe(true);
    expect(finder(g, n - 11, n - 11)).toBe(false);
    expect(g[0]!.some(Boolean) || g.some((row) => row[0])).toBe(false);
    expect(qrPicture('https://gradtrace.example/?room=K7M2QQ').path).not.toBe(qrPicture(link).path);
  });
});
