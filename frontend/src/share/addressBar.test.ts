import { describe, expect, it } from 'vitest';
import { ManualTimers } from '../testing/rooms';
import { AddressBar, REST_MS, type HashHost } from './addressBar';
import { decodeHash, encodeHash, type SharedState } from './url';

function bar(start = '') {
  const written: string[] = [];
  let current = start;
  const host: HashHost = {
    hash: () => current,
    replace: (hash) => void written.push((current = hash)),
  };
  const timers = new ManualTimers();
  return { address: new AddressBar(host, timers), timers, written };
}

const moment = (step: number): SharedState => ({ source: 'x = 1\n', device: 'cpu', seed: 0, step, torchviz: step > 2 });

describe('AddressBar', () => {
  it('writes the newest moment once the page rests, and only what changed', () => {
    const { address, timers, written } = bar();
    address.show(moment(1), false);
    address.show(moment(3), false);
    expect(written).toEqual([]);
    expect(timers.fire()).toEqual([REST_MS]); // the first wait was dropped for the second
    expect(written).toEqual([encodeHash(moment(3))]);
    expect(decodeHash(written[0]!)).toMatchObject({ step: 3, torchviz: true });
    address.show(moment(3), false);
    timers.fire();
    expect(written).toHaveLength(1); // the same hash is not written again
  });

  it('waits while the player plays, and keeps a moment written before it started', () => {
    const { address, timers, written } = bar();
    address.show(moment(1), false);
    address.show(moment(2), true);
    address.show(moment(3), true);
    timers.fire();
    expect(written).toEqual([encodeHash(moment(1))]);
    address.show(moment(4), false);
    timers.fire();
    expect(written).toEqual([encodeHash(moment(1)), encodeHash(moment(4))]);
  });
});
