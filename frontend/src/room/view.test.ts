import { describe, expect, it } from 'vitest';
import type { RoomView } from '../api/types';
import { planFollow, pollFor, roomCode, roomInLink, roomView, transformFor, zoomOf, type FollowerPage, type PageView } from './view';

const page = (over: Partial<PageView> = {}): PageView => ({
  source: 'x = 1\n',
  device: 'auto',
  seed: 0,
  step: 3,
  selected: null,
  zoom: null,
  torchviz: false,
  poll: null,
  ...over,
});

describe('roomView', () => {
  it('carries the page, the view kind, and leaves out a node id longer than the server takes', () => {
    const v = roomView(page({ torchviz: true, selected: 'f3' }), null);
    expect(v).toEqual({ source: 'x = 1\n', device: 'auto', seed: 0, step: 3, selected: 'f3', zoom: null, view: 'torchviz', poll: null });
    expect(roomView(page({ selected: 'g'.repeat(65) }), null).selected).toBeNull();
  });
});

describe('pollFor', () => {
  const ids =
    (...values: number[]) =>
    () =>
      values.shift()!;
  it('keeps the id while the same question stays (asked, then revealed), a new one for a new question or program', () => {
    const draft = { node: 'f2', step: 9, revealed: false };
    const first = pollFor(draft, 'a', null, ids(7))!;
    expect(first).toEqual({ node: 'f2', step: 9, revealed: false, id: 7 });
    const last: RoomView = { ...roomView(page({ source: 'a' }), first) };
    expect(pollFor({ ...draft, revealed: true }, 'a', last, ids(8))).toEqual({ ...draft, revealed: true, id: 7 });
    expect(pollFor({ node: 'f1', step: 12, revealed: false }, 'a', last, ids(8))!.id).toBe(8);
    expect(pollFor(draft, 'b', last, ids(8))!.id).toBe(8);
    // A new question never takes the open one's id (its answers would show).
    expect(pollFor({ node: 'f1', step: 12, revealed: false }, 'a', last, ids(7, 7, 3))!.id).toBe(3);
    expect(pollFor(null, 'a', last, ids(1))).toBeNull();
  });
});

describe('zoom', () => {
  it('travels as the centre point and scale: another window size shows the same centre', () => {
    const z = zoomOf({ k: 2, x: -100, y: 50 }, 800, 600);
    expect(z).toEqual({ k: 2, x: 250, y: 125 });
    const t = transformFor(z, 400, 300);
    expect(t).toEqual({ k: 2, x: -300, y: -100 });
    // The centre of the small window is the same layout point.
    expect([(200 - t.x) / t.k, (150 - t.y) / t.k]).toEqual([250, 125]);
  });
});

describe('planFollow', () => {
  const view = (over: Partial<RoomView> = {}): RoomView => ({ ...roomView(page(), null), ...over });
  const shown = { source: 'x = 1\n', device: 'auto', seed: 0 };
  const student = (over: Partial<FollowerPage> = {}): FollowerPage => ({
    shown,
    running: null,
    torchviz: false,
    step: 3,
    selected: null,
    ...over,
  });

  it('runs another program first, at the lecturer’s step, and waits while it runs', () => {
    expect(planFollow(view({ source: 'y = 2\n', step: 5 }), student())).toEqual({
      run: { source: 'y = 2\n', device: 'auto', seed: 0, step: 5, torchviz: false },
    });
    expect(planFollow(view({ seed: 4 }), student()).run?.seed).toBe(4);
    expect(planFollow(view({ source: 'y = 2\n' }), student({ running: { ...shown, source: 'y = 2\n' } }))).toEqual({});
    expect(planFollow(view(), student({ shown: null })).run).toBeDefined();
  });

  it('sets only what differs: the step, the selection, the view kind', () => {
    expect(planFollow(view(), student())).toEqual({});
    expect(planFollow(view({ step: 4, selected: 't1', view: 'torchviz' }), student())).toEqual({ step: 4, select: 't1', torchviz: true });
    expect(planFollow(view({ selected: null }), student({ selected: 't1' }))).toEqual({ select: null });
  });
});

describe('room codes', () => {
  it('reads a code as typed or linked, and refuses what cannot be one', () => {
    expect(roomCode(' abc-def ')).toBe('ABCDEF');
    expect(roomCode('ABCDE0')).toBeNull(); // 0 is not in the alphabet (O and 0 look alike)
    expect(roomCode('ABCDEFG')).toBeNull();
    expect(roomInLink('?room=k7m2qp&x=1')).toBe('K7M2QP');
    expect(roomInLink('?x=1')).toBeNull();
  });
});
