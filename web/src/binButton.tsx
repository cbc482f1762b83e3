// "Add to research bin" on a code's page: one button that adds or removes the term.
import { bin, useBin, type BinItem } from './bin.ts';
import { t } from './i18n.ts';

export function BinButton({ item }: { item: BinItem }) {
  useBin();
  const inBin = bin.has(item);
  return (
    <span>
      <button type="button" class="copy" onClick={() => (inBin ? bin.remove(item) : bin.add(item))}>
        {inBin ? t('bin.remove') : t('bin.add')}
      </button>
      <span class="sr-only" role="status">
        {inBin ? t('bin.isIn', { term: item.term }) : ''}
      </span>
    </span>
  );
}
