// Upgrade impact: coded rows (a CSV file or pasted text, read here in the browser) → what
// moving them from one release to another does: the summary (rows, impacts per kind, SOC-to-SOC
// movements, per-PT count deltas), every row with its impacts, new values and suggested recode
// (filterable by kind, paged here), the bad rows, and a CSV of the result. The rows are client
// data: they stay in this page's memory and go only to `impact` (with the API key); never into
// the URL, storage or a cache. Only the release pair is in the URL. The parts: the form
// (impactForm.tsx), the job (impactJob.ts), the result (impactResult.tsx, impactReport.ts).
import { useEffect, useRef, useState } from 'preact/hooks';
import { KeyBox, useApiKey } from './apiKey.tsx';
import { JobStatus } from './ui.tsx';
import type { Release } from './release.ts';
import { ImpactForm } from './impactForm.tsx';
import { useImpactJob } from './impactJob.ts';
import { ImpactResult } from './impactResult.tsx';
import { t, tx } from './i18n.ts';

/** The release pair from the URL: `to` defaults to the latest, `from` to the release before it. */
function releasePair(params: URLSearchParams, releases: Release[]): { from: string; to: string } {
  const latest = releases.find((r) => r.isLatest)?.version ?? releases[0]?.version ?? '';
  const to = params.get('to') ?? latest;
  const toIdx = releases.findIndex((r) => r.version === to);
  const from = params.get('from') ?? releases[toIdx + 1]?.version ?? releases.find((r) => r.version !== to)?.version ?? '';
  return { from, to };
}

export function ImpactPage({ params, releases }: { params: URLSearchParams; releases: Release[] }) {
  const { from, to } = releasePair(params, releases);
  const valid = !!from && !!to && from !== to;
  const [key, saveKey] = useApiKey();
  const job = useImpactJob(from, to, key, valid);
  const [allDeltas, setAllDeltas] = useState(false);
  const summaryHeading = useRef<HTMLHeadingElement>(null);
  // A new result takes the focus to its summary (keyboard and screen-reader users land on it).
  useEffect(() => {
    if (job.result) summaryHeading.current?.focus();
  }, [job.result]);

  return (
    <section class="impact" aria-labelledby="impact-heading">
      <h1 id="impact-heading">{t('title.impact')}</h1>
      <p class="muted">{tx('impact.intro', { impact: <code>impact</code> })}</p>
      <KeyBox apiKey={key} onChange={saveKey} />
      <ImpactForm
        releases={releases}
        from={from}
        to={to}
        valid={valid}
        apiKey={key}
        text={job.text}
        onText={job.editText}
        input={job.input}
        onFile={(file) => void job.onFile(file)}
        onClearFile={job.clearFile}
        readError={job.readError}
        busy={job.busy}
        onRun={() => void job.run()}
      />
      <JobStatus busy={job.busy} busyText={t('impact.analysing')} error={job.error} errorTitle={t('impact.failed')} />
      {job.result ? (
        <ImpactResult
          result={job.result}
          from={from}
          to={to}
          filter={job.filter}
          onFilter={(f) => {
            job.setFilter(f);
            job.setPage(0);
          }}
          page={job.page}
          onPage={job.setPage}
          allDeltas={allDeltas}
          onAllDeltas={setAllDeltas}
          downloaded={job.downloaded}
          onDownloaded={job.setDownloaded}
          headingRef={summaryHeading}
        />
      ) : null}
    </section>
  );
}
