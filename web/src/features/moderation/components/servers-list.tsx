import { DOMAIN_BLOCK_REASON_MAX, type DomainBlock } from '@pipit/contract';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { EmptyState, ErrorState, Spinner } from '../../../components/states.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { t } from '../../../i18n/i18n.ts';
import { fieldErrorsOf, formProblem } from '../../../lib/field-errors.ts';
import { handleOf } from '../../../lib/handle.ts';
import { notify, notifyError } from '../../../lib/toast.tsx';
import { useDomainBlock, useDomainBlocks } from '../api/moderation.ts';

/**
 * Blocked servers: everything of a server cut off — what it sends is dropped, nobody there is looked up,
 * its accounts known here are suspended until the block is lifted. Moderators see the list; admins block a
 * server (after a confirmation saying what it does) and lift a block.
 */
export function ServersList({ admin }: { admin: boolean }) {
  const query = useDomainBlocks();
  const change = useDomainBlock();
  const [domain, setDomain] = useState('');
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const errors = fieldErrorsOf(change.error, ['domain', 'reason'] as const);
  const [missing, setMissing] = useState(false);

  const ask = (event: FormEvent) => {
    event.preventDefault();
    if (!domain.trim()) {
      setMissing(true);
      return;
    }
    setConfirming(true);
  };
  const block = () =>
    change.mutate(
      { block: { domain, reason } },
      {
        onSuccess: (blocked) => {
          notify(t('Blocked {domain}', { domain: blocked?.domain ?? domain.trim().toLowerCase() }));
          setDomain('');
          setReason('');
          setConfirming(false);
        },
        onError: (error) => {
          setConfirming(false);
          const problem = formProblem(error, t('Could not block the server. Try again.'));
          if (problem) notifyError(problem);
        },
      },
    );

  return (
    <>
      {admin && (
        <form onSubmit={ask} noValidate className="flex flex-col gap-3 border-b border-line px-4 py-4">
          <TextField
            label={t('Server to block')}
            hint={t('Its name, like social.example')}
            value={domain}
            onChange={(event) => {
              setDomain(event.target.value);
              setMissing(false);
            }}
            error={missing ? t('Enter a server’s name.') : errors.domain}
            autoComplete="off"
            spellCheck={false}
          />
          <TextField
            label={t('Reason (optional, for moderators)')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            maxLength={DOMAIN_BLOCK_REASON_MAX}
            error={errors.reason}
            autoComplete="off"
          />
          <Button type="submit" variant="danger" className="self-start" disabled={change.isPending}>
            {t('Block server')}
          </Button>
        </form>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('Block {domain}?', { domain: domain.trim().toLowerCase() })}
          confirm={t('Block')}
          variant="danger"
          busy={change.isPending}
          onConfirm={block}
          onCancel={() => setConfirming(false)}
        >
          {t(
            'Nothing it sends will be taken in and nobody there can be followed. Its accounts known here are suspended until you unblock it.',
          )}
        </ConfirmDialog>
      )}
      {query.isPending ? (
        <Spinner label={t('Loading {noun}', { noun: t('blocked servers') })} />
      ) : query.isError ? (
        <ErrorState
          message={t('Couldn’t load the {noun}.', { noun: t('blocked servers') })}
          onRetry={() => query.refetch()}
        />
      ) : query.data.items.length === 0 ? (
        <EmptyState title={t('No blocked servers')}>
          {t('A server an admin blocks is listed here, with why and by whom.')}
        </EmptyState>
      ) : (
        <ul aria-label={t('Blocked servers')}>
          {query.data.items.map((block) => (
            <ServerRow
              key={block.domain}
              block={block}
              admin={admin}
              busy={change.isPending}
              onLift={() =>
                change.mutate(
                  { lift: block.domain },
                  {
                    onSuccess: () => notify(t('Unblocked {domain}', { domain: block.domain })),
                    onError: () => notifyError(t('Could not unblock the server. Try again.')),
                  },
                )
              }
            />
          ))}
        </ul>
      )}
    </>
  );
}

function ServerRow({
  block,
  admin,
  busy,
  onLift,
}: {
  block: DomainBlock;
  admin: boolean;
  busy: boolean;
  onLift: () => void;
}) {
  return (
    <li className="flex items-start gap-3 border-b border-line px-4 py-3">
      <div className="min-w-0 flex-1">
        <p className="truncate font-bold">
          <bdi>{block.domain}</bdi>
        </p>
        {block.reason && <p className="text-[15px] [overflow-wrap:anywhere]">{block.reason}</p>}
        <p className="text-sm text-muted">
          {t('{count, plural, one {# account suspended} other {# accounts suspended}}', { count: block.accounts })}
          {' · '}
          {block.createdBy ? t('by {who}', { who: handleOf(block.createdBy) }) : t('by a deleted account')}
          {' · '}
          <RelativeTime iso={block.createdAt} />
        </p>
      </div>
      {admin && (
        <Button variant="secondary" size="sm" disabled={busy} onClick={onLift}>
          {t('Unblock')}
        </Button>
      )}
    </li>
  );
}
