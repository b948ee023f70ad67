// The app's program and what is shown of it, with no DOM: the text, device and seed;
// running it (a newer run drops an older one's answer); the stage built from the trace
// with the grouping, the opened blocks, the grad_fn chain view and the orientation; the
// layout asked for (a newer one wins); the selection, reset when the graph changes; the
// gradient check; the live sliders' re-runs. What needs a browser (the HTTP client, the
// layout worker, the text measure, the motion setting) comes in as arguments.
import type { Client, GradCheck } from '../api/client';
import type { Trace } from '../api/types';
import type { Measure } from '../graph/labels';
import type { LayoutInput, LayoutResult, Orientation } from '../graph/layout';
import { rewrite, type Literal } from '../lib/literals';
import { isGroup, type Group, type GroupMode } from '../model/grouping';
import type { PlayerSnapshot } from '../player/player';
import { Stage } from '../stage/stage';
import { checkVerdicts } from './marks';

export const DEFAULT_SOURCE = `import torch

x = torch.tensor(3.0, requires_grad=True)
y1 = x + 1
y2 = 2 * x
loss = (y1 - y2) ** 2

loss.backward()
print("x.grad:", x.grad)
`;

/** Above this many nodes a new graph opens grouped by loops (or modules). */
export const AUTO_GROUP_NODES = 1500;

/** How a big trace opens when nothing is grouped yet: by its loops, else its modules, else its operations. */
export function autoGroupMode(trace: Trace, current: GroupMode): GroupMode {
  if (trace.nodes.length <= AUTO_GROUP_NODES || current !== 'none') return current;
  if (trace.nodes.some((n) => (n.loops ?? []).length > 0)) return 'loops';
  return trace.nodes.some((n) => n.module) ? 'modules' : 'ops';
}

/** How long the live sliders wait for the next move before re-running. */
export const SLIDE_MS = 50;

export interface WorkbenchDeps {
  client: Pick<Client, 'trace' | 'gradcheck'>;
  /** Lays out a graph (a web worker in the browser). */
  layout: (input: LayoutInput) => Promise<LayoutResult>;
  /** Text widths for the node boxes. */
  measure: Measure;
  reducedMotion: () => boolean;
  /** Timings the benchmark and the tests read (window.__gradtrace in the browser). */
  stats: () => Record<string, number>;
}

export interface RunOptions {
  /** Where the player starts (null: at the start, playing if `autoplay`); absent: where it is. */
  step?: number | null;
  autoplay?: boolean;
  /** Which training iteration's graph to record in full (null: the default). */
  iteration?: number | null;
  /** A live slider's re-run: the same program, no spinner, the picture changes in place. */
  live?: boolean;
}

interface RebuildOptions {
  live?: boolean;
  step?: number | null;
  autoplay?: boolean;
  keepCursor?: boolean;
}

export type SliderRange = { min: number; max: number; step: number };

export class Workbench {
  source = $state(DEFAULT_SOURCE);
  device = $state('auto');
  seed = $state(0);

  trace = $state.raw<Trace | null>(null);
  /** The source the trace ran (labels quote it). */
  tracedSource = $state('');
  /** The training iteration whose graph was asked for (null: the default). */
  iteration = $state<number | null>(null);
  /** What is drawn of the trace: the graph, its timeline, its player. */
  stage = $state.raw<Stage | null>(null);
  readonly graph = $derived(this.stage?.graph ?? null);
  readonly player = $derived(this.stage?.player ?? null);
  /** The player's state, as the stage view reports it. */
  playerState = $state<PlayerSnapshot>({ cursor: 0, length: 0, playing: false, speed: 1, pass: null });
  layout = $state.raw<LayoutResult | null>(null);
  /** The graph view fits itself when this changes (not when the same graph is laid out again). */
  fitKey = $state('');

  groupMode = $state<GroupMode>('none');
  expanded = $state.raw<Set<string>>(new Set());
  /** The grad_fn chain alone, as torchviz draws it. */
  torchviz = $state(false);
  orientation = $state<Orientation>('TB');
  selected = $state(-1);
  hovered = $state(-1);

  loading = $state(false);
  /** Traces shown so far (tests wait on it). */
  runs = $state(0);
  requestError = $state<string | null>(null);

  check = $state.raw<GradCheck | null>(null);
  checking = $state(false);
  checkError = $state<string | null>(null);
  /** Per drawn node: 1 the gradient check agrees, -1 it disagrees, 0 not checked. */
  readonly checkMarks = $derived(checkVerdicts(this.stage, this.check));

  /** The live sliders' ranges, kept while the same program is re-run. */
  liveRanges = $state.raw(new Map<string, SliderRange>());
  /** A slider's value not traced yet: the slider shows it, not the literal of the trace
   * on screen (an answer for an earlier value must not pull the thumb back). */
  readonly liveValue = $derived.by(() => {
    const edit = this.liveEdit;
    if (!edit || edit.source !== this.source || this.source === this.tracedSource) return null;
    return { id: edit.id, value: edit.literal.value };
  });

  /** Whether the player must stop before a step (predict mode's open questions). */
  gate: (step: number) => boolean = () => false;
  /** Called when another program's trace (not a live re-run) is shown. */
  onNewProgram: () => void = () => {};

  private runController: AbortController | null = null;
  private layoutRequest = 0;
  private liveEdit = $state.raw<{ id: string; literal: Literal; source: string } | null>(null);
  private liveTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly deps: WorkbenchDeps,
    start: { source?: string; device?: string; seed?: number; torchviz?: boolean } = {},
  ) {
    this.source = start.source ?? DEFAULT_SOURCE;
    this.device = start.device ?? 'auto';
    this.seed = start.seed ?? 0;
    this.torchviz = start.torchviz ?? false;
  }

  async run(options: RunOptions = {}): Promise<void> {
    this.runController?.abort();
    const controller = new AbortController();
    this.runController = controller;
    if (!options.live) this.loading = true;
    this.requestError = null;
    try {
      const ran = this.source;
      const it = options.iteration ?? null;
      const { device, seed } = this;
      const request = it === null ? { source: ran, device, seed } : { source: ran, device, seed, iteration: it };
      const result = await this.deps.client.trace(request, controller.signal);
      if (controller !== this.runController) return;
      this.deps.stats()['responseAt'] = performance.now();
      this.tracedSource = ran;
      this.iteration = it;
      if (!options.live) {
        this.check = null;
        this.checkError = null;
        this.liveRanges = new Map();
      }
      this.show(result, options);
    } catch (error) {
      if (controller.signal.aborted) return;
      this.requestError = `The server could not run the program: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      if (controller === this.runController) this.loading = false;
    }
  }

  private show(result: Trace, options: RunOptions): void {
    const live = !!options.live && !!this.stage && !!this.layout;
    if (!live) {
      this.expanded = new Set();
      this.groupMode = autoGroupMode(result, this.groupMode);
      this.unselect();
    }
    this.trace = result;
    if (!live) this.onNewProgram();
    this.rebuild({
      live,
      step: options.step ?? null,
      autoplay: options.autoplay ?? true,
      keepCursor: options.iteration !== undefined && options.iteration !== null,
    });
  }

  /** Build the drawn graph from the trace, the grouping and the expanded blocks. */
  private rebuild(options: RebuildOptions = {}): void {
    const trace = this.trace;
    if (!trace) return;
    const t0 = performance.now();
    const next = new Stage(trace, {
      source: this.tracedSource,
      measure: this.deps.measure,
      torchviz: this.torchviz,
      groupMode: this.groupMode,
      expanded: this.expanded,
      shown: this.stage,
      shownLaidOut: this.layout !== null,
      // Same program (a live re-run, a regrouping, another iteration): keep the cursor.
      keepCursor: !!options.live || options.step === undefined || !!options.keepCursor,
      reducedMotion: this.deps.reducedMotion(),
    });
    next.player.gate = (step) => this.gate(step);
    this.stage = next;
    // Same graph, and the new texts fit the old boxes: the picture changes in place.
    if (next.fits) {
      this.runs++;
      return;
    }
    const p = next.player;
    // A new graph: no picture until it is laid out. The same graph with wider boxes
    // keeps its picture (and the view's zoom) until the new layout arrives.
    if (!next.sameGraph) {
      this.layout = null;
      this.fitKey = next.structure + '|' + this.orientation;
    }
    void this.relayout(next).then(() => {
      this.deps.stats()['layoutMs'] = performance.now() - t0;
      if (!options.live && !options.keepCursor && options.step !== undefined) {
        if (options.step !== null) p.seek(options.step);
        else if (options.autoplay && p.cursor === 0) p.play(); // not if a key already stepped it
      }
      this.runs++;
    });
  }

  private async relayout(stage: Stage): Promise<void> {
    const id = ++this.layoutRequest;
    try {
      const result = await this.deps.layout(stage.layoutInput(this.orientation));
      if (id === this.layoutRequest) this.layout = result;
    } catch (error) {
      this.requestError = `Layout failed: ${String(error)}`;
    }
  }

  private unselect(): void {
    this.selected = -1;
    this.hovered = -1;
  }

  setOrientation(o: Orientation): void {
    if (o === this.orientation) return;
    this.orientation = o;
    if (this.stage) {
      this.fitKey = this.stage.structure + '|' + o;
      void this.relayout(this.stage);
    }
  }

  /** Group the graph another way (the same mode again folds every opened block). */
  setGroupMode(mode: GroupMode): void {
    this.groupMode = mode;
    this.expanded = new Set();
    this.unselect();
    this.rebuild();
  }

  expand(group: Group): void {
    this.expanded = new Set([...this.expanded, group.key]);
    this.unselect();
    this.rebuild();
  }

  setTorchviz(on: boolean): void {
    this.torchviz = on;
    this.expanded = new Set();
    this.unselect();
    this.rebuild();
  }

  /** The block drawn as node `i`, if it is one. */
  groupAt(i: number): Group | undefined {
    const id = this.graph && i >= 0 ? this.graph.ids[i] : undefined;
    return id && isGroup(id) ? this.stage?.groups.get(id) : undefined;
  }

  /** Select the node of the whole trace with this id (-1 when it is not drawn). */
  selectId(id: string | null): void {
    this.selected = id === null ? -1 : (this.graph?.byId.get(id) ?? -1);
  }

  /** A live slider moved: rewrite the literal, re-run at most every SLIDE_MS, drop stale answers. */
  slide(id: string, literal: Literal, value: number): void {
    const lit = this.liveEdit && this.liveEdit.id === id && this.liveEdit.source === this.source ? this.liveEdit.literal : literal;
    const next = rewrite(this.source, lit, value);
    this.source = next.source;
    this.liveEdit = { id, literal: next.literal, source: next.source };
    if (this.liveTimer) clearTimeout(this.liveTimer);
    this.liveTimer = setTimeout(() => void this.run({ live: true, iteration: this.iteration }), SLIDE_MS);
  }

  async gradcheck(): Promise<void> {
    this.checking = true;
    this.checkError = null;
    try {
      this.check = await this.deps.client.gradcheck({ source: this.tracedSource || this.source, device: this.device, seed: this.seed });
    } catch (error) {
      this.check = null;
      this.checkError = `The gradient check failed: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.checking = false;
    }
  }
}
