// Names as the explorer shows them: each in an element carrying its language (screen readers
// pronounce it right; CJK text gets the system's CJK fonts), the second language beside it, and
// the control that chooses that second language (lang2=).
import { navigate } from './router.ts';
import { localName, ownName, useLanguages } from './language.ts';
import { t } from './i18n.ts';

/** A name in its language; `lang` defaults to the explorer's language. */
export function Name({ text, lang }: { text: string; lang?: string | null }) {
  const { language } = useLanguages();
  return <span lang={lang ?? language}>{text}</span>;
}

/** The name in the second language, beside the first (nothing when no second language is chosen). */
export function SecondName({ text }: { text: string | null | undefined }) {
  const { second } = useLanguages();
  if (!second || text == null) return null;
  return (
    <span class="name2">
      <span class="sr-only">{` (${localName(second)}: `}</span>
      <span lang={second}>{text}</span>
      <span class="sr-only">)</span>
    </span>
  );
}

/** "Show also": the second language, one of the release's other hosted languages, or none. */
export function SecondLanguageChooser({ id }: { id: string }) {
  const { hosted, language, second } = useLanguages();
  const others = hosted.filter((h) => h !== language);
  if (!others.length) return null;
  return (
    <div class="field second-language">
      <label for={id}>{t('names.showAlso')}</label>
      <select id={id} value={second ?? ''} onChange={(e) => navigate({ lang2: (e.currentTarget as HTMLSelectElement).value || undefined }, { replace: false })}>
        <option value="">{t('names.noSecond')}</option>
        <LanguageOptions tags={others} />
      </select>
    </div>
  );
}

/** One option per language, named in that language (and marked as such for screen readers and fonts). */
export function LanguageOptions({ tags }: { tags: readonly string[] }) {
  return (
    <>
      {tags.map((tag) => (
        <option key={tag} value={tag} lang={tag}>
          {ownName(tag)}
        </option>
      ))}
    </>
  );
}
