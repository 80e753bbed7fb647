import type { Config } from '../../config.ts';
import type { MastodonPresenter } from './presenter.ts';

/** What every Mastodon routes file is registered with. */
export interface MastodonContext {
  config: Config;
  present: MastodonPresenter;
}
