import { Tab, Tabs } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useQueryValues } from './use-query-values.js';

export interface QueryTab {
  id: string;
  title: string;
  panel: ReactNode;
}

/**
 * Tabs whose active tab lives in the query value `tab` (spec §2), so a link
 * or a reload opens the same tab. Unknown values fall back to the first tab.
 */
export function QueryTabs({ id, tabs }: { id: string; tabs: QueryTab[] }) {
  const [query, setQuery] = useQueryValues();
  const selected = tabs.some((t) => t.id === query.tab) ? query.tab : tabs[0]?.id;
  return (
    <Tabs id={id} selectedTabId={selected} onChange={(tab) => setQuery({ tab: String(tab) })} size="large">
      {tabs.map((t) => (
        <Tab key={t.id} id={t.id} title={t.title} panel={<div className="nu-tab-panel">{t.panel}</div>} />
      ))}
    </Tabs>
  );
}
