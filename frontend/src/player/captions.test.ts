import { describe, expect, it } from 'vitest';
import { decodeHash, encodeHash } from '../share/url';
import { cleanCaption, decodeCaptions, encodeCaptions, MAX_CAPTION, withCaption } from './captions';

describe('captions', () => {
  it('are set, edited and removed by step, kept in step order', () => {
    let c = withCaption(new Map(), 12, 'Here the two paths meet.');
    c = withCaption(c, 3, '  y1 = x + 1\n is computed ');
    expect([...c]).toEqual([
      [3, 'y1 = x + 1 is computed'],
      [12, 'Here the two paths meet.'],
    ]);
    c = withCaption(c, 12, 'Edited.');
    expect(c.get(12)).toBe('Edited.');
    c = withCaption(c, 3, '   ');
    expect([...c.keys()]).toEqual([12]);
  });
  it('are one line of at most MAX_CAPTION characters', () => {
    expect(cleanCaption('a\n\nb')).toBe('a b');
    expect(cleanCaption('x'.repeat(1000))).toHaveLength(MAX_CAPTION);
  });
  it('round-trip through their URL form, unicode included; broken text gives none', () => {
    const c = new Map([
      [0, 'Start: x = 3 → ∂loss/∂x?'],
      [14, 'The gradient of y1 − y2 is −4 & that is “all”'],
    ]);
    const text = encodeCaptions(c);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCaptions(text)).toEqual(c);
    expect(encodeCaptions(new Map())).toBe('');
    expect(decodeCaptions('@@@')).toEqual(new Map());
    expect(decodeCaptions(null)).toEqual(new Map());
  });
  it('ride in the share link with the program and the step, compactly', () => {
    const captions = new Map([
      [7, 'Backward starts at loss with gradient 1.'],
      [16, 'x.grad is 4: the two paths add up.'],
    ]);
    const hash = encodeHash({ source: 'import torch\n', device: 'cpu', seed: 0, step: 7, captions });
    const back = decodeHash(hash)!;
    expect(back.captions).toEqual(captions);
    expect(back.step).toBe(7);
    const cap = new URLSearchParams(hash.slice(1)).get('cap')!;
    expect(cap.length).toBeLessThan(110);
    expect(hash).not.toContain('%');
  });
});
