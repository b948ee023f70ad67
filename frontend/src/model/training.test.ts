import { describe, expect, it } from 'vitest';
import { fixtures } from '../testing/fixtures';
import { isTrainingLoop } from './training';

describe('isTrainingLoop', () => {
  it('is false for two backward() calls with no update between them', () => {
    // The accumulation lesson: two passes, no optimizer step (recorded by the server).
    expect(fixtures.accumulation.iterations).toBe(2);
    expect(isTrainingLoop(fixtures.accumulation)).toBe(false);
  });
  it('is true once two passes were each followed by a parameter update', () => {
    expect(isTrainingLoop({ training_steps: 2 })).toBe(true);
    expect(isTrainingLoop({ training_steps: 1 })).toBe(false);
  });
});
