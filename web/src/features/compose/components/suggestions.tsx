import { type KeyboardEvent, useId, useState } from 'react';
import { Avatar } from '../../../components/avatar.tsx';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { useSettled } from '../../../lib/use-settled.ts';
import { useSearchHashtags, useSearchPeople } from '../../../state/search.ts';

/** The @name or #tag being typed right before the caret (not inside a word, an e-mail or an entity). */
const MENTION = /(?:^|[^\p{L}\p{N}_@#&/])@([A-Za-z0-9_]{1,30})$/u;
const HASHTAG = /(?:^|[^\p{L}\p{M}\p{N}_@#&/])#([\p{L}\p{N}_][\p{L}\p{M}\p{N}_]{0,99})$/u;

interface Typing {
  sigil: '@' | '#';
  word: string;
  /** Where the sigil is in the text. */
  start: number;
}

export function typingAt(text: string, caret: number): Typing | null {
  const before = text.slice(0, caret);
  const mention = MENTION.exec(before);
  if (mention) return { sigil: '@', word: mention[1] as string, start: caret - (mention[1] as string).length - 1 };
  const tag = HASHTAG.exec(before);
  if (tag) return { sigil: '#', word: tag[1] as string, start: caret - (tag[1] as string).length - 1 };
  return null;
}

interface Option {
  id: string;
  /** What replaces what was typed, sigil included. */
  insert: string;
  node: React.ReactNode;
}

/**
 * @mention and #hashtag suggestions for a text box: people (name or username starting with what
 * follows `@`) and hashtags in use (starting with what follows `#`). The box keeps the focus and the
 * keys (aria-autocomplete with aria-activedescendant): arrows move, Enter or Tab inserts, Escape closes.
 */
export function useSuggestions(text: string, caret: number, replace: (next: string, caret: number) => void) {
  const listId = useId();
  const typing = typingAt(text, caret);
  const key = typing ? `${typing.sigil}${typing.word}` : '';
  const [dismissed, setDismissed] = useState('');
  // The highlighted option, for what is being typed now (a new word starts at the first).
  const [highlight, setHighlight] = useState({ key: '', index: 0 });
  const active = highlight.key === key ? highlight.index : 0;
  const setActive = (next: (index: number) => number) => setHighlight({ key, index: next(active) });

  const word = useSettled(typing?.word ?? '');
  const people = useSearchPeople(typing?.sigil === '@' ? word : '', 5);
  const tags = useSearchHashtags(typing?.sigil === '#' ? word : '');
  const options: Option[] = !typing
    ? []
    : typing.sigil === '@'
      ? (people.data?.items ?? []).map((person) => ({
          id: person.id,
          insert: `@${person.username}`,
          node: (
            <>
              <Avatar user={person} link={false} />
              <span className="min-w-0 leading-5">
                <span className="block truncate font-bold">{person.name}</span>
                <span className="block truncate text-muted">
                  <bdi>@{person.username}</bdi>
                </span>
              </span>
            </>
          ),
        }))
      : (tags.data?.items ?? []).slice(0, 5).map((tag) => ({
          id: tag.tag,
          insert: `#${tag.tag}`,
          node: (
            <span className="min-w-0 leading-5">
              <span className="block truncate font-bold">
                <bdi>#{tag.tag}</bdi>
              </span>
              <span className="block text-[13px] text-muted">
                {t('{count, plural, one {# post} other {# posts}}', { count: tag.posts })}
              </span>
            </span>
          ),
        }));
  const open = Boolean(typing) && options.length > 0 && dismissed !== key;

  const choose = (option: Option) => {
    if (!typing) return;
    const before = text.slice(0, typing.start);
    const after = text.slice(caret).replace(/^[\p{L}\p{M}\p{N}_]*/u, '');
    const inserted = `${option.insert} `;
    replace(`${before}${inserted}${after.replace(/^ /, '')}`, before.length + inserted.length);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const last = options.length - 1;
      setActive((i) => (event.key === 'ArrowDown' ? (i >= last ? 0 : i + 1) : i <= 0 ? last : i - 1));
      return true;
    }
    if ((event.key === 'Enter' && !event.ctrlKey && !event.metaKey) || event.key === 'Tab') {
      const option = options[active];
      if (!option) return false;
      event.preventDefault();
      choose(option);
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      setDismissed(key);
      return true;
    }
    return false;
  };

  const optionId = (i: number) => `${listId}-${i}`;
  // A multi-line text box stays a textbox (the ARIA combobox pattern is for one line): it says it
  // autocompletes from a list and points at the highlighted option.
  const inputProps = {
    'aria-autocomplete': 'list' as const,
    'aria-controls': listId,
    'aria-activedescendant': open ? optionId(active) : undefined,
  };
  const list = (
    <div
      id={listId}
      role="listbox"
      aria-label={typing?.sigil === '#' ? t('Hashtag suggestions') : t('People suggestions')}
      hidden={!open}
      className="absolute inset-x-0 top-full z-40 max-w-sm overflow-hidden rounded-2xl border border-line bg-bg py-1 shadow-lg shadow-fg/10"
    >
      {open &&
        options.map((option, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the text box holds the focus and the keys (aria-activedescendant)
          // biome-ignore lint/a11y/useFocusableInteractive: options of an activedescendant listbox take no focus
          <div
            key={option.id}
            id={optionId(i)}
            role="option"
            aria-selected={active === i}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(option)}
            className={cn('flex cursor-pointer items-center gap-3 px-4 py-2', active === i && 'bg-fg/10')}
          >
            {option.node}
          </div>
        ))}
    </div>
  );
  return { inputProps, onKeyDown, list };
}
