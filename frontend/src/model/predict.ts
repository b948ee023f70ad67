// Predict mode: playback stops before chosen backward steps and asks for the gradient
// arriving at that step's Function (its grad_output: ∂root/∂ its output). Pure, no DOM,
// so a live room can reuse questionAt/checkAnswer/tally to collect a class's answers.
import type { Trace } from '../api/types';
import type { GraphIndex } from './graphIndex';
import { formatNumber, knownValues, toNumber } from '../lib/format';

/** A learner types at most this many numbers (a vector of 12, a 3×4 matrix). */
export const MAX_ELEMENTS = 12;

/** Right when |typed − true| ≤ abs + rel·|true|: 2 or 3 significant digits are enough. */
export const TOLERANCE = { rel: 0.01, abs: 0.005 } as const;
export type Tolerance = { rel: number; abs: number };

export interface Question {
  /** The chosen step: the Function's (the cursor once its event is applied). */
  step: number;
  /**
   * Where playback stops (before it): the step the gradient first shows, the output
   * tensor's "gradient reached" just before the Function, else the Function's own step.
   */
  stop: number;
  /** The step whose chain rule gives the answer: the tensor's own step (before or just after), else `step`. */
  explain: number;
  /** The Function's node id, its op, and the tensor whose gradient arrives (or the Function's op). */
  node: string;
  op: string;
  of: string;
  /** The root of the pass (∂root/∂of). */
  root: string;
  shape: number[];
  /** The true gradient, flat. */
  expected: number[];
}

/** A step's Function event, if it is one whose gradient can be asked (known values, ≤ MAX_ELEMENTS). */
function askable(trace: Trace, step: number) {
  const e = trace.timeline[step - 1];
  if (!e || e.phase !== 'backward' || e.node_kind !== 'function') return null;
  const grad = e.grad_outputs.find((t) => t !== null) ?? null;
  if (!grad || grad.numel > MAX_ELEMENTS || grad.numel < 1) return null;
  const { values, complete } = knownValues(grad);
  if (!complete || values.length !== grad.numel) return null;
  return { e, grad, values: values.map((v) => toNumber(v)) };
}

/** The steps predict mode can ask: every backward Function step of the first pass whose gradient is small. */
export function candidateSteps(trace: Trace): number[] {
  const first = trace.passes[0]?.index;
  const out: number[] = [];
  trace.timeline.forEach((e, k) => {
    if (e.phase === 'backward' && e.node_kind === 'function' && e.pass === first && askable(trace, k + 1)) out.push(k + 1);
  });
  return out;
}

/** The question at `step`, or null when that step asks nothing (not a Function step, a big tensor). */
export function questionAt(trace: Trace, g: GraphIndex, step: number): Question | null {
  const a = askable(trace, step);
  if (!a) return null;
  const f = g.byId.get(a.e.node);
  const node = f === undefined ? undefined : g.nodes[f];
  const op = node && node.kind === 'function' ? node.op : a.e.node;
  const out = tensorIndex(g, a.e.node);
  const of = out >= 0 ? g.title(out) : op;
  const rootId = trace.passes.find((p) => p.index === a.e.pass)?.root;
  const r = rootId ? g.byId.get(rootId) : undefined;
  // The tensor's "gradient reached" event right before the Function (prints aside)
  // already shows the answer, so playback stops before it and its chain rule explains;
  // a leaf's comes right after AccumulateGrad, and explains (the paths summed).
  let stop = step;
  let explain = step;
  const t = out;
  if (t >= 0) {
    const own = (k: number) => {
      const x = trace.timeline[k];
      return !!x && x.phase === 'backward' && x.node_kind === 'tensor' && x.pass === a.e.pass && x.node === g.ids[t];
    };
    let k = step - 2;
    while (k >= 0 && (trace.timeline[k]?.phase === 'print' || trace.timeline[k]?.phase === 'warning')) k--;
    if (k >= 0 && own(k)) stop = explain = k + 1;
    else {
      let j = step;
      while (j < trace.timeline.length && (trace.timeline[j]?.phase === 'print' || trace.timeline[j]?.phase === 'warning')) j++;
      if (j < trace.timeline.length && own(j)) explain = j + 1;
    }
  }
  return { step, stop, explain, node: a.e.node, op, of, root: r === undefined ? 'L' : g.title(r), shape: a.grad.shape, expected: a.values };
}

/** The tensor whose gradient arrives at Function `id`: its output (grad_fn), or the leaf it accumulates into; -1 if none. */
function tensorIndex(g: GraphIndex, id: string): number {
  const f = g.byId.get(id);
  const node = f === undefined ? undefined : g.nodes[f];
  if (node && node.kind === 'function' && node.tensor) return g.byId.get(node.tensor) ?? -1;
  return g.nodes.findIndex((x) => x.kind === 'tensor' && x.grad_fn === id);
}

/** Numbers in what the learner typed: "4", "-0.5", "[1, 2]", "1 2; 3 4", "1/3", "−2" (a typographic minus), "1e-3". */
export function parseAnswer(text: string): number[] | null {
  const cleaned = text
    .replace(/[−–]/g, '-')
    .replace(/[[\](){}]/g, ' ')
    .trim();
  if (!cleaned) return null;
  const parts = cleaned.split(/[\s,;]+/).filter(Boolean);
  const out: number[] = [];
  for (const p of parts) {
    const frac = /^([-+]?[\d.]+(?:e[-+]?\d+)?)\/([-+]?[\d.]+(?:e[-+]?\d+)?)$/i.exec(p);
    const v = frac ? Number(frac[1]) / Number(frac[2]) : Number(p);
    if (!Number.isFinite(v)) return null;
    out.push(v);
  }
  return out;
}

export function close(typed: number, expected: number, tol: Tolerance = TOLERANCE): boolean {
  return Math.abs(typed - expected) <= tol.abs + tol.rel * Math.abs(expected);
}

export type Verdict =
  { ok: true; typed: number[] } | { ok: false; reason: 'unreadable' | 'count' | 'value'; typed: number[] | null; wrong: number[] };

/** Whether `text` is the question's gradient, element by element, within the tolerance. */
export function checkAnswer(q: Question, text: string, tol: Tolerance = TOLERANCE): Verdict {
  const typed = parseAnswer(text);
  if (!typed) return { ok: false, reason: 'unreadable', typed: null, wrong: [] };
  if (typed.length !== q.expected.length) return { ok: false, reason: 'count', typed, wrong: [] };
  const wrong = q.expected.flatMap((v, i) => (close(typed[i]!, v, tol) ? [] : [i]));
  return wrong.length ? { ok: false, reason: 'value', typed, wrong } : { ok: true, typed };
}

/** The gradient a question asks, as written: ∂loss/∂x, ∂loss/∂(y1 - y2). */
export function gradientName(q: Pick<Question, 'root' | 'of'>): string {
  const name = (title: string) => (/^[A-Za-z_][\w.]*$/.test(title) ? title : `(${title})`);
  return `∂${name(q.root)}/∂${name(q.of)}`;
}

/** The true answer as the learner would type it. */
export function answerText(q: Question): string {
  const parts = q.expected.map((v) => formatNumber(v).replace(/^-/, '−'));
  return q.shape.length === 0 ? parts[0]! : `[${parts.join(', ')}]`;
}

/** How a question went for one learner. */
export interface Attempt {
  tries: number;
  /** Answered right, or the answer was shown. */
  done: boolean;
  right: boolean;
  last: Verdict | null;
}

export const NO_ATTEMPT: Attempt = { tries: 0, done: false, right: false, last: null };

/** One more try at `q`: the attempt after it. */
export function attempt(prev: Attempt, q: Question, text: string, tol: Tolerance = TOLERANCE): Attempt {
  const v = checkAnswer(q, text, tol);
  return { tries: prev.tries + 1, done: prev.done || v.ok, right: prev.right || (v.ok && !prev.done), last: v };
}

/** Give up: the answer is shown. */
export function reveal(prev: Attempt): Attempt {
  return { ...prev, done: true };
}

/** The questions of the chosen steps (steps that ask nothing are left out), in step order. */
export function questionsFor(trace: Trace, g: GraphIndex, steps: Iterable<number>): Question[] {
  return [...new Set(steps)].sort((a, b) => a - b).flatMap((s) => questionAt(trace, g, s) ?? []);
}

/** The question waiting before `step` (playback must not reach it), or null. Attempts are keyed by Question.step. */
export function pendingBefore(questions: readonly Question[], attempts: ReadonlyMap<number, Attempt>, step: number): Question | null {
  return questions.find((q) => q.stop === step && !attempts.get(q.step)?.done) ?? null;
}

/** A class's answers to one question (the live room counts them). */
export function tally(
  q: Question,
  answers: readonly string[],
  tol: Tolerance = TOLERANCE,
): { right: number; wrong: number; unreadable: number } {
  let right = 0;
  let wrong = 0;
  let unreadable = 0;
  for (const a of answers) {
    const v = checkAnswer(q, a, tol);
    if (v.ok) right++;
    else if (v.reason === 'unreadable') unreadable++;
    else wrong++;
  }
  return { right, wrong, unreadable };
}
