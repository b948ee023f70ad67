// Real traces recorded from the server (the examples of backend/gradtrace/examples
// and the programs of testing/programs, recorded by scripts/record_fixture.py),
// for unit tests of the logic that reads them.
import type { Trace } from '../api/types';
import accumulation from './fixtures/03_retain_graph_and_accumulation.json';
import leaf from './fixtures/04_leaf_and_non_leaf.json';
import hooks from './fixtures/05_retain_grad_and_hooks.json';
import relu from './fixtures/06_custom_relu_function.json';
import broadcast from './fixtures/broadcast.json';
import loopOutput from './fixtures/loop_output.json';
import secondBackward from './fixtures/second_backward.json';
import scalarOps from './fixtures/scalar_ops.json';
import tensorOps from './fixtures/tensor_ops.json';
import warned from './fixtures/warnings.json';

type Fixture = Trace & { __source: string };
const as = (t: unknown): Fixture => t as Fixture;

export const fixtures = {
  leaf: as(leaf),
  accumulation: as(accumulation),
  hooks: as(hooks),
  relu: as(relu),
  broadcast: as(broadcast),
  /** A loop that makes the program's result: `for i in range(12): y = y * 1.01 + 0.1`, then y.backward(). */
  loopOutput: as(loopOutput),
  /** A second backward() through a freed graph: torch raises at ExpBackward0. */
  secondBackward: as(secondBackward),
  scalarOps: as(scalarOps),
  tensorOps: as(tensorOps),
  warned: as(warned),
};
