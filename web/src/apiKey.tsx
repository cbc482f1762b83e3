// The API key of the pages that send client data (workbench, upgrade impact): typed by the user,
// kept only in this tab's sessionStorage (one key for both pages) and sent as X-API-Key.
import { useState } from 'preact/hooks';
import { t, tx } from './i18n.ts';

const KEY_STORAGE = 'terminology-explorer.apiKey';

function readKey(): string {
  try {
    return sessionStorage.getItem(KEY_STORAGE) ?? '';
  } catch {
    return '';
  }
}

export function useApiKey(): [string, (k: string) => void] {
  const [key, setKey] = useState(readKey);
  const save = (k: string) => {
    try {
      if (k) sessionStorage.setItem(KEY_STORAGE, k);
      else sessionStorage.removeItem(KEY_STORAGE);
    } catch {
      // Storage disabled: the key lives in memory for this page only.
    }
    setKey(k);
  };
  return [key, save];
}

export function KeyBox({ apiKey, onChange }: { apiKey: string; onChange: (k: string) => void }) {
  const [draft, setDraft] = useState('');
  return (
    <div class="key-box">
      {apiKey ? (
        <p>
          {tx('key.set', { key: <code>{apiKey.slice(0, 6)}…</code> })}{' '}
          <button type="button" onClick={() => onChange('')}>
            {t('key.forget')}
          </button>
        </p>
      ) : (
        <form
          class="key-form"
          onSubmit={(e) => {
            e.preventDefault();
            onChange(draft.trim());
            setDraft('');
          }}
        >
          <div class="field grow">
            <label for="api-key">{t('key.label')}</label>
            <input id="api-key" type="password" autocomplete="off" spellcheck={false} value={draft} onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)} aria-describedby="api-key-help" />
            <p id="api-key-help" class="help">
              {tx('key.help', { sk: <code>sk-…</code>, command: <code>terminology keys create</code> })}
            </p>
          </div>
          <div class="field">
            <span class="label-spacer" aria-hidden="true">
              &nbsp;
            </span>
            <button type="submit" disabled={!draft.trim()}>
              {t('key.use')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
