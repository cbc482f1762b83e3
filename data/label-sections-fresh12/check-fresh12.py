# Validate the twelfth fresh held-out set: python3 check-fresh12.py [--sections-only]
# sections.json parses, ids unique, split 'fresh12', sectionType in the vocabulary, text non-empty and <= 900 chars;
# gold.json (unless --sections-only) parses, has exactly the chunk ids as keys, each a list of unique non-empty strings.
import json, sys
from collections import Counter
VOCAB = {'adverse_reactions', 'boxed_warning', 'clinical_studies', 'indications', 'other', 'overdosage',
         'specific_populations', 'warnings_precautions'}
secs = json.load(open('sections.json', encoding='utf-8'))
errs = []
ids = [s['id'] for s in secs]
for i, n in Counter(ids).items():
  if n > 1: errs.append(f'duplicate id {i}')
for s in secs:
  if set(s) != {'id', 'split', 'sectionType', 'heading', 'text', 'source'}: errs.append(f'{s["id"]}: keys {sorted(s)}')
  if s['split'] != 'fresh12': errs.append(f'{s["id"]}: split {s["split"]}')
  if s['sectionType'] not in VOCAB: errs.append(f'{s["id"]}: sectionType {s["sectionType"]}')
  if not s['text'].strip() or len(s['text']) > 900: errs.append(f'{s["id"]}: text length {len(s["text"])}')
if '--sections-only' not in sys.argv:
  gold = json.load(open('gold.json', encoding='utf-8'))
  if set(gold) != set(ids):
    errs.append(f'gold keys differ: missing {sorted(set(ids) - set(gold))[:5]}, extra {sorted(set(gold) - set(ids))[:5]}')
  for k, v in gold.items():
    if not isinstance(v, list) or any(not isinstance(t, str) or not t.strip() for t in v) or len(set(v)) != len(v):
      errs.append(f'{k}: bad gold list {v!r}')
  terms = Counter()
  by = Counter(); empty = Counter(); chunks = Counter()
  typ = {s['id']: s['sectionType'] for s in secs}
  for k, v in gold.items():
    chunks[typ.get(k)] += 1; by[typ.get(k)] += len(v); empty[typ.get(k)] += not v; terms.update(v)
  for t in sorted(chunks): print(f'{t:22} chunks {chunks[t]:4}  gold terms {by[t]:4}  empty {empty[t]:3}', file=sys.stderr)
  print(f'{"all":22} chunks {sum(chunks.values()):4}  gold terms {sum(by.values()):4}  empty {sum(empty.values()):3}'
        f'  distinct names {len(terms)}', file=sys.stderr)
print('\n'.join(errs) if errs else f'OK: {len(secs)} chunks', file=sys.stderr)
sys.exit(1 if errs else 0)
