export declare const ROOT: string;
export declare const WEB_DIST: string;
/** The newest modification time under `target` (a file or a directory), 0 when it does not exist. */
export declare function newestMtime(target: string): number;
/** True when web/dist is missing or older than any web or contract source. */
export declare function webBuildIsStale(): boolean;
/** Runs `npm run build -w web` when the build is stale (true when it built); throws when the build fails. */
export declare function buildWebIfStale(): boolean;
