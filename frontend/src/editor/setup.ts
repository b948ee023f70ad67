// The CodeMirror 6 editor: Python, autocomplete, Ctrl/Cmd+Enter to run, the error
// and span decorations, and the pointer's source position for node highlighting.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { python, pythonLanguage } from '@codemirror/lang-python';
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, Prec, StateEffect, type Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  placeholder,
} from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import type { ErrorInfo, ReferenceEntry, Span } from '../api/types';
import { referenceCompletions } from './completion';
import { errorField, runningField, setError, setRunning, setSpans, spanField, type Running } from './decorations';

export interface EditorCallbacks {
  onChange: (source: string) => void;
  onRun: () => void;
  /** The source position under the pointer (1-based line, 0-based column), or null. */
  onHover: (position: { line: number; col: number } | null) => void;
  /** Shown, not edited (the standalone page). */
  readOnly?: boolean;
}

export class SourceEditor {
  readonly view: EditorView;
  private readonly completions = new Compartment();
  private runningKey = '';

  constructor(parent: HTMLElement, doc: string, callbacks: EditorCallbacks) {
    const hover = EditorView.domEventHandlers({
      mousemove: (event, view) => {
        const pos = view.posAtCoords({ x: event.clientX, y: event.clientY }, false);
        if (pos === null) return callbacks.onHover(null);
        const line = view.state.doc.lineAt(pos);
        callbacks.onHover({ line: line.number, col: pos - line.from });
      },
      mouseleave: () => callbacks.onHover(null),
    });
    const extensions: Extension[] = [
      lineNumbers(),
      highlightActiveLineGutter(),
      history(),
      drawSelection(),
      indentOnInput(),
      indentUnit.of('    '),
      bracketMatching(),
      closeBrackets(),
      highlightActiveLine(),
      python(),
      syntaxHighlighting(classHighlighter),
      this.completions.of([]),
      autocompletion({ icons: false }),
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (callbacks.onRun(), true), preventDefault: true }])),
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, indentWithTab]),
      placeholder('import torch\n\nx = torch.tensor(2.0, requires_grad=True)\n…'),
      EditorView.contentAttributes.of({ 'aria-label': 'Program source (Python)' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) callbacks.onChange(update.state.doc.toString());
      }),
      // Long lines wrap: on a projector the whole line (and an error under it) stays in view.
      EditorView.lineWrapping,
      errorField,
      spanField,
      runningField,
      hover,
      ...(callbacks.readOnly ? [EditorState.readOnly.of(true), EditorView.editable.of(false)] : []),
    ];
    this.view = new EditorView({ parent, state: EditorState.create({ doc, extensions }) });
  }

  setReference(entries: readonly ReferenceEntry[]): void {
    this.view.dispatch({ effects: this.completions.reconfigure(pythonLanguage.data.of({ autocomplete: referenceCompletions(entries) })) });
  }

  get source(): string {
    return this.view.state.doc.toString();
  }

  setSource(source: string): void {
    if (source === this.source) return;
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: source } });
  }

  showError(error: ErrorInfo | null): void {
    this.view.dispatch({ effects: setError.of(error) });
  }

  highlightSpans(spans: Span[]): void {
    this.view.dispatch({ effects: setSpans.of(spans) });
  }

  /** Mark the running line(s) and keep them in view (the editor scrolls only when they are off screen). */
  showRunning(running: Running | null): void {
    const key = running ? `${running.phase} ${running.from} ${running.to}` : '';
    if (key === this.runningKey) return;
    this.runningKey = key;
    const effects: StateEffect<unknown>[] = [setRunning.of(running)];
    const doc = this.view.state.doc;
    if (running && running.from >= 1 && running.from <= doc.lines)
      effects.push(EditorView.scrollIntoView(doc.line(running.from).from, { y: 'nearest', yMargin: 40 }));
    this.view.dispatch({ effects });
  }

  focus(): void {
    this.view.focus();
  }

  destroy(): void {
    this.view.destroy();
  }
}
