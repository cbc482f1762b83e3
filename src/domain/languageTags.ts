// TEMPORARY stand-in until branch mldata's languageTags.ts is merged (taken as theirs then).
const NAMES: Record<string, string> = {
  english: 'en', japanese: 'ja', german: 'de', french: 'fr', spanish: 'es', italian: 'it', portuguese: 'pt',
  'brazilian portuguese': 'pt-BR', 'portuguese-brazilian': 'pt-BR', dutch: 'nl', czech: 'cs', hungarian: 'hu',
  chinese: 'zh', korean: 'ko', russian: 'ru', greek: 'el', swedish: 'sv', danish: 'da',
};
export const languageTagOf = (name: string): string | undefined => NAMES[name.trim().toLowerCase()];
const LATIN = new Set(['en', 'fr', 'de', 'it', 'es', 'pt', 'pt-BR', 'nl', 'da', 'sv']);
export const encodingFor = (tag: string): 'latin1' | 'utf8' => (LATIN.has(tag) ? 'latin1' : 'utf8');
export function negotiateLanguage(header: string, hosted: readonly string[]): string | undefined {
  const ranges = header.split(',').map((p, i) => {
    const [range = '', ...params] = p.trim().split(';');
    const q = params.map((x) => x.trim()).find((x) => x.startsWith('q='));
    return { range: range.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1, i };
  }).filter((r) => r.range && r.q > 0).sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranges) {
    if (r.range === '*') return hosted[0];
    const hit = hosted.find((t) => t.toLowerCase() === r.range) ?? hosted.find((t) => t.toLowerCase() === r.range.split('-')[0]);
    if (hit) return hit;
  }
  return undefined;
}
