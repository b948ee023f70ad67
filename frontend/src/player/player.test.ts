import { describe, expect, it } from 'vitest';
import { leafTrace, twoPassTrace } from '../testing/traces';
import { Player } from './player';
import { GraphIndex } from '../model/graphIndex';
import { attempt, NO_ATTEMPT, pendingBefore, questionsFor, reveal } from '../model/predict';
import { LINE_STEP, TimelineIndex } from '../model/timeline';
import { fixtures } from '../testing/fixtures';

describe('TimelineIndex', () => {
  it('splits the timeline into forward and backward segments', () => {
    const tl = new TimelineIndex(leafTrace());
    expect(tl.length).toBe(16);
    expect(tl.segments.map((s) => [s.phase, s.pass, s.start, s.end])).toEqual([
      ['forward', null, 0, 6],
      ['backward', 0, 6, 16],
    ]);
    expect(tl.passes).toEqual([{ index: 0, start: 6, end: 16, line: 5 }]);
    expect(Array.from(tl.prints)).toEqual([5]);
  });
  it('knows the pass, the phase and the prints at a cursor', () => {
    const tl = new TimelineIndex(twoPassTrace());
    expect(tl.passAt(0)).toBeNull();
    expect(tl.passAt(6)).toBeNull();
    expect(tl.passAt(7)).toBe(0);
    expect(tl.passAt(17)).toBe(0); // the print between passes keeps the last pass
    expect(tl.passAt(18)).toBe(1);
    expect(tl.phaseAt(0)).toBe('start');
    expect(tl.phaseAt(3)).toBe('forward');
    expect(tl.phaseAt(8)).toBe('backward');
    expect(tl.phaseAt(tl.length)).toBe('end');
    expect(tl.printsBefore(5)).toBe(0);
    expect(tl.printsBefore(6)).toBe(1);
    expect(tl.printsBefore(tl.length)).toBe(2);
  });
});

describe('Player', () => {
  const make = () => new Player(new TimelineIndex(leafTrace()), { baseRate: 10, stepMs: 100 });

  it('steps forward and back, clamped, and jumps to the ends', () => {
    const p = make();
    p.stepBack();
    expect(p.cursor).toBe(0);
    p.stepForward();
    p.stepForward();
    expect(p.cursor).toBe(2);
    p.stepBack();
    expect(p.cursor).toBe(1);
    p.toEnd();
    expect(p.cursor).toBe(16);
    p.stepForward();
    expect(p.cursor).toBe(16);
    p.toStart();
    expect(p.cursor).toBe(0);
    p.seek(99);
    expect(p.cursor).toBe(16);
    p.seek(-3);
    expect(p.cursor).toBe(0);
  });

  it('animates a manual step over stepMs, and not at all with reduced motion', () => {
    const p = make();
    p.stepForward();
    expect(p.fraction).toBe(0);
    expect(p.animating).toBe(true);
    p.tick(50);
    expect(p.fraction).toBeCloseTo(0.5);
    p.tick(80);
    expect(p.fraction).toBe(1);
    expect(p.animating).toBe(false);
    p.reducedMotion = true;
    p.stepForward();
    expect(p.fraction).toBe(1);
    expect(p.animating).toBe(false);
  });

  it('plays at its rate, several steps per tick when fast, and stops at the end', () => {
    const p = make();
    const seen: number[] = [];
    p.subscribe((q) => seen.push(q.cursor));
    p.play(); // the first step starts at once
    expect(p.playing).toBe(true);
    expect(p.cursor).toBe(1);
    expect(p.fraction).toBe(0);
    p.tick(100); // 10 steps/s: one step
    expect(p.cursor).toBe(2);
    p.tick(50);
    expect(p.cursor).toBe(2);
    expect(p.fraction).toBeCloseTo(0.5);
    p.setSpeed(4);
    p.tick(100); // 40 steps/s: four more
    expect(p.cursor).toBe(6);
    p.tick(10_000);
    expect(p.cursor).toBe(16);
    expect(p.playing).toBe(false);
    expect(seen.at(-1)).toBe(16);
    p.play(); // at the end, play starts over
    expect(p.cursor).toBe(1);
    expect(p.playing).toBe(true);
  });

  it('plays with reduced motion without tweening', () => {
    const p = make();
    p.reducedMotion = true;
    p.play();
    p.tick(250);
    expect(p.cursor).toBe(3);
    expect(p.fraction).toBe(1);
  });

  it('jumps to a backward pass and reports the pass', () => {
    const p = new Player(new TimelineIndex(twoPassTrace()));
    expect(p.pass).toBeNull();
    p.toPass(1);
    expect(p.cursor).toBe(18);
    expect(p.pass).toBe(1);
    p.toPass(0);
    expect(p.cursor).toBe(7);
    expect(p.pass).toBe(0);
    p.toPass(7); // no such pass: nothing moves
    expect(p.cursor).toBe(7);
  });

  it('pauses when stepping and toggles', () => {
    const p = make();
    p.toggle();
    expect(p.playing).toBe(true);
    p.stepForward();
    expect(p.playing).toBe(false);
    p.toggle();
    p.toggle();
    expect(p.playing).toBe(false);
  });
});

describe('line steps', () => {
  it('plays line steps as sub-steps: one step of time passes several of them', () => {
    const trace = fixtures.relu;
    const tl = new TimelineIndex(trace);
    const first = trace.timeline.findIndex((e) => e.phase === 'line');
    const player = new Player(tl, { baseRate: 1 });
    player.seek(first + 1);
    player.play();
    // At 1 step/s, one second covers the rest of this line step and more lines after it.
    player.tick(1000);
    expect(player.cursor - (first + 1)).toBeGreaterThanOrEqual(Math.floor(1 / LINE_STEP));
    expect(tl.weight(first)).toBe(LINE_STEP);
    expect(tl.weight(0)).toBe(1);
  });
});

describe('predict mode', () => {
  it('stops the player before each chosen step, until it is answered', () => {
    const t = leafTrace();
    const p = new Player(new TimelineIndex(t), { baseRate: 10, stepMs: 100 });
    const g = new GraphIndex(t);
    const qs = questionsFor(t, g, [12, 10, 7]);
    expect(qs.map((q) => [q.step, q.stop])).toEqual([
      [10, 9],
      [12, 11],
    ]);
    let attempts = new Map<number, ReturnType<typeof attempt>>();
    p.gate = (s) => !!pendingBefore(qs, attempts, s);
    p.play();
    for (let i = 0; i < 50; i++) p.tick(100);
    expect(p.cursor).toBe(8);
    expect(p.playing).toBe(false);
    expect(pendingBefore(qs, attempts, p.cursor + 1)?.step).toBe(10);
    p.stepForward();
    expect(p.cursor).toBe(8);
    p.play();
    expect(p.playing).toBe(false);
    attempts = new Map([[10, attempt(NO_ATTEMPT, qs[0]!, '-4')]]);
    p.stepForward();
    expect(p.cursor).toBe(9);
    p.play();
    for (let i = 0; i < 50; i++) p.tick(100);
    expect(p.cursor).toBe(10);
    attempts.set(12, reveal(NO_ATTEMPT));
    p.play();
    for (let i = 0; i < 50; i++) p.tick(100);
    expect(p.cursor).toBe(p.length);
    // Seeking passes the gate: the lecturer may go anywhere.
    p.gate = () => true;
    p.seek(3);
    expect(p.cursor).toBe(3);
  });
});
