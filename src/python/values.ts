// Python values that plain JavaScript ones cannot stand for, as raw_decode makes them.

/**
 * A dict: every key in insertion order. A JavaScript object would put integer-like keys ("0") first and would treat
 * "__proto__" as its prototype, not as a key. JSON.stringify writes it as an object.
 */
export class PyDict extends Map<string, unknown> {
  toJSON(): Record<string, unknown> {
    return Object.fromEntries(this);
  }
}

/** A float: `1.0` stays a float (Python prints it "1.0"; a JavaScript number cannot tell it from the int 1). */
export class PyFloat {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value;
  }
}

/** An int too large for a JavaScript number to hold exactly (beyond 2^53). JSON.stringify writes the nearest number. */
export class PyInt {
  constructor(readonly value: bigint) {}
  toJSON(): number {
    return Number(this.value);
  }
}

/** Python's repr() of a float: the shortest digits that round-trip, in fixed notation for 1e-4 <= |x| < 1e16. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  // toExponential() with no argument gives the shortest round-tripping digits, as Python's repr does.
  const [mantissa = "", exponentText = "0"] = x.toExponential().split("e");
  const exponent = Number(exponentText);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace(/^-/, "").replace(".", "");
  if (exponent < -4 || exponent >= 16) {
    const tail = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${tail}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  return `${sign}${whole}.${digits.slice(exponent + 1) || "0"}`;
}

/** The plain JSON value JSON.stringify would write (PyDict as an object, PyFloat as a number), for logs. */
export function toPlainJson(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
