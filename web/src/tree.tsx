// The hierarchy as a WAI-ARIA tree: SOCs in international order, children fetched when a node
// is expanded, one tab stop (roving tabindex), arrows, Home/End, type-ahead, Enter opens.
// Long child lists render in slices of SLICE items with a "show more" item, and each row
// skips layout and paint while off screen (content-visibility), so a wide HLT stays cheap.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { gql } from './api.ts';
import { ExplorerChildrenDocument, ExplorerCodeDocument, ExplorerSocsDocument, type Level } from './operations/generated.ts';
import { focusRequest, navigate } from './router.ts';
import { ErrorBox, LevelBadge, Loading, StatusBadge, toApiError, useQuery } from './ui.tsx';
import { useLanguages } from './language.ts';
import type { ApiError } from './api.ts';
import { t } from './i18n.ts';

const SLICE = 100;

interface TNode {
  key: string;
  code: string;
  term: string;
  level: Level;
  status: string;
  /** The edge from its parent is on the primary path. */
  primary: boolean;
  depth: number;
  parent?: string;
  more?: number;
}

const isLeaf = (n: TNode) => n.level === 'LLT' || n.more !== undefined;
const domId = (key: string) => `tree-${key.replace(/[^0-9A-Za-z]/g, '-')}`;

type Children = Map<string, TNode[] | 'loading' | ApiError>;

export function Tree({ version, selected, selectedLevel, path, showNonCurrent }: { version?: string; selected?: string; selectedLevel?: string; path?: string[]; showNonCurrent: boolean }) {
  // The tree is remounted for a new language (browse.tsx keys it), so the language is fixed here.
  const { language } = useLanguages();
  const socs = useQuery(ExplorerSocsDocument, { version, language });
  const { children, load } = useChildren(version, language);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [shown, setShown] = useState<Map<string, number>>(new Map());
  const [focusKey, setFocusKey] = useState<string>();
  const [revealed, setRevealed] = useState<string>();
  const wantFocus = useRef(false);
  const typed = useRef({ text: '', at: 0 });

  // A new release is a new tree.
  useEffect(() => {
    children.current = new Map();
    setExpanded(new Set());
    setShown(new Map());
  }, [version]);

  const roots: TNode[] = useMemo(
    () =>
      [...(socs.data?.codes.edges ?? [])]
        .map((e) => e.node.code)
        .sort((a, b) => (a.internationalOrder ?? 0) - (b.internationalOrder ?? 0))
        .map((c) => ({ key: c.code, code: c.code, term: c.term, level: c.level, status: c.status, primary: true, depth: 1 })),
    [socs.data],
  );

  const expand = async (n: TNode) => {
    if (isLeaf(n)) return;
    setExpanded((s) => new Set(s).add(n.key));
    await load(n);
  };
  const collapse = (n: TNode) =>
    setExpanded((s) => {
      const next = new Set(s);
      next.delete(n.key);
      return next;
    });

  useReveal({ roots, selected, selectedLevel, path, version, language, load }, {
    widen: (key, limit) => setShown((m) => new Map(m).set(key, limit)),
    reveal: (revealedKey, opened) => {
      setExpanded((s) => {
        const next = new Set(s);
        for (const k of opened) next.add(k);
        return next;
      });
      setRevealed(revealedKey);
      setFocusKey(revealedKey);
    },
  });

  const filter = (list: TNode[]) => (showNonCurrent ? list : list.filter((n) => n.status !== 'NON_CURRENT'));
  const { visible, byKey } = visibleNodes(roots, { expanded, children: children.current, shown, filter });
  const tabStop = focusKey && byKey.has(focusKey) ? focusKey : visible[0]?.key;

  // Focus follows the roving tab stop as soon as the DOM is updated (not after paint).
  useLayoutEffect(() => {
    if (wantFocus.current && tabStop) {
      wantFocus.current = false;
      document.getElementById(domId(tabStop))?.focus();
    }
  });

  const moveTo = (n: TNode | undefined) => {
    if (!n) return;
    wantFocus.current = true;
    setFocusKey(n.key);
  };
  const activate = (n: TNode) => {
    if (n.more !== undefined) {
      const parent = n.parent!;
      setShown((m) => new Map(m).set(parent, n.more! + SLICE));
      return;
    }
    setRevealed(n.key);
    void expand(n);
    // On a narrow screen the code page is above the tree, out of sight: go to its heading.
    if (window.matchMedia('(max-width: 899px)').matches) focusRequest.heading = true;
    navigate({ view: 'browse', code: n.code, lvl: n.level === 'LLT' ? 'LLT' : undefined, path: n.key, tab: undefined });
  };

  const onKeyDown = (e: KeyboardEvent) => onTreeKey(e, { visible, byKey, tabStop, expanded, typed: typed.current, moveTo, expand, collapse, activate, setTyped: (t) => (typed.current = t) });
  const rows: RowContext = {
    language,
    filter,
    shown,
    byKey,
    expanded,
    children: children.current,
    revealed,
    tabStop,
    onClick: (n, e) => {
      e.stopPropagation();
      setFocusKey(n.key);
      if ((e.target as HTMLElement).closest('.twisty')) void (expanded.has(n.key) ? collapse(n) : expand(n));
      else activate(n);
    },
  };

  return (
    <div class="tree-wrap">
      <label class="check">
        <input type="checkbox" checked={showNonCurrent} onChange={(e) => navigate({ nc: (e.currentTarget as HTMLInputElement).checked ? undefined : '0' }, { replace: true })} /> {t('tree.showNonCurrent')}
      </label>
      {socs.error ? <ErrorBox error={socs.error} title={t('tree.failed')} /> : null}
      {socs.loading && !roots.length ? <Loading label={t('tree.loadingSocs')} /> : null}
      <ul role="tree" aria-labelledby="tree-heading" class="tree" onKeyDown={onKeyDown}>
        {renderList(rows, roots)}
      </ul>
    </div>
  );
}

/** Each node's children, fetched on first expansion (the list, 'loading', or the error); the tree re-renders as they arrive. */
function useChildren(version: string | undefined, language: string | undefined) {
  const children = useRef<Children>(new Map());
  const [, setTick] = useState(0);
  const rerender = () => setTick((t) => t + 1);

  async function load(n: TNode): Promise<TNode[] | undefined> {
    const have = children.current.get(n.key);
    if (Array.isArray(have)) return have;
    if (have === 'loading') return undefined;
    children.current.set(n.key, 'loading');
    rerender();
    try {
      const data = await gql(ExplorerChildrenDocument, { code: n.code, level: n.level, version, language }, { language });
      const list = data.code.children.map((c) => ({
        key: `${n.key}.${c.code.code}`,
        code: c.code.code,
        term: c.code.term,
        level: c.code.level,
        status: c.code.status,
        primary: c.isPrimary,
        depth: n.depth + 1,
        parent: n.key,
      }));
      children.current.set(n.key, list);
      rerender();
      return list;
    } catch (e) {
      children.current.set(n.key, toApiError(e));
      rerender();
      return undefined;
    }
  }
  return { children, load };
}

/**
 * Reveal: the path in the URL, else the selected code's primary path. Loads each step's
 * children, widening a slice so the next step is rendered, then hands over the node reached
 * and the nodes to open.
 */
function useReveal(
  at: { roots: TNode[]; selected?: string; selectedLevel?: string; path?: string[]; version?: string; language?: string; load: (n: TNode) => Promise<TNode[] | undefined> },
  to: { widen: (key: string, limit: number) => void; reveal: (key: string, opened: string[]) => void },
) {
  const { roots, selected, selectedLevel, path, version, language, load } = at;
  useEffect(() => {
    if (!roots.length || !selected) return;
    let live = true;
    (async () => {
      let codes = path;
      if (!codes?.length) {
        try {
          const d = await gql(ExplorerCodeDocument, { code: selected, level: (selectedLevel as Level | undefined) ?? undefined, version, language }, { language });
          codes = (d.code.paths.find((p) => p.isPrimary) ?? d.code.paths[0])?.nodes.map((x) => x.code);
        } catch {
          return; // The code page shows the error.
        }
      }
      if (!codes?.length || !live) return;
      let list: TNode[] | undefined = roots;
      const opened: string[] = [];
      let node: TNode | undefined;
      for (let i = 0; i < codes.length && list; i++) {
        node = list.find((x) => x.code === codes![i]);
        if (!node) break;
        if (i < codes.length - 1) {
          opened.push(node.key);
          list = await load(node);
          // Make sure the next step is within the rendered slice.
          const idx = list?.findIndex((x) => x.code === codes![i + 1]) ?? -1;
          if (idx >= SLICE) to.widen(node.key, Math.ceil((idx + 1) / SLICE) * SLICE);
        }
      }
      if (!live || !node) return;
      to.reveal(node.key, opened);
      const target = node.key;
      requestAnimationFrame(() => document.getElementById(domId(target))?.scrollIntoView({ block: 'nearest' }));
    })();
    return () => {
      live = false;
    };
  }, [roots, selected, selectedLevel, path?.join('.'), version]);
}

/** Visible nodes in order (for keyboard navigation), with a "show more" node after each cut slice. */
function visibleNodes(roots: TNode[], st: { expanded: Set<string>; children: Children; shown: Map<string, number>; filter: (list: TNode[]) => TNode[] }) {
  const visible: TNode[] = [];
  const byKey = new Map<string, TNode>();
  const walk = (list: TNode[]) => {
    for (const n of list) {
      visible.push(n);
      byKey.set(n.key, n);
      if (!st.expanded.has(n.key)) continue;
      const kids = st.children.get(n.key);
      if (!Array.isArray(kids)) continue;
      const all = st.filter(kids);
      const limit = st.shown.get(n.key) ?? SLICE;
      walk(all.slice(0, limit));
      if (all.length > limit) {
        const more: TNode = { key: `${n.key}.#more`, code: '', term: t('tree.more', { count: Math.min(SLICE, all.length - limit), rest: all.length - limit }), level: n.level, status: 'CURRENT', primary: false, depth: n.depth + 1, parent: n.key, more: limit };
        visible.push(more);
        byKey.set(more.key, more);
      }
    }
  };
  walk(roots);
  return { visible, byKey };
}

/** The tree's keys (WAI-ARIA tree pattern): arrows, Home/End, Enter, space, `*`, type-ahead. */
function onTreeKey(
  e: KeyboardEvent,
  t: {
    visible: TNode[];
    byKey: Map<string, TNode>;
    tabStop: string | undefined;
    expanded: Set<string>;
    typed: { text: string; at: number };
    setTyped: (typed: { text: string; at: number }) => void;
    moveTo: (n: TNode | undefined) => void;
    expand: (n: TNode) => Promise<void>;
    collapse: (n: TNode) => void;
    activate: (n: TNode) => void;
  },
) {
  const { visible, expanded, moveTo, expand, collapse, activate } = t;
  const i = visible.findIndex((n) => n.key === t.tabStop);
  const n = visible[i];
  if (!n) return;
  let handled = true;
  switch (e.key) {
    case 'ArrowDown':
      moveTo(visible[i + 1]);
      break;
    case 'ArrowUp':
      moveTo(visible[i - 1]);
      break;
    case 'Home':
      moveTo(visible[0]);
      break;
    case 'End':
      moveTo(visible[visible.length - 1]);
      break;
    case 'ArrowRight':
      if (isLeaf(n)) break;
      if (!expanded.has(n.key)) void expand(n);
      else if (visible[i + 1]?.parent === n.key) moveTo(visible[i + 1]);
      break;
    case 'ArrowLeft':
      if (expanded.has(n.key)) collapse(n);
      else if (n.parent) moveTo(t.byKey.get(n.parent));
      break;
    case 'Enter':
      activate(n);
      break;
    case ' ':
      if (n.more !== undefined) activate(n);
      else if (!isLeaf(n)) void (expanded.has(n.key) ? collapse(n) : expand(n));
      break;
    case '*':
      for (const s of visible.filter((x) => x.parent === n.parent)) void expand(s);
      break;
    default:
      handled = false;
      if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
        // Type-ahead: the next visible item whose name starts with what was typed.
        const now = Date.now();
        const typed = { text: (now - t.typed.at < 1000 ? t.typed.text : '') + e.key.toLowerCase(), at: now };
        t.setTyped(typed);
        const text = typed.text;
        const order = [...visible.slice(i + (text.length === 1 ? 1 : 0)), ...visible.slice(0, i + (text.length === 1 ? 1 : 0))];
        moveTo(order.find((x) => x.more === undefined && x.term.toLowerCase().startsWith(text)));
        handled = true;
      }
  }
  if (handled) e.preventDefault();
}

/** What rendering the rows reads: the tree's state and the click handler. */
interface RowContext {
  language: string | undefined;
  filter: (list: TNode[]) => TNode[];
  shown: Map<string, number>;
  byKey: Map<string, TNode>;
  expanded: Set<string>;
  children: Children;
  revealed: string | undefined;
  tabStop: string | undefined;
  onClick: (n: TNode, e: MouseEvent) => void;
}

function renderList(ctx: RowContext, list: TNode[], parentKey?: string) {
  const items = ctx.filter(list);
  const limit = parentKey ? (ctx.shown.get(parentKey) ?? SLICE) : items.length;
  const slice = items.slice(0, limit);
  const out = slice.map((n, idx) => renderNode(ctx, n, idx + 1, items.length));
  if (parentKey && items.length > limit) {
    const more = ctx.byKey.get(`${parentKey}.#more`);
    if (more) out.push(renderNode(ctx, more, limit + 1, items.length + 1));
  }
  return out;
}

function renderNode(ctx: RowContext, n: TNode, pos: number, size: number) {
  const leaf = isLeaf(n);
  const open = ctx.expanded.has(n.key);
  const kids = ctx.children.get(n.key);
  const classes = ['node', n.more !== undefined ? 'more' : '', n.key === ctx.revealed ? 'selected' : '', n.status === 'NON_CURRENT' ? 'nc' : ''].filter(Boolean).join(' ');
  return (
    <li
      key={n.key}
      id={domId(n.key)}
      role="treeitem"
      aria-level={n.depth}
      aria-setsize={size}
      aria-posinset={pos}
      aria-expanded={leaf ? undefined : open}
      aria-selected={n.key === ctx.revealed}
      aria-busy={kids === 'loading' ? true : undefined}
      tabIndex={n.key === ctx.tabStop ? 0 : -1}
      class={classes}
      onClick={(e) => ctx.onClick(n, e)}
    >
      <span class="row">
        <span class="twisty" aria-hidden="true">
          {leaf ? '' : open ? '▾' : '▸'}
        </span>
        {n.more === undefined ? <LevelBadge level={n.level} /> : null}
        <span class="label" lang={n.more === undefined ? ctx.language : undefined}>
          {n.term}
        </span>
        {n.more === undefined && !n.primary && n.level === 'PT' ? <span class="badge secondary">{t('common.secondary')}</span> : null}
        <StatusBadge status={n.status} />
        {kids === 'loading' ? <span class="sr-only"> {t('tree.loading')}</span> : null}
      </span>
      {open && Array.isArray(kids) ? <ul role="group">{renderList(ctx, kids, n.key)}</ul> : null}
      {open && kids && !Array.isArray(kids) && kids !== 'loading' ? (
        <div role="none">
          <ErrorBox error={kids} title={t('tree.childrenFailed')} />
        </div>
      ) : null}
    </li>
  );
}
