import { type KeyboardEvent, useRef } from 'react';
import { cn } from '../../../lib/cn.ts';
import type { TimelineKind } from '../../../state/keys.ts';

const TABS: Array<{ kind: TimelineKind; label: string }> = [
  { kind: 'following', label: 'Following' },
  { kind: 'everyone', label: 'Everyone' },
];

export const tabId = (kind: TimelineKind) => `timeline-tab-${kind}`;
export const panelId = 'timeline-panel';

interface TimelineTabsProps {
  value: TimelineKind;
  onChange: (kind: TimelineKind) => void;
}

/** 'Following' and 'Everyone', as an ARIA tab list (arrow keys move between them). */
export function TimelineTabs({ value, onChange }: TimelineTabsProps) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const next = (index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length;
    const tab = TABS[next];
    if (!tab) return;
    onChange(tab.kind);
    refs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label="Timelines" className="flex">
      {TABS.map((tab, index) => {
        const selected = tab.kind === value;
        return (
          <button
            key={tab.kind}
            ref={(node) => {
              refs.current[index] = node;
            }}
            id={tabId(tab.kind)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={panelId}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab.kind)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className="flex h-[53px] flex-1 justify-center hover:bg-white/10"
          >
            <span
              className={cn(
                'relative flex items-center text-[15px]',
                selected ? 'font-bold text-fg' : 'font-medium text-muted',
              )}
            >
              {tab.label}
              {selected && <span className="absolute inset-x-0 bottom-0 h-1 rounded-full bg-accent" />}
            </span>
          </button>
        );
      })}
    </div>
  );
}
