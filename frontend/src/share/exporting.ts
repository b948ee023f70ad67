// Export: files the browser saves (graph pictures, the trace, a standalone page).
import type { Trace } from '../api/types';

/** Where the standalone template takes its trace (Python's export/html.py fills the same). */
const TRACE_TAG = /(<script\b[^>]*\bid="gradtrace-trace"[^>]*>)([\s\S]*?)(<\/script>)/i;

/** The trace as JSON that is safe inside <script> (as gradtrace/export/html.py writes it). */
export function scriptJson(trace: unknown): string {
  return JSON.stringify(trace)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * What the app adds to a standalone page besides the trace: the program (the code
 * panel, the running line and the same node names as the app), the lesson, the
 * captions and the view. Python's to_html writes none; the page then shows the graph alone.
 */
export interface EmbeddedLesson {
  title: string | null;
  text: string | null;
  source: string;
  /** [step, caption] pairs. */
  captions: [number, string][];
  torchviz: boolean;
}

const LESSON_ID = 'gradtrace-lesson';

/** The standalone player page with `trace` (and the lesson, if given) inside it. */
export function standaloneHtml(template: string, trace: Trace, title?: string, lesson?: EmbeddedLesson): string {
  if (!TRACE_TAG.test(template)) throw new Error('the standalone template has no <script id="gradtrace-trace">');
  const payload = scriptJson(trace);
  // The lesson rides in its own <script> next to the trace's, so the template needs no change.
  const extra = lesson ? `<script id="${LESSON_ID}" type="application/json">${scriptJson(lesson)}</script>` : '';
  let page = template.replace(TRACE_TAG, (_, open: string, __: string, close: string) => open + payload + close + extra);
  if (title)
    page = page.replace(
      /<title>[\s\S]*?<\/title>/i,
      () => `<title>${title.replace(/[<&>"]/g, (c) => `&#${c.charCodeAt(0)};`)} · gradtrace</title>`,
    );
  return page;
}

/** The trace in the page, or null (the placeholder not filled yet). */
export function readEmbeddedTrace(doc: Document): Trace | null {
  const text = doc.getElementById('gradtrace-trace')?.textContent?.trim() ?? '';
  if (!text || text === '__GRADTRACE_TRACE__') return null;
  return JSON.parse(text) as Trace;
}

/** The lesson in the page, or null (a page written by Python's to_html has none). */
export function readEmbeddedLesson(doc: Document): EmbeddedLesson | null {
  const text = doc.getElementById(LESSON_ID)?.textContent?.trim() ?? '';
  if (!text) return null;
  try {
    const l = JSON.parse(text) as Partial<EmbeddedLesson>;
    return {
      title: typeof l.title === 'string' ? l.title : null,
      text: typeof l.text === 'string' ? l.text : null,
      source: typeof l.source === 'string' ? l.source : '',
      captions: Array.isArray(l.captions)
        ? l.captions.filter((c): c is [number, string] => Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'string')
        : [],
      torchviz: l.torchviz === true,
    };
  } catch {
    return null;
  }
}

export function traceFileName(trace: Trace): string {
  const root = trace.passes[0]?.root;
  const name = Object.entries(trace.variables).find(([, id]) => id === root)?.[0];
  return `gradtrace-${name ?? 'trace'}`.replace(/[^\w.-]+/g, '_');
}

export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export type ExportKind = 'svg' | 'png' | 'json' | 'html';

/** What the app's Export menu saves from the page: the graph drawn, the trace, or the standalone player. */
export interface ExportSource {
  trace: Trace;
  /** The graph as a picture, or null before it is drawn. */
  svg: () => Promise<string> | null | undefined;
  png: () => Promise<Blob> | null | undefined;
  /** The standalone player's page, to fill. */
  template: () => Promise<string>;
  /** The page's title, and what the standalone page shows besides the trace. */
  title: string;
  lesson: EmbeddedLesson;
}

/** Save one export of the page (the graph pictures at 1920×1080). */
export async function exportTrace(kind: ExportKind, from: ExportSource): Promise<void> {
  const name = traceFileName(from.trace);
  const svg = kind === 'svg' ? from.svg() : null;
  const png = kind === 'png' ? from.png() : null;
  if (svg) download(new Blob([await svg], { type: 'image/svg+xml' }), `${name}.svg`);
  else if (png) download(await png, `${name}.png`);
  else if (kind === 'json') download(new Blob([JSON.stringify(from.trace)], { type: 'application/json' }), `${name}.json`);
  else if (kind === 'html') {
    const page = standaloneHtml(await from.template(), from.trace, from.title, from.lesson);
    download(new Blob([page], { type: 'text/html' }), `${name}.html`);
  }
}
