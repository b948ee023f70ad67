import { describe, expect, it } from 'vitest';
import { fixtures } from '../testing/fixtures';
import { TimelineIndex } from './timeline';
import { badges, BADGE_CUSTOM, BADGE_HOOK, BADGE_NO_DOT_GRAD, BADGE_RETAIN, nodeNotes, stepNote } from './concepts';
import { GraphIndex } from './graphIndex';

const find = (g: GraphIndex, name: string) => g.ids.findIndex((_, i) => g.title(i) === name);

describe('concepts', () => {
  it('badges hooks, retain_grad and custom Functions', () => {
    const t = fixtures.hooks;
    const g = new GraphIndex(t, t.__source);
    const b = badges(g);
    expect(Array.from(b).some((x) => x & BADGE_HOOK)).toBe(true);
    expect(Array.from(b).some((x) => x & BADGE_RETAIN)).toBe(true);
    const r = fixtures.relu;
    const rg = new GraphIndex(r, r.__source);
    expect(Array.from(badges(rg)).some((x) => x & BADGE_CUSTOM)).toBe(true);
  });
  it('says why an intermediate has no .grad', () => {
    const t = fixtures.leaf;
    const g = new GraphIndex(t, t.__source);
    const y1 = find(g, 'y1');
    expect(badges(g)[y1]! & BADGE_NO_DOT_GRAD).toBeTruthy();
    expect(nodeNotes(t, g, y1).join(' ')).toMatch(/not a leaf.*stays None.*retain_grad\(\)/);
    expect(nodeNotes(t, g, find(g, 'x')).join(' ')).toMatch(/is a leaf/);
  });
  it('notes accumulation over passes and hooks firing', () => {
    const t = fixtures.accumulation;
    const g = new GraphIndex(t, t.__source);
    expect(nodeNotes(t, g, find(g, 'x')).join(' ')).toMatch(/2 backward passes \(4, 4\)/);
    const tl = new TimelineIndex(t);
    const notes = Array.from({ length: tl.length }, (_, c) => stepNote(t, g, c + 1));
    expect(notes.some((n) => /accumulation/.test(n))).toBe(true);
    const h = fixtures.hooks;
    const hg = new GraphIndex(h, h.__source);
    const htl = new TimelineIndex(h);
    expect(Array.from({ length: htl.length }, (_, c) => stepNote(h, hg, c + 1)).some((n) => /hook .* fired/.test(n))).toBe(true);
  });
});
