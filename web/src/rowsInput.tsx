// Coded rows from a CSV file or pasted text, read here in the browser (the SMQ page's "apply to
// rows" and the research bin's import): the same reader and limits as the upgrade-impact page.
// The rows are client data: they stay in the page's memory.
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { parseCodedRows, TooManyRows, type CodedRow, type ParseProblem } from './csv.ts';
import { megabytes, t } from './i18n.ts';

export const MAX_ROWS = 10_000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;

export interface RowsRead {
  source: string;
  rows: CodedRow[];
  problems: ParseProblem[];
}

/** Reads `text`; a sentence for the reader when it cannot. */
export function readRows(text: string, source: string, columns: string): RowsRead | string {
  try {
    const { rows, problems } = parseCodedRows(text, MAX_ROWS);
    if (!rows.length && !problems.length) return t('rows.none', { source, columns });
    return { source, rows, problems };
  } catch (e) {
    return e instanceof TooManyRows
      ? t('rows.tooMany', { source, max: MAX_ROWS })
      : t('rows.unreadable', { source, reason: e instanceof Error ? e.message : String(e) });
  }
}

/**
 * A file field and a text area. `onRows` gets the rows of the file as soon as it is read, or
 * undefined when it is cleared; pasted text is read by the caller (`pasted()`), on submit.
 */
export function RowsInput(props: {
  id: string;
  fileLabel: string;
  pasteLabel: string;
  columns: string;
  help: ComponentChildren;
  placeholder: string;
  text: string;
  onText: (t: string) => void;
  file?: RowsRead;
  onFile: (r: RowsRead | undefined) => void;
  error?: string;
  onError: (e: string | undefined) => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState(false);
  async function onFile(file: File | undefined) {
    props.onError(undefined);
    if (!file) return props.onFile(undefined);
    if (file.size > MAX_FILE_BYTES) {
      props.onFile(undefined);
      props.onError(t('rows.tooLarge', { name: file.name, size: megabytes(file.size), limit: MAX_FILE_BYTES / 1024 / 1024, max: MAX_ROWS }));
      return;
    }
    setReading(true);
    const r = readRows(await file.text(), file.name, props.columns);
    setReading(false);
    if (typeof r === 'string') {
      props.onFile(undefined);
      props.onError(r);
    } else props.onFile(r);
  }
  return (
    <>
      <div class="field">
        <label for={`${props.id}-file`}>{props.fileLabel}</label>
        <input
          id={`${props.id}-file`}
          ref={fileInput}
          type="file"
          accept=".csv,text/csv,text/plain"
          aria-describedby={`${props.id}-file-help`}
          onChange={(e) => void onFile((e.currentTarget as HTMLInputElement).files?.[0])}
        />
        <p id={`${props.id}-file-help`} class="help">
          {props.help}
        </p>
      </div>
      <label for={`${props.id}-text`}>{props.pasteLabel}</label>
      <textarea
        id={`${props.id}-text`}
        rows={4}
        value={props.text}
        placeholder={props.placeholder}
        disabled={!!props.file}
        onInput={(e) => {
          props.onText((e.currentTarget as HTMLTextAreaElement).value);
          props.onError(undefined);
        }}
      />
      {reading ? (
        <p class="muted" role="status">
          {t('rows.reading')}
        </p>
      ) : null}
      {props.file ? (
        <p class="muted" role="status">
          {t('rows.read', { source: props.file.source, count: props.file.rows.length })}
          {props.file.problems.length ? t('rows.unreadableCount', { count: props.file.problems.length }) : ''}. {t('rows.fileWins')}{' '}
          <button
            type="button"
            onClick={() => {
              if (fileInput.current) fileInput.current.value = '';
              props.onFile(undefined);
            }}
          >
            {t('rows.clearFile')}
          </button>
        </p>
      ) : null}
      {props.error ? (
        <div class="error" role="alert">
          <p>{props.error}</p>
        </div>
      ) : null}
    </>
  );
}
