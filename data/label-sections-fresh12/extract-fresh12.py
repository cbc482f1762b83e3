# Extract typed chunks for the twelfth fresh held-out set (issue 29), built to the brief's mix of section kinds.
# Input: pages-excerpts.txt, passages of public web pages that republish US prescribing information, and
# repo-excerpts.txt, parts of openFDA drug/label fields stored in a public GitHub repository (see README.md); one record
# per passage: a header "### drug | field | label | url | section (extent)" then the text. Chunking is fresh7's
# (itself fresh5's and fresh6's): sentences packed into chunks of at most 900 characters; a longer sentence is cut at a
# space; a short last chunk (under 135) takes sentences from the one before; chunks under 60 characters dropped; whitespace (line breaks inside and between paragraphs) collapsed to one space.
#   python3 extract-fresh12.py > sections.json
#   python3 extract-fresh12.py --mix      (the per-type / per-drug table for the README, on stderr)
import json, hashlib, re, sys
from collections import Counter, defaultdict

TYPES = {'boxed_warning': 'boxed_warning', 'warnings_and_cautions': 'warnings_precautions',
         'warnings': 'warnings_precautions', 'adverse_reactions': 'adverse_reactions', 'overdosage': 'overdosage',
         'contraindications': 'other', 'drug_interactions': 'other', 'indications_and_usage': 'other',
         'dosage_and_administration': 'other', 'clinical_pharmacology': 'other',
         'use_in_specific_populations': 'specific_populations', 'clinical_studies': 'clinical_studies'}
HEADINGS = {'boxed_warning': 'BOXED WARNING', 'warnings_and_cautions': 'WARNINGS AND PRECAUTIONS',
            'warnings': 'WARNINGS', 'adverse_reactions': 'ADVERSE REACTIONS', 'overdosage': 'OVERDOSAGE',
            'contraindications': 'CONTRAINDICATIONS', 'drug_interactions': 'DRUG INTERACTIONS',
            'indications_and_usage': 'INDICATIONS AND USAGE', 'dosage_and_administration': 'DOSAGE AND ADMINISTRATION', 'clinical_pharmacology': 'CLINICAL PHARMACOLOGY',
            'use_in_specific_populations': 'USE IN SPECIFIC POPULATIONS', 'clinical_studies': 'CLINICAL STUDIES'}
RETRIEVED = '2026-11-27'
GITHUB = re.compile(r'^https://github\.com/([^/]+/[^/]+)/blob/([0-9a-f]{40})/(.+)$')

def pieces(text, limit):
  out = []
  # a sentence end, or a closing bracket before a capital (the highlights' bullets end '… (5.2) Next')
  for s in re.split(r'(?<=[.!?])\s+(?=[A-Z\[(])|(?<=[)\]])\s+(?=[A-Z])', text):
    # a sentence over the limit (a long list) is cut at spaces into near-equal parts, not a full part and a stub
    while len(s) > limit:
      cut = s.rfind(' ', 0, min(limit, len(s) // -(-len(s) // limit) + 1))
      out.append(s[:cut]); s = s[cut + 1:]
    out.append(s)
  return out

def chunks(text, limit=900, least=135):
  out = [[]]
  for p in pieces(text, limit):
    if out[-1] and len(' '.join(out[-1] + [p])) > limit: out.append([])
    out[-1].append(p)
  # The brief wants no chunk under 135 characters: a short last chunk takes sentences from the end of the one before
  # (while both stay within the limit), so a passage never ends in a stub.
  while len(out) > 1 and len(' '.join(out[-1])) < least and len(out[-2]) > 1 \
      and len(' '.join([out[-2][-1]] + out[-1])) <= limit:
    out[-1].insert(0, out[-2].pop())
  for c in out:
    if c: yield ' '.join(c)

def records(path):
  rec = None
  for line in open(path, encoding='utf-8'):
    line = line.rstrip('\n')
    if line.startswith('### '):
      if rec: yield rec
      drug, field, label, url, section = [x.strip() for x in line[4:].split(' | ')]
      rec = {'drug': drug, 'field': field, 'label': label, 'url': url, 'section': section, 'lines': []}
    elif rec is not None:
      rec['lines'].append(line)
  if rec: yield rec

SOURCES = [('pages-excerpts.txt', 'passage of a public web page'),
           ('repo-excerpts.txt', 'part of an openFDA drug/label field stored in a public GitHub repository')]
out = []
for path, kind in SOURCES:
  for r in records(path):
    text = re.sub(r'\s+', ' ', ' '.join(r['lines'])).strip()
    typ = TYPES[r['field']]
    doc = f"{r['label']}: {kind} ({r['section']})"
    for i, ch in enumerate(chunks(text)):
      if len(ch) < 60: continue
      h = hashlib.sha1((r['drug'] + r['url'] + r['section'] + str(i) + ch).encode()).hexdigest()[:8]
      source = {'url': r['url'], 'retrieved': RETRIEVED, 'document': doc, 'field': r['field'], 'section': r['section'], 'part': i}
      m = GITHUB.match(r['url'])
      if m: source.update({'repo': m.group(1), 'commit': m.group(2), 'path': m.group(3)})
      out.append({'id': f"{r['drug']}-{h}", 'split': 'fresh12', 'sectionType': typ, 'heading': HEADINGS[r['field']],
        'text': ch, 'source': source})

if '--mix' in sys.argv:
  by = defaultdict(Counter)
  for c in out: by[c['sectionType']][c['id'].rsplit('-', 1)[0]] += 1
  for t, cnt in sorted(by.items()):
    n = sum(cnt.values()); top = max(cnt.values())
    print(f"{t:22} {n:4}  drugs={len(cnt):2}  max/drug={top} ({top / n:.0%})  {dict(cnt)}", file=sys.stderr)
  print('total', len(out), 'drugs', len({c['id'].rsplit('-', 1)[0] for c in out}), file=sys.stderr)
else:
  json.dump(out, sys.stdout, indent=1, ensure_ascii=False); print()
