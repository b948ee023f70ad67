// This page's part in a live room, as the UI shows it: none, the lecturer's (open,
// publish the page's view, hear followers and answers, end) or a student's (follow,
// leave to explore, snap back, answer the open poll). DOM-free: the transport, the
// token store (sessionStorage in the browser) and the timers come in as arguments.
import type { RoomDistribution, RoomPoll, RoomView } from '../api/types';
import { activeRoom, answer, forgetRoom, Lecturer, openRoom, RoomError, roomNow, type TokenStore, type Transport } from './link';
import { browserTimers, keepListening, type EndReason, type StreamStatus, type Timers } from './stream';
import { joinPath, pollFor, randomPollId, roomCode, roomInLink, roomView, sameView, type PageView } from './view';

export type Role = 'none' | 'lecturer' | 'student';
/** `opening`: the lecturer's room is being made; `away`: the student left to explore. */
export type RoomStatus = StreamStatus | 'opening' | 'away';

export interface RoomUi {
  role: Role;
  code: string;
  /** The link students open (absolute). */
  link: string;
  status: RoomStatus;
  endReason: EndReason | null;
  /** Lecturer: students following now, on every replica. */
  followers: number;
  /** Lecturer: the poll on the students' screens, and the class's answers to it. */
  poll: RoomPoll | null;
  answers: RoomDistribution | null;
  /** Student: the lecturer's newest view. */
  view: RoomView | null;
  /** Student: the answer this page sent to the open poll. */
  sent: { poll: number; value: number } | null;
  error: string;
}

export const NO_ROOM: RoomUi = {
  role: 'none',
  code: '',
  link: '',
  status: 'ended',
  endReason: null,
  followers: 0,
  poll: null,
  answers: null,
  view: null,
  sent: null,
  error: '',
};

/** After a 429 (too many updates), the newest view goes again this much later. */
const RETRY_UPDATE_MS = 1000;

function say(error: unknown): string {
  if (error instanceof RoomError) {
    if (error.status === 409) return 'That question has closed.';
    if (error.status === 429) return 'Too fast: wait a moment and try again.';
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export class RoomSession {
  ui: RoomUi = NO_ROOM;
  private readonly listeners = new Set<(ui: RoomUi) => void>();
  private stopStream: (() => void) | null = null;
  private lecturer: Lecturer | null = null;
  /** Lecturer: the view last sent, or the room's own until this page sends one. */
  private published: RoomView | null = null;
  /** Lecturer: the room's state is known (a reloaded page first hears it, then publishes). */
  private synced = false;
  private waiting: PageView | null = null;
  private retry: unknown = null;

  constructor(
    private readonly transport: Transport,
    private readonly store: TokenStore,
    /** The page's origin, for the absolute join link. */
    private readonly origin: string,
    private readonly timers: Timers = browserTimers,
    private readonly gapMs = 50,
    private readonly newPollId: () => number = randomPollId,
  ) {}

  subscribe(listener: (ui: RoomUi) => void): () => void {
    this.listeners.add(listener);
    listener(this.ui);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<RoomUi>): void {
    this.ui = { ...this.ui, ...patch };
    for (const listener of this.listeners) listener(this.ui);
  }

  /** Student, live: the page shows the lecturer's view. */
  get following(): boolean {
    return this.ui.role === 'student' && this.ui.status === 'live' && this.ui.view !== null;
  }

  /** On page load: the room this tab leads (a reload keeps it), else the one the link names. */
  start(search: string): void {
    const mine = activeRoom(this.store);
    if (mine) this.lead(mine.code, mine.token, null);
    else {
      const code = roomInLink(search);
      if (code) this.join(code);
    }
  }

  // ---------------------------------------------------------------- lecturer

  async open(page: PageView): Promise<void> {
    if (this.ui.role !== 'none') return;
    this.set({ ...NO_ROOM, role: 'lecturer', status: 'opening' });
    const view = roomView(page, pollFor(page.poll, page.source, null, this.newPollId));
    try {
      const created = await openRoom(this.transport, view, this.store);
      this.lead(created.code, created.token, view);
    } catch (error) {
      this.set({ ...NO_ROOM, error: say(error) });
    }
  }

  /** `view`: the room's view when this page just made it; null after a reload (the stream tells). */
  private lead(code: string, token: string, view: RoomView | null): void {
    this.lecturer = new Lecturer(this.transport, code, token, this.store, (error) => this.refused(error), this.gapMs);
    this.published = view;
    this.synced = view !== null;
    this.set({ ...NO_ROOM, role: 'lecturer', code, link: this.origin + joinPath(code), status: 'connecting', poll: view?.poll ?? null });
    this.stopStream = keepListening(
      this.transport,
      code,
      {
        status: (status, reason) => this.streamStatus(status, reason),
        state: (state) => {
          if (this.synced) return;
          this.synced = true;
          this.published = state.view;
          this.set({ poll: state.view.poll ?? null });
          if (this.waiting) this.publish(this.waiting);
          // The stream tells changes only: ask how many follow already.
          roomNow(this.transport, code).then(
            (room) => room && this.ui.code === code && this.set({ followers: room.followers }),
            () => {},
          );
        },
        followers: (count) => this.set({ followers: count }),
        answers: (answers) => {
          if (answers.poll === this.ui.poll?.id) this.set({ answers });
        },
      },
      token,
      this.timers,
    );
  }

  /** The lecturer's page changed: send its view (the newest only, throttled; nothing when unchanged). */
  publish(page: PageView): void {
    if (this.ui.role !== 'lecturer' || !this.lecturer || this.ui.status === 'ended') return;
    if (!this.synced) {
      this.waiting = page;
      return;
    }
    this.waiting = null;
    const view = roomView(page, pollFor(page.poll, page.source, this.published, this.newPollId));
    if (sameView(view, this.published)) return;
    this.published = view;
    this.lecturer.show(view);
    const poll = view.poll ?? null;
    if (poll?.id !== this.ui.poll?.id) this.set({ poll, answers: null });
    else if (poll?.revealed !== this.ui.poll?.revealed) this.set({ poll });
  }

  private refused(error: RoomError): void {
    if (error.status === 404 || error.status === 403) {
      this.streamStatus('ended', 'gone');
    } else if (error.status === 429) {
      // The class must get the newest view: send it again once the server takes it.
      const view = this.published;
      if (this.retry !== null) this.timers.clearTimeout(this.retry);
      this.retry = this.timers.setTimeout(() => {
        this.retry = null;
        if (view && view === this.published) this.lecturer?.show(view);
      }, RETRY_UPDATE_MS);
    } else this.set({ error: say(error) });
  }

  /** End the room for everyone. */
  async end(): Promise<void> {
    const lecturer = this.lecturer;
    this.stop();
    this.set({ ...NO_ROOM });
    try {
      await lecturer?.end();
    } catch (error) {
      if (!(error instanceof RoomError && error.status === 404)) this.set({ error: say(error) });
    }
  }

  // ---------------------------------------------------------------- student

  /** Follow room `text` (a code as typed). */
  join(text: string): void {
    const code = roomCode(text);
    if (!code) {
      this.set({ ...NO_ROOM, error: `“${text}” is not a room code: 6 letters and digits.` });
      return;
    }
    this.stop();
    this.set({ ...NO_ROOM, role: 'student', code, link: this.origin + joinPath(code) });
    this.follow();
  }

  private follow(): void {
    const code = this.ui.code;
    this.stopStream = keepListening(
      this.transport,
      code,
      {
        status: (status, reason) => this.streamStatus(status, reason),
        state: (state) => {
          const poll = state.view.poll?.id ?? null;
          this.set({ view: state.view, sent: this.ui.sent?.poll === poll ? this.ui.sent : null });
        },
      },
      '',
      this.timers,
    );
  }

  /** Stop following to explore; the lecturer no longer counts this page. */
  leave(): void {
    if (this.ui.role !== 'student' || this.ui.status === 'ended') return;
    this.stopStream?.();
    this.stopStream = null;
    this.set({ status: 'away' });
  }

  /** Follow again: the page jumps to the lecturer's view. */
  snapBack(): void {
    if (this.ui.role !== 'student' || this.ui.status !== 'away') return;
    this.set({ status: 'connecting' });
    this.follow();
  }

  /** Answer the open poll (the latest answer counts). */
  async answer(poll: number, value: number): Promise<boolean> {
    if (this.ui.role !== 'student') return false;
    const code = this.ui.code;
    try {
      await answer(this.transport, code, poll, value);
      if (this.ui.code === code) this.set({ sent: { poll, value }, error: '' });
      return true;
    } catch (error) {
      this.set({ error: say(error) });
      return false;
    }
  }

  // ---------------------------------------------------------------- both

  private streamStatus(status: StreamStatus, reason?: EndReason): void {
    if (status === 'ended') {
      this.stop();
      if (this.ui.role === 'lecturer') forgetRoom(this.store, this.ui.code);
      this.set({ status, endReason: reason ?? 'ended' });
    } else if (this.ui.status !== 'away') this.set({ status });
  }

  /** Put the room away (after it ended, or a student quitting it). */
  dismiss(): void {
    if (this.ui.role === 'lecturer' && this.ui.status !== 'ended') return; // end it instead
    this.stop();
    this.set({ ...NO_ROOM });
  }

  private stop(): void {
    this.stopStream?.();
    this.stopStream = null;
    if (this.retry !== null) this.timers.clearTimeout(this.retry);
    this.retry = null;
    this.lecturer = null;
    this.waiting = null;
    this.synced = false;
  }
}
