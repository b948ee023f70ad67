// A room seen from the browser: the lecturer's link (pushes its view, hears how many
// follow and what they answer) and a student's (hears the lecturer's view, answers
// polls). DOM-free: the transport (fetch, EventSource) and storage come in as arguments,
// so the tests drive it without a browser.
import type { RoomCreated, RoomDistribution, RoomEvent, RoomSnapshot, RoomState, RoomView } from '../api/types';

export interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data: string }) => void): void;
  close(): void;
  onerror: ((event: Event) => void) | null;
  /** 2 (CLOSED): the browser gave up (the server answered an error), it will not retry. */
  readonly readyState: number;
}

/** EventSource.CLOSED, without naming a browser global. */
export const SOURCE_CLOSED = 2;

export interface Transport {
  fetch: typeof fetch;
  events(url: string): EventSourceLike;
}

export interface RoomHandlers {
  state?(state: RoomState): void;
  followers?(count: number): void;
  answers?(answers: RoomDistribution): void;
  closed?(reason: 'ended' | 'idle'): void;
  /** The stream is up (an event came), or dropped: the EventSource retries by itself unless `gaveUp`. */
  connection?(connected: boolean, gaveUp?: boolean): void;
}

export class RoomError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function check(response: Response): Promise<Response> {
  if (response.ok) return response;
  let detail = response.statusText;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'detail' in body) detail = String((body as { detail: unknown }).detail);
  } catch {
    /* not JSON */
  }
  throw new RoomError(response.status, detail);
}

const EVENT_TYPES = ['state', 'followers', 'answers', 'closed'] as const;

/** Listen to a room: newest state only (an older version arriving late is dropped). */
export function listen(transport: Transport, code: string, handlers: RoomHandlers, token = ''): () => void {
  const url = `/api/rooms/${encodeURIComponent(code)}/events` + (token ? `?token=${encodeURIComponent(token)}` : '');
  const source = transport.events(url);
  let version = 0;
  let closed = false;
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (message) => {
      let event: RoomEvent;
      try {
        event = JSON.parse(message.data) as RoomEvent;
      } catch {
        return;
      }
      handlers.connection?.(true);
      if (event.type === 'state') {
        if (event.state.version < version) return;
        version = event.state.version;
        handlers.state?.(event.state);
      } else if (event.type === 'followers') handlers.followers?.(event.count);
      else if (event.type === 'answers') handlers.answers?.(event.answers);
      else if (event.type === 'closed') {
        closed = true;
        source.close();
        handlers.closed?.(event.reason);
      }
    });
  }
  source.onerror = () => {
    if (!closed) handlers.connection?.(false, source.readyState === SOURCE_CLOSED);
  };
  return () => {
    closed = true;
    source.close();
  };
}

/** Where a lecturer's token is kept, so that reloading the page keeps the room. */
export interface TokenStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const tokenKey = (code: string) => `gradtrace.room.${code}`;
/** The code of the room this tab leads (a reload finds its token under tokenKey). */
const ACTIVE_KEY = 'gradtrace.room';

export async function openRoom(transport: Transport, view: RoomView, store: TokenStore): Promise<RoomCreated> {
  const response = await check(
    await transport.fetch('/api/rooms', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(view),
    }),
  );
  const created = (await response.json()) as RoomCreated;
  store.setItem(tokenKey(created.code), created.token);
  store.setItem(ACTIVE_KEY, created.code);
  return created;
}

export function storedToken(store: TokenStore, code: string): string | null {
  return store.getItem(tokenKey(code));
}

/** The room this tab opened and has not ended, after a reload. */
export function activeRoom(store: TokenStore): { code: string; token: string } | null {
  const code = store.getItem(ACTIVE_KEY);
  const token = code ? storedToken(store, code) : null;
  return code && token ? { code, token } : null;
}

/** Forget a room's token (it ended, or was never ours). */
export function forgetRoom(store: TokenStore, code: string): void {
  store.removeItem(tokenKey(code));
  if (store.getItem(ACTIVE_KEY) === code) store.removeItem(ACTIVE_KEY);
}

/** The room now, with how many follow it; null when it is gone (404). */
export async function roomNow(transport: Transport, code: string): Promise<RoomSnapshot | null> {
  const response = await transport.fetch(`/api/rooms/${encodeURIComponent(code)}`, { headers: { Accept: 'application/json' } });
  if (response.status === 404) return null;
  return (await (await check(response)).json()) as RoomSnapshot;
}

/**
 * The lecturer's side: `show(view)` sends the newest view, at most one request in flight
 * and none sooner than `gapMs` after the last (a drag of the step slider is many views;
 * the class needs the last one).
 */
export class Lecturer {
  private pending: RoomView | null = null;
  private inFlight = false;
  private last = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly transport: Transport,
    readonly code: string,
    private readonly token: string,
    private readonly store: TokenStore,
    private readonly onError: (error: RoomError) => void = () => {},
    private readonly gapMs = 50,
    private readonly now: () => number = () => Date.now(),
  ) {}

  listen(handlers: RoomHandlers): void {
    this.stopListening?.();
    this.stopListening = listen(this.transport, this.code, handlers, this.token);
  }

  show(view: RoomView): void {
    this.pending = view;
    this.flush();
  }

  private flush(): void {
    if (this.inFlight || this.pending === null || this.timer !== null) return;
    const wait = this.last + this.gapMs - this.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush();
      }, wait);
      return;
    }
    const view = this.pending;
    this.pending = null;
    this.inFlight = true;
    this.last = this.now();
    this.request('PUT', '/view', view)
      .catch((error: unknown) => {
        if (error instanceof RoomError) this.onError(error);
      })
      .finally(() => {
        this.inFlight = false;
        this.flush();
      });
  }

  private async request(method: string, path: string, body?: unknown): Promise<Response> {
    return check(
      await this.transport.fetch(`/api/rooms/${encodeURIComponent(this.code)}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  }

  /** End the room for everyone. */
  async end(): Promise<void> {
    this.stopListening?.();
    if (this.timer !== null) clearTimeout(this.timer);
    this.pending = null;
    forgetRoom(this.store, this.code);
    await this.request('DELETE', '');
  }
}

/** A student's answer to the open poll. */
export async function answer(transport: Transport, code: string, poll: number, value: number): Promise<void> {
  await check(
    await transport.fetch(`/api/rooms/${encodeURIComponent(code)}/answers`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ poll, value }),
    }),
  );
}

/** Answers in `bins` equal bins between their min and max, for a histogram. */
export function histogram(values: readonly number[], bins = 8): { from: number; to: number; count: number }[] {
  if (!values.length) return [];
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (min === max) return [{ from: min, to: max, count: values.length }];
  const width = (max - min) / bins;
  const out = Array.from({ length: bins }, (_, i) => ({ from: min + i * width, to: min + (i + 1) * width, count: 0 }));
  for (const v of values) out[Math.min(bins - 1, Math.floor((v - min) / width))]!.count++;
  return out;
}
