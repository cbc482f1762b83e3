# Extract typed chunks for the fourth fresh held-out set (issue 29). Three transcriptions, each copied verbatim from a
# public repository (see README.md): naproxen-sections.json (one openFDA label record as a third-party dataset stores it:
# its seven section fields), ofloxacin-sections.json (an openFDA record, old-format label, the section fields used) and
# excerpts-sections.json (the first ~1,400 characters of four sections of five openFDA labels, as a course dataset
# stores them). Chunking is fresh3's (extract-openfda.py): cut a PLR section at its numbered subsections, then into
# sentences, packed into chunks of at most 900 characters; a longer sentence is cut at a space; chunks under 60
# characters are dropped. The excerpts and the old-format fields are not cut at subsections (the excerpts are too short
# to need it, and an old-format field is one subsection already).
#   python3 extract-fresh4.py > sections.json
import json, hashlib, re

NAPROXEN = {'repo': 'RohitKulkarni02/Medication-Instruction-Simplifier', 'path': 'data/drug_labels.json',
            'commit': 'bf96f28369a6f2b9269301646c0da2232d7abbf3'}
OFLOXACIN = {'repo': 'YinTingyu/openfda-drug-label-extractor', 'path': 'data/raw_labels_2026-09-28.json',
             'commit': 'a1a4dcaa42b36abdff6ad21d6efcb243e08c754f'}
EXCERPTS = {'repo': 'angeloziletti/nlp-cas-dsmh', 'path': 'data/drug_labels.json',
            'commit': '55376027955f3b7bff4a0eb18f485a1bead4b151'}

# naproxen field -> (section type, section number, title as the label prints it)
NAPROXEN_FIELDS = [
  ('boxed_warning', 'boxed_warning', None, 'BOXED WARNING'),
  ('indications_and_usage', 'indications', '1', 'INDICATIONS AND USAGE'),
  ('warnings_and_cautions', 'warnings_precautions', '5', 'WARNINGS AND PRECAUTIONS'),
  ('adverse_reactions', 'adverse_reactions', '6', 'ADVERSE REACTIONS'),
  ('use_in_specific_populations', 'specific_populations', '8', 'USE IN SPECIFIC POPULATIONS'),
  ('overdosage', 'overdosage', '10', 'OVERDOSAGE'),
  ('clinical_studies', 'clinical_studies', '14', 'CLINICAL STUDIES'),
]
# ofloxacin (old format) field -> (section type, heading)
OFLOXACIN_FIELDS = [
  ('indications_and_usage', 'indications', 'INDICATIONS AND USAGE'),
  ('warnings', 'warnings_precautions', 'WARNINGS'),
  ('general_precautions', 'warnings_precautions', 'PRECAUTIONS > General'),
  ('pregnancy', 'specific_populations', 'PRECAUTIONS > Pregnancy'),
  ('nursing_mothers', 'specific_populations', 'PRECAUTIONS > Nursing Mothers'),
  ('pediatric_use', 'specific_populations', 'PRECAUTIONS > Pediatric Use'),
  ('geriatric_use', 'specific_populations', 'PRECAUTIONS > Geriatric Use'),
  ('adverse_reactions', 'adverse_reactions', 'ADVERSE REACTIONS'),
  ('clinical_studies', 'clinical_studies', 'CLINICAL STUDIES'),
]
EXCERPT_TYPES = {'Indications and Usage': 'indications', 'Warnings and Precautions': 'warnings_precautions',
                 'Adverse Reactions': 'adverse_reactions', 'Contraindications': 'other'}

def subsections(text, number):
  """Cut at 'N.k Title' (not a cross-reference such as '( 5.2 )' or ', 5.3)'), in increasing order."""
  if number is None: return [(None, text)]
  cuts, last = [], 0
  for m in re.finditer(r'(?<![\(\[\d.,])(?<=\s)(' + number + r'\.(\d{1,2}))\s+(?=[A-Z])', text):
    k = int(m.group(2))
    if k > last: cuts.append((m.start(), m.group(1))); last = k
  parts, prev, label = [], 0, None
  for pos, num in cuts:
    parts.append((label, text[prev:pos])); prev, label = pos, num
  parts.append((label, text[prev:]))
  return [(n, p.strip()) for n, p in parts if p.strip()]

def pieces(text, limit):
  out = []
  # a sentence end, or a closing bracket before a capital (the highlights' bullets end '… ( 5.2 ) Next')
  for s in re.split(r'(?<=[.!?])\s+(?=[A-Z\[(])|(?<=[)\]])\s+(?=[A-Z])', text):
    while len(s) > limit:
      cut = s.rfind(' ', 0, limit)
      out.append(s[:cut]); s = s[cut + 1:]
    out.append(s)
  return out

def chunks(text, limit=900):
  cur = ''
  for p in pieces(text, limit):
    if cur and len(cur) + 1 + len(p) > limit: yield cur; cur = ''
    cur = p if not cur else cur + ' ' + p
  if cur: yield cur

out = []
def emit(drug, typ, heading, section, text, source, document, field):
  for i, ch in enumerate(chunks(text)):
    if len(ch) < 60: continue
    h = hashlib.sha1((drug + section + str(i) + ch).encode()).hexdigest()[:8]
    out.append({'id': f'{drug}-{h}', 'split': 'fresh4', 'sectionType': typ, 'heading': heading, 'text': ch,
      'source': {**source, 'document': document, 'field': field, 'section': section, 'part': i}})

nap = json.load(open('naproxen-sections.json'))
titles = json.load(open('naproxen-sections.titles.json'))
doc = (f"openFDA drug label {nap['spl_id']} (effective {nap['effective_date']}) as stored by the source dataset: "
       "Naproxen Tablets, USP and Naproxen Sodium Tablets, USP (Glenmark Pharmaceuticals Inc., USA; repackaged, NDC 50090-0481)")
for field, typ, number, top in NAPROXEN_FIELDS:
  for sub, text in subsections(nap['all_fields'][field], number):
    heading = titles[sub] if sub else titles.get(field, top)
    emit('naproxen', typ, heading, top + (' > ' + heading if sub else ''), text, NAPROXEN, doc, field)

of = json.load(open('ofloxacin-sections.json'))
doc = (f"openFDA drug label {of['id']} (SPL set {of['set_id']}, version {of['version']}, effective {of['effective_time']}): "
       "Ofloxacin Ophthalmic Solution USP, 0.3% (repackaged, NDC 53002-1324)")
for field, typ, heading in OFLOXACIN_FIELDS:
  emit('ofloxacin', typ, heading, heading, of[field][0], OFLOXACIN, doc, field)

for r in json.load(open('excerpts-sections.json')):
  doc = f"{r['drug']} label, {r['section']} (first ~1,400 characters, openFDA text as stored by the source dataset)"
  emit(r['drug'], EXCERPT_TYPES[r['section']], r['section'], r['section'], r['text'], EXCERPTS, doc, r['section'])

json.dump(out, __import__('sys').stdout, indent=1, ensure_ascii=False)
