// torch's warnings as of a step: each arrives as a timeline event where it happened
// (once per distinct warning). A trace from before those events lists them only in
// `trace.warnings`: shown once the whole program has played.
import type { Trace } from '../api/types';

export interface ShownWarning {
  message: string;
  line: number | null;
}

export function warningsAt(trace: Pick<Trace, 'timeline' | 'warnings'>, cursor: number): ShownWarning[] {
  const shown: ShownWarning[] = [];
  let any = false;
  trace.timeline.forEach((e, k) => {
    if (e.phase !== 'warning') return;
    any = true;
    if (k < cursor) shown.push({ message: e.message, line: e.line ?? null });
  });
  if (any || cursor < trace.timeline.length) return shown;
  return (trace.warnings ?? []).map((w) => ({ message: w.message, line: w.line ?? null }));
}
