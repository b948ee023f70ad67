// The line(s) running at a step: the current node's (forward), the line that updated a
// parameter, printed or that torch warned at, the backward() call's (backward), and within a
// backward pass the statement a hook or a custom Function's backward runs (a line event).
import type { GraphIndex } from '../model/graphIndex';
import type { SceneState } from '../model/scene';
import { EV_PRINT, EV_WARNING, type TimelineIndex } from '../model/timeline';
import type { Running } from './decorations';

export function runningAt(scene: SceneState, graph: GraphIndex, timeline: TimelineIndex): Running | null {
  const last = scene.cursor - 1;
  if (last >= 0 && timeline.kinds[last] === EV_WARNING) {
    const line = timeline.updateLine[last] ?? 0;
    return line ? { from: line, to: line, phase: 'forward' } : null;
  }
  // A print: its own line (a hook's print right after the hook's line event is shown as
  // that line, below).
  if (last >= 0 && timeline.kinds[last] === EV_PRINT && !timeline.lineOf[last]) {
    const line = timeline.updateLine[last] ?? 0;
    if (line) return { from: line, to: line, phase: scene.phase === 'backward' ? 'backward' : 'forward' };
  }
  if (scene.phase === 'forward' && scene.current >= 0) {
    const s = graph.nodes[scene.current]?.span;
    return s ? { from: s.line, to: s.end_line ?? s.line, phase: 'forward' } : null;
  }
  if (scene.phase === 'update') {
    // An optimizer step or `w.data -= ...`: the line that changed the parameter.
    const line = timeline.updateLine[scene.cursor - 1] ?? 0;
    return line ? { from: line, to: line, phase: 'forward' } : null;
  }
  const line = scene.cursor > 0 ? (timeline.lineOf[scene.cursor - 1] ?? 0) : 0;
  if (line) return { from: line, to: line, phase: 'backward' };
  if (scene.phase === 'backward' && scene.pass !== null) {
    const line = timeline.passes.find((p) => p.index === scene.pass)?.line;
    return line ? { from: line, to: line, phase: 'backward' } : null;
  }
  return null;
}
