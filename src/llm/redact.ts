// Secrets (an API key, a password) taken out of whatever a server sends back, in every form a JSON text can spell them.

export const REDACTED = "[redacted]";

/**
 * A pattern matching `secret` as written, or with any of its characters spelt as a JSON string may spell it:
 * `\u` and four hex digits in either case, `\/` for a slash, `\"` and `\\`. A server echoing the key escaped
 * (`sk\u002dabc`, or `https:\/\/` in a URL-like key) is caught as surely as one echoing it plainly.
 */
function secretPattern(secret: string): RegExp {
  const unit = (c: string) => {
    const code = c.charCodeAt(0).toString(16).padStart(4, "0");
    const spellings = [c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&"), `\\\\u${caseless(code)}`];
    if (c === "/") spellings.push("\\\\/");
    if (c === '"') spellings.push('\\\\"');
    if (c === "\\") spellings.push("\\\\\\\\");
    return `(?:${spellings.join("|")})`;
  };
  return new RegExp([...Array(secret.length).keys()].map((i) => unit(secret[i]!)).join(""), "g");
}

/** Hex digits matched in either case: "002d" as "00[2][dD]". */
const caseless = (hex: string) => [...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join("");

/** `text` with every secret, in any JSON spelling, replaced by [redacted]. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== "") out = out.replace(secretPattern(secret), REDACTED);
  return out;
}

/** A parsed JSON value with every string in it (keys too) redacted, decoded text being the last form a secret takes. */
export function redactJson(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, secrets));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [redactText(k, secrets), redactJson(v, secrets)] as const),
    );
  return value;
}
