import { SettingsSection } from '../../../components/settings-section.tsx';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useExpandSpoilers } from '../api/settings.ts';

/**
 * "Reading": Always expand posts with content warnings. On, a post's text and pictures show at once
 * under its warning ("Show less" still closes one); off, each waits for "Show more". Kept with the
 * account (Mastodon apps read it as reading:expand:spoilers).
 */
export function Reading({ expandSpoilers }: { expandSpoilers: boolean }) {
  const save = useExpandSpoilers();
  // While the change is sent the box shows what was asked; a failure puts the saved state back.
  const checked = save.isPending && save.variables !== undefined ? save.variables : expandSpoilers;
  return (
    <SettingsSection id="reading-heading" title="Reading" padded>
      <label className="mt-2 flex items-start gap-3 text-[15px]">
        <input
          type="checkbox"
          checked={checked}
          disabled={save.isPending}
          aria-labelledby="expand-spoilers-label"
          aria-describedby="expand-spoilers-help"
          onChange={(event) => {
            const next = event.target.checked;
            save.mutate(next, {
              onSuccess: () =>
                notify(next ? 'Posts with content warnings now open by themselves' : 'Content warnings stay closed'),
              onError: () => notifyError('Could not save. Try again.'),
            });
          }}
          className="mt-0.5 size-4 shrink-0 accent-[var(--color-accent)]"
        />
        <span>
          <span id="expand-spoilers-label" className="font-bold">
            Always expand posts with content warnings
          </span>
          <span id="expand-spoilers-help" className="mt-1 block text-muted">
            Show the text and pictures of posts with a content warning without “Show more”.
          </span>
        </span>
      </label>
    </SettingsSection>
  );
}
