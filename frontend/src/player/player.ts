// The player: a cursor over the timeline, play and pause, speed, passes. No DOM;
// the view calls tick() from requestAnimationFrame and reads cursor and fraction.
import type { Playhead } from '../model/scene';
import type { TimelineIndex } from '../model/timeline';

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16, 64, 256] as const;

export interface PlayerOptions {
  /** Steps per second at speed 1. */
  baseRate?: number;
  /** How long a single manual step animates, in ms. */
  stepMs?: number;
  /** No tweening: every step lands at once (prefers-reduced-motion). */
  reducedMotion?: boolean;
}

export interface PlayerSnapshot {
  cursor: number;
  length: number;
  playing: boolean;
  speed: number;
  pass: number | null;
}

export class Player implements Playhead {
  /** Events applied: 0 .. length. */
  cursor = 0;
  /** Progress of the latest step's animation, 0 .. 1 (always 1 with reduced motion). */
  get fraction(): number {
    return this.reducedMotion ? 1 : this.progress;
  }
  private progress = 1;
  playing = false;
  speed = 1;
  reducedMotion: boolean;
  private readonly baseRate: number;
  private readonly stepMs: number;
  private readonly listeners = new Set<(p: Player) => void>();
  /**
   * Whether playing and stepping must stop before `step` (the cursor it would reach):
   * predict mode's questions. Seeking and jumping pass it (the lecturer may go anywhere).
   */
  gate: ((step: number) => boolean) | null = null;

  constructor(
    public timeline: TimelineIndex,
    options: PlayerOptions = {},
  ) {
    this.baseRate = options.baseRate ?? 3;
    this.stepMs = options.stepMs ?? 450;
    this.reducedMotion = options.reducedMotion ?? false;
  }

  get length(): number {
    return this.timeline.length;
  }

  get atEnd(): boolean {
    return this.cursor >= this.length;
  }

  /** The next step waits behind the gate. */
  get blocked(): boolean {
    return !this.atEnd && !!this.gate?.(this.cursor + 1);
  }

  /** The backward pass the cursor is in, or null during forward. */
  get pass(): number | null {
    return this.timeline.passAt(this.cursor);
  }

  /** Whether an animation is in flight (the view keeps drawing frames while true). */
  get animating(): boolean {
    return this.playing || this.fraction < 1;
  }

  snapshot(): PlayerSnapshot {
    return { cursor: this.cursor, length: this.length, playing: this.playing, speed: this.speed, pass: this.pass };
  }

  subscribe(fn: (p: Player) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(): void {
    for (const fn of this.listeners) fn(this);
  }

  /** Play another timeline from the same cursor (a live re-run of the same program). */
  retarget(timeline: TimelineIndex): void {
    this.timeline = timeline;
    this.cursor = Math.min(this.cursor, timeline.length);
    if (this.atEnd) this.playing = false;
    this.progress = 1;
    this.emit();
  }

  /** Put the cursor at `cursor` (clamped); `animate` plays that step's animation. */
  seek(cursor: number, animate = false): void {
    const c = Math.max(0, Math.min(this.length, Math.round(cursor)));
    const changed = c !== this.cursor;
    this.cursor = c;
    this.progress = animate && c > 0 ? 0 : 1;
    if (changed || animate) this.emit();
  }

  stepForward(): void {
    this.pause();
    if (this.blocked) return this.emit();
    if (!this.atEnd) this.seek(this.cursor + 1, true);
  }

  stepBack(): void {
    this.pause();
    if (this.cursor > 0) this.seek(this.cursor - 1, false);
  }

  toStart(): void {
    this.pause();
    this.seek(0);
  }

  toEnd(): void {
    this.pause();
    this.seek(this.length);
  }

  /** Jump to the first step of backward pass `index` (its first event applied). */
  toPass(index: number): void {
    const range = this.timeline.passes.find((p) => p.index === index);
    if (!range) return;
    this.pause();
    this.seek(range.start + 1, true);
  }

  play(): void {
    if (this.length === 0) return;
    if (this.atEnd) this.seek(0);
    if (this.playing) return;
    if (this.progress >= 1 && this.blocked) return this.emit();
    this.playing = true;
    // A settled step is done: the next one starts now.
    if (this.progress >= 1 && !this.atEnd) {
      this.cursor++;
      this.progress = 0;
    }
    this.emit();
  }

  pause(): void {
    if (this.playing) {
      this.playing = false;
      this.emit();
    }
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  setSpeed(speed: number): void {
    if (speed > 0 && speed !== this.speed) {
      this.speed = speed;
      this.emit();
    }
  }

  /** Steps per second while playing. */
  get rate(): number {
    return this.baseRate * this.speed;
  }

  /**
   * Advance time by `dtMs`. While playing, each step lasts 1/rate seconds and its
   * animation fills that time; several steps may pass in one tick at high speed.
   * Returns whether anything changed (cursor or fraction).
   */
  tick(dtMs: number): boolean {
    if (dtMs <= 0) return false;
    if (this.playing) {
      let c = this.cursor;
      let f = this.progress;
      // Time left in this tick, in plain steps; a step of weight w (a line: a sub-step) takes w of them.
      let left = (dtMs / 1000) * this.rate;
      let gated = false;
      for (;;) {
        const w = c > 0 ? this.timeline.weight(c - 1) : 1;
        const need = (1 - f) * w;
        if (left < need) {
          f += left / w;
          break;
        }
        left -= need;
        f = 1;
        if (c >= this.length) break;
        if (this.gate?.(c + 1)) {
          gated = true;
          break;
        }
        c++;
        f = 0;
      }
      if ((c >= this.length || gated) && f >= 1) {
        f = 1;
        this.playing = false;
      }
      const moved = c !== this.cursor;
      this.cursor = c;
      this.progress = f;
      if (moved || !this.playing) this.emit();
      return true;
    }
    if (this.progress < 1) {
      this.progress = Math.min(1, this.progress + dtMs / this.stepMs);
      return true;
    }
    return false;
  }
}
