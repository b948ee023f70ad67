import { describe, expect, it } from 'vitest';
import type { RoomView } from '../api/types';
import { FakeRooms, ManualTimers } from '../testing/rooms';
import { keepListening, RETRY_MS, type StreamStatus } from './stream';

const view: RoomView = { source: 'x = 1\n', device: 'auto', seed: 0, step: 0, selected: null, zoom: null, view: 'graph', poll: null };

async function room(server: FakeRooms): Promise<string> {
  const r = await server.fetch('/api/rooms', { method: 'POST', body: JSON.stringify(view) });
  return ((await r.json()) as { code: string }).code;
}

/** Let the fetches in flight answer. */
const settle = () => new Promise((ok) => setTimeout(ok, 0));

describe('keepListening', () => {
  it('rides the browser’s own retries, and after it gives up asks whether the room exists before connecting again, waiting longer each time', async () => {
    const server = new FakeRooms();
    const code = await room(server);
    const timers = new ManualTimers();
    const statuses: StreamStatus[] = [];
    const steps: number[] = [];
    keepListening(server, code, { status: (s) => statuses.push(s), state: (s) => steps.push(s.view.step) }, '', timers);
    await settle();
    expect(statuses).toEqual(['connecting', 'live']);
    expect(steps).toEqual([0]);

    // A dropped connection the browser retries: nothing to do but say so.
    server.open(code)[0]!.fail(false);
    expect(statuses.at(-1)).toBe('reconnecting');
    expect(timers.pending.size).toBe(0);

    // The browser gives up (the server is away): wait, ask, wait longer, connect when it answers.
    server.down = true;
    server.sources.at(-1)!.fail(true);
    expect(timers.fire()).toEqual([RETRY_MS[0]]);
    await settle();
    expect(timers.fire()).toEqual([RETRY_MS[1]]);
    await settle();
    server.down = false;
    timers.fire();
    await settle();
    expect(server.log.filter((l) => l === `GET /api/rooms/${code}`).length).toBe(3); // asked each time
    expect(statuses.at(-1)).toBe('live');
    expect(server.followers(code)).toBe(1);
    expect(steps).toEqual([0, 0]);
  });

  it('ends when the room is gone, and when it closes', async () => {
    const server = new FakeRooms();
    const timers = new ManualTimers();
    const ends: (string | undefined)[] = [];
    keepListening(server, 'ABCDEF', { status: (s, why) => s === 'ended' && ends.push(why) }, '', timers);
    await settle();
    timers.fire();
    await settle();
    expect(ends).toEqual(['gone']);
    expect(timers.pending.size).toBe(0);

    const code = await room(server);
    keepListening(server, code, { status: (s, why) => s === 'ended' && ends.push(why) }, '', timers);
    await settle();
    server.end(code, 'idle');
    expect(ends).toEqual(['gone', 'idle']);
  });

  it('stops for good when asked, even with a retry waiting', async () => {
    const server = new FakeRooms();
    const code = await room(server);
    const timers = new ManualTimers();
    const stop = keepListening(server, code, { status: () => {} }, '', timers);
    await settle();
    server.sources[0]!.fail(true);
    stop();
    expect(timers.pending.size).toBe(0);
    expect(server.followers(code)).toBe(0);
  });
});
