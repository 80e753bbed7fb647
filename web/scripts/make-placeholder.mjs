// One-off: draws public/images/placeholder.png, the avatar shown for people without a picture
// (a neutral silhouette, 256 px so it stays sharp at 128 px on 2x screens).
// Run: node web/scripts/make-placeholder.mjs
import path from 'node:path';
import sharp from 'sharp';

const size = 256;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 256 256">
  <rect width="256" height="256" fill="#333639"/>
  <circle cx="128" cy="100" r="46" fill="#8b98a5"/>
  <path d="M36 256c4-58 44-94 92-94s88 36 92 94z" fill="#8b98a5"/>
</svg>`;

const out = path.join(import.meta.dirname, '../public/images/placeholder.png');
await sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toFile(out);
console.log(`wrote ${out}`);
