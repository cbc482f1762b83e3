/**
 * MedAscii writer: `$`-separated fields, every record ends with `$`, CRLF line endings,
 * Latin-1 encoding, legacy `+` columns empty; meddra_release.asc has no final newline.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyntheticRelease, SynHlgt, SynHlt, SynSoc } from './model.ts';

const SMQ_FILES = ['smq_list.asc', 'smq_content.asc'] as const;

const CRLF = '\r\n';
const E7 = '$$$$$$$'; // seven empty legacy fields (each terminated by `$`)

function lines(rows: string[]): Buffer {
  return Buffer.from(rows.length === 0 ? '' : rows.join(CRLF) + CRLF, 'latin1');
}

/** Render every file of the release in memory (file name → Latin-1 bytes). */
export function renderMedAscii(r: SyntheticRelease): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const soc = new Map<number, SynSoc>(r.socs.map((s) => [s.code, s]));
  const hlgt = new Map<number, SynHlgt>(r.hlgts.map((h) => [h.code, h]));
  const hlt = new Map<number, SynHlt>(r.hlts.map((h) => [h.code, h]));
  const ptName = new Map<number, string>(r.pts.map((p) => [p.code, p.name]));
  const ptSoc = new Map<number, number>(r.pts.map((p) => [p.code, p.socCode]));

  // soc_code, soc_name, soc_abbrev, + ×7
  out.set('soc.asc', lines(r.socs.map((s) => `${s.code}$${s.name}$${s.abbrev}$${E7}`)));
  out.set('soc_hlgt.asc', lines(r.links.socHlgt.map(([s, h]) => `${s}$${h}$`)));
  // code, name, + ×7
  out.set('hlgt.asc', lines(r.hlgts.map((h) => `${h.code}$${h.name}$${E7}`)));
  out.set('hlgt_hlt.asc', lines(r.links.hlgtHlt.map(([g, h]) => `${g}$${h}$`)));
  out.set('hlt.asc', lines(r.hlts.map((h) => `${h.code}$${h.name}$${E7}`)));
  out.set('hlt_pt.asc', lines(r.links.hltPt.map(([h, p]) => `${h}$${p}$`)));
  // pt_code, pt_name, null_field, pt_soc_code, + ×7
  out.set('pt.asc', lines(r.pts.map((p) => `${p.code}$${p.name}$$${p.socCode}$${E7}`)));
  // llt_code, llt_name, pt_code, + ×6, llt_currency, llt_jart_code+
  out.set('llt.asc', lines(r.llts.map((l) => `${l.code}$${l.name}$${l.ptCode}$$$$$$$${l.current ? 'Y' : 'N'}$$`)));
  // pt, hlt, hlgt, soc, pt_name, hlt_name, hlgt_name, soc_name, soc_abbrev, null_field, pt_soc_code, primary_soc_fg
  out.set(
    'mdhier.asc',
    lines(
      r.paths.map((x) => {
        const s = soc.get(x.socCode) as SynSoc;
        return (
          `${x.ptCode}$${x.hltCode}$${x.hlgtCode}$${x.socCode}$${ptName.get(x.ptCode)}$${hlt.get(x.hltCode)?.name}$` +
          `${hlgt.get(x.hlgtCode)?.name}$${s.name}$${s.abbrev}$$${ptSoc.get(x.ptCode)}$${x.primary ? 'Y' : 'N'}$`
        );
      }),
    ),
  );
  out.set(
    'intl_ord.asc',
    lines([...r.socs].sort((a, b) => a.intlOrd - b.intlOrd).map((s) => `${s.intlOrd}$${s.code}$`)),
  );
  out.set('meddra_release.asc', Buffer.from(`${r.version}$English$$$$`, 'latin1'));
  if (r.withSmq) {
    // smq_code, smq_name, smq_level, smq_description, smq_source, smq_note, MedDRA_version, status, smq_algorithm
    out.set(
      'smq_list.asc',
      lines(
        r.smqs.map(
          (s) => `${s.code}$${s.name}$${s.level}$${s.description}$${s.source}$${s.note}$${s.version}$${s.status}$${s.algorithm}$`,
        ),
      ),
    );
    // smq_code, term_code, term_level, term_scope, term_category, term_weight, term_status, term_addition_version, term_last_modified_version
    out.set(
      'smq_content.asc',
      lines(
        r.smqContent.map(
          (c) =>
            `${c.smqCode}$${c.termCode}$${c.termLevel}$${c.scope}$${c.category}$${c.weight}$${c.status}$${c.addedVersion}$${c.modifiedVersion}$`,
        ),
      ),
    );
  }
  return out;
}

/** Write all MedAscii files of the release into `dir` (created if needed). */
export async function writeMedAscii(release: SyntheticRelease, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const files = renderMedAscii(release);
  if (!release.withSmq) await Promise.all(SMQ_FILES.map((f) => rm(join(dir, f), { force: true })));
  await Promise.all([...files].map(([name, buf]) => writeFile(join(dir, name), buf)));
}
