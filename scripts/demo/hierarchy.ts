// The invented SOC -> HLGT -> HLT tree, with codes, and the rule that places a
// CTCAE term under an HLT of its SOC.
import type { CodeMap } from './codes.ts';
import { GROUPS, type Matcher } from './groups.ts';
import { SOCS, socByName, type SocDef } from './socs.ts';
import { nameKey } from './text.ts';

export interface HlgtInfo {
  code: number;
  name: string;
  soc: SocDef;
}

export interface HltInfo {
  code: number;
  name: string;
  hlgt: HlgtInfo;
}

interface Rule {
  hlt: HltInfo;
  matcher: Matcher;
}

export class Hierarchy {
  readonly hltByName = new Map<string, HltInfo>();
  readonly hltByCode = new Map<number, HltInfo>();
  readonly hlgtByName = new Map<string, HlgtInfo>();
  readonly hlgtByCode = new Map<number, HlgtInfo>();
  private readonly exact = new Map<number, Map<string, HltInfo>>(); // soc code -> term key -> HLT
  private readonly regex = new Map<number, Rule[]>();
  /** Exact matchers never used by any term (typo guard). */
  private readonly unusedExact = new Map<string, string>(); // "soc code|term key" -> "SOC: term"
  /** Terms that fell into a catch-all HLT: "SOC: term". */
  readonly catchAllUses = new Set<string>();

  constructor(private readonly codes: CodeMap) {
    for (const soc of SOCS) {
      const rules = GROUPS[soc.name];
      if (!rules) throw new Error(`groups.ts has no entry for SOC ${soc.name}`);
      this.exact.set(soc.code, new Map());
      this.regex.set(soc.code, []);
      for (const [hlgtName, hlts] of Object.entries(rules)) {
        const hlgt = this.addHlgt(hlgtName, soc);
        for (const [hltName, matchers] of Object.entries(hlts)) {
          const hlt = this.addHlt(hltName, hlgt);
          for (const m of matchers) {
            if (typeof m === 'string') {
              const k = nameKey(m);
              const prev = this.exact.get(soc.code)!.get(k);
              if (prev) throw new Error(`groups.ts: "${m}" is listed under both "${prev.name}" and "${hlt.name}"`);
              this.exact.get(soc.code)!.set(k, hlt);
              this.unusedExact.set(`${soc.code}|${k}`, `${soc.name}: ${m}`);
            } else {
              this.regex.get(soc.code)!.push({ hlt, matcher: m });
            }
          }
        }
      }
    }
    for (const name of Object.keys(GROUPS)) socByName(name); // every key is a known SOC
  }

  private addHlgt(name: string, soc: SocDef): HlgtInfo {
    const k = nameKey(name);
    if (this.hlgtByName.has(k)) throw new Error(`Duplicate HLGT name: ${name}`);
    const hlgt: HlgtInfo = { code: this.codes.get('hlgt', name), name, soc };
    this.hlgtByName.set(k, hlgt);
    this.hlgtByCode.set(hlgt.code, hlgt);
    return hlgt;
  }

  private addHlt(name: string, hlgt: HlgtInfo): HltInfo {
    const k = nameKey(name);
    if (this.hltByName.has(k)) throw new Error(`Duplicate HLT name: ${name}`);
    const hlt: HltInfo = { code: this.codes.get('hlt', name), name, hlgt };
    this.hltByName.set(k, hlt);
    this.hltByCode.set(hlt.code, hlt);
    return hlt;
  }

  hlt(name: string): HltInfo {
    const h = this.hltByName.get(nameKey(name));
    if (!h) throw new Error(`Unknown HLT: ${JSON.stringify(name)}`);
    return h;
  }

  /** The HLT of `soc` a term belongs to (exact name, then RegExps, then the SOC's catch-all). */
  classify(term: string, soc: SocDef): HltInfo {
    const k = nameKey(term);
    const exact = this.exact.get(soc.code)!.get(k);
    if (exact) {
      this.unusedExact.delete(`${soc.code}|${k}`);
      return exact;
    }
    for (const r of this.regex.get(soc.code)!) if (typeof r.matcher !== 'string' && r.matcher.test(term)) return r.hlt;
    this.catchAllUses.add(`${soc.name}: ${term}`);
    const hlgtName = `${soc.short} conditions NEC`;
    const hltName = `${soc.short} disorders NEC`;
    const hlgt = this.hlgtByName.get(nameKey(hlgtName)) ?? this.addHlgt(hlgtName, soc);
    return this.hltByName.get(nameKey(hltName)) ?? this.addHlt(hltName, hlgt);
  }

  get unusedExactMatchers(): string[] {
    return [...this.unusedExact.values()].sort();
  }
}
