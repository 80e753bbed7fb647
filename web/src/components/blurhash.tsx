import { decode } from 'blurhash';
import { useEffect, useRef } from 'react';

/** Side of the decoded placeholder; the browser scales it up smoothly (it is a blur anyway). */
const SIDE = 32;

/** Paints a blurhash (the image's colours, blurred) while the image itself loads. */
export function Blurhash({ hash, className }: { hash: string; className?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvasRef.current?.getContext('2d');
    if (!context) return;
    try {
      const pixels = decode(hash, SIDE, SIDE);
      const image = context.createImageData(SIDE, SIDE);
      image.data.set(pixels);
      context.putImageData(image, 0, 0);
    } catch {
      // A malformed hash leaves the neutral background.
    }
  }, [hash]);
  return <canvas ref={canvasRef} width={SIDE} height={SIDE} className={className} />;
}
