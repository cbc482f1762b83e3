// The research bin's page: the terms collected (remove, clear), their export as CSV or JSON, and
// a check of the bin — or of a list imported from a file or pasted — against any hosted release:
// each term current, non-current, moved (another PT, primary SOC or level than when it was
// collected) or missing, through the public `validateCodes`.
import { useState } from 'preact/hooks';
import { gql, type ApiError } from './api.ts';
import { bin, binCsv, binJson, MAX_BIN, parseBinList, useBin, type BinItem } from './bin.ts';
import { csvText, downloadText } from './csv.ts';
import { ExplorerCheckCodesDocument, type ExplorerCheckCodesQuery } from './operations/generated.ts';
import { navigate } from './router.ts';
import { JobStatus, LevelBadge, Link, toApiError } from './ui.tsx';
import type { Release } from './release.ts';
import { t, tx } from './i18n.ts';

type Checked = ExplorerCheckCodesQuery['validateCodes']['items'][number];
export type CheckStatus = 'current' | 'non-current' | 'moved' | 'missing';

export interface CheckRow {
  item: BinItem;
  status: CheckStatus;
  notes: string[];
  found: Checked;
}

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** Where the term stands in the release, against where it stood when collected (when that is known). */
export function checkOne(item: BinItem, c: Checked): CheckRow {
  if (!c.exists) return { item, status: 'missing', notes: [t('check.notInRelease')], found: c };
  const notes: string[] = [];
  let moved = false;
  const soc = c.primaryPath[0];
  if (item.level && c.level && item.level !== c.level) {
    moved = true;
    notes.push(t('check.nowLevel', { level: c.level, was: item.level }));
  }
  if (item.ptCode && c.level === 'LLT' && c.pt && c.pt.code !== item.ptCode) {
    moved = true;
    notes.push(t('check.nowPt', { term: c.pt.term, code: c.pt.code, was: item.ptCode }));
  }
  if (item.primarySocCode && soc && soc.code !== item.primarySocCode) {
    moved = true;
    notes.push(t('check.nowSoc', { term: soc.term, code: soc.code, was: item.primarySocCode }));
  }
  if (item.term && c.term && norm(item.term) !== norm(c.term)) notes.push(t('check.named', { term: c.term }));
  const status: CheckStatus = c.current === false ? 'non-current' : moved ? 'moved' : 'current';
  if (status === 'non-current') notes.unshift(t('status.nonCurrent'));
  return { item, status, notes, found: c };
}

const STATUSES: CheckStatus[] = ['current', 'non-current', 'moved', 'missing'];

function BinList({ items }: { items: BinItem[] }) {
  if (!items.length)
    return (
      <p class="empty">
        {t('binPage.empty', { add: t('bin.add') })}
      </p>
    );
  return (
    <>
      <ul class="links bin-items">
        {items.map((i) => (
          <li key={`${i.level}-${i.code}`}>
            {i.level ? <LevelBadge level={i.level} /> : null}{' '}
            <Link to={{ view: 'browse', code: i.code, lvl: i.level === 'LLT' ? 'LLT' : undefined, v: i.release, q: undefined, path: undefined, tab: undefined }}>{i.term || i.code}</Link>{' '}
            <span class="muted">
              {i.code}
              {i.release ? ` · ${t('binPage.collectedIn', { version: i.release })}` : ''}
            </span>{' '}
            <button type="button" class="copy" onClick={() => bin.remove(i)}>
              {t('binPage.remove')}<span class="sr-only"> {i.term || i.code}</span>
            </button>
          </li>
        ))}
      </ul>
      <p class="list-head">
        <span>
          <button type="button" onClick={() => downloadText('research-bin.csv', binCsv(items))}>
            {t('common.downloadCsv')}
          </button>{' '}
          <button type="button" onClick={() => downloadText('research-bin.json', binJson(items), 'application/json')}>
            {t('wb.downloadJson')}
          </button>
        </span>
        <button type="button" onClick={() => bin.clear()}>
          {t('binPage.clear')}
        </button>
      </p>
    </>
  );
}

function CheckTable({ rows, version, source }: { rows: CheckRow[]; version: string; source: string }) {
  const counts = STATUSES.map((s) => [s, rows.filter((r) => r.status === s).length] as const);
  const csv = () =>
    csvText([
      ['code', 'term', 'level', 'collectedIn', 'status', 'notes', 'termInRelease', 'levelInRelease', 'release'],
      ...rows.map((r) => [r.item.code, r.item.term, r.item.level, r.item.release ?? '', r.status, r.notes.join('; '), r.found.term ?? '', r.found.level ?? '', version]),
    ]);
  return (
    <div class="bin-check">
      <h3>
        {t('binPage.checkHeading', { source, version })}
      </h3>
      <p role="status" class="bin-counts">
        {counts.map(([s, n]) => t('binPage.countOf', { count: n, status: statusName(s) })).join(' · ')}
      </p>
      <p>
        <button type="button" onClick={() => downloadText(`research-bin-check-${version}.csv`, csv())}>
          {t('binPage.downloadCheck')}
        </button>
      </p>
      <div class="table-scroll" tabIndex={0} role="region" aria-label={t('binPage.checkRegion', { version })}>
        <table class="bin-table">
          <thead>
            <tr>
              <th scope="col">{t('common.term')}</th>
              <th scope="col">{t('binPage.statusIn', { version })}</th>
              <th scope="col">{t('binPage.details')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, k) => (
              <tr key={k} data-status={r.status}>
                <td>
                  {r.item.level ? <LevelBadge level={r.item.level} /> : null} {r.item.term || r.found.term || r.item.code} <span class="muted">{r.item.code}</span>
                </td>
                <td>
                  <strong>{statusName(r.status)}</strong>
                </td>
                <td>
                  {r.status !== 'missing' ? (
                    <Link to={{ view: 'browse', code: r.item.code, lvl: r.found.level === 'LLT' ? 'LLT' : undefined, v: version, q: undefined, path: undefined, tab: undefined }}>{t('binPage.openIn', { version })}</Link>
                  ) : null}
                  {r.notes.length ? <span class="muted block">{r.notes.join('; ')}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function BinPage({ params, releases }: { params: URLSearchParams; releases: Release[] }) {
  const items = useBin();
  const latest = releases.find((r) => r.isLatest)?.version ?? releases[0]?.version ?? '';
  const against = params.get('against') ?? latest;
  const [text, setText] = useState('');
  const [imported, setImported] = useState<{ source: string; items: BinItem[]; skipped: number }>();
  const [readError, setReadError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [check, setCheck] = useState<{ rows: CheckRow[]; version: string; source: string }>();

  function read(input: string, source: string) {
    try {
      const r = parseBinList(input);
      if (!r.items.length) throw new Error(t('binPage.noCodes'));
      setReadError(undefined);
      return { source, ...r };
    } catch (e) {
      setReadError(t('rows.unreadable', { source, reason: e instanceof Error ? e.message : String(e) }));
      return undefined;
    }
  }

  async function run(list: BinItem[], source: string) {
    setBusy(true);
    setError(undefined);
    setCheck(undefined);
    try {
      const d = await gql(ExplorerCheckCodesDocument, { codes: list.map((i) => ({ code: i.code })), version: against });
      setCheck({ rows: list.map((i, k) => checkOne(i, d.validateCodes.items[k]!)), version: d.validateCodes.version, source });
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="research-bin" aria-labelledby="bin-heading">
      <h1 id="bin-heading">{t('title.bin')}</h1>
      <p class="muted">{t('binPage.intro')}</p>
      <h2>{t('binPage.inBin', { count: items.length })}</h2>
      <BinList items={items} />
      <h2>{t('binPage.checkAgainst')}</h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="bin-against">{t('shell.release')}</label>
          <select id="bin-against" value={against} onChange={(e) => navigate({ against: (e.currentTarget as HTMLSelectElement).value === latest ? undefined : (e.currentTarget as HTMLSelectElement).value }, { replace: true })}>
            {releases.map((r) => (
              <option key={r.version} value={r.version}>
                {r.version}
                {r.isLatest ? ` ${t('shell.latest')}` : ''}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <span class="label-spacer" aria-hidden="true">
            &nbsp;
          </span>
          <button type="button" class="primary" disabled={busy || !items.length} onClick={() => void run(items, t('binPage.theBin'))}>
            {t('binPage.checkBin')}
          </button>
        </div>
      </form>
      <form
        class="impact-form"
        onSubmit={(e) => {
          e.preventDefault();
          const src = imported ?? (text.trim() ? read(text, t('binPage.pastedList')) : undefined);
          if (src) void run(src.items, src.source);
        }}
      >
        <div class="field">
          <label for="bin-file">{t('binPage.import')}</label>
          <input
            id="bin-file"
            type="file"
            accept=".csv,.json,text/csv,application/json,text/plain"
            aria-describedby="bin-file-help"
            onChange={async (e) => {
              const f = (e.currentTarget as HTMLInputElement).files?.[0];
              setCheck(undefined);
              if (!f) return setImported(undefined);
              if (f.size > 2 * 1024 * 1024) {
                setImported(undefined);
                return setReadError(t('binPage.tooLarge', { name: f.name, max: MAX_BIN }));
              }
              setImported(read(await f.text(), f.name));
            }}
          />
          <p id="bin-file-help" class="help">
            {tx('binPage.importHelp', { code: <code>code</code>, optional: <><code>term</code>, <code>level</code>, <code>release</code>, <code>ptCode</code>, <code>primarySocCode</code></> })}
          </p>
        </div>
        <label for="bin-text">{t('binPage.paste')}</label>
        <textarea id="bin-text" rows={3} value={text} disabled={!!imported} placeholder={'code,term\n10047700,Vomiting'} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
        {imported ? (
          <p class="muted" role="status">
            {t('binPage.read', { source: imported.source, count: imported.items.length })}
            {imported.skipped ? t('binPage.skipped', { count: imported.skipped }) : ''}.
          </p>
        ) : null}
        {readError ? (
          <div class="error" role="alert">
            <p>{readError}</p>
          </div>
        ) : null}
        <p>
          <button type="submit" disabled={busy || (!imported && !text.trim())}>
            {t('binPage.checkList')}
          </button>{' '}
          {imported ? (
            <button type="button" onClick={() => bin.addAll(imported.items)}>
              {t('binPage.addList')}
            </button>
          ) : null}
        </p>
      </form>
      <JobStatus busy={busy} busyText={t('binPage.checking')} error={error} errorTitle={t('binPage.failed')} />
      {check ? <CheckTable rows={check.rows} version={check.version} source={check.source} /> : null}
    </section>
  );
}

/** A check status as a word of the interface's language (the CSV keeps the status code). */
function statusName(s: CheckStatus): string {
  return t(s === 'non-current' ? 'check.status.nonCurrent' : `check.status.${s}`);
}
