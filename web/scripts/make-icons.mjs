// Draws the app's icons (public/icons/) from public/favicon.svg: the installed app's icons (192 and
// 512 px), a maskable one (the bird inside the safe zone, the background to every edge), the iOS home
// screen icon and the notifications' monochrome badge. Run after changing the favicon, and commit the
// PNGs: node web/scripts/make-icons.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const root = path.join(import.meta.dirname, '..');
const favicon = readFileSync(path.join(root, 'public/favicon.svg'), 'utf8');
/** The app's background (index.html's dark theme-color, the manifest's background_color). */
const BACKGROUND = '#000000';

/** The bird alone, `scale` of a `size` square, in `colour`. */
function bird(size, scale, colour) {
  const inner = Math.round(size * scale);
  const svg = favicon
    .replace(/width="\d+"/, `width="${inner}"`)
    .replace(/height="\d+"/, `height="${inner}"`)
    .replace(/stroke="#[0-9a-f]+"/i, `stroke="${colour}"`);
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function icon(file, size, scale, { background = BACKGROUND, colour = '#1d9bf0' } = {}) {
  const picture = await bird(size, scale, colour);
  const canvas = sharp({
    create: { width: size, height: size, channels: 4, background: background ?? { r: 0, g: 0, b: 0, alpha: 0 } },
  });
  await canvas
    .composite([{ input: picture, gravity: 'centre' }])
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(root, 'public/icons', file));
  console.log(`wrote public/icons/${file}`);
}

await icon('icon-192.png', 192, 0.7);
await icon('icon-512.png', 512, 0.7);
// Maskable: launchers crop to a circle or a squircle within the middle 80%; the bird stays within 60%.
await icon('icon-maskable-512.png', 512, 0.56);
await icon('apple-touch-icon.png', 180, 0.7);
// The badge Android shows in the status bar: white on transparent (only its alpha is used).
await icon('badge-96.png', 96, 0.8, { background: null, colour: '#ffffff' });
