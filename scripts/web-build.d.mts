export declare const ROOT: string;
export declare const WEB_DIST: string;
/** True when web/dist is missing or older than any web or contract source. */
export declare function webBuildIsStale(): boolean;
/** Runs `npm run build -w web` when the build is stale (true when it built); throws when the build fails. */
export declare function buildWebIfStale(): boolean;
