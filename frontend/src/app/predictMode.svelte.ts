// Predict mode, with no DOM: the backward steps chosen as questions (all candidates
// unless the lecturer picked some), the learner's attempts, the question that stops the
// player and the one whose explanation is on screen. It reads the program's trace and
// player from the workbench and stops the player before each open question.
import { attempt, candidateSteps, NO_ATTEMPT, pendingBefore, questionsFor, reveal, type Attempt, type Question } from '../model/predict';
import type { Workbench } from './workbench.svelte';

export class PredictMode {
  on = $state(false);
  /** The steps chosen as questions (null: every candidate). */
  askSteps = $state.raw<number[] | null>(null);
  /** The learner's attempts by question step. */
  attempts = $state.raw<Map<number, Attempt>>(new Map());
  /** A click on a Function adds (or removes) its steps rather than selecting it. */
  choosing = $state(false);
  /** The first trace keeps the shared link's questions; a new program starts from the default. */
  private keepAsk = true;

  // By closures: the workbench comes in through the constructor, after these fields.
  readonly candidates = $derived.by(() => (this.wb.trace ? candidateSteps(this.wb.trace) : []));
  readonly chosen = $derived(new Set(this.askSteps ?? this.candidates));
  readonly questions = $derived.by((): Question[] => {
    const { trace, stage } = this.wb;
    return this.on && trace && stage ? questionsFor(trace, stage.fullGraph, this.chosen) : [];
  });
  /** The open question the player waits before. */
  readonly pending = $derived.by(() => pendingBefore(this.questions, this.attempts, this.wb.playerState.cursor + 1));
  /** The answered question whose explanation is on screen. */
  readonly explained = $derived.by(() => {
    const cursor = this.wb.playerState.cursor;
    return this.pending ? null : (this.questions.find((q) => this.attempts.get(q.step)?.done && cursor === q.explain) ?? null);
  });

  constructor(
    private readonly wb: Workbench,
    /** The shared link's questions (null: none asked). */
    ask: readonly number[] | null = null,
  ) {
    this.on = !!ask;
    this.askSteps = ask ? [...ask] : null;
  }

  /** Whether playback stops before `step`: a question still open there or before. */
  gate(step: number): boolean {
    return this.on && !!pendingBefore(this.questions, this.attempts, step);
  }

  /** Another program's trace: no attempts yet, and (after the first) the default questions. */
  newProgram(): void {
    this.attempts = new Map();
    if (!this.keepAsk) this.askSteps = null;
    this.keepAsk = false;
  }

  set(on: boolean): void {
    this.on = on;
    this.choosing = false;
    this.attempts = new Map();
    if (on) this.wb.player?.pause();
  }

  choose(steps: number[], on: boolean): void {
    const next = new Set(this.chosen);
    for (const s of steps) {
      if (on) next.add(s);
      else next.delete(s);
    }
    this.askSteps = [...next].sort((a, b) => a - b);
  }

  /** While choosing, a click on node `id` adds its backward steps (or removes them, if all were chosen): true when it did. */
  chooseNode(id: string | undefined): boolean {
    const trace = this.wb.trace;
    if (!this.on || !this.choosing || !id || !trace) return false;
    const steps = this.candidates.filter((s) => {
      const e = trace.timeline[s - 1];
      return e && e.phase === 'backward' && e.node === id;
    });
    if (!steps.length) return false;
    this.choose(steps, !steps.every((s) => this.chosen.has(s)));
    return true;
  }

  answer(q: Question, text: string): void {
    const a = attempt(this.attempts.get(q.step) ?? NO_ATTEMPT, q, text);
    this.attempts = new Map(this.attempts).set(q.step, a);
    // Right: play the step that shows the gradient, whose chain rule gives it, and
    // wait there (a quick learner may answer while the step before still animates).
    if (a.done) this.explain(q);
  }

  giveUp(q: Question): void {
    this.attempts = new Map(this.attempts).set(q.step, reveal(this.attempts.get(q.step) ?? NO_ATTEMPT));
    this.explain(q);
  }

  private explain(q: Question): void {
    this.wb.player?.pause();
    this.wb.player?.seek(q.explain, true);
  }
}
