import { Link } from 'react-router';
import { SettingsSection } from '../../../components/settings-section.tsx';
import { paths } from '../../../lib/paths.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useApproveFollowers } from '../api/settings.ts';

/**
 * "Privacy": Approve followers (a locked account). On: following the member sends a request they
 * approve or reject on the Follow requests page. Off again: everyone waiting is approved.
 */
export function Privacy({ locked }: { locked: boolean }) {
  const save = useApproveFollowers();
  // While the change is sent the box shows what was asked; a failure puts the saved state back.
  const checked = save.isPending && save.variables !== undefined ? save.variables : locked;
  return (
    <SettingsSection id="privacy-heading" title="Privacy" padded>
      <label className="mt-2 flex items-start gap-3 text-[15px]">
        <input
          type="checkbox"
          checked={checked}
          disabled={save.isPending}
          aria-labelledby="approve-followers-label"
          aria-describedby="approve-followers-help"
          onChange={(event) => {
            const next = event.target.checked;
            save.mutate(next, {
              onSuccess: () =>
                notify(next ? 'You now approve new followers' : 'Anyone can follow you now; waiting requests approved'),
              onError: () => notifyError('Could not save. Try again.'),
            });
          }}
          className="mt-0.5 size-4 shrink-0 accent-[var(--color-accent)]"
        />
        <span>
          <span id="approve-followers-label" className="font-bold">
            Approve followers
          </span>
          <span id="approve-followers-help" className="mt-1 block text-muted">
            People ask to follow you, and you approve or reject each request. Turning this off approves everyone who is
            waiting.
          </span>
        </span>
      </label>
      {locked && (
        <p className="mt-3 text-[15px]">
          <Link to={paths.followRequests} className="text-accent hover:underline">
            See follow requests
          </Link>
        </p>
      )}
    </SettingsSection>
  );
}
