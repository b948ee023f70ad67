// Editor decorations: the program's error (underlined, with its message and hint
// beside the line) and the source spans of the nodes the pointer is on.
import { StateEffect, StateField, type EditorState, type Range } from '@codemirror/state';
import { Decoration, EditorView, WidgetType, type DecorationSet } from '@codemirror/view';
import type { ErrorInfo, Span } from '../api/types';

export const setError = StateEffect.define<ErrorInfo | null>();
export const setSpans = StateEffect.define<Span[]>();

/** Document offsets of a span (1-based lines, 0-based columns), clamped to the text. */
export function spanRange(
  state: EditorState,
  span: { line: number; col?: number | null; end_line?: number | null; end_col?: number | null },
): [number, number] | null {
  const doc = state.doc;
  if (span.line < 1) return null;
  const line = doc.line(Math.min(span.line, doc.lines));
  const from = Math.min(line.to, line.from + Math.max(0, span.col ?? 0));
  let to: number;
  if (span.end_line != null && span.end_col != null) {
    const end = doc.line(Math.min(Math.max(span.end_line, 1), doc.lines));
    to = Math.min(end.to, end.from + span.end_col);
  } else if (span.col != null) {
    // A point: underline the word (or character) there.
    const rest = doc.sliceString(from, line.to);
    const m = /^\w+/.exec(rest);
    to = from + (m ? m[0].length : 1);
  } else {
    to = line.to;
  }
  if (to <= from) to = Math.min(line.to, from + 1);
  if (to <= from) return [line.from, line.to];
  return [from, to];
}

class ErrorWidget extends WidgetType {
  constructor(readonly error: ErrorInfo) {
    super();
  }
  override eq(other: ErrorWidget): boolean {
    return other.error === this.error;
  }
  toDOM(): HTMLElement {
    const box = document.createElement('div');
    box.className = 'cm-error-inline';
    box.setAttribute('role', 'alert');
    if (this.error.line != null) box.dataset['line'] = String(this.error.line);
    const title = document.createElement('strong');
    title.textContent = `${this.error.type}: `;
    box.append(title, document.createTextNode(this.error.message));
    if (this.error.hint) {
      const hint = document.createElement('div');
      hint.className = 'cm-error-hint';
      hint.textContent = this.error.hint;
      box.append(hint);
    }
    return box;
  }
}

function errorDecorations(state: EditorState, error: ErrorInfo | null): DecorationSet {
  if (!error || error.line == null) return Decoration.none;
  const range = spanRange(state, { line: error.line, col: error.col, end_line: error.end_line, end_col: error.end_col });
  if (!range) return Decoration.none;
  const [from, to] = range;
  const decos: Range<Decoration>[] = [Decoration.line({ class: 'cm-error-line' }).range(state.doc.lineAt(from).from)];
  if (to > from) decos.push(Decoration.mark({ class: 'cm-error-mark', attributes: { title: error.message } }).range(from, to));
  decos.push(Decoration.widget({ widget: new ErrorWidget(error), block: true, side: 1 }).range(state.doc.lineAt(to).to));
  return Decoration.set(decos, true);
}

export const errorField = StateField.define<{ error: ErrorInfo | null; decorations: DecorationSet }>({
  create: () => ({ error: null, decorations: Decoration.none }),
  update(value, tr) {
    let error = value.error;
    for (const e of tr.effects) if (e.is(setError)) error = e.value;
    // Editing the text clears the error: it belongs to the text that was run.
    if (tr.docChanged) error = null;
    if (error === value.error && !tr.docChanged) return value;
    return { error, decorations: errorDecorations(tr.state, error) };
  },
  provide: (f) => EditorView.decorations.from(f, (v) => v.decorations),
});

const spanMark = Decoration.mark({ class: 'cm-node-span' });

export const spanField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    value = value.map(tr.changes);
    for (const e of tr.effects)
      if (e.is(setSpans)) {
        const ranges = e.value
          .map((s) => spanRange(tr.state, s))
          .filter((r): r is [number, number] => r !== null && r[1] > r[0])
          .sort((a, b) => a[0] - b[0] || a[1] - b[1])
          .map(([from, to]) => spanMark.range(from, to));
        value = Decoration.set(ranges, true);
      }
    return value;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** The lines that run at the player's step: the line that made the node (forward) or the backward() call (backward). */
export interface Running {
  /** First and last line, 1-based. */
  from: number;
  to: number;
  phase: 'forward' | 'backward';
}

export const setRunning = StateEffect.define<Running | null>();

export const runningField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    value = value.map(tr.changes);
    for (const e of tr.effects)
      if (e.is(setRunning)) {
        const r = e.value;
        const doc = tr.state.doc;
        if (!r || r.from < 1 || r.from > doc.lines) {
          value = Decoration.none;
          continue;
        }
        const line = Decoration.line({ class: `cm-running-line cm-running-${r.phase}` });
        const ranges: Range<Decoration>[] = [];
        for (let n = r.from; n <= Math.min(r.to, doc.lines); n++) ranges.push(line.range(doc.line(n).from));
        value = Decoration.set(ranges);
      }
    return value;
  },
  provide: (f) => EditorView.decorations.from(f),
});
