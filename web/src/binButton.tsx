// "Add to research bin" on a code's page: one button that adds or removes the term.
import { bin, useBin, type BinItem } from './bin.ts';

export function BinButton({ item }: { item: BinItem }) {
  useBin();
  const inBin = bin.has(item);
  return (
    <span>
      <button type="button" class="copy" onClick={() => (inBin ? bin.remove(item) : bin.add(item))}>
        {inBin ? 'Remove from research bin' : 'Add to research bin'}
      </button>
      <span class="sr-only" role="status">
        {inBin ? `${item.term} is in the research bin` : ''}
      </span>
    </span>
  );
}
