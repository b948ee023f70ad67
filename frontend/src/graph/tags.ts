// The tags (badges) over a node at a step: trouble, gradient check, concept badges
// and a hook firing. Shared by the renderer and the test-only scene model.
import { BADGE_HOOK, BADGE_TEXT } from './concepts';
import { TROUBLE_LABELS } from './trouble';

/** Extra marks on nodes: concept badges, trouble flags, gradient-check results. */
export interface Marks {
  badges: Uint8Array | null;
  trouble: Uint8Array | null;
  /** Per node: 1 the numerical check agrees, -1 it disagrees, 0 not checked. */
  check: Int8Array | null;
  /** A node whose hook fired at this step, or -1. */
  hookFired: number;
}

export type TagTone = 'error' | 'ok' | 'muted' | 'linked';

/**
 * The tags over node `i`: trouble, gradient check, concept badges; a hook that
 * fires at this step turns its "hook" badge into "hook fired" (one tag, not two).
 */
export function nodeTags(i: number, marks: Marks, pending: boolean): { text: string; tone: TagTone }[] {
  const tags: { text: string; tone: TagTone }[] = [];
  const trouble = marks.trouble?.[i] ?? 0;
  if (trouble && !pending) for (const [bit, label] of TROUBLE_LABELS) if (trouble & bit) tags.push({ text: `⚠ ${label}`, tone: 'error' });
  const check = marks.check?.[i] ?? 0;
  if (check !== 0) tags.push({ text: check > 0 ? '✓ gradcheck' : '✗ gradcheck', tone: check > 0 ? 'ok' : 'error' });
  const b = marks.badges?.[i] ?? 0;
  const fired = marks.hookFired === i;
  for (const [bit, text] of BADGE_TEXT) if (b & bit) tags.push(fired && bit === BADGE_HOOK ? { text: 'hook fired', tone: 'linked' } : { text, tone: 'muted' });
  if (fired && !(b & BADGE_HOOK)) tags.unshift({ text: 'hook fired', tone: 'linked' });
  return tags;
}

/**
 * The widest tags node `i` can show (box sizes read it): its trouble flags and its
 * badges, "hook" as "hook fired". Gradient-check tags come later and may fold into "+N".
 */
export function sizingTags(badges: Uint8Array, trouble: Uint8Array | null = null): (i: number) => string[] {
  return (i) => [
    ...TROUBLE_LABELS.filter(([bit]) => (trouble?.[i] ?? 0) & bit).map(([, label]) => `⚠ ${label}`),
    ...BADGE_TEXT.filter(([bit]) => (badges[i] ?? 0) & bit).map(([bit, text]) => (bit === BADGE_HOOK ? 'hook fired' : text)),
  ];
}
