// Another code for an event: a search field over the release's PTs (the level predictions are
// made at; an LLT's name finds its PT) and the results as buttons. Escape or "Cancel" closes it;
// focus returns to the button that opened it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ExplorerSearchDocument } from './operations/generated.ts';
import type { PickedCode } from './codingExport.ts';
import { ErrorBox, LevelBadge, useQuery } from './ui.tsx';
import { t } from './i18n.ts';

export function CodePicker({ id, label, version, onPick }: { id: string; label: string; version?: string; onPick: (c: PickedCode) => void }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 200);
    return () => clearTimeout(timer);
  }, [text]);
  useEffect(() => {
    if (open) field.current?.focus();
  }, [open]);
  const results = useQuery(ExplorerSearchDocument, { q, level: 'PT', version, first: 8 }, { skip: !open || q.length < 2 });
  const close = () => {
    setOpen(false);
    setText('');
    setQ('');
    setTimeout(() => opener.current?.focus(), 0);
  };
  if (!open)
    return (
      <button type="button" ref={opener} onClick={() => setOpen(true)}>
        {t('picker.open')}<span class="sr-only"> {t('picker.for', { label })}</span>
      </button>
    );
  const hits = results.data?.codes.edges.map((e) => e.node.code) ?? [];
  return (
    <div class="picker" onKeyDown={(e) => e.key === 'Escape' && close()}>
      <div class="field">
        <label for={`${id}-q`}>{t('picker.label', { label })}</label>
        <input id={`${id}-q`} ref={field} type="search" autocomplete="off" spellcheck={false} value={text} onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <p class="muted small" role="status">
        {q.length < 2 ? t('picker.typeMore') : results.loading ? t('search.searching') : results.data ? t('picker.count', { count: results.data.codes.totalCount }) : ''}
      </p>
      {results.error ? <ErrorBox error={results.error} title={t('search.failed')} /> : null}
      {hits.length ? (
        <ul class="picker-hits">
          {hits.map((c) => (
            <li key={c.code}>
              <button
                type="button"
                onClick={() => {
                  onPick({ code: c.code, term: c.term, level: c.level });
                  close();
                }}
              >
                <LevelBadge level={c.level} /> {c.term} <span class="muted">{c.code}</span>
                <span class="sr-only"> — {t('picker.useFor', { label })}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <button type="button" onClick={close}>
        {t('picker.cancel')}
      </button>
    </div>
  );
}
