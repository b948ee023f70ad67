import { describe, expect, it } from 'vitest';
import { stepCaption } from '../model/caption';
import { EV_ERROR, EV_FREED, TimelineIndex } from '../model/timeline';
import { fixtures } from '../testing/fixtures';
import { backwardWords, firstSentence, wrap } from './backwardMarks';
import { GraphIndex, ROLE_INDEX } from '../model/graphIndex';
import { computeLayout } from './layout';
import { nodeLabels } from './labels';
import { drawnNodes } from './drawn';
import { pulsesAt, sceneAt } from '../model/scene';
import { nodeTags, sizingTags } from './tags';

const measure = (s: string) => s.length * 7;
const setup = (trace: (typeof fixtures)[keyof typeof fixtures]) => {
  const g = new GraphIndex(trace, trace.__source);
  const tl = new TimelineIndex(trace);
  const op = (name: string) => g.nodes.findIndex((n) => n.kind === 'function' && n.op === name);
  const lines = trace.__source.split('\n');
  return { g, tl, op, lines };
};
const noMarks = { badges: null, trouble: null, check: null, hookFired: -1 };

describe('freed saved tensors', () => {
  it('shows what the first pass freed from its freed step on, and nothing before', () => {
    const trace = fixtures.secondBackward;
    const { g, tl, op } = setup(trace);
    const step = trace.timeline.findIndex((e) => e.phase === 'freed');
    expect(tl.kinds[step]).toBe(EV_FREED);
    const freed = trace.timeline[step]!;
    if (freed.phase !== 'freed') throw new Error('not a freed event');
    const ids = new Set(freed.nodes);
    for (const name of ['ExpBackward0', 'MulBackward0']) {
      const i = op(name);
      expect(ids.has(g.ids[i]!)).toBe(true);
      expect(sceneAt(g, tl, step).freed[i]).toBe(0);
      expect(sceneAt(g, tl, step + 1).freed[i]).toBe(1);
      expect(nodeTags(i, noMarks, false, sceneAt(g, tl, step + 1)).map((t) => t.text)).toContain('freed');
      expect(backwardWords(g, sceneAt(g, tl, step + 1), i)).toContain('a second backward through it fails');
    }
    // AddBackward0 saved no tensor: nothing of it is freed.
    expect(g.freedAt[op('AddBackward0')]).toBe(-1);
    // An intermediate saved for backward (z = exp(y) saves its result z, MulBackward0
    // saves x): freed once every Function holding it is.
    const saved = g.nodes.flatMap((n, i) => (g.role[i] === ROLE_INDEX.saved ? [i] : []));
    expect(saved.length).toBeGreaterThan(0);
    for (const i of saved) expect(g.freedAt[i]).toBe(step);
    // The freed step belongs to the first pass; it moves no gradient.
    expect(tl.passOf[step]).toBe(0);
    expect(pulsesAt(g, tl, step + 1, 0.5)).toEqual([]);
    expect(stepCaption(trace, g, step + 1)).toMatch(/freed the saved tensors of .*ExpBackward0/);
  });
});

describe('a failed second backward', () => {
  it("carries torch's message on the node it raised in, on the graph and in words", () => {
    const trace = fixtures.secondBackward;
    const { g, tl, op } = setup(trace);
    const step = trace.timeline.findIndex((e) => e.phase === 'error');
    const e = trace.timeline[step]!;
    if (e.phase !== 'error') throw new Error('not an error event');
    expect(tl.kinds[step]).toBe(EV_ERROR);
    expect(e.message).toBe(trace.error?.message);
    const exp = op('ExpBackward0');
    expect(g.errors).toEqual([{ step, node: exp, type: 'RuntimeError', message: e.message }]);
    const before = sceneAt(g, tl, step);
    const at = sceneAt(g, tl, step + 1);
    expect(before.error).toBeNull();
    expect(at.error?.node).toBe(exp);
    expect(at.current).toBe(exp);
    expect(nodeTags(exp, noMarks, false, at).map((t) => t.text)).toContain('✗ RuntimeError');
    expect(backwardWords(g, at, exp)).toContain('Trying to backward through the graph a second time');
    expect(stepCaption(trace, g, step + 1)).toMatch(/^RuntimeError in ExpBackward0: Trying to backward/);
  });

  it('draws the callout beside the failing node with the first sentence', () => {
    const trace = fixtures.secondBackward;
    const { g, tl, op } = setup(trace);
    const labels = nodeLabels(g, (s) => measure(s), { trace, tags: sizingTags(new Uint8Array(g.n), null, g) });
    const layout = computeLayout({ n: g.n, widths: labels.width, edgeSource: g.edgeSource, edgeTarget: g.edgeTarget, orientation: 'TB' });
    const scene = sceneAt(g, tl, tl.length);
    const draw = (x: number, viewWidth: number) =>
      drawnNodes({
        graph: g,
        layout,
        labels,
        scene,
        transform: { k: 1, x, y: 0 },
        gradText: () => '',
        marks: noMarks,
        measure: (s) => measure(s),
        viewWidth,
      });
    // Room on both sides of the graph: beside the node.
    const drawn = draw(400, layout.width + 800);
    const exp = drawn[op('ExpBackward0')]!;
    expect(exp.callout).not.toBeNull();
    const text = exp.callout!.lines.join(' ');
    expect(text.replace('…', '')).toBe(`RuntimeError: ${firstSentence(scene.error!.message)}`);
    // torch's parenthesis is left to the inspector: the callout stays short enough to fit.
    expect(firstSentence(scene.error!.message)).toBe('Trying to backward through the graph a second time.');
    const r = exp.callout!.rect;
    expect(r.x >= exp.box.x + exp.box.w || r.x + r.w <= exp.box.x).toBe(true);
    // A canvas as narrow as the graph: kept inside it, and never over the failing node.
    const narrowDrawn = draw(0, layout.width);
    const narrow = narrowDrawn.find((d) => d.callout)!.callout!.rect;
    expect(narrow.x).toBeGreaterThanOrEqual(-0.01);
    expect(narrow.x + narrow.w).toBeLessThanOrEqual(layout.width + 0.01);
    const apart = (r: typeof narrow, b: typeof narrow) => r.x >= b.x + b.w || b.x >= r.x + r.w || r.y >= b.y + b.h || b.y >= r.y + r.h;
    expect(apart(narrow, narrowDrawn[op('ExpBackward0')]!.box)).toBe(true);
    // Room for a narrow callout on one side only (a projector): there, covering no node.
    const side = draw(0, layout.width + 140);
    const r2 = side.find((d) => d.callout)!.callout!.rect;
    expect(r2.x + r2.w).toBeLessThanOrEqual(layout.width + 140.01);
    for (const d of side) expect(apart(r2, d.box), `the callout covers ${d.title}`).toBe(true);
    for (const d of drawn) if (d !== exp) expect(d.callout).toBeNull();
    // The tag row holds the error tag: the box was sized for it.
    expect(exp.texts.map((t) => t.text)).toContain('✗ RuntimeError');
  });
});

describe('wrap', () => {
  it('keeps words whole and ends with an ellipsis past the last line', () => {
    const lines = wrap('one two three four five six seven', 5 * 7, (s) => s.length * 7, 2);
    expect(lines).toEqual(['one', 'two…']);
    expect(wrap('one two', 100, (s) => s.length * 7)).toEqual(['one two']);
  });
});
