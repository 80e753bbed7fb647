import { Tabs } from '../../../components/tabs.tsx';
import { m, t } from '../../../i18n/i18n.ts';
import type { TimelineKind } from '../../../state/keys.ts';

const TABS: Array<{ value: TimelineKind; label: string }> = [
  { value: 'following', label: m('Following') },
  { value: 'everyone', label: m('Everyone') },
];

export const tabId = (kind: TimelineKind) => `timeline-tab-${kind}`;
export const panelId = 'timeline-panel';

interface TimelineTabsProps {
  value: TimelineKind;
  onChange: (kind: TimelineKind) => void;
}

/** 'Following' and 'Everyone', as an ARIA tab list (arrow keys move between them). */
export function TimelineTabs({ value, onChange }: TimelineTabsProps) {
  return <Tabs tabs={TABS} value={value} onChange={onChange} label={t('Timelines')} tabId={tabId} panelId={panelId} />;
}
