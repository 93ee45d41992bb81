// Python's format specs "{:,}" and "{:.2f}" for numbers, where JavaScript's own formatting words them otherwise.

/** format(n, ",") of a Python int: its digits in groups of three, comma-separated ("-1,234,567"). */
export function pyGrouped(n: number | bigint): string {
  return BigInt(n)
    .toString()
    .replace(/\B(?=(\d{3})+$)/g, ",");
}

/**
 * format(x, f".{digits}f") of a Python float: its exact binary value rounded half to even. toFixed also reads the
 * exact value, but rounds a tie up (0.125 gives "0.13" there, "0.12" here), drops the sign of -0 and writes 1e21 and
 * beyond with an exponent.
 */
export function pyFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  const { mantissa, exponent } = binaryParts(Math.abs(x));
  const text = scaledHalfEven(mantissa, exponent, digits)
    .toString()
    .padStart(digits + 1, "0");
  return digits === 0 ? sign + text : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** mantissa * 2^exponent * 10^digits, rounded to an integer half to even. */
function scaledHalfEven(mantissa: bigint, exponent: number, digits: number): bigint {
  const scaled = mantissa * 10n ** BigInt(digits);
  if (exponent >= 0) return scaled << BigInt(exponent);
  const denominator = 1n << BigInt(-exponent);
  const quotient = scaled / denominator;
  const twice = 2n * (scaled % denominator);
  return twice > denominator || (twice === denominator && quotient % 2n === 1n) ? quotient + 1n : quotient;
}

/** A finite, non-negative double as mantissa * 2^exponent, both exact (subnormals have no implicit leading 1). */
function binaryParts(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  return biased === 0
    ? { mantissa: fraction, exponent: -1074 }
    : { mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}
