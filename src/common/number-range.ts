// The values a number option takes (a whole number, its bounds, whole milliseconds of seconds) and the line that
// refuses another: one rule for the run settings, the manifest's fields and every other number on the command line.

/** A number's bounds. `above`: the lower bound itself is out. `milliseconds`: seconds given to the millisecond. */
export interface NumberRange {
  readonly whole: boolean;
  readonly min: number;
  readonly max: number;
  readonly above?: boolean;
  readonly milliseconds?: boolean;
  /** A word the option takes besides a number ("auto"). */
  readonly word?: string;
}

/** What `range` takes, as a message says it: "a whole number from 1 to 256". */
export function describeRange(range: NumberRange): string {
  const number = range.whole ? "a whole number" : range.milliseconds ? "a number of seconds" : "a number";
  const kind = range.word !== undefined ? `${range.word} or ${number}` : number;
  const low = range.above ? `above ${range.min}` : `from ${range.min}`;
  const unit = range.milliseconds ? " in whole milliseconds" : "";
  return `${kind} ${low} ${range.above ? "and at most" : "to"} ${range.max}${unit}`;
}

/** Whether `value` is a number `range` takes (NaN and the infinities never are). */
export function inRange(range: NumberRange, value: unknown): boolean {
  if (range.word !== undefined && value === range.word) return true;
  if (typeof value !== "number" || !Number.isFinite(value)) return false;
  if (range.whole && !Number.isInteger(value)) return false;
  // a timer takes whole milliseconds: 1.0005 s is refused, not rounded, and 1.001 (1000.9999... in binary) is 1001
  if (range.milliseconds && Math.abs(value * 1000 - Math.round(value * 1000)) > 1e-6) return false;
  return (range.above ? value > range.min : value >= range.min) && value <= range.max;
}

/** Why `value` of `--flag` is out of `range` ("--top-k must be a whole number from 0 to 10, got 11"); undefined if in. */
export function rangeProblem(flag: string, range: NumberRange, value: unknown): string | undefined {
  if (value === undefined || inRange(range, value)) return undefined;
  return `--${flag} must be ${describeRange(range)}, got ${String(value)}`;
}
