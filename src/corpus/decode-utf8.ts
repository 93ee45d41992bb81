// Decodes a file's bytes as UTF-8, or says on which line the first byte that is not UTF-8 sits.

export type Decoded = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly line: number };

/**
 * Strict UTF-8 decoding with a line number for the first bad byte.
 * How the line is found: a lenient decode replaces bad bytes with U+FFFD; re-encoding that text gives back the
 * original bytes exactly up to the first bad byte, so the first difference is where the file stops being UTF-8.
 * A leading byte-order mark is dropped; CRLF and lone CR line ends become LF so that later stages see one kind.
 */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return { ok: true, text: text.replace(/\r\n?/g, "\n") };
  } catch {
    const lenient = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
    const again = Buffer.from(lenient, "utf8");
    let at = 0;
    while (at < bytes.length && at < again.length && bytes[at] === again[at]) at += 1;
    let line = 1;
    for (let i = 0; i < at; i += 1) if (bytes[i] === 0x0a) line += 1;
    return { ok: false, line };
  }
}
