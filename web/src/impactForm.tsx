// The impact page's form: the release pair (in the URL), the coded rows as a CSV file or
// pasted text, what was read or could not be, and the button that runs the analysis.
import { useRef } from 'preact/hooks';
import { navigate } from './router.ts';
import type { Release } from './release.ts';
import { MAX_ROWS, type Input } from './impactJob.ts';
import { formatDate, t, tx } from './i18n.ts';

export function ImpactForm(props: {
  releases: Release[];
  from: string;
  to: string;
  valid: boolean;
  apiKey: string;
  text: string;
  onText: (text: string) => void;
  input: Input | undefined;
  onFile: (file: File | undefined) => void;
  onClearFile: () => void;
  readError: string | undefined;
  busy: boolean;
  onRun: () => void;
}) {
  const { from, to, valid, text, input, readError, busy } = props;
  const fileInput = useRef<HTMLInputElement>(null);
  const versions = props.releases.map((r) => (
    <option key={r.version} value={r.version}>
      {r.version}
      {r.releaseDate ? ` (${formatDate(r.releaseDate)})` : ''}
    </option>
  ));
  return (
    <form
      class="impact-form"
      onSubmit={(e) => {
        e.preventDefault();
        props.onRun();
      }}
    >
      <div class="filters">
        <div class="field">
          <label for="impact-from">{t('impact.from')}</label>
          <select id="impact-from" value={from} onChange={(e) => navigate({ from: (e.currentTarget as HTMLSelectElement).value }, { replace: true })}>
            {versions}
          </select>
        </div>
        <div class="field">
          <label for="impact-to">{t('impact.to')}</label>
          <select id="impact-to" value={to} onChange={(e) => navigate({ to: (e.currentTarget as HTMLSelectElement).value }, { replace: true })}>
            {versions}
          </select>
        </div>
      </div>
      {!valid ? <p class="empty">{t('common.chooseTwo')}</p> : null}
      <div class="field">
        <label for="impact-file">{t('impact.file', { columns: 'rowId,code,term' })}</label>
        <input id="impact-file" ref={fileInput} type="file" accept=".csv,text/csv,text/plain" aria-describedby="impact-file-help" onChange={(e) => props.onFile((e.currentTarget as HTMLInputElement).files?.[0])} />
        <p id="impact-file-help" class="help">
          {tx('impact.fileHelp', { rowId: <code>rowId</code>, code: <code>code</code>, term: <code>term</code>, max: MAX_ROWS })}
        </p>
      </div>
      <label for="impact-text">{t('rows.paste')}</label>
      <textarea
        id="impact-text"
        rows={5}
        value={text}
        placeholder={'rowId,code,term\ncase-1,10047848,Watering eyes'}
        disabled={!!input}
        onInput={(e) => props.onText((e.currentTarget as HTMLTextAreaElement).value)}
      />
      {input ? (
        <p class="muted" role="status">
          {t('rows.read', { source: input.source, count: input.rows.length })}
          {input.problems.length ? t('rows.unreadableCount', { count: input.problems.length }) : ''}. {t('rows.fileWins')}{' '}
          <button
            type="button"
            onClick={() => {
              if (fileInput.current) fileInput.current.value = '';
              props.onClearFile();
            }}
          >
            {t('rows.clearFile')}
          </button>
        </p>
      ) : null}
      {readError ? (
        <div class="error" role="alert">
          <p>{readError}</p>
        </div>
      ) : null}
      <p>
        <button type="submit" class="primary" disabled={busy || !props.apiKey || !valid || (!input && !text.trim())}>
          {busy ? t('impact.analysing') : t('impact.run')}
        </button>{' '}
        {!props.apiKey ? <span class="muted">{t('key.first')}</span> : null}
      </p>
    </form>
  );
}
