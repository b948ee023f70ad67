import { describe, expect, it } from 'vitest';
import { FakeRooms, ManualTimers, memoryStore } from '../testing/rooms';
import { RoomSession } from './session';
import type { PageView } from './view';

const page = (over: Partial<PageView> = {}): PageView => ({
  source: 'x = 1\n',
  device: 'auto',
  seed: 0,
  step: 0,
  selected: null,
  zoom: null,
  torchviz: false,
  poll: null,
  ...over,
});
const settle = () => new Promise((ok) => setTimeout(ok, 0));
/** The lecturer's throttle (50 ms by default) is 0 here: each view goes once the last is answered. */
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 50 && !ok(); i++) await settle();
  expect(ok()).toBe(true);
};

function lecturerOf(server: FakeRooms, store = memoryStore(), ids = [11, 12, 13, 14]) {
  return new RoomSession(server, store, 'https://class.example', new ManualTimers(), 0, () => ids.shift()!);
}

describe('RoomSession, lecturer', () => {
  it('opens a room, publishes only changed views, counts followers, ends the room', async () => {
    const server = new FakeRooms();
    const lecturer = lecturerOf(server);
    await lecturer.open(page());
    const code = lecturer.ui.code;
    expect(lecturer.ui).toMatchObject({ role: 'lecturer', link: `https://class.example/?room=${code}` });
    await settle();
    expect(lecturer.ui.status).toBe('live');

    lecturer.publish(page()); // unchanged: nothing sent
    lecturer.publish(page({ step: 4, zoom: { k: 2, x: 10, y: 20 } }));
    await until(() => server.rooms.get(code)!.state.view.step === 4);
    expect(server.log.filter((l) => l.startsWith('PUT')).length).toBe(1);
    expect(server.rooms.get(code)!.state.view.zoom).toEqual({ k: 2, x: 10, y: 20 });

    const student = new RoomSession(server, memoryStore(), 'https://class.example', new ManualTimers());
    student.join(code.toLowerCase());
    await settle();
    expect(lecturer.ui.followers).toBe(1);
    student.leave();
    expect(lecturer.ui.followers).toBe(0);

    await lecturer.end();
    expect(lecturer.ui.role).toBe('none');
    expect(server.rooms.has(code)).toBe(false);
    expect(student.ui.status).toBe('away'); // it had left; its snap back finds the room gone
  });

  it('keeps the room over a reload: the token stays in the tab, the room’s view and poll id come back before it publishes', async () => {
    const server = new FakeRooms();
    const store = memoryStore();
    const before = lecturerOf(server, store);
    const asked = page({ step: 7, poll: { node: 'f2', step: 8, revealed: false } });
    await before.open(asked);
    const code = before.ui.code;
    expect(before.ui.poll?.id).toBe(11);
    const student = new RoomSession(server, memoryStore(), '', new ManualTimers());
    student.join(code);
    await settle();

    const after = lecturerOf(server, store, [99]);
    after.start('');
    expect(after.ui).toMatchObject({ role: 'lecturer', code, status: 'connecting' });
    after.publish(asked); // before the room's state is heard: held
    expect(server.log.filter((l) => l.startsWith('PUT')).length).toBe(0);
    await until(() => after.ui.followers === 1);
    expect(after.ui.status).toBe('live');
    expect(after.ui.poll?.id).toBe(11); // the same question keeps its answers
    after.publish({ ...asked, poll: { node: 'f2', step: 8, revealed: true } });
    await until(() => server.rooms.get(code)!.state.view.poll?.revealed === true);
    expect(server.rooms.get(code)!.state.view.poll?.id).toBe(11);
  });

  it('shows the class’s answers to the open poll only, and starts a new poll with none', async () => {
    const server = new FakeRooms();
    const lecturer = lecturerOf(server);
    await lecturer.open(page({ poll: { node: 'f2', step: 8, revealed: false } }));
    const code = lecturer.ui.code;
    await settle();
    const students = ['ann', 'bob'].map(() => new RoomSession(server, memoryStore(), '', new ManualTimers()));
    for (const s of students) s.join(code);
    await settle();
    server.client = 'ann';
    expect(await students[0]!.answer(11, 4)).toBe(true);
    server.client = 'bob';
    await students[1]!.answer(11, -4);
    expect(lecturer.ui.answers).toEqual({ poll: 11, count: 2, values: [-4, 4] });
    expect(students[1]!.ui.sent).toEqual({ poll: 11, value: -4 });

    lecturer.publish(page({ poll: { node: 'f1', step: 10, revealed: false } }));
    expect(lecturer.ui.poll?.id).toBe(12);
    expect(lecturer.ui.answers).toBeNull();
    await until(() => students[1]!.ui.view?.poll?.id === 12);
    expect(students[1]!.ui.sent).toBeNull(); // a new question: nothing sent to it yet
    expect(await students[1]!.answer(11, 1)).toBe(false); // the old one is closed
    expect(students[1]!.ui.error).toBe('That question has closed.');
  });

  it('ends when the server has lost the room, and forgets its token', async () => {
    const server = new FakeRooms();
    const store = memoryStore();
    const lecturer = lecturerOf(server, store);
    await lecturer.open(page());
    await settle();
    server.rooms.delete(lecturer.ui.code); // a restart without Redis
    lecturer.publish(page({ step: 1 }));
    await until(() => lecturer.ui.status === 'ended');
    expect(lecturer.ui.endReason).toBe('gone');
    expect(store.items.size).toBe(0);
    lecturer.dismiss();
    expect(lecturer.ui.role).toBe('none');
  });
});

describe('RoomSession, student', () => {
  it('joins by link, follows, leaves to explore (not counted), snaps back to the newest view', async () => {
    const server = new FakeRooms();
    const lecturer = lecturerOf(server);
    await lecturer.open(page());
    const code = lecturer.ui.code;
    const student = new RoomSession(server, memoryStore(), '', new ManualTimers());
    student.start(`?room=${code}`);
    await settle();
    expect(student.following).toBe(true);
    lecturer.publish(page({ step: 2 }));
    await until(() => student.ui.view?.step === 2);

    student.leave();
    expect(student.following).toBe(false);
    lecturer.publish(page({ step: 3 }));
    await until(() => server.rooms.get(code)!.state.view.step === 3);
    expect(student.ui.view?.step).toBe(2);
    expect(lecturer.ui.followers).toBe(0);

    student.snapBack();
    await settle();
    expect(student.following).toBe(true);
    expect(student.ui.view?.step).toBe(3);
    expect(lecturer.ui.followers).toBe(1);

    await lecturer.end();
    expect(student.ui).toMatchObject({ status: 'ended', endReason: 'ended' });
  });

  it('refuses a code that cannot be one, and says so', () => {
    const student = new RoomSession(new FakeRooms(), memoryStore(), '', new ManualTimers());
    student.join('HELLO0');
    expect(student.ui.role).toBe('none');
    expect(student.ui.error).toMatch(/not a room code/);
  });
});
