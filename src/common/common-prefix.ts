// How far two sequences agree from their start: token lists (KV-cache reuse) or strings (where two replies part).

/** Length of the longest common prefix of two token lists or two strings (in UTF-16 code units). */
export function commonPrefixLength<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}
