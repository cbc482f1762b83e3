// Where two release indexes' parts() differ, element by element ('' when they do not): every
// column, list and map. An index loaded from a snapshot, a delta or an overlay must equal the one
// built from the release's rows exactly.

export function partsDifference(a: unknown, b: unknown, at = 'parts'): string {
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.constructor !== b.constructor) return `${at}: ${a?.constructor.name} vs ${b?.constructor.name}`;
    const x = a as unknown as ArrayLike<number>;
    const y = b as unknown as ArrayLike<number>;
    if (x.length !== y.length) return `${at}: length ${x.length} vs ${y.length}`;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return `${at}[${i}]: ${x[i]} vs ${y[i]}`;
    return '';
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${at}: length ${a.length} vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = partsDifference(a[i], b[i], `${at}[${i}]`);
      if (d) return d;
    }
    return '';
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a).sort();
    if (keys.join() !== Object.keys(b).sort().join()) return `${at}: keys ${keys} vs ${Object.keys(b).sort()}`;
    for (const k of keys) {
      const d = partsDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
      if (d) return d;
    }
    return '';
  }
  return a === b ? '' : `${at}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

/**
 * parts() with name ranks made independent of ties: a PT and its own LLT of the same name tie,
 * and the database orders them as it reads the rows (which imports in between may move), so two
 * builds from rows may swap their ranks. Each entry gets the lowest rank of its (name, code) group.
 */
export function canonicalParts<T extends { columns: { nameRank: Int32Array; norm: string[]; code: Int32Array } }>(parts: T): T {
  const c = parts.columns;
  const low = new Map<string, number>();
  for (let i = 0; i < c.nameRank.length; i++) {
    const k = `${c.norm[i]}\u0000${c.code[i]}`;
    low.set(k, Math.min(low.get(k) ?? Infinity, c.nameRank[i]!));
  }
  const nameRank = Int32Array.from(c.nameRank, (_, i) => low.get(`${c.norm[i]}\u0000${c.code[i]}`)!);
  return { ...parts, columns: { ...c, nameRank } };
}
