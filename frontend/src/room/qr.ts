// The join link as a QR code, drawn as one SVG path: dark modules as unit squares on a
// grid with a quiet zone, so the projector shows it crisp at any size.
import { create } from 'qrcode';

export interface QrPicture {
  /** Width and height in modules, quiet zone included (the SVG viewBox). */
  size: number;
  /** The dark modules: one `M x y h w v 1 h -w z` per run of a row. */
  path: string;
}

/** The QR code of `text`; `quiet`: the blank border a reader needs, in modules (4 by the standard). */
export function qrPicture(text: string, quiet = 4): QrPicture {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const runs: string[] = [];
  for (let row = 0; row < n; row++) {
    let col = 0;
    while (col < n) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < n && modules.get(row, col)) col++;
      runs.push(`M${start + quiet} ${row + quiet}h${col - start}v1h${start - col}z`);
    }
  }
  return { size: n + 2 * quiet, path: runs.join('') };
}
