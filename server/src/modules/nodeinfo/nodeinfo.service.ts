import serverPackage from '../../../package.json' with { type: 'json' };
import type { Database } from '../../db/client.ts';
import { EventCache } from '../../lib/event-cache.ts';
import type { EventBus } from '../../lib/events.ts';
import { countUsage, type UsageCounts } from './nodeinfo.repository.ts';

/** The NodeInfo schema versions served (http://nodeinfo.diaspora.software/ns/schema/<version>). */
export const NODEINFO_VERSIONS = ['2.0', '2.1'] as const;
export type NodeInfoVersion = (typeof NODEINFO_VERSIONS)[number];

export const nodeInfoSchema = (version: NodeInfoVersion) => `http://nodeinfo.diaspora.software/ns/schema/${version}`;

/** A NodeInfo 2.0 or 2.1 document (2.1 adds the software's repository and homepage). */
export interface NodeInfo {
  version: NodeInfoVersion;
  software: { name: string; version: string; repository?: string; homepage?: string };
  protocols: string[];
  services: { inbound: string[]; outbound: string[] };
  openRegistrations: boolean;
  usage: { users: { total: number; activeMonth: number; activeHalfyear: number }; localPosts: number };
  metadata: { nodeName: string };
}

const SOFTWARE = {
  name: 'pipit',
  // The server's package.json (the build inlines it), as the Mastodon instance answer says it.
  version: serverPackage.version,
  repository: 'https://github.com/pipit-social/pipit',
  homepage: 'https://github.com/pipit-social/pipit',
};

/**
 * The counts read the half-year of posts: kept a few minutes, as crawlers and apps ask often. A
 * suspension drops them (the person leaves the counts at once); a new account or post waits.
 */
const USAGE = { max: 1, ttlMs: 5 * 60_000 };

/** The server's description for other servers and apps: NodeInfo (nodeinfo.diaspora.software). */
export class NodeInfoService {
  private readonly usage: EventCache<'usage', UsageCounts>;
  /** The read in flight, shared by the requests that find the cache empty at once. */
  private reading: Promise<UsageCounts> | null = null;

  constructor(
    private readonly db: Database,
    events: EventBus,
    /** ['activitypub'] when federation is on (config.federation), else none. */
    private readonly protocols: string[] = [],
  ) {
    this.usage = new EventCache(events, USAGE);
    events.subscribe((event) => {
      if (event.type === 'user.suspended') this.usage.drop('usage');
    });
  }

  async document(version: NodeInfoVersion, nodeName: string): Promise<NodeInfo> {
    const usage = await this.counts();
    const { repository, homepage, ...software } = SOFTWARE;
    return {
      version,
      software: version === '2.0' ? software : { ...software, repository, homepage },
      // ActivityPub when federation is on; none when off (nothing here then speaks to other servers).
      protocols: this.protocols,
      services: { inbound: [], outbound: [] },
      openRegistrations: true,
      usage: {
        users: { total: usage.users, activeMonth: usage.activeMonth, activeHalfyear: usage.activeHalfyear },
        localPosts: usage.localPosts,
      },
      metadata: { nodeName },
    };
  }

  private async counts(): Promise<UsageCounts> {
    const kept = this.usage.get('usage');
    if (kept) return kept;
    if (!this.reading) {
      const ticket = this.usage.ticket();
      this.reading = countUsage(this.db)
        .then((counts) => {
          this.usage.set('usage', counts, ticket);
          return counts;
        })
        .finally(() => {
          this.reading = null;
        });
    }
    return this.reading;
  }
}
