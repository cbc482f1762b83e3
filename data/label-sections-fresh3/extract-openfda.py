# Extract typed chunks from openFDA drug-label records (third fresh held-out set, issue 29 round 5). RECORD is the
# transcription DRUG-sections.json: the record's identifiers and the seven section fields used, copied verbatim.
# The records hold each label section as one flattened string (paragraph breaks gone), so instead of
# round 3's line-based chunking this cuts a section at its numbered subsections (5.1, 5.2 …), then into
# sentences, and packs the sentences into chunks of at most 900 characters (a sentence longer than that,
# e.g. a flattened table, is cut at a space). Chunks under 60 characters are dropped, as before.
#   python3 extract-openfda.py DRUG DRUG-sections.json REPO PATH COMMIT > part.json
import json, sys, hashlib, re

# openFDA field → (section type, section number, title as the label prints it)
FIELDS = [
  ('boxed_warning', 'boxed_warning', None, 'BOXED WARNING'),
  ('indications_and_usage', 'indications', '1', 'INDICATIONS AND USAGE'),
  ('warnings_and_cautions', 'warnings_precautions', '5', 'WARNINGS AND PRECAUTIONS'),
  ('adverse_reactions', 'adverse_reactions', '6', 'ADVERSE REACTIONS'),
  ('use_in_specific_populations', 'specific_populations', '8', 'USE IN SPECIFIC POPULATIONS'),
  ('overdosage', 'overdosage', '10', 'OVERDOSAGE'),
  ('clinical_studies', 'clinical_studies', '14', 'CLINICAL STUDIES'),
]

def subsections(text, number):
  """Cut at 'N.k Title' (not a cross-reference such as '(5.2)' or ', 5.3)'), in increasing order."""
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

drug, record_path, repo, path, commit = sys.argv[1:6]
# Subsection titles, read off the label by hand (a flattened title has no end the script could find).
TITLES = json.load(open(record_path.replace('.json', '.titles.json')))
r = json.load(open(record_path))
document = f"openFDA drug label {r['id']} (SPL set {r['set_id']}, version {r['version']}, effective {r['effective_time']}): {r['openfda']['brand_name'][0]} ({r['openfda']['generic_name'][0].lower()}), {r['openfda']['manufacturer_name'][0]}"
out = []
for field, typ, number, top in FIELDS:
  for sub, text in subsections(r[field][0], number):
    heading = TITLES[sub] if sub else TITLES.get(field, top)
    for i, ch in enumerate(chunks(text)):
      if len(ch) < 60: continue
      section = top + (' > ' + heading if sub else '')
      h = hashlib.sha1((drug + section + str(i) + ch).encode()).hexdigest()[:8]
      out.append({'id': f'{drug}-{h}', 'split': 'fresh3', 'sectionType': typ, 'heading': heading, 'text': ch,
        'source': {'repo': repo, 'path': path, 'commit': commit, 'document': document, 'field': field, 'section': section, 'part': i}})
json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
