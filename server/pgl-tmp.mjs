import { PGlite } from '@electric-sql/pglite';

let t = Date.now();
const db = new PGlite();
await db.query('select 1');
console.log('open', Date.now() - t);
t = Date.now();
const dump = await db.dumpDataDir('none');
console.log('dump', Date.now() - t, dump.size);
t = Date.now();
const db2 = new PGlite({ loadDataDir: dump });
await db2.query('select 1');
console.log('load', Date.now() - t);
