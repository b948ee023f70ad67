// Lecturer captions: a sentence attached to a step, shown while that step is on
// screen, kept in the share link and the standalone page. Pure: no DOM.
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { fromBase64Url, toBase64Url } from '../share/base64url';

/** Step (the cursor after that step's event) → its caption. */
export type Captions = ReadonlyMap<number, string>;

/** Long enough for a sentence or two; a link stays short. */
export const MAX_CAPTION = 240;

/** A caption as kept: one line (a projector shows one band), trimmed, at most MAX_CAPTION. */
export function cleanCaption(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, MAX_CAPTION);
}

/** The captions with `step`'s set to `text` (an empty text removes it). */
export function withCaption(captions: Captions, step: number, text: string): Map<number, string> {
  const out = new Map(captions);
  const t = cleanCaption(text);
  if (t) out.set(step, t);
  else out.delete(step);
  return new Map([...out].sort((a, b) => a[0] - b[0]));
}

/**
 * For the URL: "step text" lines, deflated, base64url (captions are prose, so they
 * compress; one parameter keeps the link short). Empty captions give ''.
 */
export function encodeCaptions(captions: Captions): string {
  if (captions.size === 0) return '';
  const lines = [...captions].sort((a, b) => a[0] - b[0]).map(([step, text]) => `${step} ${cleanCaption(text)}`);
  return toBase64Url(deflateSync(strToU8(lines.join('\n')), { level: 9 }));
}

/** The captions in `text` (from encodeCaptions); broken input gives none. */
export function decodeCaptions(text: string | null | undefined): Map<number, string> {
  const out = new Map<number, string>();
  if (!text) return out;
  let plain: string;
  try {
    plain = strFromU8(inflateSync(fromBase64Url(text)));
  } catch {
    return out;
  }
  for (const line of plain.split('\n')) {
    const m = /^(\d+) (.+)$/.exec(line);
    if (m) out.set(Number(m[1]), cleanCaption(m[2]!));
  }
  return out;
}
