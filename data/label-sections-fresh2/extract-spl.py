# Extract typed chunks from SPL XML (second fresh held-out set, issue 29 round 4): the round-3 script with the
# adverse reactions, boxed warning, indications, general precautions, drug interactions and nonclinical codes added.
import json, sys, hashlib, re
import xml.etree.ElementTree as ET
NS = '{urn:hl7-org:v3}'
TYPE_BY_CODE = {
  '43685-7': 'warnings_precautions', '34071-1': 'warnings_precautions', '42232-9': 'warnings_precautions',
  '43684-0': 'specific_populations', '42228-7': 'specific_populations', '34080-2': 'specific_populations',
  '34081-0': 'specific_populations', '34082-8': 'specific_populations', '77290-5': 'specific_populations',
  '42229-5': None, '34088-5': 'overdosage', '34092-7': 'clinical_studies',
  # added for fresh2: the section types round 3 did not sample
  '34084-4': 'adverse_reactions', '34066-1': 'boxed_warning', '34067-9': 'indications',
  '34072-9': 'warnings_precautions', '34073-7': 'other', '34083-6': 'other', '43680-8': 'other',
}
POP_TITLES = re.compile(r'pregnan|nursing|lactation|pediatric|geriatric|children', re.I)
def text_of(el):
  parts = []
  def rec(e):
    tag = e.tag.replace(NS, '')
    if tag in ('sup',): parts.append(''.join(e.itertext())); parts.append(e.tail or ''); return
    if tag == 'br': parts.append(' ')
    if e.text: parts.append(e.text)
    for c in e: rec(c)
    if e.tail and e is not el: parts.append(e.tail)
  rec(el)
  return re.sub(r'\s+', ' ', ''.join(parts)).strip()
def lines_of(textel):
  out = []
  def rec(e):
    tag = e.tag.replace(NS, '')
    if tag == 'paragraph': out.append(text_of(e)); return
    if tag == 'item': 
      # items may hold nested lists; take own text without nested lists
      out.append(text_of(e)); return
    if tag == 'tr': out.append('  '.join(text_of(td) for td in e if td.tag.replace(NS,'') in ('td','th'))); return
    if tag == 'caption': out.append(text_of(e)); return
    for c in e: rec(c)
  rec(textel)
  return [l for l in (x.strip() for x in out) if l]
def walk(sec, path, inherited, acc):
  code = sec.find(NS+'code'); code = code.get('code') if code is not None else None
  t = sec.find(NS+'title'); title = text_of(t) if t is not None else ''
  typ = TYPE_BY_CODE.get(code, 'x') if code in TYPE_BY_CODE else 'x'
  if typ is None or typ == 'x':
    typ = inherited if typ is None or code not in TYPE_BY_CODE else inherited
    if code not in TYPE_BY_CODE: typ = 'skip'
  if typ in ('warnings_precautions',) and POP_TITLES.search(title): typ = 'specific_populations'
  if typ is None and inherited: typ = inherited
  if inherited in ('warnings_precautions','specific_populations','overdosage','clinical_studies') and typ in (None,'skip') and code == '42229-5': typ = inherited
  if typ == 'warnings_precautions' and POP_TITLES.search(title): typ = 'specific_populations'
  p = path + [title] if title else path
  te = sec.find(NS+'text')
  if te is not None and typ not in (None, 'skip'):
    acc.append((typ, title, ' > '.join(p), lines_of(te)))
  for comp in sec.findall(NS+'component'):
    s = comp.find(NS+'section')
    if s is not None: walk(s, p, typ if typ not in ('skip',) else None, acc)
def chunks(lines, limit=900):
  cur, n = [], 0
  for l in lines:
    if cur and n + len(l) + 1 > limit: yield cur; cur, n = [], 0
    cur.append(l); n += len(l) + 1
  if cur: yield cur
drug, xmlpath, repo, path, commit, document = sys.argv[1:7]
root = ET.parse(xmlpath).getroot()
acc = []
for comp in root.find(NS+'component').find(NS+'structuredBody').findall(NS+'component'):
  walk(comp.find(NS+'section'), [], None, acc)
out = []
for typ, title, spath, lines in acc:
  for i, ch in enumerate(chunks(lines)):
    text = '\n'.join(ch)
    if len(text) < 60: continue
    h = hashlib.sha1((drug + spath + str(i) + text).encode()).hexdigest()[:8]
    out.append({'id': f'{drug}-{h}', 'split': 'fresh2', 'sectionType': typ, 'heading': title, 'text': text,
      'source': {'repo': repo, 'path': path, 'commit': commit, 'document': document, 'section': spath, 'part': i}})
json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
