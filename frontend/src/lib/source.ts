// Reading the program's text at a span.
import type { Span } from '../api/types';

/** The source text of a span, on one line, or null. */
export function spanText(lines: string[], span: Span | null): string | null {
  if (!span || span.line < 1 || span.line > lines.length) return null;
  if (span.end_line === span.line) return lines[span.line - 1]!.slice(span.col, span.end_col).trim() || null;
  const parts = [lines[span.line - 1]!.slice(span.col)];
  for (let l = span.line + 1; l < span.end_line && l <= lines.length; l++) parts.push(lines[l - 1]!);
  if (span.end_line <= lines.length) parts.push(lines[span.end_line - 1]!.slice(0, span.end_col));
  return parts.join(' ').replace(/\s+/g, ' ').trim() || null;
}

/** Text on one line, cut with an ellipsis past `max` characters. */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : flat.slice(0, max - 1) + '…';
}
