import { PUSH_KINDS, type PushKind, type PushState } from '@pipit/contract';
import { SettingToggle } from '../../../components/setting-toggle.tsx';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { Spinner } from '../../../components/states.tsx';
import { PushBlocked, pushSupported, useDevicePush, usePushKind, usePushState } from '../api/push.ts';

const KINDS: Record<PushKind, { label: string; help: string }> = {
  reply: { label: 'Replies', help: 'Someone replied to one of your posts.' },
  mention: { label: 'Mentions', help: 'Someone mentioned you in a post.' },
  follow: { label: 'New followers', help: 'Someone followed you.' },
  like: { label: 'Likes', help: 'Someone liked one of your posts.' },
  repost: { label: 'Reposts', help: 'Someone reposted one of your posts.' },
};

function KindToggle({ kind, state }: { kind: PushKind; state: PushState }) {
  const save = usePushKind(kind, state);
  const { label, help } = KINDS[kind];
  return (
    <SettingToggle
      id={`push-${kind}`}
      label={label}
      help={help}
      saved={state.subscription?.kinds.includes(kind) ?? false}
      save={save}
      said={(on) => (on ? `${label}: notified on this device` : `${label}: not notified on this device`)}
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
    <SettingsSection id="device-notifications-heading" title="Notifications on this device" padded>
      {!supported ? (
        <p className="text-[15px] text-muted">This browser cannot show notifications from Pipit.</p>
      ) : state.isPending ? (
        <Spinner label="Loading notifications on this device" />
      ) : state.isError ? (
        <p className="text-[15px] text-muted">Could not load this setting. Reload the page to try again.</p>
      ) : (
        <>
          <SettingToggle
            id="push-device"
            label="Show notifications on this device"
            help="Replies, mentions, new followers, likes and reposts appear here even when Pipit is closed."
            saved={state.data.subscription !== null}
            save={device}
            said={(on) => (on ? 'Notifications are on for this device' : 'Notifications are off for this device')}
          />
          {blocked && (
            <p role="status" className="mt-2 text-[15px] text-muted">
              Notifications are blocked for Pipit in this browser. Allow them in the browser’s site settings, then turn
              this on.
            </p>
          )}
          {state.data.subscription && (
            <fieldset className="mt-3 border-l border-line pl-4">
              <legend className="sr-only">Notify me on this device about</legend>
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
