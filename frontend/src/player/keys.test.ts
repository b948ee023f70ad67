import { describe, expect, it } from 'vitest';
import { leafTrace } from '../testing/traces';
import { playerKeyAction } from './keys';
import { Player } from './player';
import { TimelineIndex } from '../model/timeline';

function player(): Player {
  return new Player(new TimelineIndex(leafTrace()));
}

describe('playerKeyAction', () => {
  it('steps with the arrows and a clicker, jumps with Home and End', () => {
    const p = player();
    playerKeyAction('ArrowRight', p, false)?.();
    playerKeyAction('PageDown', p, false)?.();
    expect(p.cursor).toBe(2);
    playerKeyAction('PageUp', p, false)?.();
    expect(p.cursor).toBe(1);
    playerKeyAction('End', p, false)?.();
    expect(p.cursor).toBe(p.length);
    playerKeyAction('Home', p, false)?.();
    expect(p.cursor).toBe(0);
  });
  it('leaves Up and Down to the page unless presenting, and other keys alone', () => {
    const p = player();
    expect(playerKeyAction('ArrowDown', p, false)).toBeUndefined();
    expect(playerKeyAction('ArrowUp', p, false)).toBeUndefined();
    expect(playerKeyAction('a', p, true)).toBeUndefined();
    playerKeyAction('ArrowDown', p, true)?.();
    expect(p.cursor).toBe(1);
  });
});
