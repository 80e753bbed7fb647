import { SettingToggle } from '../../../components/setting-toggle.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { t } from '../../../i18n/i18n.ts';
import { useExpandSpoilers } from '../api/settings.ts';

/**
 * "Reading": Always expand posts with content warnings. On, a post's text and pictures show at once
 * under its warning ("Show less" still closes one); off, each waits for "Show more". Kept with the
 * account (Mastodon apps read it as reading:expand:spoilers).
 */
export function Reading({ expandSpoilers }: { expandSpoilers: boolean }) {
  const save = useExpandSpoilers();
  return (
    <SettingsSection id="reading-heading" title={t('Reading')} padded>
      <SettingToggle
        id="expand-spoilers"
        label={t('Always expand posts with content warnings')}
        help={t('Show the text and pictures of posts with a content warning without “Show more”.')}
        saved={expandSpoilers}
        save={save}
        said={(on) =>
          on ? t('Posts with content warnings now open by themselves') : t('Content warnings stay closed')
        }
      />
    </SettingsSection>
  );
}
