import type { Player } from './player';

// Where keys belong to what has focus: typing, form controls, dialogs.
const OWN_KEYS = '.cm-editor, input, select, textarea, dialog, [contenteditable="true"]';

/**
 * What a key does to the player: space plays or pauses, the arrows and a presenter's
 * clicker (PageDown/PageUp) step, Home and End jump. Up and Down step only while
 * presenting, where they scroll no page.
 */
export function playerKeyAction(key: string, player: Player, presenting: boolean): (() => void) | undefined {
  switch (key) {
    case ' ':
      return () => player.toggle();
    case 'ArrowRight':
    case 'PageDown':
      return () => player.stepForward();
    case 'ArrowLeft':
    case 'PageUp':
      return () => player.stepBack();
    case 'ArrowDown':
      return presenting ? () => player.stepForward() : undefined;
    case 'ArrowUp':
      return presenting ? () => player.stepBack() : undefined;
    case 'Home':
      return () => player.toStart();
    case 'End':
      return () => player.toEnd();
    default:
      return undefined;
  }
}

/** Runs the player's action for a key press; leaves the key alone where it is not the player's. */
export function handlePlayerKey(event: KeyboardEvent, player: Player, presenting = false): void {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target as HTMLElement | null;
  if (target?.closest(OWN_KEYS)) return;
  const action = playerKeyAction(event.key, player, presenting);
  if (!action || (event.key === ' ' && target?.closest('button'))) return;
  event.preventDefault();
  action();
}
