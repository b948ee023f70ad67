// What a step shows of the program: the line that runs and the caption, at the steps of
// a hook's or a custom Function's backward body and at torch's warnings.
import { describe, expect, it } from 'vitest';
import { runningAt } from '../editor/running';
import { stepCaption } from '../model/caption';
import { GraphIndex } from '../model/graphIndex';
import { sceneAt } from '../model/scene';
import { EV_LINE, TimelineIndex } from '../model/timeline';
import { fixtures } from '../testing/fixtures';

const setup = (trace: (typeof fixtures)[keyof typeof fixtures]) => {
  const g = new GraphIndex(trace, trace.__source);
  const tl = new TimelineIndex(trace);
  const op = (name: string) => g.nodes.findIndex((n) => n.kind === 'function' && n.op === name);
  const lines = trace.__source.split('\n');
  return { g, tl, op, lines };
};

describe('lines run during backward', () => {
  it("keeps a hook's line marked while the print it made shows", () => {
    const trace = fixtures.hooks;
    const { g, tl, lines } = setup(trace);
    const k = trace.timeline.findIndex((e) => e.phase === 'print' && e.text.startsWith('y1 grad:'));
    expect(k).toBeGreaterThan(0);
    const hookLine = lines.findIndex((l) => l.includes('y1.register_hook')) + 1;
    expect(trace.timeline[k - 1]).toMatchObject({ phase: 'line', line: hookLine });
    expect(runningAt(sceneAt(g, tl, k + 1), g, tl)).toEqual({ from: hookLine, to: hookLine, phase: 'backward' });
  });

  it("steps a custom Function's backward body line by line, the editor's mark on each", () => {
    const trace = fixtures.relu;
    const { g, tl, op, lines } = setup(trace);
    const relu = op('MyReLUBackward');
    const steps = trace.timeline.flatMap((e, k) => (e.phase === 'line' ? [k] : []));
    expect(steps.length).toBeGreaterThan(0);
    const body = steps.map((k) => tl.lineOf[k]!);
    // The backward body's statements, in order, each once.
    const start = lines.findIndex((l) => l.includes('def backward')) + 1;
    expect(body).toEqual([start + 1, start + 2, start + 3, start + 4]);
    for (const k of steps) {
      expect(tl.kinds[k]).toBe(EV_LINE);
      const scene = sceneAt(g, tl, k + 1);
      expect(scene.current).toBe(relu);
      expect(scene.phase).toBe('backward');
      expect(runningAt(scene, g, tl)).toEqual({ from: tl.lineOf[k], to: tl.lineOf[k], phase: 'backward' });
      expect(stepCaption(trace, g, k + 1)).toBe(`line ${tl.lineOf[k]} of MyReLUBackward's backward`);
    }
    // Then the Function's own step: the backward() call is marked again.
    const after = steps[steps.length - 1]! + 1;
    expect(runningAt(sceneAt(g, tl, after + 1), g, tl)?.from).toBe(trace.passes[0]!.line);
  });

  it("marks a hook's lines at the tensor whose hook runs", () => {
    const trace = fixtures.hooks;
    const { g, tl, lines } = setup(trace);
    const steps = trace.timeline.flatMap((e, k) => (e.phase === 'line' ? [k] : []));
    expect(steps.length).toBeGreaterThan(0);
    for (const k of steps) {
      const e = trace.timeline[k]!;
      if (e.phase !== 'line') throw new Error('not a line');
      expect(lines[e.line - 1]).toMatch(/register_hook|print|return/);
      const scene = sceneAt(g, tl, k + 1);
      expect(g.nodes[scene.current]?.kind).toBe('tensor');
      expect(stepCaption(trace, g, k + 1)).toBe(`line ${e.line} runs in the hook of ${g.title(scene.current)}`);
    }
  });
});

// testing/programs/warnings.py: torch.tensor(y) warns at line 4, y.grad (a non-leaf) at line 7.
describe('torch warnings at their step', () => {
  const trace = fixtures.warned;
  const steps = trace.timeline.map((e, k) => (e.phase === 'warning' ? k : -1)).filter((k) => k >= 0);

  it('caption the step and mark its line; the graph does not move', () => {
    const g = new GraphIndex(trace, trace.__source);
    const tl = new TimelineIndex(trace);
    const at = steps[1]! + 1;
    expect(stepCaption(trace, g, at)).toBe(
      'warning at line 7: The .grad attribute of a Tensor that is not a leaf Tensor is being accessed.',
    );
    const scene = sceneAt(g, tl, at);
    expect(scene.current).toBe(-1);
    expect(runningAt(scene, g, tl)).toEqual({ from: 7, to: 7, phase: 'forward' });
  });
});

describe('prints', () => {
  it("marks each print's own line, in the phase it ran in", () => {
    // This lesson prints once from each of its eight print( lines, in order.
    const trace = fixtures.leaf;
    const { g, tl, lines } = setup(trace);
    const printLines = lines.flatMap((l, i) => (l.startsWith('print(') ? [i + 1] : []));
    const printed = trace.timeline.flatMap((e, k) => (e.phase === 'print' ? [k] : []));
    expect(printed.length).toBe(printLines.length);
    printed.forEach((k, n) => {
      const line = printLines[n]!;
      expect(runningAt(sceneAt(g, tl, k + 1), g, tl)).toEqual({ from: line, to: line, phase: 'forward' });
    });
  });
});
