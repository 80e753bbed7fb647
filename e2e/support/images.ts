/** Test images made on the fly with sharp, and a way to read what colour the browser painted. */
import sharp from 'sharp';

export type Rgb = [number, number, number];

/** A solid square PNG (or JPEG) of the given colour. */
export async function solidImage(color: Rgb, size = 600, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const image = sharp({
    create: { width: size, height: size, channels: 3, background: { r: color[0], g: color[1], b: color[2] } },
  });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
}

/** The colour at the centre of a screenshot. */
export async function centreColour(png: Buffer): Promise<Rgb> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const x = Math.floor(info.width / 2);
  const y = Math.floor(info.height / 2);
  const i = (y * info.width + x) * info.channels;
  return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
}

export function closeTo(a: Rgb, b: Rgb, tolerance = 24): boolean {
  return a.every((v, i) => Math.abs(v - (b[i] ?? 0)) <= tolerance);
}

/** A friendly abstract picture (gradient and shapes, no text) for demo avatars and covers. */
export async function demoPicture(width: number, height: number, from: string, to: string): Promise<Buffer> {
  const r = Math.min(width, height);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width * 0.5}" cy="${height * 0.42}" r="${r * 0.2}" fill="rgba(255,255,255,0.85)"/>
    <ellipse cx="${width * 0.5}" cy="${height * 1.02}" rx="${r * 0.36}" ry="${r * 0.34}" fill="rgba(255,255,255,0.85)"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A wide landscape for covers: sky gradient with hills. */
export async function demoCover(width = 1500, height = 500): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0c4a6e"/><stop offset="1" stop-color="#38bdf8"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#s)"/>
    <circle cx="${width * 0.8}" cy="${height * 0.3}" r="${height * 0.12}" fill="#fde68a"/>
    <path d="M0 ${height * 0.75} Q ${width * 0.25} ${height * 0.45} ${width * 0.5} ${height * 0.7} T ${width} ${height * 0.6} V ${height} H 0 Z" fill="#065f46"/>
    <path d="M0 ${height * 0.9} Q ${width * 0.3} ${height * 0.65} ${width * 0.6} ${height * 0.88} T ${width} ${height * 0.8} V ${height} H 0 Z" fill="#047857"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

export const dataUrl = (buffer: Buffer, type = 'image/png') => `data:${type};base64,${buffer.toString('base64')}`;
