import { Link } from 'react-router';
import { SettingToggle } from '../../../components/setting-toggle.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { t } from '../../../i18n/i18n.ts';
import { paths } from '../../../lib/paths.ts';
import { useApproveFollowers } from '../api/settings.ts';

/**
 * "Privacy": Approve followers (a locked account). On: following the member sends a request they
 * approve or reject on the Follow requests page. Off again: everyone waiting is approved.
 */
export function Privacy({ locked }: { locked: boolean }) {
  const save = useApproveFollowers();
  return (
    <SettingsSection id="privacy-heading" title={t('Privacy')} padded>
      <SettingToggle
        id="approve-followers"
        label={t('Approve followers')}
        help={t(
          'People ask to follow you, and you approve or reject each request. Turning this off approves everyone who is waiting.',
        )}
        saved={locked}
        save={save}
        said={(on) =>
          on ? t('You now approve new followers') : t('Anyone can follow you now; waiting requests approved')
        }
      />
      {locked && (
        <p className="mt-3 text-[15px]">
          <Link to={paths.followRequests} className="text-accent hover:underline">
            {t('See follow requests')}
          </Link>
        </p>
      )}
    </SettingsSection>
  );
}
