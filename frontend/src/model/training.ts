// Whether a trace is a training loop (for the Training panel): several backward passes,
// each followed by an update of the parameters it filled (an optimizer step,
// `w.data -= lr * w.grad`), as the recorder counted them. Two backward() calls, or a
// hook printing gradients, are no training loop.
import type { Trace } from '../api/types';

export function isTrainingLoop(trace: Pick<Trace, 'training_steps'>): boolean {
  return (trace.training_steps ?? 0) >= 2;
}
