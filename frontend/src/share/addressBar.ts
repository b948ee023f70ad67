// The page's moment in the address bar: the hash follows the page once it has rested a
// moment, and not while the player plays (a frame's step is not worth a history entry's
// rewrite), so a reload or a copied address opens what was on screen.
import { encodeHash, type SharedState } from './url';

/** How long the page must rest before the address follows it. */
export const REST_MS = 250;

/** Where the hash lives (location and history in the browser). */
export interface HashHost {
  hash(): string;
  replace(hash: string): void;
}

export interface RestTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

const browserTimers: RestTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

export const browserHash: HashHost = {
  hash: () => location.hash,
  replace: (hash) => history.replaceState(null, '', hash),
};

export class AddressBar {
  private timer: unknown = null;

  constructor(
    private readonly host: HashHost = browserHash,
    private readonly timers: RestTimers = browserTimers,
  ) {}

  /** The page changed: write `state` once it rests (a newer state replaces it); while playing, wait for the pause. */
  show(state: SharedState, playing: boolean): void {
    if (playing) return;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      const hash = encodeHash(state);
      if (hash !== this.host.hash()) this.host.replace(hash);
    }, REST_MS);
  }
}
