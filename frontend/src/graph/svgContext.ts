// A recording stand-in for CanvasRenderingContext2D that writes SVG: the Renderer
// draws the same scene into it as into the canvas, so the SVG export is exactly the
// picture on screen. Implements the subset of the canvas API the Renderer uses.

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (x: number) => (Math.round(x * 100) / 100).toString();

export class SvgContext {
  fillStyle = '#000';
  strokeStyle = '#000';
  lineWidth = 1;
  globalAlpha = 1;
  font = '10px sans-serif';
  textAlign: CanvasTextAlign = 'start';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  private m = [1, 0, 0, 1, 0, 0];
  private dash: number[] = [];
  private d = '';
  private readonly parts: string[] = [];
  private readonly measurer: CanvasRenderingContext2D | null;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.measurer = typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null;
  }

  private scale(): number {
    return Math.hypot(this.m[0]!, this.m[1]!);
  }
  private pt(x: number, y: number): string {
    const [a, b, c, d, e, f] = this.m as [number, number, number, number, number, number];
    return `${n(a * x + c * y + e)} ${n(b * x + d * y + f)}`;
  }
  private alpha(): string {
    return this.globalAlpha < 1 ? ` opacity="${n(this.globalAlpha)}"` : '';
  }

  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void {
    this.m = [a, b, c, d, e, f];
  }
  setLineDash(segments: number[]): void {
    this.dash = segments.slice();
  }
  beginPath(): void {
    this.d = '';
  }
  closePath(): void {
    this.d += 'Z';
  }
  moveTo(x: number, y: number): void {
    this.d += `M${this.pt(x, y)}`;
  }
  lineTo(x: number, y: number): void {
    this.d += `L${this.pt(x, y)}`;
  }
  quadraticCurveTo(cx: number, cy: number, x: number, y: number): void {
    this.d += `Q${this.pt(cx, cy)} ${this.pt(x, y)}`;
  }
  arc(x: number, y: number, r: number): void {
    const rs = n(r * this.scale());
    this.d += `M${this.pt(x + r, y)}A${rs} ${rs} 0 1 1 ${this.pt(x - r, y)}A${rs} ${rs} 0 1 1 ${this.pt(x + r, y)}`;
  }
  roundRect(x: number, y: number, w: number, h: number, radius: number | number[] = 0): void {
    const r0 = Array.isArray(radius) ? (radius[0] ?? 0) : radius;
    const r = Math.max(0, Math.min(r0, w / 2, h / 2));
    const rs = n(r * this.scale());
    const arc = (ex: number, ey: number) => `A${rs} ${rs} 0 0 1 ${this.pt(ex, ey)}`;
    this.d +=
      `M${this.pt(x + r, y)}L${this.pt(x + w - r, y)}${arc(x + w, y + r)}L${this.pt(x + w, y + h - r)}${arc(x + w - r, y + h)}` +
      `L${this.pt(x + r, y + h)}${arc(x, y + h - r)}L${this.pt(x, y + r)}${arc(x + r, y)}Z`;
  }
  fill(): void {
    if (this.d) this.parts.push(`<path d="${this.d}" fill="${esc(this.fillStyle)}"${this.alpha()}/>`);
  }
  stroke(): void {
    if (!this.d) return;
    const s = this.scale();
    const dash = this.dash.length ? ` stroke-dasharray="${this.dash.map((v) => n(v * s)).join(' ')}"` : '';
    this.parts.push(
      `<path d="${this.d}" fill="none" stroke="${esc(this.strokeStyle)}" stroke-width="${n(this.lineWidth * s)}"${dash}${this.alpha()}/>`,
    );
  }
  fillRect(x: number, y: number, w: number, h: number): void {
    const saved = this.d;
    this.d = `M${this.pt(x, y)}L${this.pt(x + w, y)}L${this.pt(x + w, y + h)}L${this.pt(x, y + h)}Z`;
    this.fill();
    this.d = saved;
  }
  measureText(text: string): TextMetrics {
    if (this.measurer) {
      this.measurer.font = this.font;
      return this.measurer.measureText(text);
    }
    const size = Number(/(\d+(?:\.\d+)?)px/.exec(this.font)?.[1] ?? 10);
    return { width: text.length * size * 0.6 } as TextMetrics;
  }
  fillText(text: string, x: number, y: number): void {
    const m = /^(?:(\d{3}|bold|normal)\s+)?(\d+(?:\.\d+)?)px\s+(.*)$/.exec(this.font);
    const weight = m?.[1] ?? '400';
    const size = Number(m?.[2] ?? 10) * this.scale();
    const family = m?.[3] ?? 'sans-serif';
    const anchor = this.textAlign === 'center' ? 'middle' : this.textAlign === 'right' || this.textAlign === 'end' ? 'end' : 'start';
    const baseline = this.textBaseline === 'middle' ? 'central' : this.textBaseline === 'top' ? 'hanging' : 'auto';
    const [px, py] = this.pt(x, y).split(' ');
    this.parts.push(
      `<text x="${px}" y="${py}" font-size="${n(size)}" font-weight="${weight}" font-family="${esc(family)}" text-anchor="${anchor}" dominant-baseline="${baseline}" fill="${esc(this.fillStyle)}"${this.alpha()}>${esc(text)}</text>`,
    );
  }

  /** The SVG document. */
  toString(): string {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}" viewBox="0 0 ${this.width} ${this.height}">\n${this.parts.join('\n')}\n</svg>\n`;
  }
}
