# Transcribe the SOLOSEC (secnidazole) full prescribing information from the JSX file a public repository holds
# (mconnor/nextjs-solosec, components/modals/PI/Copy.js; see README.md) into solosec-sections.json: one part per numbered
# subsection of the sections used. Markup is removed with its text kept, JSX spacers ({' '}) dropped, entities decoded,
# whitespace collapsed; the words are the file's. Run once:
#   git -C <snapshot> show 2892a7d10701f608f24f147393a100cbe7863723:components/modals/PI/Copy.js > /tmp/Copy.js
#   python3 solosec-transcribe.py /tmp/Copy.js > solosec-sections.json
import html, json, re, sys

src = open(sys.argv[1], encoding='utf-8').read()
# the prescribing information's sections are <div id="..."> blocks; the patient leaflet after them is not used
USED = {'indicationsAndUsage': ('indications_and_usage', 'indications'),
        'contraindications': ('contraindications', 'other'),
        'warnings': ('warnings_and_precautions', 'warnings_precautions'),
        'adverseReactions': ('adverse_reactions', 'adverse_reactions'),
        'drugInteractions': ('drug_interactions', 'other'),
        'specificUse': ('use_in_specific_populations', 'specific_populations'),
        'clinicalStudies': ('clinical_studies', 'clinical_studies')}

def clean(t):
  t = re.sub(r"\{\s*'\s*'\s*\}|\{\s*\"\s*\"\s*\}", ' ', t)
  t = re.sub(r'\{\s*/\*.*?\*/\s*\}', ' ', t, flags=re.S)
  t = re.sub(r'<[^>]+>', ' ', t)
  t = html.unescape(t)
  t = re.sub(r'\s+', ' ', t).strip()
  t = re.sub(r'\s+([,.;:)\]])', r'\1', t)
  return re.sub(r'([(\[])\s+', r'\1', t)

starts = [(m.start(), m.group(1)) for m in re.finditer(r'<div id="(\w+)">', src)]
parts = []
for i, (pos, name) in enumerate(starts):
  if name not in USED: continue
  field, typ = USED[name]
  block = src[pos:starts[i + 1][0] if i + 1 < len(starts) else len(src)]
  title = clean(re.search(r'<h2[^>]*>(.*?)</h2>', block, re.S).group(1))
  # one part per numbered subsection (<h3>N.N Title); a section without subsections is one part
  pieces = re.split(r'(?=<h3[^>]*>\s*\d+\.\d+)', block)
  for p in pieces:
    text = clean(p)
    if not text or text == title: continue
    m = re.match(r'(\d+\.\d+)\s', text)
    parts.append({'field': field, 'sectionType': typ, 'number': m.group(1) if m else title.split(' ')[0],
                  'heading': title if not m else clean(re.search(r'<h3[^>]*>(.*?)</h3>', p, re.S).group(1)),
                  'text': text if m else text})
doc = {'label': 'SOLOSEC (secnidazole) oral granules, full prescribing information as the product website source holds it',
       'repo': 'mconnor/nextjs-solosec', 'path': 'components/modals/PI/Copy.js',
       'commit': '2892a7d10701f608f24f147393a100cbe7863723'}
json.dump({'document': doc, 'parts': parts}, sys.stdout, indent=1, ensure_ascii=False)
