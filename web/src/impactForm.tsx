// The impact page's form: the release pair (in the URL), the coded rows as a CSV file or
// pasted text, what was read or could not be, and the button that runs the analysis.
import { useRef } from 'preact/hooks';
import { navigate } from './router.ts';
import type { Release } from './release.ts';
import { MAX_ROWS, type Input } from './impactJob.ts';

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
      {r.releaseDate ? ` (${r.releaseDate})` : ''}
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
          <label for="impact-from">From (coded with)</label>
          <select id="impact-from" value={from} onChange={(e) => navigate({ from: (e.currentTarget as HTMLSelectElement).value }, { replace: true })}>
            {versions}
          </select>
        </div>
        <div class="field">
          <label for="impact-to">To (upgrade to)</label>
          <select id="impact-to" value={to} onChange={(e) => navigate({ to: (e.currentTarget as HTMLSelectElement).value }, { replace: true })}>
            {versions}
          </select>
        </div>
      </div>
      {!valid ? <p class="empty">Choose two different releases.</p> : null}
      <div class="field">
        <label for="impact-file">CSV file (columns rowId,code,term)</label>
        <input id="impact-file" ref={fileInput} type="file" accept=".csv,text/csv,text/plain" aria-describedby="impact-file-help" onChange={(e) => props.onFile((e.currentTarget as HTMLInputElement).files?.[0])} />
        <p id="impact-file-help" class="help">
          A header line naming <code>rowId</code>, <code>code</code> and optionally <code>term</code> (the term as recorded), then one row per line; LLT or PT codes. At most{' '}
          {MAX_ROWS.toLocaleString('en')} rows.
        </p>
      </div>
      <label for="impact-text">…or paste rows</label>
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
          {input.source}: {input.rows.length} {input.rows.length === 1 ? 'row' : 'rows'} read
          {input.problems.length ? `, ${input.problems.length} unreadable` : ''}. The pasted text is ignored while a file is chosen.{' '}
          <button
            type="button"
            onClick={() => {
              if (fileInput.current) fileInput.current.value = '';
              props.onClearFile();
            }}
          >
            Clear the file
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
          {busy ? 'Analysing…' : 'Analyse the upgrade'}
        </button>{' '}
        {!props.apiKey ? <span class="muted">Enter an API key first.</span> : null}
      </p>
    </form>
  );
}
