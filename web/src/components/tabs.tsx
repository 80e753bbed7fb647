import { type KeyboardEvent, useRef } from 'react';
import { t } from '../i18n/i18n.ts';
import { cn } from '../lib/cn.ts';

/**
 * A tab's text, bold and underlined in the accent when it is the current one (tabs and tab-like links). `label` is
 * a message id (`m('Posts')` in a constant of tabs), read in the current language here.
 */
export function TabLabel({ label, current }: { label: string; current: boolean }) {
  return (
    <span
      className={cn('relative flex items-center text-[15px]', current ? 'font-bold text-fg' : 'font-medium text-muted')}
    >
      {t(label)}
      {current && <span className="absolute inset-x-0 bottom-0 h-1 rounded-full bg-accent" />}
    </span>
  );
}

interface TabsProps<T extends string> {
  tabs: ReadonlyArray<{ value: T; label: string }>;
  value: T;
  onChange: (value: T) => void;
  /** The tab list's accessible name. */
  label: string;
  /** Each tab's element id (the panel's aria-labelledby). */
  tabId: (value: T) => string;
  /** The id of the one panel the tabs control. */
  panelId: string;
}

/** An ARIA tab list over one panel: arrow keys move between the tabs (Home's timelines, Search's results). */
export function Tabs<T extends string>({ tabs, value, onChange, label, tabId, panelId }: TabsProps<T>) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const next = (index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length;
    const tab = tabs[next];
    if (!tab) return;
    onChange(tab.value);
    refs.current[next]?.focus();
  };
  return (
    // Tabs that do not fit (six on a phone, longer words in another language) scroll sideways, never squeeze.
    <div role="tablist" aria-label={label} className="flex overflow-x-auto [scrollbar-width:none]">
      {tabs.map((tab, index) => {
        const selected = tab.value === value;
        return (
          <button
            key={tab.value}
            ref={(node) => {
              refs.current[index] = node;
            }}
            id={tabId(tab.value)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab.value)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className="flex h-[53px] flex-1 shrink-0 justify-center px-3 hover:bg-fg/10"
          >
            <TabLabel label={tab.label} current={selected} />
          </button>
        );
      })}
    </div>
  );
}
