// The stage: what both pages (the app and the standalone player) show of one trace,
// with no DOM. Given the trace and how to draw it (the program's text, the grad_fn
// chain alone, grouping), it builds the drawn graph, its timeline, its box texts and
// the player, and says as plain data what each step shows: the scene, the printed
// output so far, the hook that fired, the caption, the note, torch's warnings and
// the running line; and what the inspector shows of a node.
import type { Trace } from '../api/types';
import type { Running } from '../editor/decorations';
import { runningAt } from '../editor/running';
import type { LayoutInput, Orientation } from '../graph/layout';
import { nodeLabels, type Measure, type NodeLabels } from '../graph/labels';
import { sizingTags } from '../graph/tags';
import { stepCaption } from '../model/caption';
import { badges, nodeNotes, stepNote } from '../model/concepts';
import { GraphIndex, ROLES, type Role } from '../model/graphIndex';
import { groupTrace, isGroup, type Group, type GroupMode } from '../model/grouping';
import { sceneAt, type SceneState } from '../model/scene';
import { TimelineIndex } from '../model/timeline';
import { torchvizTrace } from '../model/torchviz';
import { findTrouble, troubleWords } from '../model/trouble';
import { warningsAt, type ShownWarning } from '../model/warnings';
import { Player, SPEEDS } from '../player/player';

export interface StageOptions {
  /** The program the trace ran: labels name unnamed tensors by its text ("y1 - y2"). */
  source: string;
  /** Text widths for the node boxes (a canvas in the browser). */
  measure: Measure;
  /** Draw the grad_fn chain alone, as torchviz does. */
  torchviz?: boolean;
  groupMode?: GroupMode;
  /** Blocks the learner opened. */
  expanded?: ReadonlySet<string>;
  /** The stage on screen: the same graph keeps its boxes and may keep its player. */
  shown?: Stage | null;
  /** Whether the shown stage has its layout (else its boxes are not worth keeping). */
  shownLaidOut?: boolean;
  /** Keep the shown stage's player and its cursor (the same program: a live re-run, a regrouping). */
  keepCursor?: boolean;
  /** No tweening in the player (prefers-reduced-motion). */
  reducedMotion?: boolean;
}

/** What a step shows besides the graph. */
export interface StepState {
  scene: SceneState;
  /** What the program printed before this step. */
  printed: string;
  /** The drawn node whose hook fired at this step, or -1. */
  hookFired: number;
  /** The step in words. */
  caption: string;
  /** torch's warnings shown at this step. */
  warnings: ShownWarning[];
  /** The line(s) running: the current node's (forward), the backward() call's (backward); null without the program's text. */
  running: Running | null;
  /** Whether the cursor is at the end of the program. */
  atEnd: boolean;
}

/** What the inspector shows of a drawn node: a block, or a node with notes and trouble. */
export type Inspected = { group: Group } | { group: null; notes: string[]; trouble: string[] };

/** A speed at which a run takes about half a minute at most (long programs play faster). */
export function playSpeed(length: number): number {
  return SPEEDS.find((s) => s >= 1 && length / (3 * s) <= 30) ?? SPEEDS[SPEEDS.length - 1]!;
}

export class Stage {
  /** The whole trace (captions, the chain rule and the notes read it). */
  readonly trace: Trace;
  /** What is drawn: the trace, its grad_fn chain or its grouped view. */
  readonly view: Trace;
  readonly source: string;
  readonly graph: GraphIndex;
  /** The graph of the whole trace (the same object when nothing is left out). */
  readonly fullGraph: GraphIndex;
  readonly timeline: TimelineIndex;
  readonly labels: NodeLabels;
  readonly groups: Map<string, Group>;
  /** Where each node of the trace is drawn when not as itself: its torchviz stand-in, then its block. */
  readonly drawnAs: Map<string, string>;
  readonly badges: Uint8Array;
  /** Trouble flags per drawn node (a block has its members'). */
  readonly trouble: Uint8Array;
  readonly roles: Set<Role>;
  /** Names the graph's structure: the same string, the same layout. */
  readonly structure: string;
  /** The same graph as the shown stage: its layout fits this one. */
  readonly sameGraph: boolean;
  /** ... and every text fits its old box: the picture changes in place, no new layout. */
  readonly fits: boolean;
  readonly player: Player;

  constructor(trace: Trace, options: StageOptions) {
    this.trace = trace;
    this.source = options.source;
    const tv = options.torchviz ? torchvizTrace(trace) : null;
    const grouped = groupTrace(tv?.trace ?? trace, options.groupMode ?? 'none', options.expanded ?? new Set());
    const view = grouped?.trace ?? tv?.trace ?? trace;
    this.view = view;
    const g = new GraphIndex(view, options.source);
    this.graph = g;
    this.fullGraph = grouped || tv ? new GraphIndex(trace, options.source) : g;
    this.timeline = new TimelineIndex(view);
    this.groups = grouped?.groups ?? new Map();
    const drawnAs = new Map(grouped?.rep ?? []);
    for (const [id, f] of tv?.rep ?? []) drawnAs.set(id, grouped?.rep.get(f) ?? f);
    this.drawnAs = drawnAs;
    this.badges = badges(g);
    const fullTrouble = findTrouble(trace, this.fullGraph);
    this.trouble = this.fullGraph === g ? fullTrouble : this.onDrawn(fullTrouble);
    this.roles = new Set(Array.from(g.role, (r) => ROLES[r]!));
    // Trouble flags size the boxes too (a grouped graph's are merged after sizing).
    const trouble = grouped ? null : this.fullGraph === g ? fullTrouble : findTrouble(view, g);
    const labels = nodeLabels(g, options.measure, { trace: view, tags: sizingTags(this.badges, trouble, g) });
    this.structure = g.ids.join(',') + '|' + Array.from(g.edgeSource, (s, e) => `${s}>${g.edgeTarget[e]}`).join(',');
    const shown = options.shown ?? null;
    const old = shown?.labels;
    this.sameGraph = !!shown && !!options.shownLaidOut && shown.structure === this.structure && old!.width.length === g.n;
    // Texts that grew (a slider made 3 into 10.9) need wider boxes, so a new layout.
    this.fits = this.sameGraph && labels.width.every((w, i) => w <= old!.width[i]!);
    if (this.sameGraph) labels.width = labels.width.map((w, i) => Math.max(w, old!.width[i]!));
    this.labels = labels;
    if (shown && (options.keepCursor || this.fits)) {
      shown.player.retarget(new TimelineIndex(view));
      this.player = shown.player;
    } else {
      shown?.player.pause();
      this.player = new Player(new TimelineIndex(view), { reducedMotion: options.reducedMotion ?? false });
      this.player.speed = playSpeed(this.player.length);
    }
  }

  /** The drawn node standing for node `id` of the trace, or -1. */
  drawnIndex(id: string): number {
    return this.graph.byId.get(this.drawnAs.get(id) ?? id) ?? -1;
  }

  /** Per-node flags of the whole graph, or-ed onto the nodes drawn for them. */
  private onDrawn(flags: Uint8Array): Uint8Array {
    const out = new Uint8Array(this.graph.n);
    flags.forEach((f, i) => {
      const j = f ? this.drawnIndex(this.fullGraph.ids[i]!) : -1;
      if (j >= 0) out[j]! |= f;
    });
    return out;
  }

  /** What the layout worker needs. */
  layoutInput(orientation: Orientation): LayoutInput {
    const g = this.graph;
    return { n: g.n, widths: this.labels.width.slice(), edgeSource: g.edgeSource, edgeTarget: g.edgeTarget, orientation };
  }

  stepAt(cursor: number): StepState {
    const { trace, view, graph, timeline } = this;
    const scene = sceneAt(graph, timeline, cursor);
    let printed = '';
    for (let j = 0, count = timeline.printsBefore(cursor); j < count; j++) {
      const e = trace.timeline[timeline.prints[j]!];
      if (e && e.phase === 'print') printed += e.text;
    }
    const e = view.timeline[cursor - 1];
    const hookFired = e && e.phase === 'backward' && e.node_kind === 'tensor' && e.hooked ? (graph.byId.get(e.node) ?? -1) : -1;
    return {
      scene,
      printed,
      hookFired,
      // In words from the whole trace: a grouped or torchviz view names members it does not draw.
      caption: stepCaption(trace, this.fullGraph, cursor),
      warnings: warningsAt(trace, cursor),
      running: this.source ? runningAt(scene, graph, timeline) : null,
      atEnd: cursor >= timeline.length,
    };
  }

  /** The sentence under the chain rule at a step (what a concept means here). */
  noteAt(cursor: number): string {
    return stepNote(this.trace, this.fullGraph, cursor);
  }

  /** What the inspector shows of drawn node `i`, or null when there is no such node. */
  inspect(i: number): Inspected | null {
    const id = this.graph.ids[i];
    if (id === undefined) return null;
    const group = isGroup(id) ? this.groups.get(id) : undefined;
    if (group) return { group };
    const full = this.fullGraph.byId.get(id);
    return {
      group: null,
      notes: full === undefined ? [] : nodeNotes(this.trace, this.fullGraph, full),
      trouble: troubleWords(this.trouble[i] ?? 0),
    };
  }

  /** Words the accessible node list adds to drawn node `i`: its trouble and the gradient check's verdict. */
  listWords(i: number, check: Int8Array | null): string {
    const words = troubleWords(this.trouble[i] ?? 0).map((w) => `trouble ${w}`);
    if (check?.[i]) words.push(check[i]! > 0 ? 'gradcheck agrees' : 'gradcheck disagrees');
    return words.join('; ');
  }
}
