import { describe, expect, it } from 'vitest';
import { formatCompact as compact } from '../lib/format';
import { TimelineIndex } from '../model/timeline';
import { fixtures } from '../testing/fixtures';
import { leafTrace } from '../testing/traces';
import { GraphIndex, KIND_FUNCTION } from '../model/graphIndex';
import { FONTS, GAP, PAD, boxHeight, gradLabel, labelItems, nodeLabels, tagItems, type Measure } from './labels';
import { drawnNodes } from './drawn';
import { sceneAt } from '../model/scene';
import { sizingTags } from './tags';
import { badges } from '../model/concepts';
import { computeLayout } from './layout';

/** A stand-in for canvas text: 7 px per character, 8 in monospace (what the tests reason with). */
const measure: Measure = (text, font) => text.length * (font === FONTS.value ? 8 : 7);

describe('box measuring', () => {
  it('makes each tensor box wide enough for its title and shape, and for its value with its widest gradient', () => {
    const trace = fixtures.relu;
    const g = new GraphIndex(trace, trace.__source);
    const lb = nodeLabels(g, measure, { trace });
    for (let i = 0; i < g.n; i++) {
      if (g.kind[i] === KIND_FUNCTION) {
        expect(lb.width[i]).toBeGreaterThanOrEqual(lb.titleW[i]! + 2 * PAD);
        continue;
      }
      expect(lb.width[i]).toBeGreaterThanOrEqual(2 * PAD + lb.titleW[i]! + lb.detailW[i]!);
      for (let q = g.bwdStart[i]!; q < g.bwdStart[i + 1]!; q++) {
        const e = trace.timeline[g.bwdEvents[q]!]!;
        if (e.phase !== 'backward' || e.node_kind !== 'tensor') continue;
        // Every gradient the node will show, beside its value, at any step.
        const gw = measure(gradLabel(compact(e.grad)), FONTS.value);
        expect(lb.width[i]).toBeGreaterThanOrEqual(2 * PAD + lb.valueW[i]! + (lb.valueW[i]! ? GAP : 0) + gw);
      }
    }
  });

  it('places every text inside its box at every step of a trace, boxes apart, top-bottom and left-right', () => {
    for (const trace of [fixtures.relu, fixtures.hooks, fixtures.accumulation, fixtures.broadcast]) {
      const g = new GraphIndex(trace, trace.__source);
      const lb = nodeLabels(g, measure, { trace, tags: sizingTags(badges(g)) });
      const tl = new TimelineIndex(trace);
      for (const orientation of ['TB', 'LR'] as const) {
        const layout = computeLayout({ n: g.n, widths: lb.width, edgeSource: g.edgeSource, edgeTarget: g.edgeTarget, orientation });
        for (let c = 0; c <= tl.length; c++) {
          const scene = sceneAt(g, tl, c);
          const drawn = drawnNodes({
            graph: g,
            layout,
            labels: lb,
            scene,
            transform: { k: 1.5, x: 0, y: 0 },
            gradText: (i) => {
              const k = scene.gradEvent[i]!;
              const e = k >= 0 ? trace.timeline[k] : undefined;
              // The texts the app shows: formatCompact of the event's gradient.
              return e && e.phase === 'backward' && e.node_kind === 'tensor' ? compact(e.grad) : '';
            },
            marks: { badges: badges(g), trouble: null, check: null, hookFired: hookedAt(trace, g, c) },
            measure,
          });
          for (const d of drawn)
            for (const t of d.texts) {
              const inBox = t.rect.x >= d.box.x - 0.01 && t.rect.x + t.rect.w <= d.box.x + d.box.w + 0.01;
              const inTags = d.tags !== null && t.rect.x >= d.tags.x - 0.01 && t.rect.x + t.rect.w <= d.tags.x + d.tags.w + 0.01;
              expect(inBox || inTags, `${d.title}: "${t.text}" at step ${c}`).toBe(true);
              expect(t.px).toBe(18);
            }
          // No two boxes (with their tags) overlap.
          for (let a = 0; a < drawn.length; a++)
            for (let b = a + 1; b < drawn.length; b++)
              expect(overlap(extent(drawn[a]!), extent(drawn[b]!)), `${orientation}: ${drawn[a]!.title} / ${drawn[b]!.title}`).toBe(false);
        }
      }
    }
  });

  it('grows a box for a longer value', () => {
    const small = leafTrace();
    const big = leafTrace();
    const x = big.nodes.find((n) => n.id === 't0')!;
    if (x.kind === 'tensor') x.value = { shape: [], dtype: 'float32', numel: 1, values: 10.912345, preview: null, stats: null };
    const w = (t: typeof small) => {
      const g = new GraphIndex(t);
      return nodeLabels(g, measure, { trace: t }).width[g.byId.get('t0')!]!;
    };
    expect(w(big)).toBeGreaterThan(w(small));
    expect(w(big)).toBeGreaterThanOrEqual(2 * PAD + measure('10.91', FONTS.value) + measure('∇ 4', FONTS.value));
  });

  it('keeps tags within the box, counting those left out', () => {
    const m = (s: string) => s.length * 7;
    const items = tagItems(['retain_grad', 'hook fired'], 200, m);
    expect(items.map((t) => t.text)).toEqual(['retain_grad', 'hook fired']);
    expect(items[items.length - 1]!.x + items[items.length - 1]!.w).toBe(200);
    const few = tagItems(['retain_grad', 'hook fired', 'no grad'], 100, m);
    expect(few.map((t) => t.text)).toEqual(['+2', 'no grad']);
    for (const t of few) expect(t.x).toBeGreaterThanOrEqual(0);
  });

  it('lays out Function pills and tensor boxes at their heights', () => {
    const g = new GraphIndex(leafTrace());
    expect(boxHeight(g, g.byId.get('f1')!)).toBeLessThan(boxHeight(g, g.byId.get('t0')!));
  });
});

type R = { x: number; y: number; w: number; h: number };
function extent(d: { box: R; tags: R | null }): R {
  if (!d.tags) return d.box;
  const y = Math.min(d.box.y, d.tags.y);
  return {
    x: Math.min(d.box.x, d.tags.x),
    y,
    w: Math.max(d.box.x + d.box.w, d.tags.x + d.tags.w) - Math.min(d.box.x, d.tags.x),
    h: d.box.y + d.box.h - y,
  };
}
function overlap(a: R, b: R): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** The node whose hook fires at this cursor, as the app marks it, or -1. */
function hookedAt(
  trace: { timeline: { phase: string; node_kind?: string; hooked?: boolean; node?: string | null }[] },
  g: GraphIndex,
  cursor: number,
): number {
  const e = trace.timeline[cursor - 1];
  return e && e.phase === 'backward' && e.node_kind === 'tensor' && e.hooked && e.node ? (g.byId.get(e.node) ?? -1) : -1;
}
