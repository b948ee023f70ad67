import { describe, expect, it } from 'vitest';
import { runningAt } from '../editor/running';
import { stepCaption } from '../model/caption';
import { GraphIndex } from '../model/graphIndex';
import { sceneAt } from '../model/scene';
import { TimelineIndex } from '../model/timeline';
import { warningsAt } from '../model/warnings';
import { SPEEDS } from '../player/player';
import { fixtures } from '../testing/fixtures';
import { leafTrace } from '../testing/traces';
import { playSpeed, Stage } from './stage';

const measure = (s: string) => s.length * 7;

describe('a stage of one trace', () => {
  const trace = fixtures.warned;
  const stage = new Stage(trace, { source: trace.__source, measure });

  it('draws the whole trace when nothing is left out, and plays its timeline', () => {
    expect(stage.view).toBe(trace);
    expect(stage.fullGraph).toBe(stage.graph);
    expect(stage.graph.n).toBe(trace.nodes.length);
    expect(stage.player.length).toBe(trace.timeline.length);
    expect(stage.player.cursor).toBe(0);
    expect(stage.labels.width).toHaveLength(stage.graph.n);
    expect(stage.groups.size).toBe(0);
  });

  it('says at each step what the separate model functions say', () => {
    const g = new GraphIndex(trace, trace.__source);
    const tl = new TimelineIndex(trace);
    for (let cursor = 0; cursor <= tl.length; cursor++) {
      const step = stage.stepAt(cursor);
      const scene = sceneAt(g, tl, cursor);
      expect(step.scene).toEqual(scene);
      expect(step.caption).toBe(stepCaption(trace, g, cursor));
      expect(step.warnings).toEqual(warningsAt(trace, cursor));
      expect(step.running).toEqual(runningAt(scene, g, tl));
      expect(step.atEnd).toBe(cursor === tl.length);
    }
  });

  it('prints what the program printed before the step, all of it at the end', () => {
    const printed = trace.timeline.flatMap((e, k) => (e.phase === 'print' ? [k] : []));
    expect(printed.length).toBeGreaterThan(0);
    const first = printed[0]!;
    expect(stage.stepAt(first).printed).toBe('');
    const e = trace.timeline[first]!;
    expect(stage.stepAt(first + 1).printed).toBe(e.phase === 'print' ? e.text : null);
    expect(stage.stepAt(trace.timeline.length).printed).toBe(trace.stdout);
  });

  it('marks no running line without the program text', () => {
    const blind = new Stage(trace, { source: '', measure });
    const at = trace.timeline.findIndex((e) => e.phase === 'warning') + 1;
    expect(stage.stepAt(at).running).toEqual({ from: 4, to: 4, phase: 'forward' });
    expect(blind.stepAt(at).running).toBeNull();
  });
});

describe('hooks and the inspector', () => {
  it('names the tensor whose hook fired at its backward step, and only there', () => {
    const trace = fixtures.hooks;
    const stage = new Stage(trace, { source: trace.__source, measure });
    const fired = trace.timeline.flatMap((e, k) => (e.phase === 'backward' && e.node_kind === 'tensor' && e.hooked ? [k] : []));
    expect(fired.length).toBeGreaterThan(0);
    for (let k = 0; k < trace.timeline.length; k++) {
      const e = trace.timeline[k]!;
      const expected = fired.includes(k) && e.phase === 'backward' ? stage.graph.byId.get(e.node) : -1;
      expect(stage.stepAt(k + 1).hookFired).toBe(expected);
    }
  });

  it('gives a node its notes and trouble words, and nothing past the graph', () => {
    const trace = fixtures.hooks;
    const stage = new Stage(trace, { source: trace.__source, measure });
    const hooked = stage.graph.nodes.findIndex((n) => n.kind === 'tensor' && (n.hooks ?? 0) > 0);
    expect(hooked).toBeGreaterThanOrEqual(0);
    const card = stage.inspect(hooked);
    expect(card?.group).toBeNull();
    if (!card || card.group) throw new Error('not a node card');
    expect(card.notes.join(' ')).toMatch(/hook/);
    expect(card.trouble).toEqual([]);
    expect(stage.inspect(stage.graph.n)).toBeNull();
  });
});

describe('views of the trace', () => {
  it('draws the grad_fn chain alone, its captions and notes from the whole trace', () => {
    const trace = leafTrace();
    const stage = new Stage(trace, { source: '', measure, torchviz: true });
    expect(stage.view).not.toBe(trace);
    expect(stage.graph.ids).toEqual(['t0', 'f0', 'f1', 'f2', 'f3', 'f4', 't4']);
    expect(stage.fullGraph.n).toBe(trace.nodes.length);
    // y1 (t1) is drawn as its grad_fn AddBackward0 (f1).
    expect(stage.drawnIndex('t1')).toBe(stage.graph.byId.get('f1'));
    expect(stage.drawnIndex('t0')).toBe(stage.graph.byId.get('t0'));
    expect(stage.drawnIndex('nowhere')).toBe(-1);
    const full = new GraphIndex(trace);
    for (let k = 0; k <= trace.timeline.length; k++) expect(stage.stepAt(k).caption).toBe(stepCaption(trace, full, k));
  });

  it('groups a loop into a block the inspector describes as one', () => {
    const trace = fixtures.loopOutput;
    const stage = new Stage(trace, { source: trace.__source, measure, groupMode: 'loops' });
    expect(stage.groups.size).toBeGreaterThan(0);
    expect(stage.graph.n).toBeLessThan(trace.nodes.length);
    const [id, group] = [...stage.groups][0]!;
    const i = stage.graph.byId.get(id)!;
    expect(stage.inspect(i)).toEqual({ group });
    // Every member is drawn as the block.
    for (const member of group.members) expect(stage.drawnIndex(member)).toBe(i);
  });
});

describe('a new stage over the one shown', () => {
  const trace = fixtures.leaf;
  const options = { source: trace.__source, measure };

  it('keeps the boxes and the player of the same graph whose texts fit', () => {
    const shown = new Stage(trace, options);
    shown.player.seek(5);
    const next = new Stage(trace, { ...options, shown, shownLaidOut: true });
    expect(next.sameGraph).toBe(true);
    expect(next.fits).toBe(true);
    expect(next.player).toBe(shown.player);
    expect(next.player.cursor).toBe(5);
  });

  it('lays out anew and starts a fresh player where the shown stage had no layout', () => {
    const shown = new Stage(trace, options);
    shown.player.seek(5);
    shown.player.play();
    const next = new Stage(trace, { ...options, shown, shownLaidOut: false });
    expect(next.sameGraph).toBe(false);
    expect(next.player).not.toBe(shown.player);
    expect(next.player.cursor).toBe(0);
    expect(shown.player.playing).toBe(false);
  });

  it('keeps the cursor of another graph when asked (a regrouping)', () => {
    const shown = new Stage(trace, options);
    shown.player.seek(3);
    const next = new Stage(trace, { ...options, torchviz: true, shown, shownLaidOut: true, keepCursor: true });
    expect(next.sameGraph).toBe(false);
    expect(next.player).toBe(shown.player);
    expect(next.player.cursor).toBe(3);
    expect(next.player.timeline.length).toBe(next.timeline.length);
  });

  it('widens boxes to the old ones on the same graph', () => {
    const shown = new Stage(trace, options);
    shown.labels.width[0] = shown.labels.width[0]! + 50;
    const next = new Stage(trace, { ...options, shown, shownLaidOut: true });
    expect(next.labels.width[0]).toBe(shown.labels.width[0]);
    expect(next.layoutInput('LR')).toMatchObject({ n: next.graph.n, orientation: 'LR' });
    expect(next.layoutInput('TB').widths).not.toBe(next.labels.width);
  });
});

describe('the play speed', () => {
  it('plays a long program faster, so a run takes about half a minute', () => {
    expect(playSpeed(20)).toBe(1);
    expect(playSpeed(900)).toBe(16);
    expect(playSpeed(1e9)).toBe(SPEEDS[SPEEDS.length - 1]);
  });
});
