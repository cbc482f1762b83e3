# Extract typed chunks for the sixth fresh held-out set (issue 29). Two transcriptions, each copied from a public
# repository (see README.md): solosec-sections.json (one complete PLR prescribing information, SOLOSEC, one part per
# numbered subsection; written by solosec-transcribe.py) and dailymed-excerpts.json (whole fields, openings and excerpts of
# the openFDA label records of nine more drugs, copied verbatim). Chunking is fresh5's (extract-fresh5.py): sentences
# packed into chunks of at most 900 characters; a longer sentence is cut at a space; chunks under 60 characters dropped.
# A third input, added later (issue 29, more specific-population, boxed-warning and clinical-study chunks):
# pages-excerpts.json, passages of public web pages that republish US prescribing information of six more drugs.
# Its chunks are appended after the others, so the earlier chunks and their ids are unchanged.
#   python3 extract-fresh6.py > sections.json
import json, hashlib, re, sys

TYPES = {'boxed_warning': 'boxed_warning', 'indications_and_usage': 'indications',
         'warnings_and_cautions': 'warnings_precautions', 'warnings': 'warnings_precautions',
         'adverse_reactions': 'adverse_reactions', 'overdosage': 'overdosage',
         'contraindications': 'other', 'drug_interactions': 'other',
         'use_in_specific_populations': 'specific_populations', 'clinical_studies': 'clinical_studies'}
HEADINGS = {'boxed_warning': 'BOXED WARNING', 'indications_and_usage': 'INDICATIONS AND USAGE',
            'warnings_and_cautions': 'WARNINGS AND PRECAUTIONS', 'warnings': 'WARNINGS',
            'adverse_reactions': 'ADVERSE REACTIONS', 'overdosage': 'OVERDOSAGE',
            'contraindications': 'CONTRAINDICATIONS', 'drug_interactions': 'DRUG INTERACTIONS',
            'use_in_specific_populations': 'USE IN SPECIFIC POPULATIONS', 'clinical_studies': 'CLINICAL STUDIES'}

def pieces(text, limit):
  out = []
  # a sentence end, or a closing bracket before a capital (the highlights' bullets end '… (5.2) Next')
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
    out.append({'id': f'{drug}-{h}', 'split': 'fresh6', 'sectionType': typ, 'heading': heading, 'text': ch,
      'source': {**source, 'document': document, 'field': field, 'section': section, 'part': i}})

sol = json.load(open('solosec-sections.json'))
d = sol['document']
source = {k: d[k] for k in ('repo', 'path', 'commit')}
for p in sol['parts']:
  emit('solosec', p['sectionType'], p['heading'], p['heading'], p['text'], source, d['label'], p['field'])

ex = json.load(open('dailymed-excerpts.json'))
for r in ex['records']:
  source = {'repo': ex['source']['repo'], 'path': r['path'], 'commit': ex['source']['commit']}
  doc = f"{r['label']}: openFDA label record as stored by the source repository, {r['field']} ({r['extent']})"
  section = f"{HEADINGS[r['field']]} ({r['extent']})"
  emit(r['drug'], TYPES[r['field']], HEADINGS[r['field']], section, r['text'], source, doc, r['field'])

pg = json.load(open('pages-excerpts.json'))
for r in pg['records']:
  source = {'url': r['url'], 'retrieved': '2026-11-27 (stored copy, search tool corpus "pages")'}
  doc = f"{r['label']}: {r['field']} ({r['extent']})"
  section = f"{HEADINGS[r['field']]} ({r['extent']})"
  emit(r['drug'], TYPES[r['field']], HEADINGS[r['field']], section, r['text'], source, doc, r['field'])

json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
