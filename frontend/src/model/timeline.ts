// The trace's timeline, indexed once: which steps are forward, which belong to
// which backward pass, where the prints are. A "step" is one timeline event; the
// cursor counts the events applied (0 = nothing yet, length = the whole program).
import type { Trace } from '../api/types';

export const EV_FORWARD = 0;
export const EV_BACKWARD_FUNCTION = 1;
export const EV_BACKWARD_TENSOR = 2;
export const EV_PRINT = 3;
/** A leaf changed outside autograd: its values (an optimizer step) or its `.grad`. */
export const EV_UPDATE = 4;
/** A statement of the program the engine ran in a backward pass (a hook, a custom backward). */
export const EV_LINE = 5;
/** The end of a pass without retain_graph: torch freed saved tensors. */
export const EV_FREED = 6;
/** A backward pass raised in a Function. */
export const EV_ERROR = 7;
/** torch warned (a short message, once per distinct warning). */
export const EV_WARNING = 8;
/** A line step lasts this fraction of a step while playing: the body's lines are sub-steps. */
export const LINE_STEP = 0.4;

export interface PassRange {
  /** The pass's index (as in `trace.passes`). */
  index: number;
  /** Event index of the pass's first and one past its last backward event. */
  start: number;
  end: number;
  line: number | null;
}

export interface Segment {
  phase: 'forward' | 'backward';
  /** The backward pass, or null for forward. */
  pass: number | null;
  start: number;
  end: number;
}

export class TimelineIndex {
  readonly length: number;
  readonly kinds: Uint8Array;
  /** Backward pass of each event, -1 for forward and print events. */
  readonly passOf: Int32Array;
  readonly passes: PassRange[];
  /** Contiguous runs of forward or backward events (prints and warnings join the run they sit in). */
  readonly segments: Segment[];
  /** Event indices of print events, ascending. */
  readonly prints: Int32Array;
  /** The source line of each update, warning or print event (0: not known, or none of them). */
  readonly updateLine: Int32Array;
  /**
   * The source line each line event ran, and for a print right after one (a hook's
   * `print(...)`) that same line, which made it (0: neither).
   */
  readonly lineOf: Int32Array;

  constructor(trace: Pick<Trace, 'timeline' | 'passes'>) {
    const events = trace.timeline;
    const n = events.length;
    this.length = n;
    this.kinds = new Uint8Array(n);
    this.passOf = new Int32Array(n).fill(-1);
    this.updateLine = new Int32Array(n);
    this.lineOf = new Int32Array(n);
    const prints: number[] = [];
    const ranges = new Map<number, PassRange>();
    const segments: Segment[] = [];
    for (let i = 0; i < n; i++) {
      const e = events[i]!;
      let phase: 'forward' | 'backward' | null = null;
      let pass: number | null = null;
      if (e.phase === 'forward') {
        this.kinds[i] = EV_FORWARD;
        phase = 'forward';
      } else if (e.phase === 'print') {
        this.kinds[i] = EV_PRINT;
        prints.push(i);
        this.updateLine[i] = e.line ?? 0;
        if (i > 0 && this.lineOf[i - 1]) this.lineOf[i] = this.lineOf[i - 1]!;
      } else if (e.phase === 'warning') {
        this.kinds[i] = EV_WARNING;
        this.updateLine[i] = e.line ?? 0;
      } else if (e.phase === 'update') {
        this.kinds[i] = EV_UPDATE;
        this.updateLine[i] = e.line ?? 0;
        phase = 'forward';
      } else {
        if (e.phase === 'line') {
          this.kinds[i] = EV_LINE;
          this.lineOf[i] = e.line;
        } else if (e.phase === 'freed') this.kinds[i] = EV_FREED;
        else if (e.phase === 'error') this.kinds[i] = EV_ERROR;
        else this.kinds[i] = e.node_kind === 'tensor' ? EV_BACKWARD_TENSOR : EV_BACKWARD_FUNCTION;
        pass = e.pass;
        this.passOf[i] = pass;
        phase = 'backward';
        const r = ranges.get(pass);
        if (r) r.end = i + 1;
        else ranges.set(pass, { index: pass, start: i, end: i + 1, line: null });
      }
      const last = segments[segments.length - 1];
      if (phase === null) {
        if (last) last.end = i + 1;
        else segments.push({ phase: 'forward', pass: null, start: i, end: i + 1 });
      } else if (last && last.phase === phase && last.pass === pass) {
        last.end = i + 1;
      } else {
        segments.push({ phase, pass, start: i, end: i + 1 });
      }
    }
    for (const p of trace.passes) {
      const r = ranges.get(p.index);
      if (r) r.line = p.line;
    }
    this.passes = [...ranges.values()].sort((a, b) => a.index - b.index);
    this.segments = segments;
    this.prints = Int32Array.from(prints);
  }

  /** How long step `i` (event index) lasts while playing, in steps: a line is a sub-step. */
  weight(i: number): number {
    return this.kinds[i] === EV_LINE ? LINE_STEP : 1;
  }

  /** The backward pass the cursor is in: that of the latest backward event applied, or null. */
  passAt(cursor: number): number | null {
    for (let i = Math.min(cursor, this.length) - 1; i >= 0; i--) {
      const p = this.passOf[i]!;
      if (p >= 0) return p;
    }
    return null;
  }

  /** How many print events the first `cursor` events hold. */
  printsBefore(cursor: number): number {
    let lo = 0;
    let hi = this.prints.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.prints[mid]! < cursor) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The phase of the latest event applied. */
  phaseAt(cursor: number): 'start' | 'forward' | 'backward' | 'end' {
    if (cursor <= 0) return 'start';
    if (cursor >= this.length) return 'end';
    for (let i = cursor - 1; i >= 0; i--) {
      const k = this.kinds[i]!;
      if (k === EV_FORWARD || k === EV_UPDATE) return 'forward';
      if (k !== EV_PRINT && k !== EV_WARNING) return 'backward';
    }
    return 'forward';
  }
}
