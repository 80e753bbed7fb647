import { SettingToggle } from '../../../components/setting-toggle.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { useExpandSpoilers } from '../api/settings.ts';

/**
 * "Reading": Always expand posts with content warnings. On, a post's text and pictures show at once
 * under its warning ("Show less" still closes one); off, each waits for "Show more". Kept with the
 * account (Mastodon apps read it as reading:expand:spoilers).
 */
export function Reading({ expandSpoilers }: { expandSpoilers: boolean }) {
  const save = useExpandSpoilers();
  return (
    <SettingsSection id="reading-heading" title="Reading" padded>
      <SettingToggle
        id="expand-spoilers"
        label="Always expand posts with content warnings"
        help="Show the text and pictures of posts with a content warning without “Show more”."
        saved={expandSpoilers}
        save={save}
        said={(on) => (on ? 'Posts with content warnings now open by themselves' : 'Content warnings stay closed')}
      />
    </SettingsSection>
  );
}
