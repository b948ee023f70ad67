import { describe, expect, it } from 'vitest';
import { fixtures } from '../testing/fixtures';
import { EV_WARNING, TimelineIndex } from './timeline';
import { warningsAt } from './warnings';

// testing/programs/warnings.py: torch.tensor(y) warns at line 4, y.grad (a non-leaf) at
// line 7, in a loop of three.
describe('torch warnings at their step', () => {
  const trace = fixtures.warned;
  const steps = trace.timeline.map((e, k) => (e.phase === 'warning' ? k : -1)).filter((k) => k >= 0);

  it('are two events, each once', () => {
    expect(steps).toHaveLength(2);
    expect(new TimelineIndex(trace).kinds[steps[1]!]).toBe(EV_WARNING);
  });

  it('show from the step they happened, not before', () => {
    const [copy, grad] = steps as [number, number];
    expect(warningsAt(trace, copy)).toEqual([]);
    expect(warningsAt(trace, copy + 1).map((w) => w.line)).toEqual([4]);
    expect(warningsAt(trace, grad + 1)).toEqual([
      expect.objectContaining({ line: 4 }),
      { message: 'The .grad attribute of a Tensor that is not a leaf Tensor is being accessed.', line: 7 },
    ]);
  });

  it('a trace without warning events shows trace.warnings at the end only', () => {
    const old = { ...trace, timeline: trace.timeline.filter((e) => e.phase !== 'warning') };
    expect(warningsAt(old, old.timeline.length - 1)).toEqual([]);
    expect(warningsAt(old, old.timeline.length)).toHaveLength(2);
  });
});
