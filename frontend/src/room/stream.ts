// A room's events stream that stays up. The browser's EventSource retries a dropped
// connection by itself (the server asks for 2 s), but gives up for good when the
// server answers an error: a replica restarting without the room, a full room, a
// proxy's 502. Then this waits a little longer each time, asks whether the room still
// exists (404: it is gone, stop) and connects again.
import type { RoomState } from '../api/types';
import { listen, roomNow, type RoomHandlers, type Transport } from './link';

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'ended';

/** Why a room's stream ended: the lecturer ended it, it idled out, or it was not found. */
export type EndReason = 'ended' | 'idle' | 'gone';

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export const browserTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

/** Waits before connecting again after the browser gave up: a restarting server gets time, a class does not hammer it. */
export const RETRY_MS = [1000, 2000, 4000, 8000, 15000] as const;

export interface StreamHandlers extends Omit<RoomHandlers, 'connection' | 'closed'> {
  state?(state: RoomState): void;
  status(status: StreamStatus, reason?: EndReason): void;
}

/** Listen to room `code` until it ends or the returned function is called. */
export function keepListening(
  transport: Transport,
  code: string,
  handlers: StreamHandlers,
  token = '',
  timers: Timers = browserTimers,
): () => void {
  let stopListening: (() => void) | null = null;
  let timer: unknown = null;
  let failures = 0;
  let stopped = false;

  const end = (reason: EndReason) => {
    stop();
    handlers.status('ended', reason);
  };

  const connect = () => {
    stopListening = listen(
      transport,
      code,
      {
        state: (state) => {
          failures = 0;
          handlers.status('live');
          handlers.state?.(state);
        },
        followers: (count) => handlers.followers?.(count),
        answers: (answers) => handlers.answers?.(answers),
        closed: (reason) => end(reason),
        connection: (connected, gaveUp) => {
          if (connected || stopped) return;
          handlers.status('reconnecting');
          if (gaveUp) retryLater();
        },
      },
      token,
    );
  };

  const retryLater = () => {
    stopListening?.();
    stopListening = null;
    const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!;
    failures++;
    timer = timers.setTimeout(() => {
      timer = null;
      if (stopped) return;
      roomNow(transport, code).then(
        (room) => {
          if (stopped) return;
          if (room === null) end('gone');
          else connect();
        },
        () => {
          if (!stopped) retryLater(); // the server is not there yet
        },
      );
    }, wait);
  };

  const stop = () => {
    stopped = true;
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    stopListening?.();
    stopListening = null;
  };

  handlers.status('connecting');
  connect();
  return stop;
}
