import { describe, expect, it } from 'vitest';
import { RoomSession } from '../room/session';
import { fixtures } from '../testing/fixtures';
import { FakeRooms, ManualTimers, memoryStore } from '../testing/rooms';
import { testWorkbench } from '../testing/traceServer';
import { PageRoom } from './pageRoom.svelte';
import { PredictMode } from './predictMode.svelte';

const settle = () => new Promise((ok) => setTimeout(ok, 0));
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 50 && !ok(); i++) await settle();
  expect(ok()).toBe(true);
};

/** A page as the app wires it: a workbench, predict mode and the room, on one rooms server. */
function page(server: FakeRooms, source = fixtures.scalarOps.__source) {
  const { wb } = testWorkbench(source);
  const predict = new PredictMode(wb);
  wb.gate = (step) => predict.gate(step);
  wb.onNewProgram = () => predict.newProgram();
  const room = new PageRoom(new RoomSession(server, memoryStore(), 'https://class.example', new ManualTimers(), 0), wb, predict);
  /** The stage view reports the player's state so. */
  const watch = () => wb.player!.subscribe((p) => (wb.playerState = p.snapshot()));
  return { wb, predict, room, watch };
}

describe('PageRoom', () => {
  it("has no view to give while nothing is shown, then the page's program, step, selection, zoom and open question", async () => {
    const { wb, predict, room, watch } = page(new FakeRooms());
    expect(room.pageView).toBeNull();
    await wb.run({ step: 0, autoplay: false });
    await settle();
    watch();
    wb.player!.seek(3);
    wb.selected = 2;
    room.zoom = { k: 2, x: 10, y: 20 };
    expect(room.pageView).toEqual({
      source: fixtures.scalarOps.__source,
      device: 'auto',
      seed: 0,
      step: 3,
      selected: wb.graph!.ids[2],
      zoom: { k: 2, x: 10, y: 20 },
      torchviz: false,
      poll: null,
    });
    predict.set(true);
    const q = predict.questions[0]!;
    wb.player!.seek(q.stop - 1);
    expect(room.pageView?.poll).toEqual({ node: q.node, step: q.step, revealed: false });
    predict.giveUp(q);
    expect(room.pageView?.poll).toEqual({ node: q.node, step: q.step, revealed: true });
  });

  it("brings the lecturer's view onto a following student's page: the program first, then step, view and selection", async () => {
    const server = new FakeRooms();
    const lecturer = page(server);
    await lecturer.wb.run({ step: 0, autoplay: false });
    await settle();
    lecturer.watch();
    lecturer.room.publish(); // not in a room: nothing to send
    expect(server.log).toEqual([]);
    await lecturer.room.session.open(lecturer.room.pageView!);
    const code = lecturer.room.ui.code;

    const student = page(server, 'x = 1\n');
    student.room.session.start(`?room=${code}`);
    await until(() => student.room.following);
    student.room.follow();
    expect(student.wb.source).toBe(fixtures.scalarOps.__source);
    await until(() => student.wb.trace === fixtures.scalarOps && student.wb.runs > 0);
    student.watch();

    lecturer.wb.player!.seek(5);
    lecturer.wb.selected = 4;
    lecturer.wb.setTorchviz(true);
    lecturer.wb.selected = 1;
    lecturer.room.publish();
    await until(() => student.room.ui.view?.step === 5 && student.room.ui.view.view === 'torchviz');
    student.room.follow();
    expect(student.wb.torchviz).toBe(true);
    expect(student.wb.player!.cursor).toBe(5);
    expect(student.wb.graph!.ids[student.wb.selected]).toBe(lecturer.wb.graph!.ids[1]);

    // The lecturer asks: the poll is a question on the student's trace too, and hides the chain rule.
    lecturer.predict.set(true);
    const q = lecturer.predict.questions[0]!;
    lecturer.wb.player!.seek(q.stop - 1);
    lecturer.room.publish();
    await until(() => !!student.room.ui.view?.poll);
    expect(student.room.question).toEqual(q);
    expect(student.room.asks).toBe(true);
    await until(() => lecturer.room.ui.poll !== null);
    expect(lecturer.room.question).toEqual(q);

    // The student runs a program of their own: they leave to explore.
    student.room.explore();
    expect(student.room.following).toBe(false);
    expect(student.room.ui.status).toBe('away');
  });
});
