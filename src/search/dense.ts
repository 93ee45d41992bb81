// Dense retrieval: rank sections by cosine similarity between the query's embedding and each section's.

/** Section embeddings stored as one flat row-major matrix: row i is section i. */
export interface EmbeddingMatrix {
  readonly rows: number;
  readonly dimensions: number;
  readonly data: Float32Array;
}

export function toMatrix(vectors: readonly Float32Array[]): EmbeddingMatrix {
  const dimensions = vectors[0]?.length ?? 0;
  const data = new Float32Array(vectors.length * dimensions);
  vectors.forEach((v, i) => {
    if (v.length !== dimensions) throw new Error(`embedding ${i} has ${v.length} dimensions, expected ${dimensions}`);
    data.set(v, i * dimensions);
  });
  return { rows: vectors.length, dimensions, data };
}

/**
 * Every section, best first. The embedder promises unit vectors, where cosine is the dot product; dividing by
 * the norms anyway costs little and keeps the ranking right for an embedder that does not normalize.
 * Ties go to the earlier section. A zero vector has cosine 0 with everything.
 */
export function rankByCosine(matrix: EmbeddingMatrix, query: Float32Array): number[] {
  if (query.length !== matrix.dimensions)
    throw new Error(`query embedding has ${query.length} dimensions, the index ${matrix.dimensions}`);
  const qNorm = Math.sqrt(query.reduce((sum, x) => sum + x * x, 0));
  const scores = new Float64Array(matrix.rows);
  for (let row = 0; row < matrix.rows; row += 1) {
    let dot = 0;
    let norm = 0;
    const offset = row * matrix.dimensions;
    for (let j = 0; j < matrix.dimensions; j += 1) {
      const x = matrix.data[offset + j]!;
      dot += x * query[j]!;
      norm += x * x;
    }
    scores[row] = qNorm > 0 && norm > 0 ? dot / (qNorm * Math.sqrt(norm)) : 0;
  }
  return Array.from(scores.keys()).sort((a, b) => scores[b]! - scores[a]! || a - b);
}
