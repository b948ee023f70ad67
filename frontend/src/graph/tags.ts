// The tags (badges) over a node at a step: trouble, gradient check, concept badges
// and a hook firing. Shared by the renderer and drawn.ts (what the tests read).
import { FREED_TAG, errorTag } from './backwardMarks';
import { BADGE_HOOK, BADGE_TEXT } from '../model/concepts';
import type { GraphIndex } from '../model/graphIndex';
import type { SceneState } from '../model/scene';
import { TROUBLE_LABELS } from '../model/trouble';

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
 * fires at this step turns its "hook" badge into "hook fired" (one tag, not two);
 * with `scene`, "freed" once torch freed it and the error a pass raised in it.
 */
export function nodeTags(
  i: number,
  marks: Marks,
  pending: boolean,
  scene: Pick<SceneState, 'freed' | 'error'> | null = null,
): { text: string; tone: TagTone }[] {
  const tags: { text: string; tone: TagTone }[] = [];
  const trouble = marks.trouble?.[i] ?? 0;
  if (trouble && !pending) for (const [bit, label] of TROUBLE_LABELS) if (trouble & bit) tags.push({ text: `⚠ ${label}`, tone: 'error' });
  const check = marks.check?.[i] ?? 0;
  if (check !== 0) tags.push({ text: check > 0 ? '✓ gradcheck' : '✗ gradcheck', tone: check > 0 ? 'ok' : 'error' });
  const b = marks.badges?.[i] ?? 0;
  const fired = marks.hookFired === i;
  for (const [bit, text] of BADGE_TEXT)
    if (b & bit) tags.push(fired && bit === BADGE_HOOK ? { text: 'hook fired', tone: 'linked' } : { text, tone: 'muted' });
  if (fired && !(b & BADGE_HOOK)) tags.unshift({ text: 'hook fired', tone: 'linked' });
  // What torch freed, and the Function a backward pass raised in: last, so never folded into "+N".
  if (scene?.freed[i]) tags.push({ text: FREED_TAG, tone: 'muted' });
  if (scene?.error?.node === i) tags.push({ text: errorTag(scene.error.type), tone: 'error' });
  return tags;
}

/**
 * The widest tags node `i` can show (box sizes read it): "freed" and the error it
 * raised (given `graph`), its trouble flags and its badges, "hook" as "hook fired". Gradient-check tags come later and may fold into "+N".
 */
export function sizingTags(
  badges: Uint8Array,
  trouble: Uint8Array | null = null,
  graph: GraphIndex | null = null,
): (i: number) => string[] {
  return (i) => [
    ...(graph && graph.freedAt[i]! >= 0 ? [FREED_TAG] : []),
    ...(graph?.errors
      .filter((e) => e.node === i)
      .slice(0, 1)
      .map((e) => errorTag(e.type)) ?? []),
    ...TROUBLE_LABELS.filter(([bit]) => (trouble?.[i] ?? 0) & bit).map(([, label]) => `⚠ ${label}`),
    ...BADGE_TEXT.filter(([bit]) => (badges[i] ?? 0) & bit).map(([bit, text]) => (bit === BADGE_HOOK ? 'hook fired' : text)),
  ];
}
