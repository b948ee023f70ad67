// Vitest reporter: one plain line, "N passed, N failed", after the run (for CI logs).
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    for (const module of modules)
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
      }
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
