import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: string;
}

/**
 * The WAI-ARIA tabs pattern: a tablist whose tabs select a panel. Only the selected tab
 * is in the Tab order; arrow keys, Home and End move between tabs and select them.
 * The caller holds the selected key (so a page can keep it in the URL). On a phone, tabs that do
 * not fit the width wrap onto another row, so no tab is cut at the edge (My Account's four at
 * 390 px); from `sm` up they keep one row and scroll sideways rather than widen the page (the
 * line under them is an inset shadow, so the row needs no overlap below it).
 */
export function Tabs<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
  children,
}: {
  /** The tablist's accessible name. */
  label: string;
  tabs: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  /** The selected tab's panel. */
  children: ReactNode;
}) {
  const baseId = useId();
  const tabRefs = useRef(new Map<K, HTMLButtonElement>());
  const tabId = (key: K) => `${baseId}-tab-${key}`;
  const panelId = `${baseId}-panel`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.key === selected);
    let next: number | undefined;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    const target = next === undefined ? undefined : tabs[next];
    if (!target) return;
    event.preventDefault();
    onSelect(target.key);
    tabRefs.current.get(target.key)?.focus();
  };

  return (
    <div>
      <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className="flex flex-wrap gap-1 overflow-x-auto shadow-[inset_0_-1px_0_var(--color-slate-200)] sm:flex-nowrap">
        {tabs.map((tab) => {
          const active = tab.key === selected;
          return (
            <button
              key={tab.key}
              ref={(element) => {
                if (element) tabRefs.current.set(tab.key, element);
                else tabRefs.current.delete(tab.key);
              }}
              id={tabId(tab.key)}
              type="button"
              role="tab"
              aria-selected={active}
              aria-controls={panelId}
              tabIndex={active ? 0 : -1}
              onClick={() => onSelect(tab.key)}
              className={`h-11 shrink-0 border-b-2 px-3 text-sm whitespace-nowrap sm:px-4 font-semibold transition-colors ${
                active ? 'border-brand-700 text-brand-800' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(selected)} tabIndex={0} className="pt-6 focus-visible:outline-offset-4">
        {children}
      </div>
    </div>
  );
}
