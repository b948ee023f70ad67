// The page in a live room, with no DOM: the session's state as the page shows it; as
// the lecturer, the page's view to publish (program, step, selection, zoom, the open
// question); as a following student, the lecturer's view brought onto the page (its
// program run first, then its step, view and selection), and the room's question on
// this page's trace.
import { questionAt, type Question } from '../model/predict';
import { NO_ROOM, type RoomSession, type RoomUi } from '../room/session';
import { planFollow, type PageView, type Zoom } from '../room/view';
import type { PredictMode } from './predictMode.svelte';
import type { Workbench } from './workbench.svelte';

export class PageRoom {
  ui = $state.raw<RoomUi>(NO_ROOM);
  /** Where the graph view is (the lecturer's view carries it). */
  zoom = $state.raw<Zoom | null>(null);

  /** A student page showing the lecturer's view. */
  readonly following = $derived(this.ui.role === 'student' && this.ui.status === 'live' && !!this.ui.view);
  /** A student must not see the answer in the chain rule before the lecturer reveals it. */
  readonly asks = $derived(this.following && !!this.ui.view?.poll && !this.ui.view.poll.revealed);

  /** This page's view, as the lecturer's room shows it (null while nothing is on screen). */
  readonly pageView = $derived.by((): PageView | null => {
    const wb = this.wb;
    if (!wb.trace || !wb.graph || wb.loading) return null;
    const q = this.predict.pending ?? this.predict.explained;
    return {
      source: wb.tracedSource,
      device: wb.device,
      seed: wb.seed,
      step: wb.playerState.cursor,
      selected: wb.selected >= 0 ? (wb.graph.ids[wb.selected] ?? null) : null,
      zoom: this.zoom,
      torchviz: wb.torchviz,
      poll: q ? { node: q.node, step: q.step, revealed: !this.predict.pending } : null,
    };
  });

  /** The room's poll as a Question on this page's trace (null: none, or another program on screen). */
  readonly question = $derived.by((): Question | null => {
    const { ui, wb } = this;
    const poll = ui.role === 'lecturer' ? ui.poll : ui.view?.poll;
    const program = ui.role === 'lecturer' ? wb.tracedSource : ui.view?.source;
    return poll && wb.trace && wb.stage && program === wb.tracedSource ? questionAt(wb.trace, wb.stage.fullGraph, poll.step) : null;
  });

  constructor(
    readonly session: RoomSession,
    private readonly wb: Workbench,
    private readonly predict: PredictMode,
  ) {
    session.subscribe((ui) => (this.ui = ui));
  }

  /** Lecturer: send the page's view to the class (the session drops one unchanged). */
  publish(): void {
    if (this.ui.role === 'lecturer' && this.pageView) this.session.publish(this.pageView);
  }

  /** Student: bring the lecturer's view onto the page, one part at a time. */
  follow(): void {
    const view = this.following ? this.ui.view : null;
    if (!view) return;
    const wb = this.wb;
    const plan = planFollow(view, {
      shown: wb.trace ? { source: wb.tracedSource, device: wb.device, seed: wb.seed } : null,
      running: wb.loading ? { source: wb.source, device: wb.device, seed: wb.seed } : null,
      torchviz: wb.torchviz,
      step: wb.playerState.cursor,
      selected: wb.graph && wb.selected >= 0 ? (wb.graph.ids[wb.selected] ?? null) : null,
    });
    if (plan.run) {
      wb.source = plan.run.source;
      wb.device = plan.run.device;
      wb.seed = plan.run.seed;
      wb.torchviz = plan.run.torchviz;
      void wb.run({ step: plan.run.step, autoplay: false });
      return;
    }
    if (plan.torchviz !== undefined) wb.setTorchviz(plan.torchviz);
    const player = wb.player;
    if (plan.step !== undefined && player) {
      player.pause();
      player.seek(plan.step, plan.step === player.cursor + 1);
    }
    if (plan.select !== undefined) wb.selectId(plan.select);
  }

  /** A following student runs a program of their own: they leave to explore (else the room's would replace it). */
  explore(): void {
    if (this.following) this.session.leave();
  }
}
