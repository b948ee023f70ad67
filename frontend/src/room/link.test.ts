import { describe, expect, it, vi } from 'vitest';
import type { RoomView } from '../api/types';
import { FakeSource, memoryStore } from '../testing/rooms';
import { activeRoom, histogram, Lecturer, listen, openRoom, storedToken, type Transport } from './link';

const view = (step: number): RoomView => ({
  source: 'x = 1\n',
  device: 'auto',
  seed: 0,
  step,
  selected: null,
  zoom: null,
  view: 'graph',
  poll: null,
});
const state = (version: number, step: number) => ({ type: 'state', state: { code: 'ABCDEF', version, view: view(step) } });

describe('listen', () => {
  it('keeps the newest state, ends on closed, and asks the lecturer stream with its token', () => {
    const sources: FakeSource[] = [];
    const transport: Transport = { fetch: vi.fn(), events: (url) => (sources.push(new FakeSource(url)), sources.at(-1)!) };
    const steps: number[] = [];
    const closed: string[] = [];
    listen(transport, 'ABCDEF', { state: (s) => steps.push(s.view.step), closed: (r) => closed.push(r) }, 'tok en');
    const source = sources[0]!;
    expect(source.url).toBe('/api/rooms/ABCDEF/events?token=tok%20en');
    source.emit('state', state(2, 5));
    source.emit('state', state(1, 3)); // late and older: dropped
    source.emit('state', state(3, 7));
    source.emit('closed', { type: 'closed', reason: 'ended' });
    expect(steps).toEqual([5, 7]);
    expect(closed).toEqual(['ended']);
    expect(source.readyState).toBe(2);
  });
});

describe('Lecturer', () => {
  it('sends the newest view, one request at a time, and forgets its token when the room ends', async () => {
    const bodies: string[] = [];
    let release: () => void = () => {};
    const fetcher = vi.fn((url: string, init?: RequestInit) => {
      if (init?.method === 'PUT') bodies.push(String(init.body));
      return new Promise<Response>((resolve) => {
        release = () => resolve(new Response(init?.method === 'DELETE' ? null : '{}', { status: init?.method === 'DELETE' ? 204 : 200 }));
      });
    });
    const store = memoryStore();
    store.setItem('gradtrace.room.ABCDEF', 'secret');
    store.setItem('gradtrace.room', 'ABCDEF');
    expect(activeRoom(store)).toEqual({ code: 'ABCDEF', token: 'secret' });
    const lecturer = new Lecturer(
      { fetch: fetcher as unknown as typeof fetch, events: () => new FakeSource('') },
      'ABCDEF',
      'secret',
      store,
      () => {},
      0,
    );
    lecturer.show(view(1));
    lecturer.show(view(2)); // while the first is in flight
    lecturer.show(view(3)); // replaces view 2
    expect(bodies.map((b) => JSON.parse(b).step)).toEqual([1]);
    release();
    await vi.waitFor(() => expect(bodies.length).toBe(2));
    expect(JSON.parse(bodies[1]!).step).toBe(3);
    const headers = (fetcher.mock.calls[0]![1] as RequestInit).headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer secret');
    release();
    const ending = lecturer.end();
    release();
    await ending;
    expect(storedToken(store, 'ABCDEF')).toBeNull();
    expect(activeRoom(store)).toBeNull();
  });

  it('keeps the token of a room it opened, for a reload', async () => {
    const store = memoryStore();
    const created = { code: 'ABCDEF', token: 't', url: '/?room=ABCDEF', idle_timeout_s: 900 };
    const fetcher = vi.fn(async () => new Response(JSON.stringify(created), { status: 201 }));
    await openRoom({ fetch: fetcher as unknown as typeof fetch, events: () => new FakeSource('') }, view(0), store);
    expect(storedToken(store, 'ABCDEF')).toBe('t');
    expect(activeRoom(store)).toEqual({ code: 'ABCDEF', token: 't' });
  });
});

describe('histogram', () => {
  it('bins answers between their extremes', () => {
    expect(histogram([])).toEqual([]);
    expect(histogram([4, 4])).toEqual([{ from: 4, to: 4, count: 2 }]);
    const bins = histogram([0, 1, 2, 3, 4], 2);
    expect(bins.map((b) => b.count)).toEqual([2, 3]);
  });
});
