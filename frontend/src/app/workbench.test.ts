import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Trace } from '../api/types';
import { computeLayout } from '../graph/layout';
import { literalIn } from '../lib/literals';
import { fixtures } from '../testing/fixtures';
import { recorded, testWorkbench as bench } from '../testing/traceServer';
import { AUTO_GROUP_NODES, autoGroupMode, SLIDE_MS, Workbench } from './workbench.svelte';

const settle = () => new Promise((ok) => setTimeout(ok, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe('Workbench, running a program', () => {
  it('runs the source on the device and seed, builds the stage, lays it out and counts the run', async () => {
    const { server, stats, wb } = bench();
    wb.device = 'cpu';
    wb.seed = 7;
    let fresh = 0;
    wb.onNewProgram = () => fresh++;
    const running = wb.run({ step: 0, autoplay: false });
    expect(wb.loading).toBe(true);
    await running;
    expect(server.requests).toEqual([{ source: fixtures.scalarOps.__source, device: 'cpu', seed: 7 }]);
    expect(wb.loading).toBe(false);
    expect(wb.trace).toBe(fixtures.scalarOps);
    expect(wb.tracedSource).toBe(fixtures.scalarOps.__source);
    expect(wb.stage?.graph.n).toBe(fixtures.scalarOps.nodes.length);
    expect(wb.graph).toBe(wb.stage?.graph);
    expect(wb.player).toBe(wb.stage?.player);
    expect(fresh).toBe(1);
    expect(wb.fitKey).toBe(wb.stage!.structure + '|TB');
    await settle();
    expect(wb.layout?.x).toHaveLength(wb.graph!.n);
    expect(wb.runs).toBe(1);
    expect(stats['responseAt']).toBeGreaterThan(0);
    expect(stats['layoutMs']).toBeGreaterThanOrEqual(0);
  });

  it('keeps only the newest run: an older answer that comes later is dropped', async () => {
    const { server, wb } = bench();
    server.hold = true;
    wb.source = fixtures.scalarOps.__source;
    const first = wb.run();
    wb.source = fixtures.loopOutput.__source;
    const second = wb.run();
    expect(server.signals[0]!.aborted).toBe(true);
    server.release(1);
    await second;
    server.release(0);
    await first;
    expect(wb.trace).toBe(fixtures.loopOutput);
    expect(wb.tracedSource).toBe(fixtures.loopOutput.__source);
    expect(wb.loading).toBe(false);
  });

  it('says when the server could not run the program, and keeps what was shown', async () => {
    const { wb } = bench();
    await wb.run();
    const shown = wb.stage;
    wb.source = 'not a recorded program';
    await wb.run();
    expect(wb.requestError).toBe('The server could not run the program: 400: no such program');
    expect(wb.stage).toBe(shown);
    expect(wb.loading).toBe(false);
  });

  it('asks for a training iteration and keeps the cursor there', async () => {
    const { server, wb } = bench();
    await wb.run({ step: 0, autoplay: false });
    await settle();
    wb.player!.seek(5);
    await wb.run({ iteration: 2, step: null, autoplay: false });
    expect(server.requests[1]).toEqual({ source: fixtures.scalarOps.__source, device: 'auto', seed: 0, iteration: 2 });
    expect(wb.iteration).toBe(2);
    expect(wb.player!.cursor).toBe(5);
  });

  it('gates the player with the page gate, read when the player asks', async () => {
    const { wb } = bench();
    await wb.run({ step: 0, autoplay: false });
    await settle();
    expect(wb.player!.blocked).toBe(false);
    wb.gate = (step) => step === 1;
    expect(wb.player!.blocked).toBe(true);
  });
});

describe('Workbench, how the graph is drawn', () => {
  it('groups by loop, opens a block, folds them all again, and unselects each time', async () => {
    const { wb } = bench(fixtures.loopOutput.__source);
    await wb.run({ step: 0, autoplay: false });
    await settle();
    wb.selected = 3;
    wb.hovered = 4;
    wb.setGroupMode('loops');
    expect([wb.selected, wb.hovered]).toEqual([-1, -1]);
    expect(wb.stage!.groups.size).toBeGreaterThan(0);
    const block = wb.graph!.ids.findIndex((id) => wb.stage!.groups.has(id));
    const group = wb.groupAt(block)!;
    expect(group).toBe(wb.stage!.groups.get(wb.graph!.ids[block]!));
    expect(wb.groupAt(wb.graph!.ids.findIndex((id) => !wb.stage!.groups.has(id)))).toBeUndefined();
    const grouped = wb.graph!.n;
    wb.selected = block;
    wb.expand(group);
    expect(wb.selected).toBe(-1);
    expect(wb.expanded.has(group.key)).toBe(true);
    expect(wb.graph!.n).toBeGreaterThan(grouped);
    wb.setGroupMode('loops');
    expect(wb.expanded.size).toBe(0);
    expect(wb.graph!.n).toBe(grouped);
  });

  it('draws the grad_fn chain alone, keeping the player and its cursor', async () => {
    const { wb } = bench();
    await wb.run({ step: 0, autoplay: false });
    await settle();
    const player = wb.player!;
    player.seek(4);
    wb.setTorchviz(true);
    expect(wb.torchviz).toBe(true);
    expect(wb.graph!.n).toBeLessThan(fixtures.scalarOps.nodes.length);
    expect(wb.player).toBe(player);
    expect(player.cursor).toBe(4);
  });

  it('lays the same graph out again on turning it, with a new fit key', async () => {
    const { wb } = bench();
    await wb.run();
    await settle();
    const before = wb.layout!;
    wb.setOrientation('TB'); // unchanged: nothing to do
    expect(wb.layout).toBe(before);
    wb.setOrientation('LR');
    expect(wb.fitKey).toBe(wb.stage!.structure + '|LR');
    await settle();
    expect(wb.layout).not.toBe(before);
    expect({ ...wb.layout!, ms: 0 }).toEqual({ ...computeLayout(wb.stage!.layoutInput('LR')), ms: 0 });
  });

  it('selects a node by its id, or nothing when it is not drawn', async () => {
    const { wb } = bench();
    await wb.run();
    const id = wb.graph!.ids[2]!;
    wb.selectId(id);
    expect(wb.selected).toBe(2);
    wb.selectId('no such node');
    expect(wb.selected).toBe(-1);
    wb.selectId(id);
    wb.selectId(null);
    expect(wb.selected).toBe(-1);
  });

  it('opens a big trace grouped by its loops, else its modules, else its operations', () => {
    const base = fixtures.loopOutput;
    type Node = Trace['nodes'][number];
    const big = (extra: { loops?: Node['loops']; module?: string }): Trace => ({
      ...base,
      nodes: Array.from({ length: AUTO_GROUP_NODES + 1 }, (_, i) => ({
        ...base.nodes[0]!,
        id: `n${i}`,
        loops: extra.loops ?? [],
        module: extra.module ?? null,
      })),
    });
    expect(autoGroupMode(base, 'none')).toBe('none');
    expect(autoGroupMode(big({}), 'none')).toBe('ops');
    expect(autoGroupMode(big({ module: 'fc' }), 'none')).toBe('modules');
    expect(autoGroupMode(big({ loops: base.nodes.find((n) => (n.loops ?? []).length)!.loops }), 'none')).toBe('loops');
    expect(autoGroupMode(big({}), 'modules')).toBe('modules');
  });
});

describe('Workbench, gradient check and live sliders', () => {
  it('marks the leaves the check agrees on, says when it fails, and forgets it on the next run', async () => {
    const { server, wb } = bench();
    await wb.run();
    const leaf = wb.graph!.nodes.findIndex((n) => n.kind === 'tensor' && n.is_leaf && n.requires_grad);
    const verdict = {
      agree: false,
      autograd: [1],
      checked: 1,
      max_abs_diff: 1,
      name: 'a',
      node: wb.graph!.ids[leaf]!,
      numeric: [2],
      shape: [],
    };
    server.check = { eps: 1e-6, ok: false, pass: 0, leaves: [verdict] };
    const checking = wb.gradcheck();
    expect(wb.checking).toBe(true);
    await checking;
    expect(wb.checking).toBe(false);
    expect(wb.checkMarks![leaf]).toBe(-1);
    expect([...wb.checkMarks!].filter((m) => m !== 0)).toEqual([-1]);
    server.check = new Error('503: busy');
    await wb.gradcheck();
    expect(wb.check).toBeNull();
    expect(wb.checkMarks).toBeNull();
    expect(wb.checkError).toBe('The gradient check failed: 503: busy');
    await wb.run();
    expect(wb.checkError).toBeNull();
  });

  it('rewrites the literal as a slider moves and re-runs once it rests, live and at the same iteration', async () => {
    vi.useFakeTimers();
    const { server, wb } = bench();
    await wb.run();
    await vi.runAllTimersAsync();
    const a = wb.graph!.nodes.findIndex((n) => n.kind === 'tensor' && n.is_leaf && n.requires_grad);
    const literal = literalIn(wb.source, wb.graph!.nodes[a]!.span)!;
    expect(literal.value).toBe(3);
    wb.slide('a', literal, 4);
    wb.slide('a', literal, 5); // the same literal, as rewritten by the first move
    expect(wb.source).toBe(fixtures.scalarOps.__source.replace('tensor(3.0', 'tensor(5.0'));
    vi.advanceTimersByTime(SLIDE_MS - 1);
    expect(server.requests).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.source).toBe(wb.source);
    expect(wb.loading).toBe(false); // live: no spinner
  });

  it('keeps the slid value on the slider while an answer for an earlier value lands', async () => {
    vi.useFakeTimers();
    const at = (v: number) => fixtures.scalarOps.__source.replace('tensor(3.0', `tensor(${v.toFixed(1)}`);
    const traces = recorded();
    for (const v of [4, 5]) traces.set(at(v), fixtures.scalarOps);
    const { server, wb } = bench(fixtures.scalarOps.__source, traces);
    await wb.run();
    await vi.runAllTimersAsync();
    const a = wb.graph!.nodes.findIndex((n) => n.kind === 'tensor' && n.is_leaf && n.requires_grad);
    const literal = literalIn(wb.source, wb.graph!.nodes[a]!.span)!;
    server.hold = true;
    wb.slide('a', literal, 4);
    vi.advanceTimersByTime(SLIDE_MS);
    expect(server.requests.at(-1)!.source).toBe(at(4));
    wb.slide('a', literal, 5); // moved on while 4 is being traced
    server.release(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(wb.tracedSource).toBe(at(4));
    expect(wb.liveValue).toEqual({ id: 'a', value: 5 }); // not pulled back to 4
    await vi.advanceTimersByTimeAsync(SLIDE_MS);
    expect(server.requests.at(-1)!.source).toBe(at(5));
    server.release(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(wb.tracedSource).toBe(at(5));
    expect(wb.liveValue).toBeNull(); // the trace on screen now holds the slid value
  });
});
