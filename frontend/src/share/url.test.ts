import { describe, expect, it } from 'vitest';
import { decodeHash, encodeHash, fromBase64Url, toBase64Url } from './url';

describe('share links', () => {
  it('round-trips a program, device, seed and step through the hash', () => {
    const source = 'import torch\nx = torch.tensor(3.0, requires_grad=True)\nprint("π ≈", x * 2)  # ünïcode\n';
    const hash = encodeHash({ source, device: 'cpu', seed: 7, step: 12 });
    expect(hash).toMatch(/^#code=[A-Za-z0-9_-]+&device=cpu&seed=7&step=12$/);
    expect(decodeHash(hash)).toEqual({
      source,
      device: 'cpu',
      seed: 7,
      step: 12,
      example: null,
      present: false,
      captions: new Map(),
      ask: null,
      torchviz: false,
    });
  });
  it('leaves out a zero seed and a missing step', () => {
    const hash = encodeHash({ source: 'x = 1', device: 'auto', seed: 0, step: null });
    expect(hash).not.toContain('seed');
    expect(decodeHash(hash)).toEqual({
      source: 'x = 1',
      device: 'auto',
      seed: 0,
      step: null,
      example: null,
      present: false,
      captions: new Map(),
      ask: null,
      torchviz: false,
    });
  });
  it('carries the example and presentation mode of a follow-me link', () => {
    const hash = encodeHash({ source: 'x = 1', device: 'cpu', seed: 0, step: 4, example: 'leaf_and_non_leaf', present: true });
    expect(hash).toMatch(/&step=4&example=leaf_and_non_leaf&present=1$/);
    expect(decodeHash(hash)).toMatchObject({ step: 4, example: 'leaf_and_non_leaf', present: true });
  });
  it('ignores hashes with no program or a broken one', () => {
    expect(decodeHash('')).toBeNull();
    expect(decodeHash('#step=3')).toBeNull();
    expect(decodeHash('#code=@@@')).toBeNull();
  });
  it('encodes bytes as base64url without padding', () => {
    const bytes = Uint8Array.from([251, 255, 0, 1]);
    expect(toBase64Url(bytes)).toBe('-_8AAQ');
    expect(Array.from(fromBase64Url('-_8AAQ'))).toEqual([251, 255, 0, 1]);
  });
});

describe('share links: predict mode and the view', () => {
  it('carry the asking steps as short base36 differences', async () => {
    const { encodeSteps, decodeSteps } = await import('./url');
    expect(encodeSteps([20, 12, 14, 12])).toBe('c.2.6');
    expect(decodeSteps('c.2.6')).toEqual([12, 14, 20]);
    const hash = encodeHash({ source: 'x = 1', device: 'cpu', seed: 0, step: 3, ask: [8, 10, 12], torchviz: true });
    expect(hash).toMatch(/&view=torchviz&ask=8\.2\.2$/);
    expect(decodeHash(hash)).toMatchObject({ ask: [8, 10, 12], torchviz: true });
    expect(decodeHash(encodeHash({ source: 'x', device: 'cpu', seed: 0, step: null, ask: [] }))!.ask).toEqual([]);
    expect(decodeHash(encodeHash({ source: 'x', device: 'cpu', seed: 0, step: null }))!.ask).toBeNull();
  });
});
