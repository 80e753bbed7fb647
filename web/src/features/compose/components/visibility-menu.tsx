import type { QuotePolicy, Visibility } from '@pipit/contract';
import { Check, ChevronDown } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { VisibilityIcon } from '../../../components/visibility-badge.tsx';
import { t } from '../../../i18n/i18n.ts';
import { cn } from '../../../lib/cn.ts';
import { menuKeyHandler } from '../../../lib/menu-keys.ts';
import { QUOTE_WORDS, quotePolicyOptions, VISIBILITY_WORDS, visibilityOptions } from '../../../lib/visibility.ts';

interface VisibilityMenuProps {
  visibility: Visibility;
  quotePolicy: QuotePolicy;
  /** A reply's parent: nothing wider is offered. */
  parent?: Visibility;
  onVisibility: (visibility: Visibility) => void;
  onQuotePolicy: (policy: QuotePolicy) => void;
  disabled?: boolean;
}

const ITEM = '[role="menuitemradio"]';
const GAP = 4;
const EDGE = 8;

/**
 * The composer's "who can see this" button: a menu of the four visibilities, each with its meaning
 * in words, and under them who may quote. In a reply those wider than the parent are there but
 * disabled, with the reason. The menu is placed in the viewport (fixed), below the button or above
 * it when there is no room, so a modal's scrolling box does not clip it. Arrow keys move, Escape or a
 * click elsewhere closes it and focus returns to the button.
 */
export function VisibilityMenu({
  visibility,
  quotePolicy,
  parent,
  onVisibility,
  onQuotePolicy,
  disabled,
}: VisibilityMenuProps) {
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<{ top: number; left: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const words = VISIBILITY_WORDS[visibility];

  useLayoutEffect(() => {
    if (!open) {
      setPlace(null);
      return;
    }
    const at = button.current?.getBoundingClientRect();
    const box = menu.current?.getBoundingClientRect();
    if (!at || !box) return;
    const below = at.bottom + GAP + box.height <= window.innerHeight - EDGE;
    setPlace({
      top: below ? at.bottom + GAP : Math.max(EDGE, at.top - GAP - box.height),
      left: Math.max(EDGE, Math.min(at.left, window.innerWidth - box.width - EDGE)),
    });
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const items = [...(menu.current?.querySelectorAll<HTMLElement>(ITEM) ?? [])];
    (items.find((item) => item.getAttribute('aria-checked') === 'true') ?? items[0])?.focus();
    const outside = (target: EventTarget | null) =>
      !menu.current?.contains(target as Node) && !button.current?.contains(target as Node);
    const onPointerDown = (event: PointerEvent) => outside(event.target) && setOpen(false);
    // Placed in the viewport, it would stay behind while the page or a modal scrolls.
    const onScroll = (event: Event) => outside(event.target) && setOpen(false);
    const onResize = () => setOpen(false);
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', onResize);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', onResize);
    };
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onKeyDown = menuKeyHandler(menu, ITEM, close);

  const item = 'flex w-full items-start gap-3 px-4 text-start focus:bg-fg/5 focus:outline-none';
  const enabled = 'hover:bg-fg/5';
  const refusedItem = 'cursor-not-allowed opacity-50';

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label={t('Visibility: {label}', { label: words.label })}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        title={words.mine}
        disabled={disabled}
        onClick={() => setOpen((was) => !was)}
        className="flex h-8 min-w-0 items-center gap-1 rounded-full border border-line-strong px-2.5 text-[13px] font-bold text-accent hover:bg-accent/10 disabled:cursor-not-allowed disabled:opacity-50"
      >
        <VisibilityIcon visibility={visibility} />
        <span className="truncate">{words.label}</span>
        <ChevronDown aria-hidden="true" className="size-4 shrink-0" />
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={t('Who can see and quote this')}
          onKeyDown={onKeyDown}
          // Measured unseen first (still focusable, unlike visibility: hidden), then placed.
          style={place ?? { top: 0, left: 0, opacity: 0 }}
          className="fixed z-[60] w-[min(22rem,calc(100vw-1rem))] overflow-hidden rounded-xl border border-line bg-bg py-1 shadow-[0_0_15px] shadow-fg/20"
        >
          {/* biome-ignore lint/a11y/useSemanticElements: a group of menu items (ARIA menu), not form fields */}
          <div role="group" aria-labelledby={`${menuId}-see`}>
            <p id={`${menuId}-see`} className="px-4 pt-2 pb-1 text-[13px] font-bold text-muted">
              {t('Who can see this')}
            </p>
            {visibilityOptions(parent).map((option) => {
              const chosen = option.value === visibility;
              const meaning = VISIBILITY_WORDS[option.value];
              return (
                <button
                  key={option.value}
                  type="button"
                  role="menuitemradio"
                  aria-checked={chosen}
                  aria-disabled={option.refused ? true : undefined}
                  aria-labelledby={`${menuId}-${option.value}-name`}
                  aria-describedby={`${menuId}-${option.value}`}
                  tabIndex={-1}
                  onClick={() => {
                    if (option.refused) return;
                    onVisibility(option.value);
                    close();
                  }}
                  className={cn(item, 'py-2.5', option.refused ? 'cursor-not-allowed' : enabled)}
                >
                  <VisibilityIcon
                    visibility={option.value}
                    className={cn('mt-0.5 size-5 text-fg', option.refused && 'opacity-50')}
                  />
                  <span className="min-w-0 flex-1">
                    {/* Refused: the name is dimmed, the reason under it stays readable. */}
                    <span
                      id={`${menuId}-${option.value}-name`}
                      className={cn('block text-[15px] font-bold text-fg', option.refused && 'opacity-50')}
                    >
                      {meaning.label}
                    </span>
                    <span id={`${menuId}-${option.value}`} className="block text-[13px] leading-4 text-muted">
                      {option.refused ?? meaning.mine}
                    </span>
                  </span>
                  {chosen && <Check aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent" />}
                </button>
              );
            })}
          </div>
          <hr className="my-1 border-line" />
          {/* biome-ignore lint/a11y/useSemanticElements: a group of menu items (ARIA menu), not form fields */}
          <div role="group" aria-labelledby={`${menuId}-quote`}>
            <p id={`${menuId}-quote`} className="px-4 pt-1 pb-1 text-[13px] font-bold text-muted">
              {t('Who can quote')}
            </p>
            {quotePolicyOptions(visibility).map((option) => {
              const chosen = option.value === quotePolicy;
              return (
                <button
                  key={option.value}
                  type="button"
                  role="menuitemradio"
                  aria-checked={chosen}
                  aria-disabled={option.refused ? true : undefined}
                  title={option.refused ?? undefined}
                  tabIndex={-1}
                  onClick={() => {
                    if (option.refused) return;
                    onQuotePolicy(option.value);
                    close();
                  }}
                  className={cn(item, 'items-center py-2 text-[15px]', option.refused ? refusedItem : enabled)}
                >
                  <span className="flex-1">{QUOTE_WORDS[option.value]}</span>
                  {chosen && <Check aria-hidden="true" className="size-5 shrink-0 text-accent" />}
                </button>
              );
            })}
          </div>
        </div>
      )}
    </>
  );
}
