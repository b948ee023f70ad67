// What a room carries between pages: the lecturer's page as a View, and what a
// student's page must do to show that View. Pure, no DOM.
import type { RoomPoll, RoomView } from '../api/types';

export type Zoom = NonNullable<RoomView['zoom']>;

/** A poll before the room gives it an id: the question at backward `step`, asked of `node`. */
export interface PollDraft {
  node: string;
  step: number;
  revealed: boolean;
}

/** The lecturer's page, as the room's View is made from it. */
export interface PageView {
  source: string;
  device: string;
  seed: number;
  step: number;
  selected: string | null;
  zoom: Zoom | null;
  torchviz: boolean;
  poll: PollDraft | null;
}

/** The longest node id a View takes (the server's bound): a longer one is not sent. */
const MAX_ID = 64;

export function roomView(page: PageView, poll: RoomPoll | null): RoomView {
  return {
    source: page.source,
    device: page.device,
    seed: page.seed,
    step: page.step,
    selected: page.selected !== null && page.selected.length <= MAX_ID ? page.selected : null,
    zoom: page.zoom,
    view: page.torchviz ? 'torchviz' : 'graph',
    poll,
  };
}

export function sameView(a: RoomView | null, b: RoomView | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The poll to publish for `draft`: the open one's id while the same question stays
 * (the class's answers stay with it, revealed or not), a new id for a new question.
 */
export function pollFor(draft: PollDraft | null, source: string, last: RoomView | null, newId: () => number): RoomPoll | null {
  if (!draft) return null;
  const open = last?.poll;
  if (open && last?.source === source && open.node === draft.node && open.step === draft.step) return { ...draft, id: open.id };
  let id = newId();
  while (open && id === open.id) id = newId();
  return { ...draft, id };
}

/** Poll ids at random: a reloaded lecturer page cannot count on the ids it used before. */
export const randomPollId = (random: () => number = Math.random) => 1 + Math.floor(random() * 999_999);

// The zoom travels as the layout point at the view's centre and the scale: a student's
// window of another size shows the same place at the same scale.

export interface ViewTransform {
  k: number;
  x: number;
  y: number;
}

export function zoomOf(t: ViewTransform, width: number, height: number): Zoom {
  const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
  return { k: round(t.k, 4), x: round((width / 2 - t.x) / t.k, 1), y: round((height / 2 - t.y) / t.k, 1) };
}

export function transformFor(z: Zoom, width: number, height: number): ViewTransform {
  return { k: z.k, x: width / 2 - z.x * z.k, y: height / 2 - z.y * z.k };
}

/** A student's page, as far as following is concerned. */
export interface FollowerPage {
  /** The program the trace on screen ran (null: none yet), and the one being run now. */
  shown: Program | null;
  running: Program | null;
  torchviz: boolean;
  step: number;
  selected: string | null;
}

export interface Program {
  source: string;
  device: string;
  seed: number;
}

/** What the student's page must do to show `view`: run its program first, else set what differs. */
export type Plan =
  { run: Program & { step: number; torchviz: boolean } } | { run?: undefined; torchviz?: boolean; step?: number; select?: string | null };

const sameProgram = (a: Program | null, b: Program) => !!a && a.source === b.source && a.device === b.device && a.seed === b.seed;

export function planFollow(view: RoomView, page: FollowerPage): Plan {
  const program = { source: view.source, device: view.device, seed: view.seed };
  const torchviz = view.view === 'torchviz';
  if (!sameProgram(page.shown, program))
    return sameProgram(page.running, program) ? {} : { run: { ...program, step: view.step, torchviz } };
  const plan: Plan = {};
  if (torchviz !== page.torchviz) plan.torchviz = torchviz;
  if (view.step !== page.step) plan.step = view.step;
  if ((view.selected ?? null) !== page.selected) plan.select = view.selected ?? null;
  return plan;
}

/** A room code as typed or linked: case and separators do not matter; null if it cannot be one. */
export function roomCode(text: string): string | null {
  const code = text.toUpperCase().replace(/[\s-]/g, '');
  return /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/.test(code) ? code : null;
}

/** The room a page's query names (`?room=CODE`). */
export function roomInLink(search: string): string | null {
  const value = new URLSearchParams(search).get('room');
  return value === null ? null : roomCode(value);
}

/** The link students open. */
export const joinPath = (code: string) => `/?room=${code}`;
