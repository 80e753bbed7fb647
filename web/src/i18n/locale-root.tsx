import { Fragment, type ReactNode, useSyncExternalStore } from 'react';
import { i18n } from './i18n.ts';

const subscribe = (listener: () => void) => i18n.on('change', listener);
const locale = () => i18n.locale;

/**
 * The app under the current language: a new language (chosen in Settings) renders every text again, once,
 * by mounting the tree anew under it (texts are read with `t` during render, memoised rows included). The
 * query cache and the router live above it, so nothing is fetched again.
 */
export function LocaleRoot({ children }: { children: ReactNode }) {
  const current = useSyncExternalStore(subscribe, locale, locale);
  return <Fragment key={current}>{children}</Fragment>;
}
