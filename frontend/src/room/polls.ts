// A room's poll: the class answers one number (the gradient, or its first element for
// a tensor), the lecturer sees how the answers spread before revealing the true one.
import { formatNumber } from '../lib/format';
import { close, parseAnswer, type Question } from '../model/predict';
import { histogram } from './link';

/** The number the class is asked for: the gradient itself, or its first element. */
export function askedValue(q: Question): number {
  return q.expected[0]!;
}

/** What a student typed, as the one number the poll takes (null: not a number). */
export function answerValue(text: string): number | null {
  const numbers = parseAnswer(text);
  return numbers && numbers.length >= 1 ? numbers[0]! : null;
}

export interface Bar {
  label: string;
  count: number;
  /** The true answer falls in this bar (known to the lecturer, shown once revealed). */
  right: boolean;
}

/** As many bars as a projector shows readably. */
export const MAX_BARS = 8;

/**
 * The answers as bars: one per distinct answer when the class gave few (the usual
 * case: 4, −4, 1), else equal ranges between the smallest and largest.
 */
export function answerBars(values: readonly number[], expected: number | null, bars = MAX_BARS): Bar[] {
  const isRight = (v: number) => expected !== null && close(v, expected);
  const counts = new Map<string, { value: number; count: number }>();
  for (const v of values) {
    const label = formatNumber(v, 3);
    const bar = counts.get(label) ?? { value: v, count: 0 };
    bar.count++;
    counts.set(label, bar);
  }
  if (counts.size <= bars)
    return [...counts.entries()]
      .sort((a, b) => a[1].value - b[1].value)
      .map(([label, b]) => ({ label, count: b.count, right: isRight(b.value) }));
  return histogram(values, bars).map((b, i, all) => ({
    label: `${formatNumber(b.from, 3)} to ${formatNumber(b.to, 3)}`,
    count: b.count,
    right: expected !== null && expected >= b.from && (expected < b.to || (i === all.length - 1 && expected <= b.to)),
  }));
}

/** How many answered right (within predict mode's tolerance). */
export function rightCount(values: readonly number[], expected: number): number {
  return values.filter((v) => close(v, expected)).length;
}
