// The browse view: search and the hierarchy tree beside the selected code's page.
// `version` undefined is the latest release (the API's default): no wait for the release list.
import { Search } from './search.tsx';
import { Tree } from './tree.tsx';
import { CodePage } from './code.tsx';

export function Browse({ params, version }: { params: URLSearchParams; version?: string }) {
  const code = params.get('code') ?? undefined;
  const path = params.get('path')?.split('.').filter(Boolean);
  return (
    <div class="browse">
      <div class="content">
        <Search params={params} version={version} compact={!!code} />
        {code ? <CodePage code={code} level={params.get('lvl') ?? undefined} tab={params.get('tab') ?? 'overview'} version={version} /> : null}
      </div>
      <aside class="tree-panel" aria-labelledby="tree-heading">
        <h2 id="tree-heading">Hierarchy</h2>
        <Tree version={version} selected={code} selectedLevel={params.get('lvl') ?? undefined} path={path} showNonCurrent={params.get('nc') !== '0'} />
      </aside>
    </div>
  );
}
