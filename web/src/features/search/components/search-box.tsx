import { SEARCH_MAX } from '@pipit/contract';
import { Search } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { handleOf } from '../../../lib/handle.ts';
import { paths } from '../../../lib/paths.ts';
import { useSettled } from '../../../lib/use-settled.ts';
import { useSearchPeople } from '../../../state/search.ts';

interface SearchBoxProps {
  /** What the box starts with (the Search page's current search). */
  initial?: string;
  autoFocus?: boolean;
  className?: string;
}

/**
 * The field named "Search", with people suggested as one types (an ARIA combobox: arrows move through
 * them, Enter opens the one chosen or searches for what was typed, Escape closes the list).
 */
export function SearchBox({ initial = '', autoFocus = false, className }: SearchBoxProps) {
  const navigate = useNavigate();
  const listId = useId();
  const [text, setText] = useState(initial);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useEffect(() => setText(initial), [initial]);

  const typed = text.trim();
  const settled = useSettled(typed);
  const people = useSearchPeople(settled, 5);
  const suggestions = typed && settled ? (people.data?.items ?? []) : [];
  // The people, then "Search for …" as the last option.
  const options = typed ? [...suggestions.map((p) => paths.user(p.id)), paths.search(typed)] : [];
  const expanded = open && options.length > 0;

  const go = (to: string) => {
    setOpen(false);
    setActive(-1);
    navigate(to);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (options.length === 0) return;
      event.preventDefault();
      setOpen(true);
      const last = options.length - 1;
      setActive((i) => (event.key === 'ArrowDown' ? (i >= last ? 0 : i + 1) : i <= 0 ? last : i - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = expanded && active >= 0 ? options[active] : undefined;
      if (chosen) go(chosen);
      else if (typed) go(paths.search(typed));
    } else if (event.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  return (
    <div className={cn('relative', className)}>
      <div className="flex h-11 items-center gap-3 rounded-full border border-transparent bg-surface px-4 focus-within:border-accent focus-within:bg-bg">
        <Search aria-hidden="true" className="size-[18px] shrink-0 text-muted" />
        <input
          type="search"
          role="combobox"
          aria-label={t('Search')}
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          placeholder={t('Search')}
          maxLength={SEARCH_MAX}
          autoComplete="off"
          // biome-ignore lint/a11y/noAutofocus: the Search page exists to type in it
          autoFocus={autoFocus}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          className="h-full min-w-0 flex-1 bg-transparent text-[15px] outline-none placeholder:text-muted"
        />
      </div>
      <div
        id={listId}
        role="listbox"
        aria-label={t('Search suggestions')}
        hidden={!expanded}
        className="absolute inset-x-0 top-[calc(100%+4px)] z-40 overflow-hidden rounded-2xl border border-line bg-bg py-1 shadow-lg shadow-fg/10"
      >
        {suggestions.map((person, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the input holds the focus and the keys (aria-activedescendant)
          // biome-ignore lint/a11y/useFocusableInteractive: options of an activedescendant listbox take no focus
          <div
            key={person.id}
            id={optionId(i)}
            role="option"
            aria-selected={active === i}
            // Chosen before the input's blur closes the list.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => go(paths.user(person.id))}
            className={cn('flex cursor-pointer items-center gap-3 px-4 py-2', active === i && 'bg-fg/10')}
          >
            <Avatar user={person} link={false} />
            <span className="min-w-0 leading-5">
              <span className="block truncate font-bold">{person.name}</span>
              <span className="block truncate text-muted">
                <bdi>{handleOf(person)}</bdi>
              </span>
            </span>
          </div>
        ))}
        {typed && (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the input holds the focus and the keys (aria-activedescendant)
          // biome-ignore lint/a11y/useFocusableInteractive: options of an activedescendant listbox take no focus
          <div
            id={optionId(suggestions.length)}
            role="option"
            aria-selected={active === suggestions.length}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => go(paths.search(typed))}
            className={cn('cursor-pointer truncate px-4 py-3 text-[15px]', active === suggestions.length && 'bg-fg/10')}
          >
            {t('Search for “{typed}”', { typed })}
          </div>
        )}
      </div>
    </div>
  );
}
