import { PUSH_KINDS, type PushKind, type PushState } from '@pipit/contract';
import { SettingToggle } from '../../../components/setting-toggle.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { Spinner } from '../../../components/states.tsx';
import { m, t } from '../../../i18n/i18n.ts';
import { PushBlocked, pushSupported, useDevicePush, usePushKind, usePushState } from '../api/push.ts';

const KINDS: Record<PushKind, { label: string; help: string }> = {
  reply: { label: m('Replies'), help: m('Someone replied to one of your posts.') },
  mention: { label: m('Mentions'), help: m('Someone mentioned you in a post.') },
  follow: { label: m('New followers'), help: m('Someone followed you.') },
  like: { label: m('Likes'), help: m('Someone liked one of your posts.') },
  repost: { label: m('Reposts'), help: m('Someone reposted one of your posts.') },
};

function KindToggle({ kind, state }: { kind: PushKind; state: PushState }) {
  const save = usePushKind(kind, state);
  const label = t(KINDS[kind].label);
  const help = t(KINDS[kind].help);
  return (
    <SettingToggle
      id={`push-${kind}`}
      label={label}
      help={help}
      saved={state.subscription?.kinds.includes(kind) ?? false}
      save={save}
      said={(on) =>
        on ? t('{label}: notified on this device', { label }) : t('{label}: not notified on this device', { label })
      }
    />
  );
}

/**
 * "Notifications on this device": Web Push for this browser. The browser asks for permission only when
 * the member turns it on here; each kind is a choice; off unsubscribes. Kept for this sign-in: signing
 * out ends it.
 */
export function DeviceNotifications() {
  const supported = pushSupported();
  const state = usePushState();
  const device = useDevicePush([...PUSH_KINDS]);
  const blocked = supported && (Notification.permission === 'denied' || device.error instanceof PushBlocked);
  return (
    <SettingsSection id="device-notifications-heading" title={t('Notifications on this device')} padded>
      {!supported ? (
        <p className="text-[15px] text-muted">{t('This browser cannot show notifications from Pipit.')}</p>
      ) : state.isPending ? (
        <Spinner label={t('Loading notifications on this device')} />
      ) : state.isError ? (
        <p className="text-[15px] text-muted">{t('Could not load this setting. Reload the page to try again.')}</p>
      ) : (
        <>
          <SettingToggle
            id="push-device"
            label={t('Show notifications on this device')}
            help={t('Replies, mentions, new followers, likes and reposts appear here even when Pipit is closed.')}
            saved={state.data.subscription !== null}
            save={device}
            said={(on) => (on ? t('Notifications are on for this device') : t('Notifications are off for this device'))}
          />
          {blocked && (
            <p role="status" className="mt-2 text-[15px] text-muted">
              {t(
                'Notifications are blocked for Pipit in this browser. Allow them in the browser’s site settings, then turn this on.',
              )}
            </p>
          )}
          {state.data.subscription && (
            <fieldset className="mt-3 border-l border-line pl-4">
              <legend className="sr-only">{t('Notify me on this device about')}</legend>
              {PUSH_KINDS.map((kind) => (
                <KindToggle key={kind} kind={kind} state={state.data} />
              ))}
            </fieldset>
          )}
        </>
      )}
    </SettingsSection>
  );
}
