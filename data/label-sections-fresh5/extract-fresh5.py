# Extract typed chunks for the fifth fresh held-out set (issue 29). Two transcriptions, each copied from a public
# repository (see README.md): metformin-er-sections.json (one complete DailyMed SPL label, its section texts with the
# XML markup removed, in document order, one part per numbered subsection) and excerpts-sections.json (the first
# ~1,400 characters of up to four sections of thirteen openFDA labels, as a course dataset stores them, copied verbatim).
# Chunking is fresh4's (extract-fresh4.py): sentences packed into chunks of at most 900 characters; a longer sentence is
# cut at a space; chunks under 60 characters are dropped. The SPL parts are already one subsection each; the excerpts
# are not cut at subsections (too short to need it).
#   python3 extract-fresh5.py > sections.json
import json, hashlib, re, sys

EXCERPTS = {'repo': 'angeloziletti/nlp-cas-dsmh', 'path': 'data/drug_labels.json',
            'commit': '55376027955f3b7bff4a0eb18f485a1bead4b151'}
EXCERPT_TYPES = {'Indications and Usage': 'indications', 'Warnings and Precautions': 'warnings_precautions',
                 'Adverse Reactions': 'adverse_reactions', 'Contraindications': 'other', 'Drug Interactions': 'other'}

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
    out.append({'id': f'{drug}-{h}', 'split': 'fresh5', 'sectionType': typ, 'heading': heading, 'text': ch,
      'source': {**source, 'document': document, 'field': field, 'section': section, 'part': i}})

met = json.load(open('metformin-er-sections.json'))
d = met['document']
source = {k: d[k] for k in ('repo', 'path', 'commit')}
doc = (f"DailyMed SPL {d['spl_document_id']} (set {d['set_id']}, version {d['version']}, effective {d['effective_time']}) "
       f"as stored by the source repository: {d['label']}")
for p in met['parts']:
  section = p['heading'] if p['number'] is None else f"{p['number']} {p['heading']}"
  emit('metformin-er', p['sectionType'], p['heading'], section, p['text'], source, doc, p['field'])

for r in json.load(open('excerpts-sections.json')):
  doc = f"{r['drug']} label, {r['section']} (first ~1,400 characters, openFDA text as stored by the source dataset)"
  emit(r['drug'], EXCERPT_TYPES[r['section']], r['section'], r['section'], r['text'], EXCERPTS, doc, r['section'])

json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
